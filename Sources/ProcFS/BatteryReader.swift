import CLibc

/// Batteries and AC adapters under `<sysRoot>/class/power_supply`, summed into one ``BatteryStatus``.
///
/// The directory is kept open and listed again on every update (it has a
/// handful of entries; hotplugged batteries appear at the next update). Each
/// supply is read from its `uevent` file, which holds every attribute in one
/// read (`POWER_SUPPLY_ENERGY_NOW=…`), instead of one open per attribute; a
/// supply without a readable `uevent` falls back to the attribute files, and
/// one whose `uevent` lacks `POWER_SUPPLY_TYPE` (older kernels) to its `type` file. Peripheral batteries
/// (`scope` = `Device`: a wireless mouse, a keyboard) are not counted; neither
/// is a battery whose `present` is `0`.
public final class BatteryReader {
    /// Where sysfs is mounted (`/sys`, or a fixture tree).
    public let sysRoot: String
    private let directory: DirectoryStream
    private let path = PathBuffer()

    /// - Parameter sysRoot: where sysfs is mounted (`--sys-root`; a fixture tree in tests).
    public init(sysRoot: String = "/sys") {
        self.sysRoot = sysRoot
        directory = DirectoryStream(joinPath(sysRoot, "class/power_supply"))
    }

    /// Reads every power supply and sums the batteries.
    /// - Parameter buffer: the shared buffer each file is read into.
    /// - Returns: the aggregate; `count` 0 means no battery (a desktop), which is not an error.
    public func update(_ buffer: ReadBuffer) -> BatteryStatus {
        var aggregate = BatteryAggregate()
        var acOnline = false
        directory.forEachEntry { name, _ in
            guard let root = directory.descriptor, path.setDirectory(name) else { return }
            let supply = readSupply(root, buffer)
            switch supply.type {
            case .mains:
                if supply.online == 1 { acOnline = true }
            case .battery:
                if let battery = batteryReading(supply) { aggregate.add(battery) }
            case .other, nil:
                break
            }
        }
        var status = aggregate.status
        status.acOnline = acOnline
        return status
    }

    /// One supply's attributes: from `uevent` in one read, else (or for what it lacks) one file each.
    private func readSupply(_ root: FileDescriptor, _ buffer: ReadBuffer) -> SupplyAttributes {
        var supply = SupplyAttributes()
        if case .success(let bytes) = buffer.fill(relativeTo: root, path.path("uevent")) {
            supply.parseUevent(bytes)
        } else {
            readAttributeFiles(&supply, root, buffer)
        }
        if supply.type == nil, let type = line("type", root, buffer) {
            supply.type = SupplyAttributes.SupplyType(type)
        }
        return supply
    }

    private func readAttributeFiles(_ s: inout SupplyAttributes, _ root: FileDescriptor, _ buffer: ReadBuffer) {
        if let type = line("type", root, buffer) { s.type = SupplyAttributes.SupplyType(type) }
        if s.type == .mains { s.online = value("online", root, buffer); return }
        guard s.type == .battery else { return }
        s.present = value("present", root, buffer)
        if let scope = line("scope", root, buffer) { s.scopeIsDevice = bytesEqual(scope, "Device") }
        if let status = line("status", root, buffer) { s.state = batteryState(status) }
        s.capacity = value("capacity", root, buffer)
        s.energyNow = value("energy_now", root, buffer)
        s.energyFull = value("energy_full", root, buffer)
        s.energyFullDesign = value("energy_full_design", root, buffer)
        if s.energyNow == nil {
            s.chargeNow = value("charge_now", root, buffer)
            s.chargeFull = value("charge_full", root, buffer)
            s.chargeFullDesign = value("charge_full_design", root, buffer)
        }
        s.powerNow = value("power_now", root, buffer)
        if s.powerNow == nil { s.currentNow = value("current_now", root, buffer) }
        // Voltage converts charge to energy and current to power: read it only for those.
        if s.energyNow == nil || s.powerNow == nil {
            s.voltageNow = value("voltage_now", root, buffer)
            s.voltageMinDesign = value("voltage_min_design", root, buffer)
        }
    }

    /// One battery's readings, or nil if it is absent or belongs to a peripheral.
    private func batteryReading(_ s: SupplyAttributes) -> BatteryReading? {
        if s.present == 0 || s.scopeIsDevice { return nil }
        var b = BatteryReading()
        b.state = s.state
        b.capacity = s.capacity.map { UInt64(max($0, 0)) }
        let voltageNow = positive(s.voltageNow)
        let voltageDesign = positive(s.voltageMinDesign)
        if let now = s.energyNow {
            b.energyNow = UInt64(max(now, 0))
            b.energyFull = positive(s.energyFull)
            b.energyFullDesign = positive(s.energyFullDesign)
        } else if let now = s.chargeNow {
            // Charge (µAh) times voltage (µV) / 10⁶ = energy (µWh). The design
            // voltage is steadier than the present one, so prefer it.
            if let volts = voltageDesign ?? voltageNow {
                b.energyNow = microwattHours(UInt64(max(now, 0)), volts)
                b.energyFull = positive(s.chargeFull).map { microwattHours($0, volts) }
                b.energyFullDesign = positive(s.chargeFullDesign).map { microwattHours($0, volts) }
            }
        } else {
            b.energyFullDesign = positive(s.energyFullDesign)
        }
        // Some batteries report a negative current (or power) while discharging.
        if let power = s.powerNow {
            b.powerNow = power.magnitude
        } else if let current = s.currentNow, let volts = voltageNow ?? voltageDesign {
            b.powerNow = microwattHours(current.magnitude, volts)  // µA × µV / 10⁶ = µW
        }
        return b
    }

