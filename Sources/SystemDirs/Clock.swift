import CLibc

/// Clocks in the units sysstats uses: monotonic nanoseconds, wall-clock milliseconds.
public enum Clock {
    public static func monotonicNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    public static func realtimeMs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) &* 1000 &+ UInt64(ts.tv_nsec) / 1_000_000
    }

    /// Sleeps until the deadline or until a signal arrives (EINTR ends the sleep early).
    /// False when a signal ended it.
    @discardableResult
    public static func sleep(untilMonotonicNs deadline: UInt64) -> Bool {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) != EINTR
    }
}
