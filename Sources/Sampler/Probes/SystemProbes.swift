import ProcFS
import SnapshotCodec

/// Uptime from /proc/uptime.
struct UptimeProbe {
    private let reader: UptimeReader
    init(procRoot: String) { reader = UptimeReader(procRoot: procRoot) }

    func sample(into s: inout Snapshot, buffer: ReadBuffer) {
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
