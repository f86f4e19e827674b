import ProcFS
import SnapshotCodec

/// CPU shares between two readings of /proc/stat, in hundredths of a percent.
public enum CPUUsage {
    /// The busy share of the ticks that passed between `previous` and `current`.
    /// A counter that went backwards (CPU hot-unplugged and back) gives 0.
    public static func busy(from previous: CPUTimes, to current: CPUTimes) -> Permyriad {
        share(current.busy, previous.busy, of: current.total, previous.total)
    }

    /// The iowait share of the ticks that passed.
    public static func iowait(from previous: CPUTimes, to current: CPUTimes) -> Permyriad {
        share(current.iowait, previous.iowait, of: current.total, previous.total)
    }

    static func share(_ part: UInt64, _ partBefore: UInt64, of total: UInt64, _ totalBefore: UInt64) -> Permyriad {
        guard total > totalBefore, part >= partBefore else { return 0 }
        let elapsed = total - totalBefore
        let used = min(part - partBefore, elapsed)
        return Permyriad((used * 10_000 + elapsed / 2) / elapsed)
    }
}
