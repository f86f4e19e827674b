import CLibc
import CSamplerSys
import SystemDirs

/// The sampler's lines on stderr, which is RUNTIME-DIR/sysstatsd.log when a bar started it:
/// each starts with the local time, so that a line of the log can be placed (eight restarts
/// in a row could not).
public enum LogLine {
    /// Writes `message` to `fd` as one line in one write: the local time at `seconds` since the
    /// epoch (now when nil) in ISO 8601 with its offset from UTC, a space, the message
    /// (`2026-11-29T07:03:12+01:00 sysstatsd: …`). Without the time where `fd` is a terminal
    /// or systemd's journal (``stderrWantsTime``), or `stamped` is false.
    public static func write(_ message: String, to fd: Int32, seconds: Int64? = nil, stamped: Bool = true) {
        let at = stamped ? seconds ?? Int64(Clock.realtimeMs() / 1000) : -1
        var text = message
        text.withUTF8 { bytes in _ = csamplersys_write_log_line(fd, at, bytes.baseAddress, bytes.count) }
    }

    /// Whether the sampler's stderr takes times: decided once, at the first line.
    public static let stderrWantsTime = csamplersys_log_wants_time(STDERR_FILENO) != 0
}
