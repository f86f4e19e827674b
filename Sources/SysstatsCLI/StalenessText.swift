import SnapshotCodec
import Bookmarks

/// How a snapshot's age is said. Whether it is stale is the snapshot contract's rule
/// (`Snapshot.isStale(nowMs:)` in SnapshotCodec), shared with the renderers.
public enum StalenessText {
    /// "0.4 s", "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h".
    public static func formatAge(ms: UInt64) -> String {
        if ms < 10_000 { return "\(ms / 1000).\(ms % 1000 / 100) s" }
        let s = ms / 1000
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        if s < 86400 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86400) d \(s % 86400 / 3600) h"
    }

    /// The stderr line for a stale snapshot.
    public static func message(_ snapshot: Snapshot, path: String, nowMs: UInt64) -> String {
        "snapshot at \(TerminalText.escape(path)) is stale: taken \(formatAge(ms: snapshot.ageMs(nowMs: nowMs))) ago "
            + "(sampler interval \(formatInterval(ms: snapshot.intervalMs))); is sysstatsd running?"
    }

    /// "1 s", "0.25 s", "2.5 s".
    public static func formatInterval(ms: UInt32) -> String {
        var fraction = ms % 1000
        if fraction == 0 { return "\(ms / 1000) s" }
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return "\(ms / 1000).\(padded) s"
    }
}
