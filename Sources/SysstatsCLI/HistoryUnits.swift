import Bookmarks
import HistoryStore

/// `sysstats history --units`: which apps, services and containers used the machine over a
/// period, from history's unit rows (formatting only, no I/O). Kept are each minute's
/// busiest units (by CPU, then the largest by memory); a minute a unit was not among them
/// counts 0 for it, so its figures are lower bounds.
public enum HistoryUnits {
    /// One unit over the whole period.
    public struct Total: Equatable, Sendable {
        public var name: [UInt8]
        public var kind: [UInt8]
        /// Hundredths of a percent of a core, summed over the minutes: its CPU-minutes × 10000.
        public var cpuMinutes: UInt64 = 0
        /// The highest of its minutes' (an hourly row's: its hour's) CPU average.
        public var cpuMaximum: UInt32 = 0
        public var memoryMaximum: UInt64 = 0
        /// Bytes read and written over the period.
        public var readBytes: UInt64 = 0
        public var writtenBytes: UInt64 = 0
        /// The minutes it was among the busiest.
        public var minutes: UInt64 = 0
    }

    /// The period's totals, busiest first, and the minutes the period holds unit rows for
    /// (an hourly row's hour counts 60).
    public static func totals(_ rows: [UnitMinute]) -> (units: [Total], measuredMinutes: UInt64) {
        var totals: [Total] = [], at: [[UInt8]: Int] = [:]
        var minutesSeen = Set<UInt64>(), hoursSeen = Set<UInt64>()
        for r in rows {
            if r.isHourly { hoursSeen.insert(r.minute) } else { minutesSeen.insert(r.minute) }
            let key = r.kind + [0] + r.name
            let i = at[key] ?? { totals.append(Total(name: r.name, kind: r.kind)); at[key] = totals.count - 1; return totals.count - 1 }()
            let span: UInt64 = r.isHourly ? 60 : 1, seconds: UInt64 = span * 60
            totals[i].cpuMinutes = saturating(totals[i].cpuMinutes, UInt64(r.cpuPermyriad), times: span)
            totals[i].cpuMaximum = max(totals[i].cpuMaximum, r.cpuPermyriad)
            totals[i].memoryMaximum = max(totals[i].memoryMaximum, r.memoryBytes)
            totals[i].readBytes = saturating(totals[i].readBytes, r.readBytesPerSecond, times: seconds)
            totals[i].writtenBytes = saturating(totals[i].writtenBytes, r.writeBytesPerSecond, times: seconds)
            totals[i].minutes += UInt64(r.minutes)
        }
        totals.sort { $0.cpuMinutes != $1.cpuMinutes ? $0.cpuMinutes > $1.cpuMinutes : $0.memoryMaximum > $1.memoryMaximum }
        return (totals, UInt64(minutesSeen.count) + 60 * UInt64(hoursSeen.count))
    }

    /// `total + value × factor`, at most `UInt64.max`.
    static func saturating(_ total: UInt64, _ value: UInt64, times factor: UInt64) -> UInt64 {
        let (product, o1) = value.multipliedReportingOverflow(by: factor)
        let (sum, o2) = total.addingReportingOverflow(product)
        return o1 || o2 ? .max : sum
    }

    /// The most units the table lists (`--json` has them all).
    static let tableUnits = 15
    /// The units each hour's line names.
    static let unitsPerHour = 3

    static let header = Columns.left("unit", 26) + Columns.left("kind", 10) + Columns.right("cpu avg", 9)
        + Columns.right("cpu max", 9) + Columns.right("mem max", 11) + Columns.right("read", 11)
        + Columns.right("written", 11) + Columns.right("minutes", 9)

