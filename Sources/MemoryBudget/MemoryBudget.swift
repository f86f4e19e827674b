// A memory budget inside a test: what a closure costs in the test's own process, from the
// kernel's figures, with no allocator hook (docs/budgets.md, "Budgets inside a test suite").
// Glibc, Synchronization and the standard library only.
//
// It leaves the process's own peak alone: it wrote 5 to /proc/self/clear_refs, which also
// reset the VmHWM and the ru_maxrss wait4 gives the parent, so a `swift test` run under
// `sysstats budget` read a 1 MiB peak_rss_exact against 101 MiB sampled, and passed a
// 50 MiB budget. The closure's peak comes from a thread sampling the resident size while
// it runs (PeakSampler.swift), and from VmHWM where the process reached a new high.

#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What a closure cost in memory in the process that ran it, bytes.
public struct MemoryUse: Equatable, Sendable {
    /// Resident memory (VmRSS) when it started, after the allocator's free memory was given
    /// back (malloc_trim), so that it does not depend on what earlier code freed.
    public var rssBefore: UInt64 = 0
    /// The highest resident memory while it ran: the kernel's VmHWM where the process reached
    /// a new high during it (``peakIsExact``), else the highest reading of a thread that read
    /// the resident size every ``MemoryBudget/sampleIntervalNs`` meanwhile (a spike shorter
    /// than that can be missed: at most the true peak).
    public var peakRSS: UInt64 = 0
    /// Whether ``peakRSS`` is the kernel's exact figure (VmHWM rose during the closure).
    public var peakIsExact = false
    /// How many readings the sampling thread took while the closure ran.
    public var peakSamples = 0
    /// The process's own memory that is not file cache (smaps_rollup Pss_Anon + Pss_Shmem +
    /// SwapPss, as `peak_anon`: heap, stacks, anonymous maps, shared anonymous memory) before
    /// and after, each read once malloc_trim(0) gave back what the allocator held free:
    /// what the program holds, not what glibc kept of what it freed.
    public var anonBefore: UInt64 = 0
    public var anonAfter: UInt64 = 0
    /// What the allocator held free at the end, which malloc_trim(0) gave back: anonymous
    /// memory before the trim minus after. The closure freed it, glibc kept it (a block under
    /// its trim threshold, which rises once a large block was freed: 23 MiB of it read as
    /// kept by a closure that freed everything).
    public var allocatorKept: UInt64 = 0
    /// Whether malloc_trim was there to call (glibc's; musl has none): without it
    /// ``anonAfter`` holds what the allocator kept and ``allocatorKept`` is 0.
    public var trimmed = false
    /// Why the figures are not the closure's alone: another ``MemoryBudget/measure(_:)`` ran
    /// in the process at the same time (``MemoryBudget/oneAtATime``); nil when they are.
    /// ``MemoryBudget/check(_:_:)`` fails such a measurement, whatever its figures.
    public var refusal: String?

    /// How far the peak rose over the resident size at the start.
    public var peakGrowth: UInt64 { peakRSS > rssBefore ? peakRSS - rssBefore : 0 }
    /// How much anonymous memory the closure left behind, what the allocator kept of what it
    /// freed left out (0 when it gave back more).
    public var anonGrowth: UInt64 { anonAfter > anonBefore ? anonAfter - anonBefore : 0 }

    /// True: the peak is the closure's own. It was false where /proc/self/clear_refs could
    /// not reset the process's peak; nothing is reset any more.
    @available(*, deprecated, message: "the process's peak is no longer reset: see peakIsExact and peakSamples")
    public var peakWasReset: Bool { true }
}

/// Limits on a closure's ``MemoryUse``; nil sets none.
public struct MemoryLimits: Equatable, Sendable {
    public var peakGrowth: UInt64?
    public var anonGrowth: UInt64?

    public init(peakGrowth: UInt64? = nil, anonGrowth: UInt64? = nil) {
        self.peakGrowth = peakGrowth; self.anonGrowth = anonGrowth
    }
}

