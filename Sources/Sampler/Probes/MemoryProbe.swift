import ProcFS
import SnapshotCodec

/// Memory: the five parts, available, used and swap from /proc/meminfo (MemoryBreakdown
/// says how), and the used-share history. Also tells the process probe how much
/// MemAvailable rose, for the memory an exit freed.
struct MemoryProbe {
    private let reader: MemInfoReader
    private let useMemAvailable: Bool
    private var previousAvailableKiB: UInt64?

    init(procRoot: String, kernel: KernelRelease?) {
        reader = MemInfoReader(procRoot: procRoot)
        useMemAvailable = kernel?.supportsMemAvailable ?? true
    }

    /// Fills the memory part; returns how much MemAvailable rose since the last sample (KiB).
    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer) -> UInt64 {
        guard reader.refresh(buffer) else { return 0 }
        s.available.insert(.memory)
        s.memory = MemoryBreakdown.figures(reader.reading, useMemAvailable: useMemAvailable)
        let available = s.memory.available
        var rise: UInt64 = 0
        if let before = previousAvailableKiB, available > before { rise = available - before }
        previousAvailableKiB = available
        s.memoryHistory.appendPoint(MemoryBreakdown.share(s.memory.used, of: s.memory.total))
        return rise
    }
}
