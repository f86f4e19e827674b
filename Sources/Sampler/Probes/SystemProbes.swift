#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SnapshotCodec

/// Uptime: on this machine CLOCK_BOOTTIME, the clock /proc/uptime prints (a vDSO call, no
/// file to read each sample); under a fixture proc root, its uptime file. A root whose
/// `uptime` is this machine's /proc/uptime itself (a tree of links to /proc's files, as
/// bench/floor.sh makes) reads the clock too.
struct UptimeProbe {
    private let reader: UptimeReader
    private let fromClock: Bool
    init(procRoot: String, readsThisMachine: Bool) {
        reader = UptimeReader(procRoot: procRoot)
        fromClock = readsThisMachine || Self.isThisMachinesUptime(cPath(joinPath(procRoot, "uptime")))
    }

    private static func isThisMachinesUptime(_ path: [CChar]) -> Bool {
        var linked = stat(), real = stat()
        let proc: [CChar] = [0x2F, 0x70, 0x72, 0x6F, 0x63, 0x2F, 0x75, 0x70, 0x74, 0x69, 0x6D, 0x65, 0]   // "/proc/uptime"
        return stat(path, &linked) == 0 && stat(proc, &real) == 0
            && linked.st_dev == real.st_dev && linked.st_ino == real.st_ino
    }

    func sample(into s: inout Snapshot, buffer: ReadBuffer) {
        if fromClock {
            var t = timespec()
            if clock_gettime(CLOCK_BOOTTIME, &t) == 0, t.tv_sec >= 0 {
                s.uptimeCentiseconds = UInt64(t.tv_sec) &* 100 &+ UInt64(t.tv_nsec / 10_000_000)
                s.available.insert(.uptime)
                return
            }
        }
        guard let up = reader.update(buffer) else { return }
        s.uptimeCentiseconds = up.uptimeCentiseconds
        s.available.insert(.uptime)
    }
}

/// Load averages from /proc/loadavg.
struct LoadProbe {
    private let reader: LoadAverageReader
    init(procRoot: String) { reader = LoadAverageReader(procRoot: procRoot) }

    /// Returns this sample's reading (nil when unreadable): the process probe's change counters.
    @discardableResult
    func sample(into s: inout Snapshot, buffer: ReadBuffer) -> LoadAverage? {
        guard let load = reader.update(buffer) else { return nil }
        s.load1 = load.load1; s.load5 = load.load5; s.load15 = load.load15
        s.available.insert(.load)
        return load
    }
}

/// Memory pressure (PSI "some" avg10) from /proc/pressure/memory, on kernels that have it.
struct PressureProbe {
    private let reader: PressureReader
    init(procRoot: String, kernel: KernelRelease?) { reader = PressureReader(procRoot: procRoot, kernel: kernel) }

    func sample(into s: inout Snapshot, buffer: ReadBuffer) {
        s.memoryPressure = reader.update(buffer).map { Permyriad(clamping: $0.someAvg10) }
    }
}
