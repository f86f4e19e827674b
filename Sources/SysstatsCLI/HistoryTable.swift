import Glibc
import HistoryStore
import SnapshotCodec

/// `sysstats history`: the period's samples as a table or JSON (formatting only, no I/O).
public enum HistoryTable {
    static let header = Columns.left("time", 18) + Columns.right("cpu avg", 9) + Columns.right("cpu max", 9)
        + Columns.right("used MiB", 10) + Columns.right("avail MiB", 11) + Columns.right("swap MiB", 10)
        + Columns.right("load", 7) + Columns.right("procs", 7) + Columns.right("net rx", 11) + Columns.right("net tx", 11)
        + Columns.right("cpu °C", 8) + Columns.right("/ used", 8) + Columns.right("gpu", 7) + Columns.right("vram", 9)
        + ListedHistory.columns.map { Columns.right($0.history.heading.description, listedWidth) }.joined()
        + "  battery"

    /// The width of a listed part's column (`1200rpm`, `12.3W`).
    static let listedWidth = 9

    /// The footer printed when some rows are hourly rollups.
    static let hourlyNote = "h: one row per hour (minutes older than 90 days are rolled up: averages of the hour, "
        + "cpu max, cpu °C and vram its highest minute, net rx and tx its total)"

    /// The header, one line per sample (an hourly row's time ends in " h"), and the note on
    /// hourly rows when there are any.
    public static func lines(_ samples: [MinuteSample], zone: TimeZoneChoice) -> [String] {
        var lines = [header]
        for s in samples { lines.append(row(s, zone: zone)) }
        if samples.contains(where: \.isHourly) { lines.append(hourlyNote) }
        return lines
    }

    /// One table row.
    public static func row(_ s: MinuteSample, zone: TimeZoneChoice) -> String {
        let time = zone.minute(s.minute) + (s.isHourly ? " h" : "")
        return Columns.left(time, 18)
            + Columns.right(Columns.percentOneDecimal(UInt64(s.cpuAverage)) + "%", 9)
            + Columns.right(Columns.percentOneDecimal(UInt64(s.cpuMaximum)) + "%", 9)
            + Columns.right(Columns.mib(s.memoryUsedKiB), 10)
            + Columns.right(Columns.mib(s.memoryAvailableKiB), 11)
            + Columns.right(Columns.mib(s.swapUsedKiB), 10)
            + Columns.right(Columns.hundredths(UInt64(s.load1)), 7)
            + Columns.right("\(s.processCount)", 7)
            + Columns.right(s.rxBytes.map(Columns.bytes) ?? "-", 11)
            + Columns.right(s.txBytes.map(Columns.bytes) ?? "-", 11)
            + Columns.right(s.cpuTemperatureMilliCelsius.map(Columns.celsiusOneDecimal) ?? "-", 8)
            + Columns.right(s.rootUsedPermyriad.map { Columns.percentOneDecimal(UInt64($0)) + "%" } ?? "-", 8)
            + Columns.right(s.gpuBusyPermyriad.map { Columns.percentOneDecimal(UInt64($0)) + "%" } ?? "-", 7)
            + Columns.right(s.vramUsedBytes.map(Columns.bytes) ?? "-", 9)
            + ListedHistory.columns.indices.map { i in
                Columns.right(s.listed[i].map { listedCell(ListedHistory.columns[i], $0) } ?? "-", listedWidth)
            }.joined()
            + "  " + battery(s)
    }

    /// A listed part's figure in its unit: `1200rpm`, `12.3W`.
    static func listedCell(_ column: ListedHistoryColumn, _ v: Int64) -> String {
        switch column.unit {
        case .milliwatts:
            let tenths = (UInt64(clamping: v) + 50) / 100
            return "\(tenths / 10).\(tenths % 10)" + column.suffix.description
        case .milliCelsius: return Columns.celsiusOneDecimal(Int32(clamping: v))
        case .permyriad: return Columns.percentOneDecimal(UInt64(clamping: v)) + "%"
        case .bytes: return Columns.bytes(UInt64(clamping: v))
        case .count, .megahertz, .seconds, .minutes, .duration: return "\(v)" + column.suffix.description
        case .kib: return Columns.bytes(UInt64(clamping: v) > UInt64.max / 1024 ? .max : UInt64(clamping: v) * 1024)
        case .hundredths: return "\(v / 100).\(v % 100 < 10 ? "0" : "")\(v % 100)" + column.suffix.description
        case .centiseconds: return "\(v / 100)" + column.suffix.description
        }
    }

    /// "85.1% discharging", or "-" without a battery.
    static func battery(_ s: MinuteSample) -> String {
        guard let percent = s.batteryPercent else { return "-" }
        return Columns.percentOneDecimal(UInt64(percent)) + "% " + Columns.batteryState(s.batteryState)
    }

