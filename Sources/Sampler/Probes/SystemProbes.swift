#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SnapshotCodec

/// Uptime: on this machine CLOCK_BOOTTIME, the clock /proc/uptime prints (a vDSO call, no
/// file to read each sample); under a fixture proc root, its uptime file.
struct UptimeProbe {
    private let reader: UptimeReader
    private let fromClock: Bool
    init(procRoot: String, readsThisMachine: Bool) {
        reader = UptimeReader(procRoot: procRoot)
        fromClock = readsThisMachine
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
