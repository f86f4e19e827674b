#if canImport(Glibc)
import Glibc
#endif

/// Batteries and AC adapters under `<sysRoot>/class/power_supply`, summed into one ``BatteryStatus``.
///
/// The directory is kept open and listed again on every update (it has a
/// handful of entries; hotplugged batteries appear at the next update). Each
/// entry's files are opened relative to it with `openat(2)`, read into the
/// shared buffer and closed: sysfs attributes are read once per open.
/// Peripheral batteries (`scope` = `Device`: a wireless mouse, a keyboard) are
/// not counted; neither is a battery whose `present` is `0`.
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
            switch supplyType(root, buffer) {
            case .mains:
                if value("online", root, buffer) == 1 { acOnline = true }
            case .battery:
                if let battery = readBattery(root, buffer) { aggregate.add(battery) }
            case .other:
                break
            }
        }
        var status = aggregate.status
        status.acOnline = acOnline
        return status
    }

    private enum SupplyType { case battery, mains, other }

    private func supplyType(_ root: FileDescriptor, _ buffer: ReadBuffer) -> SupplyType {
        guard let type = line("type", root, buffer) else { return .other }
        if bytesEqual(type, "Battery") { return .battery }
        if bytesEqual(type, "Mains") { return .mains }
        return .other
    }

    /// One battery's readings, or nil if it is absent or belongs to a peripheral.
    private func readBattery(_ root: FileDescriptor, _ buffer: ReadBuffer) -> BatteryReading? {
        if value("present", root, buffer) == 0 { return nil }
        if let scope = line("scope", root, buffer), bytesEqual(scope, "Device") { return nil }

        var b = BatteryReading()
        if let status = line("status", root, buffer) { b.state = batteryState(status) }
        b.capacity = value("capacity", root, buffer).map { UInt64(max($0, 0)) }

        let voltageNow = positive(value("voltage_now", root, buffer))
        let voltageDesign = positive(value("voltage_min_design", root, buffer))
        if let now = value("energy_now", root, buffer) {
            b.energyNow = UInt64(max(now, 0))
            b.energyFull = positive(value("energy_full", root, buffer))
            b.energyFullDesign = positive(value("energy_full_design", root, buffer))
        } else if let now = value("charge_now", root, buffer) {
            // Charge (µAh) times voltage (µV) / 10⁶ = energy (µWh). The design
            // voltage is steadier than the present one, so prefer it.
            if let volts = voltageDesign ?? voltageNow {
                b.energyNow = microwattHours(UInt64(max(now, 0)), volts)
                b.energyFull = positive(value("charge_full", root, buffer)).map { microwattHours($0, volts) }
                b.energyFullDesign = positive(value("charge_full_design", root, buffer)).map { microwattHours($0, volts) }
            }
        } else {
            b.energyFullDesign = positive(value("energy_full_design", root, buffer))
        }

        // Some batteries report a negative current (or power) while discharging.
        if let power = value("power_now", root, buffer) {
            b.powerNow = power.magnitude
        } else if let current = value("current_now", root, buffer), let volts = voltageNow ?? voltageDesign {
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