    /// The period's line, its units' table and, per hour, the busiest units of the hour.
    public static func lines(_ rows: [UnitMinute], from: UInt64, to: UInt64, zone: TimeZoneChoice) -> [String] {
        let (units, measured) = totals(rows)
        var lines = ["units from \(zone.minute(from)) to \(zone.minute(to)): \(measured) minute\(measured == 1 ? "" : "s") kept "
                     + "(cpu avg over those minutes; a unit not among a minute's busiest counts 0)", header]
        for u in units.prefix(tableUnits) {
            lines.append(Columns.left(TerminalText.escape(u.name), 25) + " " + Columns.left(TerminalText.escape(u.kind), 10)
                         + Columns.right(percent(measured > 0 ? u.cpuMinutes / measured : 0), 9)
                         + Columns.right(percent(UInt64(u.cpuMaximum)), 9) + Columns.right(Columns.bytes(u.memoryMaximum), 11)
                         + Columns.right(Columns.bytes(u.readBytes), 11) + Columns.right(Columns.bytes(u.writtenBytes), 11)
                         + Columns.right("\(u.minutes)", 9))
        }
        if units.count > tableUnits { lines.append("… and \(units.count - tableUnits) more (--json lists them all)") }
        let hours = byHour(rows)
        if hours.count > 1 {
            lines.append("")
            lines.append(Columns.left("hour", 18) + "busiest units (cpu avg of the hour)")
            for (hour, hourUnits) in hours {
                let named = hourUnits.prefix(unitsPerHour).map { u in
                    TerminalText.escape(u.name) + " " + percent(u.cpuMinutes / 60)
                }
                lines.append(Columns.left(zone.minute(hour), 18) + named.joined(separator: ", "))
            }
        }
        return lines
    }

    /// Each hour's totals (its cpu-minutes over 60: the hour's average), oldest hour first.
    static func byHour(_ rows: [UnitMinute]) -> [(hour: UInt64, units: [Total])] {
        var groups: [UInt64: [UnitMinute]] = [:]
        for r in rows { groups[r.minute - r.minute % 3600, default: []].append(r) }
        return groups.keys.sorted().map { hour in (hour, totals(groups[hour]!).units) }
    }

    /// A figure of hundredths of a percent, one decimal (saturated: sums of rows restored from anywhere).
    static func percent(_ permyriad: UInt64) -> String { Columns.percentOneDecimal(min(permyriad, UInt64.max - 5)) + "%" }

    /// `--json`: `from`, `to` (unix seconds, `to` exclusive), `minutes` (the minutes with unit
    /// rows), `units` (every unit of the period, busiest first) and `hours` (each hour's units).
    public static func json(_ rows: [UnitMinute], from: UInt64, to: UInt64) -> String {
        let (units, measured) = totals(rows)
        let hours = byHour(rows).map { Hour(hour: $0.hour, units: $0.units.map { Unit($0, over: 60) }) }
        return JSONText.encode(Document(from: from, to: to, minutes: measured, units: units.map { Unit($0, over: measured) },
                                        hours: hours))
    }

    struct Document: Encodable {
        var from: UInt64, to: UInt64, minutes: UInt64, units: [Unit], hours: [Hour]
    }

    struct Hour: Encodable {
        var hour: UInt64, units: [Unit]
    }

    struct Unit: Encodable {
        var name: String, nameHex: String, kind: String
        var cpuAverage: Double, cpuMaximum: Double
        var memoryMaximum: UInt64, readBytes: UInt64, writtenBytes: UInt64, minutes: UInt64

        enum CodingKeys: String, CodingKey {
            case name, nameHex = "name_hex", kind, cpuAverage = "cpu_avg_percent", cpuMaximum = "cpu_max_percent"
            case memoryMaximum = "memory_max_bytes", readBytes = "read_bytes", writtenBytes = "written_bytes", minutes
        }

        init(_ t: Total, over minutes: UInt64) {
            name = TerminalText.escape(t.name)
            nameHex = JSONText.hex(t.name)
            kind = TerminalText.escape(t.kind)
            cpuAverage = minutes > 0 ? Double(t.cpuMinutes / minutes) / 100 : 0
            cpuMaximum = Double(t.cpuMaximum) / 100
            memoryMaximum = t.memoryMaximum; readBytes = t.readBytes; writtenBytes = t.writtenBytes
            self.minutes = t.minutes
        }
    }
}
