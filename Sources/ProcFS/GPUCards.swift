import CLibc

/// What one GPU's driver published at one reading (``GPUCards``, ``NVMLHelperFrame``).
/// A figure the card does not give is left out of ``known`` (the same bits as the
/// snapshot's `GPUFigures.Known`).
public struct GPUReading: Equatable, Sendable {
    public static let busyKnown: UInt16 = 1 << 0, memoryBusyKnown: UInt16 = 1 << 1, vramKnown: UInt16 = 1 << 2
    public static let gttKnown: UInt16 = 1 << 3, temperatureKnown: UInt16 = 1 << 4, powerKnown: UInt16 = 1 << 5
    public static let clockKnown: UInt16 = 1 << 6, fanKnown: UInt16 = 1 << 7, powerLimitKnown: UInt16 = 1 << 8

    /// N of `cardN`, or NVML's index.
    public var index: Int = 0
    public var driver = FixedName()
    /// The product name, else the PCI `vendor:device` pair.
    public var name = FixedName()
    public var known: UInt16 = 0
    /// Busy shares, permyriad.
    public var busy: UInt16 = 0
    public var memoryBusy: UInt16 = 0
    public var vramUsedBytes: UInt64 = 0, vramTotalBytes: UInt64 = 0
    public var gttUsedBytes: UInt64 = 0, gttTotalBytes: UInt64 = 0
    public var milliCelsius: Int32 = 0
    public var milliwatts: UInt32 = 0
    public var clockMHz: UInt32 = 0
    /// RPM (amdgpu), or percent of the top speed (NVML).
    public var fan: UInt32 = 0
    /// The power limit, milliwatts.
    public var powerLimitMilliwatts: UInt32 = 0
    public init() {}
}

/// The GPUs the kernel's DRM drivers describe in sysfs: amdgpu, i915 and xe cards under
/// `<sysRoot>/class/drm/cardN` (NVIDIA's come from NVML, through the helper: ``NVMLHelperFrame``).
///
/// The cards are found once, at `init` (each card's `device/uevent` names its driver and PCI
/// id); each figure's file is opened on its first update and kept open. Which files each
/// driver has:
/// - amdgpu (Documentation/gpu/amdgpu/driver-misc.rst, thermal.rst): `device/gpu_busy_percent`,
///   `device/mem_busy_percent`, `device/mem_info_{vram,gtt}_{used,total}` (bytes), and its
///   hwmon's `temp1_input` (edge), `power1_average` or `power1_input` (µW), `fan1_input` (RPM),
///   `freq1_input` (the shader clock, Hz), `power1_cap` (the power limit, µW). A card the kernel has put to sleep
///   (`device/power/runtime_status` is `suspended`) is shown idle, its files not read: reading
///   them would wake it.
/// - i915: `gt_act_freq_mhz` (the actual clock), busy from the change of the RC6 (idle)
///   residency, `gt/gt0/rc6_residency_ms` (older kernels: `power/rc6_residency_ms`), over
///   the time between two readings; hwmon `power1_input` or the change of `energy1_input` (µJ),
///   `power1_max` (the sustained power limit, PL1, µW; 0 when it is off).
/// - xe: `device/tile0/gt0/freq0/act_freq` and `device/tile0/gt0/gtidle/idle_residency_ms`,
///   hwmon as i915.
public final class GPUCards {
    /// The most cards read.
    public static let maximumCards = 8

    enum Driver { case amdgpu, i915, xe }

    /// One file per figure, opened when first read (absent files stay unavailable, cheaply).
    final class Card {
        let index: Int
        let driver: Driver
        let driverName: FixedName
        let name: FixedName
        let runtimeStatus, busy, memoryBusy, vramUsed, vramTotal, gttUsed, gttTotal: ProcFile?
        let temperature, power, energy, fan, clock, idleResidency, powerLimit: ProcFile?
        /// The last idle residency (ms) and when it was read (monotonic ns); energy (µJ) likewise.
        var lastIdleMs: UInt64 = 0, lastIdleAtNs: UInt64 = 0
        var lastEnergy: UInt64 = 0, lastEnergyAtNs: UInt64 = 0

