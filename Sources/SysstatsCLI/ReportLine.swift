import SnapshotCodec

/// The one-line report: uptime, CPU, memory breakdown, battery, processes.
///
///     [Uptime]: 0 day(s), 12:17:38 [CPU]: 23% [Memory(MB)]: free= 17.4, other=329.1, wired= 69.7, active= 53.9, inactive= 32.8 [Battery]: 85% [Process]: 39
///
/// "MB" is MiB (KiB / 1024, one decimal, right-aligned in 5 columns).
public enum ReportLine {
    /// A figure that was not measured reads `n/a`.
    public static func format(_ snapshot: Snapshot) -> String {
        let m = snapshot.memory
        let has = snapshot.available
        let na = "n/a"
        return "[Uptime]: \(has.contains(.uptime) ? uptime(centiseconds: snapshot.uptimeCentiseconds) : na)"
            + " [CPU]: \(has.contains(.cpu) ? "\(percent(snapshot.cpuBusy))%" : na)"
            + " [Memory(MB)]: " + (has.contains(.memory)
                ? "free=\(mib(m.free)), other=\(mib(m.other)), wired=\(mib(m.wired)),"
                    + " active=\(mib(m.active)), inactive=\(mib(m.inactive))"
                : na)
            + " [Battery]: \(has.contains(.battery) ? battery(snapshot.battery) : na)"
            + " [Process]: \(has.contains(.processes) ? "\(snapshot.processCount)" : na)"
    }

    /// "0 day(s), 12:17:38".
    public static func uptime(centiseconds: UInt64) -> String {
        let total = centiseconds / 100
        let days = total / 86400
        let rest = total % 86400
        return "\(days) day(s), \(twoDigits(rest / 3600)):\(twoDigits(rest % 3600 / 60)):\(twoDigits(rest % 60))"
    }

    /// Hundredths of a percent to a whole percent, rounded half up: 2350 → 24.
    public static func percent(_ permyriad: Permyriad) -> UInt32 {
        (UInt32(permyriad) + 50) / 100
    }

    /// KiB to MiB with one decimal, rounded half up, right-aligned in 5 columns: 17818 → " 17.4".
    public static func mib(_ kib: UInt64) -> String {
        let tenths = kib / 1024 * 10 + (kib % 1024 * 10 + 512) / 1024   // (kib × 10 + 512) / 1024 without overflow
        let text = "\(tenths / 10).\(tenths % 10)"
        return text.count >= 5 ? text : String(repeating: " ", count: 5 - text.count) + text
    }

    /// "85%", or "none" when there is no battery.
    public static func battery(_ battery: BatteryFigures) -> String {
        battery.count == 0 ? "none" : "\(percent(battery.percent))%"
    }

    private static func twoDigits(_ n: UInt64) -> String {
        n < 10 ? "0\(n)" : "\(n)"
    }
}