    /// `--json`: one object, keys sorted: `from`, `to` (unix seconds, `to` exclusive) and
    /// `samples`, each with `time` (unix seconds), `hourly`, percentages, MiB and load as numbers;
    /// `rx_bytes` and `tx_bytes` (the minute's, or the hour's, traffic), `cpu_celsius`,
    /// `root_used_percent`, `gpu_busy_percent` and `vram_used_bytes` are null when not measured,
    /// as is each listed part's member (`fan_rpm`, `power_watts`, in `report --json`'s units).
    public static func json(_ samples: [MinuteSample], from: UInt64, to: UInt64) -> String {
        let document = Document(from: from, to: to, samples: samples.map(Row.init))
        return JSONText.encode(document)
    }

    struct Document: Encodable {
        var from: UInt64, to: UInt64, samples: [Row]
    }

    struct Battery: Encodable {
        var percent: Double, state: String
    }

    struct Row: Encodable {
        var time: UInt64
        var hourly: Bool
        var cpuAverage, cpuMaximum: Double
        var memoryUsed, memoryAvailable, swapUsed: Double
        var load1: Double
        var processes: UInt32
        var battery: Battery?
        var rxBytes, txBytes: UInt64?
        var cpuCelsius, rootUsed, gpuBusy: Double?
        var vramUsed: UInt64?
        var listed: [ReportJSON.GPU.Figure]

        enum CodingKeys: String, CodingKey {
            case time, hourly, cpuAverage = "cpu_avg_percent", cpuMaximum = "cpu_max_percent"
            case memoryUsed = "mem_used_mib", memoryAvailable = "mem_available_mib", swapUsed = "swap_used_mib"
            case load1, processes, battery
            case rxBytes = "rx_bytes", txBytes = "tx_bytes", cpuCelsius = "cpu_celsius", rootUsed = "root_used_percent"
            case gpuBusy = "gpu_busy_percent", vramUsed = "vram_used_bytes"
        }

        init(_ s: MinuteSample) {
            time = s.minute; hourly = s.isHourly
            cpuAverage = Double(s.cpuAverage) / 100; cpuMaximum = Double(s.cpuMaximum) / 100
            memoryUsed = ReportJSON.mib(s.memoryUsedKiB); memoryAvailable = ReportJSON.mib(s.memoryAvailableKiB)
            swapUsed = ReportJSON.mib(s.swapUsedKiB)
            load1 = Double(s.load1) / 100
            processes = s.processCount
            battery = s.batteryPercent.map { Battery(percent: Double($0) / 100, state: Columns.batteryState(s.batteryState)) }
            rxBytes = s.rxBytes; txBytes = s.txBytes
            cpuCelsius = s.cpuTemperatureMilliCelsius.map { Double($0) / 1000 }
            rootUsed = s.rootUsedPermyriad.map { Double($0) / 100 }
            gpuBusy = s.gpuBusyPermyriad.map { Double($0) / 100 }
            vramUsed = s.vramUsedBytes
            listed = ListedHistory.columns.indices.map { i in
                let column = ListedHistory.columns[i]
                return ReportJSON.GPU.Figure(name: column.history.json.description,
                                             value: s.listed[i].map { ReportJSON.GPU.value(column.unit, $0) } ?? .null)
            }
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(time, forKey: .time); try c.encode(hourly, forKey: .hourly)
            try c.encode(cpuAverage, forKey: .cpuAverage); try c.encode(cpuMaximum, forKey: .cpuMaximum)
            try c.encode(memoryUsed, forKey: .memoryUsed); try c.encode(memoryAvailable, forKey: .memoryAvailable)
            try c.encode(swapUsed, forKey: .swapUsed); try c.encode(load1, forKey: .load1)
            try c.encode(processes, forKey: .processes)
            // Explicit null: "no battery" is an answer.
            if let battery { try c.encode(battery, forKey: .battery) } else { try c.encodeNil(forKey: .battery) }
            // Explicit nulls too: "not measured" (an older row, no sensor) is not 0.
            try encode(rxBytes, .rxBytes, &c); try encode(txBytes, .txBytes, &c)
            try encode(cpuCelsius, .cpuCelsius, &c); try encode(rootUsed, .rootUsed, &c)
            try encode(gpuBusy, .gpuBusy, &c); try encode(vramUsed, .vramUsed, &c)
            var more = encoder.container(keyedBy: ReportJSON.GPU.Key.self)
            for m in listed { try more.encode(m.value, forKey: ReportJSON.GPU.Key(m.name)) }
        }

        private func encode<T: Encodable>(_ value: T?, _ key: CodingKeys, _ c: inout KeyedEncodingContainer<CodingKeys>) throws {
            if let value { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
        }
    }
}