        init(index: Int, driver: Driver, driverName: FixedName, name: FixedName, card: String, hwmon: String?) {
            self.index = index
            self.driver = driver
            self.driverName = driverName
            self.name = name
            func file(_ relative: String) -> ProcFile { ProcFile(joinPath(card, relative)) }
            func sensor(_ names: String...) -> ProcFile? {
                guard let hwmon else { return nil }
                for n in names where access(cPath(joinPath(hwmon, n)), F_OK) == 0 { return ProcFile(joinPath(hwmon, n)) }
                return nil
            }
            temperature = sensor("temp1_input")
            power = sensor("power1_average", "power1_input")
            energy = sensor("energy1_input")
            fan = sensor("fan1_input")
            powerLimit = sensor("power1_cap", "power1_max")
            switch driver {
            case .amdgpu:
                runtimeStatus = file("device/power/runtime_status")
                busy = file("device/gpu_busy_percent"); memoryBusy = file("device/mem_busy_percent")
                vramUsed = file("device/mem_info_vram_used"); vramTotal = file("device/mem_info_vram_total")
                gttUsed = file("device/mem_info_gtt_used"); gttTotal = file("device/mem_info_gtt_total")
                clock = sensor("freq1_input")
                idleResidency = nil
            case .i915, .xe:
                runtimeStatus = nil; busy = nil; memoryBusy = nil
                vramUsed = nil; vramTotal = nil; gttUsed = nil; gttTotal = nil
                let isXe = driver == .xe
                clock = file(isXe ? "device/tile0/gt0/freq0/act_freq" : "gt_act_freq_mhz")
                let idle = isXe ? "device/tile0/gt0/gtidle/idle_residency_ms" : "gt/gt0/rc6_residency_ms"
                idleResidency = access(cPath(joinPath(card, idle)), F_OK) == 0 || isXe ? file(idle) : file("power/rc6_residency_ms")
            }
        }
    }

    public let sysRoot: String
    private(set) var cards: [Card] = []

    public init(sysRoot: String = "/sys") {
        self.sysRoot = sysRoot
        discover()
    }

    /// How many devices the NVIDIA driver lists (`<procRoot>/driver/nvidia/gpus/<PCI address>`):
    /// where there are any, NVML (through the sampler's helper) gives their figures.
    public static func nvidiaDeviceCount(procRoot: String) -> Int {
        var count = 0
        DirectoryStream(joinPath(procRoot, "driver/nvidia/gpus")).forEachEntry { name, _ in
            if name.first != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }

    /// How many cards were found.
    public var count: Int { cards.count }

    private func discover() {
        var path = BytePath(sysRoot)
        path.append("/class/drm")
        let numbers = Hwmon.numberedEntries(path, prefix: "card", suffix: "", limit: 64)
        let buffer = ReadBuffer(capacity: 4096)
        for n in numbers where cards.count < Self.maximumCards {
            var cardPath = path
            cardPath.append("/card")
            cardPath.append(decimal: n)
            let card = cardPath.string
            guard case .success(let uevent) = ProcFile(joinPath(card, "device/uevent")).read(into: buffer),
                  let (driverName, pciID) = Self.parseUevent(uevent) else { continue }
            let driver: Driver
            if bytesEqual(driverName, "amdgpu") { driver = .amdgpu }
            else if bytesEqual(driverName, "i915") { driver = .i915 }
            else if bytesEqual(driverName, "xe") { driver = .xe }
            else { continue }
            let driverFixed = FixedName(driverName)
            var name = pciID
            if case .success(let product) = ProcFile(joinPath(card, "device/product_name")).read(into: buffer) {
                let line = Self.trimmedLine(product)
                if line.count > 0 { name = FixedName(line) }
            }
            cards.append(Card(index: n, driver: driver, driverName: driverFixed, name: name, card: card,
                              hwmon: Self.hwmon(of: card)))
        }
    }

    /// `device/hwmon/hwmonN` of the card, the first there is.
    private static func hwmon(of card: String) -> String? {
        var path = BytePath(card)
        path.append("/device/hwmon")
        guard let first = Hwmon.numberedEntries(path, prefix: "hwmon", suffix: "", limit: 16).first else { return nil }
        path.append("/hwmon")
        path.append(decimal: first)
        return path.string
    }

    /// The driver (`DRIVER=`) and the PCI id (`PCI_ID=1002:73BF`, lowered) of a uevent file.
    static func parseUevent(_ bytes: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, FixedName)? {
        var driver: UnsafeRawBufferPointer?
        var pci = FixedName()
        var s = ByteScanner(bytes)
        while let line = s.nextLine() {
            if line.count > 7, bytesEqual(UnsafeRawBufferPointer(rebasing: line[0..<7]), "DRIVER=") {
                driver = UnsafeRawBufferPointer(rebasing: line[7...])
            } else if line.count > 7, bytesEqual(UnsafeRawBufferPointer(rebasing: line[0..<7]), "PCI_ID=") {
                var lowered = [UInt8](UnsafeRawBufferPointer(rebasing: line[7...]))
                for i in 0..<lowered.count where lowered[i] >= 0x41 && lowered[i] <= 0x5A { lowered[i] |= 0x20 }
                pci = lowered.withUnsafeBytes { FixedName($0) }
            }
        }
        guard let driver, driver.count > 0 else { return nil }
        return (driver, pci)
    }

    /// The first line of `bytes`, without blanks at its end.
    static func trimmedLine(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = 0
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[0..<end])
    }

