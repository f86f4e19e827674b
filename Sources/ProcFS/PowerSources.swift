import SnapshotCodec

/// Power drawn, by source (``PowerPart``): the whole system first, then the batteries while
/// they discharge (the battery part's `power_now`, or `current_now` × `voltage_now`), each RAPL
/// domain (`<sysRoot>/class/powercap/intel-rapl:N[:M]`, AMD's too: the change of `energy_uj`
/// over the time between two readings, through its wrap at `max_energy_range_uj`), and each
/// GPU whose driver gives its power (the GPU part's figure). The system's figure is the
/// batteries' draw while discharging, else RAPL's platform domain (`psys`), else the CPU
/// packages and GPUs summed, its label saying which. A figure that cannot be had is absent.
public final class PowerSources: PartReader {
    struct Zone {
        var name: FixedName
        let energy: ProcFile
        /// Where `energy_uj` wraps to 0, µJ; 0: unknown (a decrease is then not a reading).
        let wrapsAt: UInt64
        var lastMicrojoules: UInt64 = 0
        var lastNs: UInt64 = 0
        var primed = false
        /// This sample's power, milliwatts, when ``hasRate``.
        var milliwatts: Int64 = 0
        var hasRate = false
    }
    private var zones: [Zone] = []
    private var notice: String?
    /// The most RAPL domains read (packages with their core, uncore and dram, and psys).
    static let maximumZones = 6

    public init(sysRoot: String) {
        var path = BytePath(sysRoot)
        path.append("/class/powercap")
        let classLength = path.count
        let buffer = ReadBuffer(capacity: 256, maximumCapacity: 4096)
        var refused: (count: Int, error: Errno?, path: String) = (0, nil, "")
        for (package, domain) in Self.raplEntries(path) where zones.count < Self.maximumZones {
            path.truncate(to: classLength)
            path.append("/intel-rapl:")
            path.append(decimal: package)
            if domain >= 0 { path.append(":"); path.append(decimal: domain) }
            let directory = path.count
            path.append("/name")
            guard let name = Hwmon.firstLine(&path, buffer) else { continue }
            path.truncate(to: directory)
            path.append("/max_energy_range_uj")
            var wrapsAt: UInt64 = 0
            if case .success(let bytes) = path.read(into: buffer) { wrapsAt = parseUnsignedLine(bytes) ?? 0 }
            path.truncate(to: directory)
            path.append("/energy_uj")
            let energy = ProcFile(path.string)
            if case .failure(let e) = energy.read(into: buffer) {
                refused = (refused.count + 1, e, path.string)
                continue
            }
            zones.append(Zone(name: name, energy: energy, wrapsAt: wrapsAt))
        }
        if let e = refused.error, zones.isEmpty {
            notice = "power: cannot read \(refused.path): \(e)"
                + (e == .permissionDenied ? " (RAPL's counters are root's only since Linux 5.10)" : "")
                + "; the CPU's power is left out"
        }
    }

    /// The RAPL domains under the powercap directory at `path`: (package, domain), domain -1
    /// for the package itself, in that order; `intel-rapl-mmio` (the same packages again) left out.
    static func raplEntries(_ path: BytePath) -> [(Int, Int)] {
        var found: [(Int, Int)] = []
        DirectoryStream(path.string).forEachEntry { name, _ in
            guard found.count < 64, let entry = raplEntry(name) else { return }
            found.append(entry)
        }
        found.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        return found
    }

    /// `intel-rapl:N` → (N, -1), `intel-rapl:N:M` → (N, M); nil for anything else.
    static func raplEntry(_ name: UnsafeRawBufferPointer) -> (Int, Int)? {
        let prefix: StaticString = "intel-rapl:"
        let p = prefix.utf8CodeUnitCount
        guard name.count > p, bytesEqual(UnsafeRawBufferPointer(rebasing: name[0..<p]), prefix) else { return nil }
        var numbers = (-1, -1), current = -1, field = 0
        for i in p..<name.count {
            let b = name[i]
            if b == UInt8(ascii: ":"), current >= 0, field == 0 { numbers.0 = current; current = -1; field = 1; continue }
            guard b >= 0x30, b <= 0x39, current < 100_000 else { return nil }
            current = max(current, 0) * 10 + Int(b - 0x30)
        }
        guard current >= 0 else { return nil }
        if field == 0 { numbers.0 = current } else { numbers.1 = current }
        return numbers
    }

    public func takeNotice() -> String? {
        defer { notice = nil }
        return notice
    }

    public func read(into snapshot: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64) -> Bool {
        var battery: Int64?
        let b = snapshot.battery
        if snapshot.available.contains(.battery), b.count > 0, b.state == .discharging, b.powerMilliwatts > 0 {
            battery = Int64(b.powerMilliwatts)
        }
        for i in 0..<zones.count {
            let rate = rate(i, buffer, monotonicNs)
            zones[i].hasRate = rate != nil
            zones[i].milliwatts = rate ?? 0
        }
        let gpus = snapshot.available.contains(.gpu) ? snapshot.gpus : []
        return snapshot.listed.update(.power) { list in fill(&list, battery, gpus) } ?? false
    }

