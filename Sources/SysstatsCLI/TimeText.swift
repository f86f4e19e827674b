#if canImport(Glibc)
import Glibc
#endif
import HistoryStore

/// How the history commands write times: local time for people, UTC for tests.
public enum TimeZoneChoice: Sendable {
    case local, utc

    /// "2023-11-14 22:13" (minutes) for unix `seconds`; ``raw(_:)`` for a time no date of four
    /// digits names (a damaged database's: the year 219250468 printed as `219250468-01-00`).
    public func minute(_ seconds: UInt64) -> String {
        guard let t = broken(seconds) else { return Self.raw(seconds) }
        return "\(t.tm_year + 1900)-\(pad(t.tm_mon + 1))-\(pad(t.tm_mday)) \(pad(t.tm_hour)):\(pad(t.tm_min))"
    }

    /// "2023-11-14 22:13:20".
    public func second(_ seconds: UInt64) -> String {
        guard let t = broken(seconds) else { return Self.raw(seconds) }
        return minute(seconds) + ":" + pad(t.tm_sec)
    }

    /// A time past what ``minute(_:)`` shows, as `date -d` takes it: "@253402300800".
    public static func raw(_ seconds: UInt64) -> String { "@\(seconds)" }

    /// The broken-down time, nil past 9999-12-31 (the latest time `restore` lets in) or in a
    /// year of more than four digits in this zone.
    private func broken(_ seconds: UInt64) -> tm? {
        guard seconds <= UInt64(HistoryDatabase.latestTime) else { return nil }
        var time = time_t(seconds)
        var result = tm()
        let converted = switch self {
        case .local: localtime_r(&time, &result) != nil
        case .utc: gmtime_r(&time, &result) != nil
        }
        guard converted, result.tm_year + 1900 <= 9999 else { return nil }
        return result
    }

    private func pad(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// Small text helpers shared by the history tables.
enum Columns {
    /// Right-aligns `text` in `width` columns (never cuts it).
    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// Left-aligns `text` in `width` columns.
    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// Hundredths as "23.45": 2345 → "23.45", 7 → "0.07".
    static func hundredths(_ value: UInt64) -> String {
        let rest = value % 100
        return "\(value / 100).\(rest < 10 ? "0" : "")\(rest)"
    }

    /// Hundredths of a percent to one decimal, rounded half up: 2345 → "23.5".
    static func percentOneDecimal(_ permyriad: UInt64) -> String {
        let tenths = (permyriad + 5) / 10
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// KiB as MiB with one decimal, rounded half up: 1536 → "1.5".
    static func mib(_ kib: UInt64) -> String {
        let tenths = kib / 1024 * 10 + (kib % 1024 * 10 + 512) / 1024
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A byte count in binary units with one decimal, rounded half up: 512 → "512 B",
    /// 35_021 → "34.2 KiB", 1_288_490_189 → "1.2 GiB"; up to "16.0 EiB" (UInt64.max).
    static func bytes(_ count: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        guard count >= 1024 else { return "\(count) B" }
        var unit = 1
        while unit < units.count - 1 && count >> (10 * UInt64(unit)) >= 1024 { unit += 1 }
        let divisor = UInt64(1) << (10 * UInt64(unit))
        // (count × 10 + divisor / 2) / divisor without overflow: count % divisor × 10 < 2^64.
        var tenths = count / divisor * 10 + (count % divisor * 10 + divisor / 2) / divisor
        if tenths >= 10_240 && unit < units.count - 1 {   // 1023.96 KiB rounds to 1.0 MiB, not 1024.0 KiB
            unit += 1
            tenths = (tenths + 512) / 1024
        }
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// Millidegrees Celsius to degrees with one decimal, rounded half away from zero:
    /// 52_349 → "52.3", -1_250 → "-1.3".
    static func celsiusOneDecimal(_ milliCelsius: Int32) -> String {
        let magnitude = Int64(milliCelsius).magnitude
        let tenths = (magnitude + 50) / 100
        return (milliCelsius < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }

    /// "3 d 4 h", "2 h 5 min", "12 min", "40 s".
    static func duration(_ seconds: UInt64) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        if seconds < 86_400 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
        return "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
    }

    /// The battery state names used in tables and JSON (`BatteryFigures.State` raw values).
    static func batteryState(_ raw: UInt8?) -> String {
        switch raw {
        case 1: "charging"
        case 2: "discharging"
        case 3: "not_charging"
        case 4: "full"
        default: "unknown"
        }
    }
}
