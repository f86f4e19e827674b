#if canImport(Glibc)
import Glibc
#endif

/// Holds `measure`'s own CPU time to a share of one core (``MeasureOptions/maxOverhead``), as
/// perf holds its sampling to `perf_cpu_time_max_percent`: while what it spent since it
/// started is over that share of the time since, the next sample waits until the share has
/// caught up, at most ``longestDeferIntervals`` intervals. Its start and a short command's
/// first samples are allowed more (``allowance``), an allowance that runs out as the share
/// grows to cover it (``allowedNs(afterMs:)``), so that a run longer than that is held to the
/// share itself. A debt beyond one longest wait (a burst, a single sample that cost more) is
/// forgiven, so that it does not thin out the quiet samples after it. A quiet tree never
/// comes near the share; a storm of new processes, each of whose memory must be read once,
/// is sampled less often while it lasts. The exact figures (wait4, VmHWM, the cgroup's
/// peak) miss nothing either way; how many samples waited and the longest gap are in the report.
struct OverheadGovernor {
    /// `--max-overhead`'s default: 2 % of a core.
    static let defaultShare = 0.02
    /// The share of one core, 0 for no limit.
    let share: Double
    let intervalMs: UInt64
    /// What the first samples may take beyond the process's start, and the least allowance.
    static let firstSamplesNs: UInt64 = 4_000_000
    static let leastAllowanceNs: UInt64 = 8_000_000
    /// The longest a sample waits, in intervals: sampling never stops, whatever it costs.
    static let longestDeferIntervals: UInt64 = 20
    /// Samples taken later than their interval for the share.
    private(set) var deferredSamples = 0
    /// What may be spent ahead of the share, set at the first sample: the process's start and
    /// ``firstSamplesNs``, ``leastAllowanceNs`` at least.
    private(set) var allowance: Double?
    /// Debt forgiven so far, ns.
    private(set) var forgivenNs: Double = 0

    init(share: Double, intervalMs: UInt64) {
        self.share = share.isFinite ? max(share, 0) : 0
        self.intervalMs = max(intervalMs, 1)
    }

    /// When the next sample is taken: `deadline` (the interval's), or later while `cpuNs`,
    /// what the process spent since it started, is over the share of `elapsedMs` (the time
    /// since it started sampling). `now`: the time after this sample; times in ms on one clock.
    mutating func nextSample(deadline: UInt64, now: UInt64, elapsedMs: UInt64, cpuNs: UInt64) -> UInt64 {
        guard share > 0 else { return deadline }
        if allowance == nil { allowance = Double(max(Self.leastAllowanceNs, cpuNs &+ Self.firstSamplesNs)) }
        let longestMs = Self.longestDeferIntervals &* intervalMs
        let spent = Double(cpuNs) - forgivenNs
        let over = spent - allowedNs(afterMs: elapsedMs)
        guard over > 0 else { return deadline }
        // What one longest wait pays back; more is forgiven.
        let mostDebt = allowedNs(afterMs: elapsedMs &+ longestMs) - allowedNs(afterMs: elapsedMs)
        let waitMs: UInt64
        if over >= mostDebt {
            forgivenNs += over - mostDebt
            waitMs = longestMs
        } else {
            // Clamped as a Double first: a tiny share's wait is beyond any integer.
            waitMs = UInt64(min(max(caughtUpMs(spent) - Double(elapsedMs), 0), Double(longestMs)).rounded(.up))
        }
        let next = max(deadline, now &+ waitMs)
        if next > deadline { deferredSamples &+= Int((next &- deadline &+ intervalMs &- 1) / intervalMs) }
        return next
    }

    /// What may have been spent `ms` after the start: the allowance, growing by half the share
    /// until the share alone covers it (at twice the allowance), then the share.
    func allowedNs(afterMs ms: UInt64) -> Double {
        let ns = Double(ms) * 1_000_000, a = allowance ?? Double(Self.leastAllowanceNs)
        return ns < 2 * a / share ? a + share / 2 * ns : share * ns
    }

    /// When `spentNs` is allowed, ms after the start.
    func caughtUpMs(_ spentNs: Double) -> Double {
        let a = allowance ?? Double(Self.leastAllowanceNs)
        let early = (spentNs - a) / (share / 2)
        return (early < 2 * a / share ? early : spentNs / share) / 1_000_000
    }

    /// What the report says of it: nil when no sample waited. The longest gap is between
    /// two of `sampleTimesMs`.
    func record(sampleTimesMs: [UInt64]) -> GovernedSampling? {
        guard deferredSamples > 0 else { return nil }
        var longest: UInt64 = 0
        for i in sampleTimesMs.indices.dropFirst() { longest = max(longest, sampleTimesMs[i] &- min(sampleTimesMs[i - 1], sampleTimesMs[i])) }
        return GovernedSampling(share: share, deferredSamples: deferredSamples, longestGapMs: longest)
    }

    /// `2%`, `2` or `0.5%` (`0`: no limit), 0.01 % to 100 %: the share as a fraction.
    static func parseShare(_ text: String) -> Result<Double, ShareError> {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Double(number), percent.isFinite, percent == 0 || (percent >= 0.01 && percent <= 100) else {
            return .failure(ShareError(message: "'\(text)' is not a share of one core from 0.01% to 100% (0: no limit)"))
        }
        return .success(percent / 100)
    }

    struct ShareError: Error { let message: String }

    /// A share as the option gives it: `2%`, `0.5%`.
    static func percentText(_ share: Double) -> String {
        var text = fixed(share * 100, decimals: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
    }

    /// This process's CPU time so far (all its threads), ns.
    static func processCPUNs() -> UInt64 { cpuNs(CLOCK_PROCESS_CPUTIME_ID) }

    /// The calling thread's CPU time so far, ns: what a read cost it, not the time it waited
    /// for a core on a busy machine.
    static func threadCPUNs() -> UInt64 { cpuNs(CLOCK_THREAD_CPUTIME_ID) }

    private static func cpuNs(_ clock: clockid_t) -> UInt64 {
        var t = timespec()
        guard clock_gettime(clock, &t) == 0 else { return 0 }
        return UInt64(max(t.tv_sec, 0)) &* 1_000_000_000 &+ UInt64(max(t.tv_nsec, 0))
    }
}

/// Samples that waited to hold `measure`'s CPU to its share (``OverheadGovernor``).
public struct GovernedSampling: Sendable, Equatable {
    /// The share of one core held to.
    public var share: Double
    /// Intervals whose sample was taken later (or not at all) for it.
    public var deferredSamples: Int
    /// The longest time between two samples, ms.
    public var longestGapMs: UInt64

    /// The report's line: "19 samples waited (at most 200 ms between two) to hold …".
    var text: String {
        "\(deferredSamples) sample\(deferredSamples == 1 ? "" : "s") waited (at most \(DurationText.format(ms: longestGapMs)) between two) "
            + "to hold measure's CPU to \(OverheadGovernor.percentText(share)) of a core (--max-overhead)"
    }
}