    /// Zone `i`'s power over the time since its last reading, milliwatts; nil at the first
    /// reading, when the counter could not be read, or ran backwards without a known wrap.
    private func rate(_ i: Int, _ buffer: ReadBuffer, _ nowNs: UInt64) -> Int64? {
        guard case .success(let bytes) = zones[i].energy.read(into: buffer), let uj = parseUnsignedLine(bytes) else { return nil }
        defer { zones[i].lastMicrojoules = uj; zones[i].lastNs = nowNs; zones[i].primed = true }
        guard zones[i].primed, nowNs > zones[i].lastNs else { return nil }
        let last = zones[i].lastMicrojoules
        let delta: UInt64
        if uj >= last {
            delta = uj &- last
        } else {
            guard zones[i].wrapsAt > last else { return nil }
            delta = (zones[i].wrapsAt &- last) &+ uj
        }
        // µJ over ns, in mW: µJ × 10⁶ / ns (saturating).
        let (scaled, overflow) = delta.multipliedReportingOverflow(by: 1_000_000)
        return Int64(clamping: overflow ? UInt64.max : scaled / (nowNs &- zones[i].lastNs))
    }

    /// Writes the system's reading, then each source's, into `list`; true when measured.
    private func fill(_ list: inout [PartReading], _ battery: Int64?, _ gpus: [GPUFigures]) -> Bool {
        var n = 0
        var psys: Int64?, packages: Int64?, gpuSum: Int64?
        for i in 0..<zones.count where zones[i].hasRate {
            let w = zones[i].milliwatts
            if zones[i].name.withUnsafeBytes({ bytesEqual($0, "psys") }) { psys = w }
            if zones[i].name.withUnsafeBytes({ $0.count > 8 && bytesEqual(UnsafeRawBufferPointer(rebasing: $0[0..<8]), "package-") }) {
                packages = (packages ?? 0) &+ w
            }
        }
        for g in 0..<gpus.count where gpus[g].known.contains(.power) { gpuSum = (gpuSum ?? 0) &+ Int64(gpus[g].milliwatts) }
        if let w = battery { Self.add(&list, &n, "system", Self.bytes("battery"), w) }
        else if let w = psys { Self.add(&list, &n, "system", Self.bytes("psys"), w) }
        else if packages != nil || gpuSum != nil {
            let label: StaticString = packages == nil ? "gpu" : gpuSum == nil ? "cpu" : "cpu+gpu"
            Self.add(&list, &n, "system", Self.bytes(label), (packages ?? 0) &+ (gpuSum ?? 0))
        }
        if let w = battery { Self.add(&list, &n, "battery", Self.bytes("discharging"), w) }
        for i in 0..<zones.count where zones[i].hasRate { let w = zones[i].milliwatts
            zones[i].name.withUnsafeBytes { Self.add(&list, &n, "rapl", $0, w) } }
        for g in 0..<gpus.count where gpus[g].known.contains(.power) {
            let w = Int64(gpus[g].milliwatts)
            Self.cardLabel(gpus[g].index).withUnsafeBytes { Self.add(&list, &n, "gpu", $0, w) }
        }
        if list.count > n { list.removeLast(list.count &- n) }
        // Nothing to say yet while a RAPL counter waits for its second reading.
        return n > 0 || zones.isEmpty
    }

    /// Sets reading `n` of `list` (appended when new) and counts it, while the part has room.
    private static func add(_ list: inout [PartReading], _ n: inout Int, _ source: StaticString,
                            _ label: UnsafeRawBufferPointer, _ milliwatts: Int64) {
        guard n < PowerPart.part.maximumReadings else { return }
        if n == list.count { list.append(PartReading()) }
        list[n].reset(source: bytes(source), label: label)
        list[n][PowerPart.watts] = milliwatts
        n &+= 1
    }

    /// `cardN`, without a heap allocation.
    static func cardLabel(_ index: UInt8) -> FixedName {
        var text: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &text) { out in
            out[0] = UInt8(ascii: "c"); out[1] = UInt8(ascii: "a"); out[2] = UInt8(ascii: "r"); out[3] = UInt8(ascii: "d")
            var n = 4
            if index >= 100 { out[n] = 0x30 &+ index / 100; n &+= 1 }
            if index >= 10 { out[n] = 0x30 &+ index / 10 % 10; n &+= 1 }
            out[n] = 0x30 &+ index % 10
            return FixedName(UnsafeRawBufferPointer(rebasing: out[0..<(n &+ 1)]))
        }
    }

    private static func bytes(_ s: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)
    }
}
