import ProcFS
import SnapshotCodec

/// The memory figures the snapshot carries, from one reading of /proc/meminfo.
/// docs/metrics.md gives the same rules in prose.
public enum MemoryBreakdown {
    /// The five parts (summing exactly to MemTotal), available, used and swap.
    ///
    /// - free = MemFree; active = Active; inactive = Inactive;
    /// - wired = Unevictable + SUnreclaim + KernelStack + PageTables (the kernel cannot give it back);
    /// - other = MemTotal minus the four above (buffers and caches not on the LRU lists, hugepages, ...).
    /// - available = MemAvailable when the kernel has it (≥ 3.14, `useMemAvailable`), else the
    ///   classic estimate MemFree + Buffers + Cached + SReclaimable − Shmem; used = total − available
    ///   (what `free` calls used).
    ///
    /// If a malformed file makes the four named parts exceed MemTotal, they are cut back in
    /// the order wired, inactive, active so the five parts still sum to MemTotal.
    public static func figures(_ info: MemInfo, useMemAvailable: Bool = true) -> MemoryFigures {
        var m = MemoryFigures()
        let total = info.memTotal
        m.total = total
        var remaining = total
        m.free = take(info.memFree, from: &remaining)
        m.active = take(info.active, from: &remaining)
        m.inactive = take(info.inactive, from: &remaining)
        m.wired = take(info.unevictable &+ info.sUnreclaim &+ info.kernelStack &+ info.pageTables, from: &remaining)
        m.other = remaining

        let available: UInt64
        if useMemAvailable, let reported = info.memAvailable {
            available = reported
        } else {
            let estimate = info.memFree &+ info.buffers &+ info.cached &+ info.sReclaimable
            available = estimate > info.shmem ? estimate - info.shmem : 0
        }
        m.available = min(available, total)
        m.used = total - m.available
        m.swapTotal = info.swapTotal
        m.swapUsed = info.swapTotal > info.swapFree ? info.swapTotal - info.swapFree : 0
        return m
    }

    /// At most `value` out of `remaining`, which shrinks by what was taken.
    private static func take(_ value: UInt64, from remaining: inout UInt64) -> UInt64 {
        let taken = min(value, remaining)
        remaining -= taken
        return taken
    }

    /// `part` as a share of `whole`, in hundredths of a percent.
    public static func share(_ part: UInt64, of whole: UInt64) -> Permyriad {
        guard whole > 0 else { return 0 }
        let p = min(part, whole)
        if p <= (UInt64.max - whole / 2) / 10_000 { return Permyriad((p * 10_000 + whole / 2) / whole) }
        // Only for absurd inputs (over 10^15 KiB): whole ≥ p is then large enough to divide first.
        return Permyriad(min(p / (whole / 10_000), 10_000))
    }
}
