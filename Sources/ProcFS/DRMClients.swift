import CLibc

/// One DRM client (an open GPU context) as its descriptor's `/proc/PID/fdinfo/FD` shows it,
/// in the keys of the kernel's `Documentation/gpu/drm-usage-stats.rst`: `drm-driver`,
/// `drm-client-id`, `drm-pdev`, `drm-engine-<name>` (busy ns since the client was made),
/// `drm-engine-capacity-<name>` (how many engines of that kind), and the memory keys
/// `drm-resident-<region>` (else `drm-memory-<region>`, amdgpu's older name), each a number
/// with an optional ` KiB`, ` MiB` or ` GiB`.
public struct DRMClientReading: Equatable, Sendable {
    /// The most engines kept per client (i915 has 5 kinds, xe 5, amdgpu 7).
    public static let maximumEngines = 8

    public var driver = FixedName()
    public var clientID: UInt64 = 0
    /// The card's PCI address (`0000:03:00.0`), empty when not given.
    public var pdev = FixedName()
    /// Busy time and capacity of each engine, by name (`gfx`, `render`, `video`).
    public var engines: [(name: FixedName, busyNs: UInt64, capacity: UInt64)] = []
    /// Device memory (the `vram` and `local` regions) when the driver names any, else every
    /// region (an integrated GPU's memory is system memory), bytes; resident where given.
    public var memoryBytes: UInt64 = 0

    public init() {}

    public static func == (a: DRMClientReading, b: DRMClientReading) -> Bool {
        a.driver == b.driver && a.clientID == b.clientID && a.pdev == b.pdev && a.memoryBytes == b.memoryBytes
            && a.engines.count == b.engines.count
            && zip(a.engines, b.engines).allSatisfy { $0.name == $1.name && $0.busyNs == $1.busyNs && $0.capacity == $1.capacity }
    }