    /// The first line of `<entry>/<file>` (without its newline), valid until the next read; nil if unreadable.
    private func line(_ file: StaticString, _ root: FileDescriptor, _ buffer: ReadBuffer) -> UnsafeRawBufferPointer? {
        guard case .success(let bytes) = buffer.fill(relativeTo: root, path.path(file)) else { return nil }
        let end = firstIndex(of: 0x0A, in: bytes) ?? bytes.count
        return UnsafeRawBufferPointer(rebasing: bytes[0..<end])
    }

    /// The number in `<entry>/<file>`; nil if unreadable or not a number.
    private func value(_ file: StaticString, _ root: FileDescriptor, _ buffer: ReadBuffer) -> Int64? {
        guard let bytes = line(file, root, buffer) else { return nil }
        var s = ByteScanner(bytes)
        return s.signed()
    }
}

/// The attributes of one power supply that the reader uses; nil where the supply has none.
struct SupplyAttributes {
    enum SupplyType {
        case battery, mains, other
        init(_ text: UnsafeRawBufferPointer) {
            self = bytesEqual(text, "Battery") ? .battery : bytesEqual(text, "Mains") ? .mains : .other
        }
    }
    var type: SupplyType?
    var online: Int64?
    var present: Int64?
    var scopeIsDevice = false
    var state: BatteryStatus.State = .unknown
    var capacity: Int64?
    var energyNow: Int64?, energyFull: Int64?, energyFullDesign: Int64?
    var chargeNow: Int64?, chargeFull: Int64?, chargeFullDesign: Int64?
    var powerNow: Int64?, currentNow: Int64?
    var voltageNow: Int64?, voltageMinDesign: Int64?

    /// The numeric `uevent` keys (after `POWER_SUPPLY_`); ``setNumeric(_:_:)`` fills their fields.
    /// A switch rather than key paths: instantiating key paths at run time brings the
    /// standard library's key-path machinery (three 64 KiB windows of code pages) into
    /// the sampler for thirteen stores.
    static let numericKeys: [StaticString] = [
        "ONLINE", "PRESENT", "CAPACITY",
        "ENERGY_NOW", "ENERGY_FULL", "ENERGY_FULL_DESIGN",
        "CHARGE_NOW", "CHARGE_FULL", "CHARGE_FULL_DESIGN",
        "POWER_NOW", "CURRENT_NOW",
        "VOLTAGE_NOW", "VOLTAGE_MIN_DESIGN",
    ]

    /// Stores the value of `numericKeys[index]`.
    mutating func setNumeric(_ index: Int, _ value: Int64?) {
        switch index {
        case 0: online = value
        case 1: present = value
        case 2: capacity = value
        case 3: energyNow = value
        case 4: energyFull = value
        case 5: energyFullDesign = value
        case 6: chargeNow = value
        case 7: chargeFull = value
        case 8: chargeFullDesign = value
        case 9: powerNow = value
        case 10: currentNow = value
        case 11: voltageNow = value
        default: voltageMinDesign = value
        }
    }

    /// Fills the fields from `uevent` lines (`POWER_SUPPLY_STATUS=Discharging`); unknown keys are skipped.
    mutating func parseUevent(_ bytes: UnsafeRawBufferPointer) {
        var scanner = ByteScanner(bytes)
        while !scanner.isAtEnd {
            guard scanner.consume("POWER_SUPPLY_") else { scanner.skipLine(); continue }
            let keyStart = scanner.position
            while let b = scanner.current, b != 0x3D, b != 0x0A { scanner.position += 1 }
            let key = UnsafeRawBufferPointer(rebasing: bytes[keyStart..<scanner.position])
            guard scanner.consume("=") else { scanner.skipLine(); continue }
            let valueStart = scanner.position
            while let b = scanner.current, b != 0x0A { scanner.position += 1 }
            let text = UnsafeRawBufferPointer(rebasing: bytes[valueStart..<scanner.position])
            if bytesEqual(key, "TYPE") {
                type = SupplyType(text)
            } else if bytesEqual(key, "STATUS") {
                state = batteryState(text)
            } else if bytesEqual(key, "SCOPE") {
                scopeIsDevice = bytesEqual(text, "Device")
            } else {
                var index = 0
                while index < SupplyAttributes.numericKeys.count {
                    if bytesEqual(key, SupplyAttributes.numericKeys[index]) {
                        var number = ByteScanner(text)
                        setNumeric(index, number.signed())
                        break
                    }
                    index += 1
                }
            }
            scanner.skipLine()
        }
    }
}

/// The `status` attribute of a power supply.
func batteryState(_ status: UnsafeRawBufferPointer) -> BatteryStatus.State {
    if bytesEqual(status, "Discharging") { return .discharging }
    if bytesEqual(status, "Charging") { return .charging }
    if bytesEqual(status, "Full") { return .full }
    if bytesEqual(status, "Not charging") { return .notCharging }
    return .unknown
}

private func positive(_ v: Int64?) -> UInt64? {
    guard let v, v > 0 else { return nil }
    return UInt64(v)
}

/// `a` × `b` / 10⁶ without overflow for sysfs-sized values (saturating otherwise).
private func microwattHours(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    guard product.high < 1_000_000 else { return .max }
    return UInt64(1_000_000).dividingFullWidth(product).quotient
}
