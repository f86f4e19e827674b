import CLibc

/// Ending a child without ever waiting on it for good: a helper stuck in a driver call (a GPU
/// "fallen off the bus" leaves NVML's callers in uninterruptible sleep) ignores SIGTERM and
/// may outlive SIGKILL, and a blocking `waitpid` on it froze the sampler (no snapshot again,
/// no exit on SIGTERM, `--once` never returning). Every wait here is bounded.
public enum ChildStop {
    /// Ends `pid`: SIGTERM, up to `graceMs` for it to go, then SIGKILL and up to `killMs` more,
    /// looking every few milliseconds (`waitpid(WNOHANG)`). True when it was reaped (or is no
    /// child of ours); false when it would not die: the caller keeps it and tries ``reap(_:)``
    /// later, never a blocking wait.
    public static func stop(_ pid: pid_t, graceMs: Int = 200, killMs: Int = 300) -> Bool {
        guard pid > 0 else { return true }
        kill(pid, SIGTERM)
        if waitReaped(pid, ms: graceMs) { return true }
        kill(pid, SIGKILL)
        return waitReaped(pid, ms: killMs)
    }

    /// Reaps `pid` if it has ended: true when reaped (or no child of ours), false while it runs.
    public static func reap(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return reap(pid, &status)
    }

    /// `pid`'s wait status when it ends within `ms` (its output closing comes a moment before
    /// it can be reaped); nil while it runs on, or when it is no child of ours.
    public static func status(_ pid: pid_t, withinMs ms: Int) -> Int32? {
        var status: Int32 = -1
        return waitReaped(pid, ms: ms, &status) && status != -1 ? status : nil
    }

    private static func reap(_ pid: pid_t, _ status: inout Int32) -> Bool {
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return true }
            if r == 0 { return false }
            if clibc_errno() != EINTR { return true }   // ECHILD: reaped already, or not ours
        }
    }

    /// Whether `pid` is reaped within `ms`, looking every 5 ms.
    private static func waitReaped(_ pid: pid_t, ms: Int) -> Bool {
        var status: Int32 = 0
        return waitReaped(pid, ms: ms, &status)
    }

    private static func waitReaped(_ pid: pid_t, ms: Int, _ status: inout Int32) -> Bool {
        var waited = 0
        while true {
            if reap(pid, &status) { return true }
            guard waited < ms else { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            _ = nanosleep(&pause, nil)
            waited += 5
        }
    }
}
