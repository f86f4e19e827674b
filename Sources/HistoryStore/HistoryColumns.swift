import SnapshotCodec

// The columns of `samples` and `hourly_samples` after the minute (or hour), described once:
// the row's insert, its read, the retention's roll-up and merge, and `restore`'s range checks
// are made from this table. The fixed columns are the minute's own figures; the listed
// parts' columns follow, made from their figure tables (``ListedHistory``). The migrations
// that added the columns stay as they were released (Schema.swift).

/// One figure column of `samples` and `hourly_samples`.
struct HistoryColumn: Sendable {
    /// How an hour's minutes become its value, and how an hour rolled up before takes minutes
    /// written late (weighted by minutes where it is a mean).
    enum RollUp: Sendable {
        /// The mean of the minutes that gave it.
        case average
        /// The largest.
        case maximum
        /// The hour's last minute's, even where that minute has none (the battery's state).
        case lastMinute
        /// The last one given.
        case lastGiven
        /// The sum (byte counts), saturating.
        case total
    }

    let name: String
    let rollUp: RollUp
    /// The schema version that added it: a file before it reads NULL.
    let since: Int32
    /// The values `restore` accepts.
    let range: ValueRange
    /// Binds the sample's figure (NULL where it has none) as parameter `index`.
    let bind: @Sendable (Statement, Int32, MinuteSample) -> Void
    /// Reads column `index` into the sample.
    let read: @Sendable (Statement, Int32, inout MinuteSample) -> Void
}

extension HistoryColumn {
    /// Every column, the fixed ones and then the listed parts', in the order of the tables.
    static let all: [HistoryColumn] = fixed + Schema.listedColumnMigrations.indices.map(listed)

    /// The minute's own figures, in the order they were added.
    static let fixed: [HistoryColumn] = [
        HistoryColumn(name: "cpu_avg", rollUp: .average, since: 1, range: .share,
                      bind: { $0.bind($1, $2.cpuAverage) }, read: { $2.cpuAverage = $0.uint32($1) }),
        HistoryColumn(name: "cpu_max", rollUp: .maximum, since: 1, range: .share,
                      bind: { $0.bind($1, $2.cpuMaximum) }, read: { $2.cpuMaximum = $0.uint32($1) }),
        HistoryColumn(name: "mem_used_kib", rollUp: .average, since: 1, range: .kib,
                      bind: { $0.bind($1, $2.memoryUsedKiB) }, read: { $2.memoryUsedKiB = $0.uint64($1) }),
        HistoryColumn(name: "mem_available_kib", rollUp: .average, since: 1, range: .kib,
                      bind: { $0.bind($1, $2.memoryAvailableKiB) }, read: { $2.memoryAvailableKiB = $0.uint64($1) }),
        HistoryColumn(name: "swap_used_kib", rollUp: .average, since: 1, range: .kib,
                      bind: { $0.bind($1, $2.swapUsedKiB) }, read: { $2.swapUsedKiB = $0.uint64($1) }),
        HistoryColumn(name: "load1", rollUp: .average, since: 1, range: .uint32,
                      bind: { $0.bind($1, $2.load1) }, read: { $2.load1 = $0.uint32($1) }),
        HistoryColumn(name: "process_count", rollUp: .average, since: 1, range: .uint32,
                      bind: { $0.bind($1, $2.processCount) }, read: { $2.processCount = $0.uint32($1) }),
        HistoryColumn(name: "battery_percent", rollUp: .average, since: 1, range: .share,
                      bind: { $0.bind($1, $2.batteryPercent) },
                      read: { $2.batteryPercent = $0.isNull($1) ? nil : $0.uint32($1) }),
        HistoryColumn(name: "battery_state", rollUp: .lastMinute, since: 1,
                      range: ValueRange(lowest: 0, highest: 255, what: "a battery state"),
                      bind: { $0.bind($1, $2.batteryState) },
                      read: { $2.batteryState = $0.isNull($1) ? nil : UInt8(clamping: $0.int64($1)) }),
        HistoryColumn(name: "rx_bytes", rollUp: .total, since: 3, range: .bytes,
                      bind: { $0.bind($1, $2.rxBytes) }, read: { $2.rxBytes = $0.isNull($1) ? nil : $0.uint64($1) }),
        HistoryColumn(name: "tx_bytes", rollUp: .total, since: 3, range: .bytes,
                      bind: { $0.bind($1, $2.txBytes) }, read: { $2.txBytes = $0.isNull($1) ? nil : $0.uint64($1) }),
        HistoryColumn(name: "cpu_temp_mc", rollUp: .maximum, since: 3,
                      range: ValueRange(lowest: Int64(Int32.min), highest: Int64(Int32.max), what: "millidegrees Celsius"),
                      bind: { $0.bind($1, $2.cpuTemperatureMilliCelsius) },
                      read: { $2.cpuTemperatureMilliCelsius = $0.isNull($1) ? nil : Int32(clamping: $0.int64($1)) }),
        HistoryColumn(name: "root_used", rollUp: .average, since: 3, range: .share,
                      bind: { $0.bind($1, $2.rootUsedPermyriad) },
                      read: { $2.rootUsedPermyriad = $0.isNull($1) ? nil : $0.uint32($1) }),
        HistoryColumn(name: "gpu_busy", rollUp: .average, since: 4, range: .share,
                      bind: { $0.bind($1, $2.gpuBusyPermyriad) },
                      read: { $2.gpuBusyPermyriad = $0.isNull($1) ? nil : $0.uint32($1) }),
        HistoryColumn(name: "vram_used", rollUp: .maximum, since: 4, range: .bytes,
                      bind: { $0.bind($1, $2.vramUsedBytes) },
                      read: { $2.vramUsedBytes = $0.isNull($1) ? nil : $0.uint64($1) }),
    ]