    /// Parses one fdinfo file; nil when it is not a DRM client's (no `drm-driver`, or no
    /// `drm-client-id`). Unknown keys and malformed lines are passed over; numbers saturate.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> DRMClientReading? {
        var r = DRMClientReading()
        return parse(bytes, into: &r) ? r : nil
    }

    /// ``parse(_:)`` into `r`, reusing its engines' storage: nothing is allocated once
    /// `r.engines` has room for ``maximumEngines``. False when it is not a DRM client's.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into r: inout DRMClientReading) -> Bool {
        r.driver = FixedName(); r.clientID = 0; r.pdev = FixedName(); r.memoryBytes = 0
        r.engines.removeAll(keepingCapacity: true)
        var hasDriver = false, hasClient = false
        var resident: (device: UInt64, all: UInt64, seen: Bool, deviceSeen: Bool) = (0, 0, false, false)
        var memory: (device: UInt64, all: UInt64, seen: Bool, deviceSeen: Bool) = (0, 0, false, false)
        var s = ByteScanner(bytes)
        while let (key, value) = nextKey(&s) {
            if bytesEqual(key, "drm-driver") {
                r.driver = FixedName(value); hasDriver = !value.isEmpty
            } else if bytesEqual(key, "drm-client-id") {
                if let n = number(value) { r.clientID = n; hasClient = true }
            } else if bytesEqual(key, "drm-pdev") {
                r.pdev = FixedName(value)
            } else if suffix(key, "drm-engine-capacity-") != nil {
                continue   // the second pass, once every engine is known
            } else if let name = suffix(key, "drm-engine-") {
                if let ns = number(value, unit: "ns"), r.engines.count < maximumEngines {
                    r.engines.append((FixedName(name), ns, 1))
                }
            } else if let region = suffix(key, "drm-resident-") {
                if let b = number(value) { add(b, region, &resident) }
            } else if let region = suffix(key, "drm-memory-") {
                if let b = number(value) { add(b, region, &memory) }
            }
        }
        guard hasDriver, hasClient else { return false }
        s = ByteScanner(bytes)
        while let (key, value) = nextKey(&s) {
            guard let name = suffix(key, "drm-engine-capacity-"), let n = number(value), n > 0 else { continue }
            let fixed = FixedName(name)
            for i in 0..<r.engines.count where r.engines[i].name == fixed { r.engines[i].capacity = n }
        }
        let m = resident.seen ? resident : memory
        r.memoryBytes = m.deviceSeen ? m.device : m.all
        return true
    }

    /// The next `key: value` line's key and value (blanks after the colon skipped); nil at the end.
    private static func nextKey(_ s: inout ByteScanner) -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer)? {
        while let line = s.nextLine() {
            var colon = 0
            while colon < line.count && line[colon] != UInt8(ascii: ":") { colon += 1 }
            guard colon < line.count else { continue }
            var v = colon + 1
            while v < line.count && (line[v] == 0x20 || line[v] == 0x09) { v += 1 }
            return (UnsafeRawBufferPointer(rebasing: line[0..<colon]), UnsafeRawBufferPointer(rebasing: line[v...]))
        }
        return nil
    }

    /// `key` without `prefix`, when it starts with it and has more after it.
    private static func suffix(_ key: UnsafeRawBufferPointer, _ prefix: StaticString) -> UnsafeRawBufferPointer? {
        let n = prefix.utf8CodeUnitCount
        guard key.count > n, bytesEqual(UnsafeRawBufferPointer(rebasing: key[0..<n]), prefix) else { return nil }
        return UnsafeRawBufferPointer(rebasing: key[n...])
    }

    private static func add(_ bytes: UInt64, _ region: UnsafeRawBufferPointer,
                            _ sum: inout (device: UInt64, all: UInt64, seen: Bool, deviceSeen: Bool)) {
        sum.seen = true
        sum.all = sum.all.addingReportingOverflow(bytes).overflow ? .max : sum.all &+ bytes
        let isDevice = (region.count >= 4 && bytesEqual(UnsafeRawBufferPointer(rebasing: region[0..<4]), "vram"))
            || (region.count >= 5 && bytesEqual(UnsafeRawBufferPointer(rebasing: region[0..<5]), "local"))
        if isDevice {
            sum.deviceSeen = true
            sum.device = sum.device.addingReportingOverflow(bytes).overflow ? .max : sum.device &+ bytes
        }
    }

    /// A decimal with an optional unit after one blank: `KiB`, `MiB`, `GiB` (bytes scaled,
    /// saturating), or `unit` when one is expected (`ns`); nothing else may follow.
    static func number(_ value: UnsafeRawBufferPointer, unit: StaticString? = nil) -> UInt64? {
        var s = ByteScanner(value)
        guard let n = s.unsigned() else { return nil }
        s.skipBlanks()
        if s.isAtEnd { return n }
        let rest = UnsafeRawBufferPointer(rebasing: value[s.position...])
        var end = rest.count
        while end > 0 && (rest[end - 1] == 0x20 || rest[end - 1] == 0x09 || rest[end - 1] == 0x0D) { end -= 1 }
        let word = UnsafeRawBufferPointer(rebasing: rest[0..<end])
        if let unit { return bytesEqual(word, unit) ? n : nil }
        if bytesEqual(word, "KiB") { return saturatingProduct(n, 1 << 10) }
        if bytesEqual(word, "MiB") { return saturatingProduct(n, 1 << 20) }
        if bytesEqual(word, "GiB") { return saturatingProduct(n, 1 << 30) }
        return nil
    }
}

/// The DRM clients of processes: for each pid, the descriptors in `/proc/PID/fd` that are
/// DRM device nodes (`/dev/dri/…`), each one's fdinfo read and parsed, a client counted once
/// however many descriptors a process holds on it. Only the descriptors of DRM devices are
/// read: a listing of `fd` and a `readlink` per descriptor, an fdinfo read per DRM one.
public enum DRMClients {
    /// The most clients kept per process.
    public static let maximumPerProcess = 16

