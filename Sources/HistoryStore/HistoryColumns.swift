import SnapshotCodec
import HistoryRecords

// The columns of `samples` and `hourly_samples` after the minute (or hour), described once:
// the row's insert, its read, the retention's roll-up and merge, and `restore`'s range checks
// are made from this table. The fixed columns are the minute's own figures; the listed
// parts' columns follow, made from their figure tables (``ListedHistory``). The migrations
// that added the columns stay as they were released (Schema.swift).

/// One figure column of `samples` and `hourly_samples`.
struct HistoryColumn: Sendable {
    /// How an hour's minutes become its value, and how an hour rolled up before takes minutes
    /// written late (weighted by minutes where it is a mean).
    typealias RollUp = MinuteFigure.RollUp

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

    /// The minute's own figures (``MinuteFigure/all``), in the order they were added.
    static let fixed: [HistoryColumn] = MinuteFigure.all.map { f in
        HistoryColumn(name: f.column.description, rollUp: f.rollUp, since: f.schemaVersion, range: range(f.range),
                      bind: { $0.bind($1, f.number($2)) },
                      read: { s, i, sample in f.store(&sample, number: s.isNull(i) ? nil : s.int64(i)) })
    }

    /// A minute figure's range as `restore` names it.
    private static func range(_ r: MinuteFigure.Range) -> ValueRange {
        switch r {
        case .share: return .share
        case .kib: return .kib
        case .bytes: return .bytes
        case .uint32: return .uint32
        case .other(let lowest, let highest, let what): return ValueRange(lowest: lowest, highest: highest, what: what.description)
        }
    }

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
