// The one place the bar's timers meet: every part of the loop that wants to be woken at a
// time (staleness, the clock, a command due or overrunning, a stopped group's grace, a
// coalesced update, the sampler's retry) adds it here, and poll() sleeps until the earliest.

/// Deadlines in realtime milliseconds, merged into poll()'s timeout.
struct Deadlines {
    /// The longest the loop sleeps without a reason: an hour (the clock's own deadlines
    /// are closer; a sleep that long only bounds a clock jump's damage).
    static let longestSleepMs: UInt64 = 3_600_000

    /// The earliest deadline added; nil when none was.
    private(set) var earliest: UInt64? = nil

    init() {}

    /// Adds a deadline (realtime ms); nil adds none.
    mutating func add(_ due: UInt64?) {
        guard let due else { return }
        earliest = min(earliest ?? due, due)
    }

    /// Adds the deadline `ms` after `now`, saturating (a hostile snapshot's interval can be
    /// anything).
    mutating func add(in ms: UInt64, from now: UInt64) {
        let (due, overflow) = now.addingReportingOverflow(ms)
        add(overflow ? .max : due)
    }

    /// poll()'s timeout at `now`: -1 without a deadline, 0 when one is due or past, else the
    /// milliseconds until the earliest, at most ``longestSleepMs``.
    func timeout(now: UInt64) -> Int32 {
        guard let earliest else { return -1 }
        return earliest <= now ? 0 : Int32(min(earliest - now, Deadlines.longestSleepMs))
    }
}