    /// Listed history column `i` (``ListedHistory/columns``): its part's figure of the first
    /// reading, a value out of the column's range (an edited file) clamped as a batch's is.
    static func listed(_ i: Int) -> HistoryColumn {
        let column = ListedHistory.columns[i], range = column.range, heading = column.history.heading
        let rollUp: RollUp
        switch column.history.rollUp {
        case .average: rollUp = .average
        case .maximum: rollUp = .maximum
        case .last: rollUp = .lastGiven
        }
        let what = "a " + String(decoding: UnsafeBufferPointer(start: heading.utf8Start, count: heading.utf8CodeUnitCount), as: UTF8.self) + " figure"
        return HistoryColumn(name: Schema.listedColumnName(i), rollUp: rollUp, since: Schema.listedColumnVersion(i),
                             range: ValueRange(lowest: range.lowerBound, highest: range.upperBound, what: what),
                             bind: { $0.bind($1, $2.listed[i]) },
                             read: { $2.listed[i] = $0.isNull($1) ? nil : min(max($0.int64($1), range.lowerBound), range.upperBound) })
    }

    /// Its value for an hour, from the minutes of `samples` before `?1` grouped by hour.
    var hourValue: String {
        let c = name
        switch rollUp {
        case .average: return "CAST(round(avg(\(c))) AS INTEGER)"
        case .maximum: return "max(\(c))"
        case .total:
            // Summed as a REAL (`total`): `sum` fails the whole statement with "integer
            // overflow" past `Int64.max`, which a hostile or broken counter can reach, and
            // retention would then never run again. A REAL is exact for realistic totals
            // (below 2^53 bytes an hour); the CAST saturates at `Int64.max` and keeps the
            // column's values integers (`restore` checks types).
            return "CASE WHEN count(\(c)) = 0 THEN NULL ELSE CAST(total(\(c)) AS INTEGER) END"
        case .lastMinute, .lastGiven:
            return "(SELECT s2.\(c) FROM samples s2 WHERE s2.minute < ?1" + (rollUp == .lastGiven ? " AND s2.\(c) IS NOT NULL" : "")
                + " AND s2.minute - s2.minute % 3600 = samples.minute - samples.minute % 3600 ORDER BY s2.minute DESC LIMIT 1)"
        }
    }

    /// Its value for an hour rolled up before, merged with the late minutes' (`excluded`):
    /// either NULL gives the other.
    var mergedValue: String {
        let c = name
        switch rollUp {
        case .average:
            return "CASE WHEN \(c) IS NULL THEN excluded.\(c) WHEN excluded.\(c) IS NULL THEN \(c) "
                + "ELSE CAST(round((\(c) * minutes + excluded.\(c) * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER) END"
        case .maximum: return "coalesce(max(\(c), excluded.\(c)), \(c), excluded.\(c))"
        case .lastMinute, .lastGiven: return "coalesce(excluded.\(c), \(c))"
        case .total:
            // An integer `+` that overflows gives a REAL in SQLite; the CAST saturates it back.
            return "CASE WHEN \(c) IS NULL THEN excluded.\(c) WHEN excluded.\(c) IS NULL THEN \(c) "
                + "ELSE CAST(\(c) + excluded.\(c) AS INTEGER) END"
        }
    }
}
