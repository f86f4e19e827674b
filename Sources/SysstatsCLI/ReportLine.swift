import Bookmarks
import SnapshotCodec

/// The one-line report: uptime, CPU, memory breakdown, battery, processes; then, where
/// the snapshot has them, network, disks, temperature and frequency.
///
///     [Uptime]: 0 day(s), 12:17:38 [CPU]: 23% [Memory(MB)]: free= 17.4, other=329.1, wired= 69.7, active= 53.9, inactive= 32.8 [Battery]: 85% [Process]: 39
///     … [Net]: wlan0 HomeNet 192.168.1.20 rx 1.2 MiB/s tx 34.2 KiB/s [Disk]: / 78.6 GiB free [Temp]: 52°C [MHz]: 2345/4567
///
/// Interface names and SSIDs are any bytes: they are shown through TerminalText.
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
            + newerParts(snapshot)
    }

    /// The parts of format v3's later sections, each only when measured.
    static func newerParts(_ s: Snapshot) -> String {
        var line = ""
        if s.available.contains(.network), let n = s.interfaces.first {
            line += " [Net]: \(TerminalText.escape(n.name))"
            if n.flags.contains(.wifiLink) { line += " \(TerminalText.escape(n.wifi.ssid))" }
            if !n.flags.isSuperset(of: [.up, .carrier]) {
                line += " down"
            } else {
                if !n.ipv4.isEmpty { line += " \(TerminalText.escape(n.ipv4))" }
                if n.flags.contains(.rates) { line += " rx \(rate(n.rxBytesPerSecond)) tx \(rate(n.txBytesPerSecond))" }
            }
        }
        if s.available.contains(.disks) {
            for d in s.disks where d.totalKiB > 0 {
                line += " [Disk]: \(TerminalText.escape(d.mount)) \(gib(d.availableKiB)) GiB free"
            }
        }
        if s.available.contains(.temperature), let t = s.temperatures.first(where: \.isCPUPackage) ?? s.temperatures.first {
            line += " [Temp]: \((Int(t.milliCelsius) + (t.milliCelsius >= 0 ? 500 : -500)) / 1000)°C"
        }
        if s.available.contains(.frequency) { line += " [MHz]: \(s.cpuMHzAverage)/\(s.cpuMHzMaximum)" }
        return line
    }

    /// Bytes per second with one decimal in binary units: "512 B/s", "34.2 KiB/s", "1.2 MiB/s".
    static func rate(_ bytesPerSecond: UInt64) -> String {
        let units = ["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"]
        var value = Double(bytesPerSecond)
        var u = 0
        while value >= 1024 && u < units.count - 1 { value /= 1024; u += 1 }
        return u == 0 ? "\(bytesPerSecond) B/s" : "\((value * 10).rounded() / 10) \(units[u])"
    }

    /// KiB as GiB with one decimal.
    static func gib(_ kib: UInt64) -> String { "\((Double(kib) / 1_048_576 * 10).rounded() / 10)" }

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