public enum MemoryBudget {
    /// What a measurement that overlapped another in the same process says: both read the
    /// memory of both (four closures touching 64 MiB each read 0 B to 128 MiB).
    public static let oneAtATime = "MemoryBudget.measure runs one closure at a time: serialise these tests (.serialized / swift test --no-parallel)"

    /// The sampling thread's pause between two readings of the resident size, ns: short
    /// enough to catch a block held a fraction of a millisecond, a few percent of a core.
    public static let sampleIntervalNs = 100_000

    /// Runs `body` and measures it: the allocator trimmed and a sampling thread started,
    /// smaps_rollup and status read, the closure run, status read, the thread stopped,
    /// smaps_rollup read before and after another trim. Other threads of the process count
    /// too (a test runner's are quiet while a test runs); the figures are whole pages. While
    /// another measurement runs in the process, `body` runs unmeasured and the result says
    /// so (``MemoryUse/refusal``), as does the other's.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, use: MemoryUse) {
        let ticket = InFlight.shared.started.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        let others = InFlight.shared.running.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
        defer { _ = InFlight.shared.running.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard others == 0 else {
            var refused = MemoryUse()
            refused.refusal = oneAtATime
            return (try body(), refused)
        }
        var use = MemoryUse()
        use.trimmed = trimAllocator()
        // Started before the first readings: its own stack is in them.
        let sampler = PeakSampler(intervalNs: sampleIntervalNs)
        defer { sampler.stop() }
        use.anonBefore = anonymous()
        let before = status()
        let result = try body()
        let after = status()
        let sampled = sampler.stop()
        use.rssBefore = before.rss
        use.peakSamples = sampled.samples
        // VmHWM only rises: above its value at the start, it is the closure's peak, exactly.
        if after.hwm > before.hwm {
            use.peakRSS = max(after.hwm, sampled.highest)
            use.peakIsExact = true
        } else {
            use.peakRSS = max(sampled.highest, before.rss, after.rss)
        }
        let untrimmed = anonymous()
        if use.trimmed { _ = trimAllocator() }
        use.anonAfter = anonymous()
        use.allocatorKept = untrimmed > use.anonAfter ? untrimmed - use.anonAfter : 0
        // Another measurement began since this one did: its closure ran beside this one.
        if InFlight.shared.started.load(ordering: .sequentiallyConsistent) != ticket { use.refusal = oneAtATime }
        return (result, use)
    }

    /// nil when `use` keeps `limits`, else one line naming each limit passed and by how much,
    /// or why the measurement is not the closure's (``MemoryUse/refusal``).
    public static func check(_ use: MemoryUse, _ limits: MemoryLimits) -> String? {
        if let refusal = use.refusal { return "memory budget: " + refusal }
        var over: [String] = []
        if let limit = limits.peakGrowth, use.peakGrowth > limit {
            over.append("peak RSS grew \(format(use.peakGrowth)), limit \(format(limit))")
        }
        if let limit = limits.anonGrowth, use.anonGrowth > limit {
            over.append("anonymous memory grew \(format(use.anonGrowth)), limit \(format(limit))")
        }
        return over.isEmpty ? nil : "memory budget: " + over.joined(separator: "; ")
    }

    /// `bytes` as "1.50 MiB" / "512 KiB" / "100 B".
    public static func format(_ bytes: UInt64) -> String {
        if bytes >= 1 << 20 {
            let hundredths = bytes / (1 << 20) * 100 + bytes % (1 << 20) * 100 / (1 << 20)
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) MiB"
        }
        return bytes >= 1024 ? "\(bytes / 1024) KiB" : "\(bytes) B"
    }
}

/// The measurements of the process: running now, and begun ever (a measurement that sees the
/// second move while it ran overlapped another).
final class InFlight: Sendable {
    static let shared = InFlight()
    let running = Atomic<Int>(0)
    let started = Atomic<Int>(0)
}