    /// The clients `pid` holds under `procRoot`, deduplicated by (device, client id).
    public static func read(pid: Int32, procRoot: String, buffer: ReadBuffer) -> [DRMClientReading] {
        var clients: [DRMClientReading] = []
        var dir = BytePath(procRoot)
        dir.append("/")
        dir.append(decimal: Int(pid))
        let pidLength = dir.count
        dir.append("/fd")
        let stream = DirectoryStream(dir.string)
        var descriptors: [Int] = []
        stream.forEachEntry { name, _ in
            guard descriptors.count < 4096, let n = Hwmon.numberedName(name, prefix: "", suffix: "") else { return }
            descriptors.append(n)
        }
        var target = [CChar](repeating: 0, count: 256)
        for fd in descriptors where clients.count < maximumPerProcess {
            var link = dir
            link.append("/")
            link.append(decimal: fd)
            let n = link.withCString { readlink($0, &target, target.count - 1) }
            guard n > 9 else { continue }
            let isDRM = target.withUnsafeBytes { bytesEqual(UnsafeRawBufferPointer(rebasing: $0[0..<9]), "/dev/dri/") }
            guard isDRM else { continue }
            var info = dir
            info.truncate(to: pidLength)
            info.append("/fdinfo/")
            info.append(decimal: fd)
            guard case .success(let bytes) = info.read(into: buffer), let client = DRMClientReading.parse(bytes) else { continue }
            if clients.contains(where: { $0.clientID == client.clientID && $0.driver == client.driver && $0.pdev == client.pdev }) {
                continue
            }
            clients.append(client)
        }
        return clients
    }

    /// The busiest kind of engine's share of `elapsedNs` between two readings of a process's
    /// clients (matched by device and client id; a client new in `after` counts from 0; each
    /// kind's busy time summed over the clients, over its capacity), permyriad, at most 100 %.
    public static func busyPermyriad(before: [DRMClientReading], after: [DRMClientReading], elapsedNs: UInt64) -> UInt64 {
        var kinds: [EngineKind] = []
        kinds.reserveCapacity(maximumPerProcess)
        return busyPermyriad(before: before, before.count, after: after, after.count, elapsedNs: elapsedNs, kinds: &kinds)
    }

    /// One kind of engine on one device, summed over a process's clients.
    public struct EngineKind: Sendable {
        var name: FixedName, pdev: FixedName, busyNs: UInt64, capacity: UInt64
    }

    /// ``busyPermyriad(before:after:elapsedNs:)`` over the first `beforeCount` and
    /// `afterCount` readings, summing into `kinds` (emptied first, its storage reused): index
    /// loops and no closures, so that it allocates nothing once `kinds` has room.
    public static func busyPermyriad(before: [DRMClientReading], _ beforeCount: Int, after: [DRMClientReading], _ afterCount: Int,
                                     elapsedNs: UInt64, kinds: inout [EngineKind]) -> UInt64 {
        guard elapsedNs > 0 else { return 0 }
        kinds.removeAll(keepingCapacity: true)
        var c = 0
        while c < afterCount {
            var earlier = -1
            var b = 0
            while b < beforeCount && earlier < 0 {
                if before[b].clientID == after[c].clientID && before[b].driver == after[c].driver && before[b].pdev == after[c].pdev { earlier = b }
                b += 1
            }
            var e = 0
            while e < after[c].engines.count {
                let engine = after[c].engines[e]
                var was: UInt64 = 0
                if earlier >= 0 {
                    var w = 0
                    while w < before[earlier].engines.count {
                        if before[earlier].engines[w].name == engine.name { was = before[earlier].engines[w].busyNs }
                        w += 1
                    }
                }
                let busy = engine.busyNs >= was ? engine.busyNs - was : 0
                var k = 0
                while k < kinds.count && !(kinds[k].name == engine.name && kinds[k].pdev == after[c].pdev) { k += 1 }
                if k < kinds.count {
                    let (sum, over) = kinds[k].busyNs.addingReportingOverflow(busy)
                    kinds[k].busyNs = over ? .max : sum
                } else {
                    kinds.append(EngineKind(name: engine.name, pdev: after[c].pdev, busyNs: busy, capacity: max(engine.capacity, 1)))
                }
                e += 1
            }
            c += 1
        }
        var busiest: UInt64 = 0
        var k = 0
        while k < kinds.count {
            busiest = max(busiest, min(saturatingProduct(kinds[k].busyNs, 10_000) / elapsedNs / kinds[k].capacity, 10_000))
            k += 1
        }
        return busiest
    }
}