    /// Reads every card into `readings` (one per card, in card order; the array reused).
    public func update(_ buffer: ReadBuffer, monotonicNs: UInt64, into readings: inout [GPUReading]) {
        if readings.count > cards.count { readings.removeLast(readings.count - cards.count) }
        for i in 0..<cards.count {
            if i == readings.count { readings.append(GPUReading()) }
            read(cards[i], buffer, monotonicNs, &readings[i])
        }
    }

    private func read(_ card: Card, _ buffer: ReadBuffer, _ nowNs: UInt64, _ r: inout GPUReading) {
        r.index = card.index
        r.driver = card.driverName
        r.name = card.name
        r.known = 0
        if let status = card.runtimeStatus, case .success(let bytes) = status.read(into: buffer),
           bytesEqual(Self.trimmedLine(bytes), "suspended") {
            // Asleep: idle, and left asleep.
            r.busy = 0
            r.known = GPUReading.busyKnown
            return
        }
        if let v = Self.number(card.busy, buffer) { r.busy = Self.permyriad(percent: v); r.known |= GPUReading.busyKnown }
        if let v = Self.number(card.memoryBusy, buffer) { r.memoryBusy = Self.permyriad(percent: v); r.known |= GPUReading.memoryBusyKnown }
        if let used = Self.number(card.vramUsed, buffer), let total = Self.number(card.vramTotal, buffer) {
            r.vramUsedBytes = used; r.vramTotalBytes = total; r.known |= GPUReading.vramKnown
        }
        if let used = Self.number(card.gttUsed, buffer), let total = Self.number(card.gttTotal, buffer) {
            r.gttUsedBytes = used; r.gttTotalBytes = total; r.known |= GPUReading.gttKnown
        }
        if let file = card.temperature, case .success(let bytes) = file.read(into: buffer),
           let milli = Hwmon.parseMillidegrees(bytes) {
            r.milliCelsius = milli; r.known |= GPUReading.temperatureKnown
        }
        if let microwatts = Self.number(card.power, buffer) {
            r.milliwatts = UInt32(clamping: microwatts / 1000); r.known |= GPUReading.powerKnown
        } else if let microjoules = Self.number(card.energy, buffer) {
            // Power as the energy's change over the time since the last reading.
            if card.lastEnergyAtNs != 0, nowNs > card.lastEnergyAtNs, microjoules >= card.lastEnergy {
                let ms = (nowNs - card.lastEnergyAtNs) / 1_000_000
                if ms > 0 { r.milliwatts = UInt32(clamping: (microjoules - card.lastEnergy) / ms); r.known |= GPUReading.powerKnown }
            }
            card.lastEnergy = microjoules; card.lastEnergyAtNs = nowNs
        }
        if let v = Self.number(card.fan, buffer) { r.fan = UInt32(clamping: v); r.known |= GPUReading.fanKnown }
        if let microwatts = Self.number(card.powerLimit, buffer), microwatts > 0 {   // Intel's 0: no limit
            r.powerLimitMilliwatts = UInt32(clamping: microwatts / 1000); r.known |= GPUReading.powerLimitKnown
        }
        if let v = Self.number(card.clock, buffer) {
            // amdgpu's hwmon gives Hz; i915 and xe MHz.
            r.clockMHz = UInt32(clamping: card.driver == .amdgpu ? (v + 500_000) / 1_000_000 : v)
            r.known |= GPUReading.clockKnown
        }
        if let idleMs = Self.number(card.idleResidency, buffer) {
            if card.lastIdleAtNs != 0, nowNs > card.lastIdleAtNs {
                let elapsedMs = (nowNs - card.lastIdleAtNs) / 1_000_000
                let idle = idleMs >= card.lastIdleMs ? idleMs - card.lastIdleMs : 0
                if elapsedMs > 0 {
                    let idleShare = min(saturatingProduct(idle, 10_000) / elapsedMs, 10_000)
                    r.busy = UInt16(10_000 - idleShare)
                    r.known |= GPUReading.busyKnown
                }
            }
            card.lastIdleMs = idleMs; card.lastIdleAtNs = nowNs
        }
    }

    /// One unsigned decimal, then blanks or a newline; nil for anything else or no file.
    static func number(_ file: ProcFile?, _ buffer: ReadBuffer) -> UInt64? {
        guard let file, case .success(let bytes) = file.read(into: buffer) else { return nil }
        var s = ByteScanner(bytes)
        guard let v = s.unsigned() else { return nil }
        s.skipBlanks()
        guard s.isAtEnd || s.current == 0x0A else { return nil }
        return v
    }

    static func permyriad(percent: UInt64) -> UInt16 { UInt16(min(percent, 100) * 100) }
}
