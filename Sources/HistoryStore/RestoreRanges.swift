import SnapshotCodec

// What `restore` checks of every INTEGER column beyond its type: that each value is in the
// range the writer stores there. A backup with `mem_used_kib = 9223372036854775807` was
// restored "contents ok", and every `history --png` then trapped on the sum of two memory
// figures; a boot in the year 219250468 printed as garbage.

/// The values an INTEGER column may hold, and what they are in a message.
struct ValueRange {
    var lowest: Int64
    var highest: Int64
    var what: String

    /// A unix time, seconds: up to the last second a four-digit year prints.
    static let time = ValueRange(lowest: 0, highest: HistoryDatabase.latestTime, what: "a unix time up to 9999-12-31")
    /// A memory figure, KiB: ``MinuteSample/maximumKiB`` at most.
    static let kib = ValueRange(lowest: 0, highest: Int64(MinuteSample.maximumKiB), what: "KiB, at most 2^50")
    /// A share, hundredths of a percent.
    static let share = ValueRange(lowest: 0, highest: 10_000, what: "hundredths of a percent")
    /// A byte count the sampler sums (and stores saturated at SQLite's largest integer).
    static let bytes = ValueRange(lowest: 0, highest: .max, what: "bytes")
    /// A figure the sampler keeps as a UInt32 (load ×100, a process count, a pid).
    static let uint32 = ValueRange(lowest: 0, highest: Int64(UInt32.max), what: "a 32-bit count")
    /// A row id SQLite assigned.
    static let id = ValueRange(lowest: 1, highest: .max, what: "a row id")
}

extension HistoryDatabase {
    /// 9999-12-31 23:59:59 UTC, the latest time a restored database may hold, unix seconds.
    public static let latestTime: Int64 = 253_402_300_799

    /// Columns and their ranges, in the order a refusal looks at them.
    typealias ColumnRanges = [(column: String, range: ValueRange)]

    /// The range of each INTEGER column, by table: what the sampler, retention and the
    /// bookmark commands write (a real sampler's figures, clamped where it reads them).
    static let valueRanges: [String: ColumnRanges] = {
        let figures: ColumnRanges = HistoryColumn.all.map { ($0.name, $0.range) }
        let minutes = ValueRange(lowest: 1, highest: Int64(UInt32.max), what: "a count of minutes")
        let timeMs = ValueRange(lowest: 0, highest: latestTime * 1000 + 999, what: "a unix time in ms up to 9999-12-31")
        let samples: ColumnRanges = [("minute", .time)] + figures
        let hourly: ColumnRanges = [("hour", .time), ("minutes", minutes)] + figures
        let boots: ColumnRanges = [("id", .id), ("boot_time", .time), ("first_seen_time", .time), ("last_seen_uptime", .time),
                                   ("last_seen_time", .time), ("clean_end", ValueRange(lowest: 0, highest: 1, what: "0 or 1"))]
        let exits: ColumnRanges = [("id", .id), ("time_ms", timeMs), ("pid", .uint32), ("last_private_kib", .kib), ("freed_kib", .kib)]
        let bookmarks: ColumnRanges = [("id", .id), ("created_at", .time)]
        let unitFigures: ColumnRanges = [("cpu", ValueRange(lowest: 0, highest: Int64(UInt32.max), what: "hundredths of a percent of a core")),
                                         ("mem_bytes", .bytes), ("read_bps", .bytes), ("write_bps", .bytes)]
        let unitMinutes: ColumnRanges = [("minute", .time)] + unitFigures
        let unitHours: ColumnRanges = [("hour", .time), ("minutes", ValueRange(lowest: 1, highest: 60, what: "minutes of an hour"))] + unitFigures
        return ["samples": samples, "hourly_samples": hourly, "boots": boots, "exits": exits, "bookmarks": bookmarks,
                "unit_minutes": unitMinutes, "unit_hours": unitHours]
    }()

    /// Refuses a value of `table` outside its column's range (``valueRanges``), naming the
    /// row, the column, the value and the range. Columns the candidate's version lacks are
    /// not asked for; NULL is never out of range (`checkTypes` says where it may be).
    static func checkRanges(_ candidate: Connection, table: String, columns: [ColumnInfo],
                            path: String) throws(StoreError) {
        let checked = (valueRanges[table] ?? []).filter { entry in columns.contains { $0.name == entry.column } }
        guard !checked.isEmpty else { return }
        let selected = checked.map { identifier($0.column) }.joined(separator: ", ")
        let condition = checked.map { "\(identifier($0.column)) NOT BETWEEN \($0.range.lowest) AND \($0.range.highest)" }
            .joined(separator: " OR ")
        let query = try candidate.statement("SELECT rowid, \(selected) FROM \(identifier(table)) WHERE \(condition) LIMIT 1")
        defer { query.reset() }
        guard try query.step() else { return }
        for (index, entry) in checked.enumerated() {
            let column = Int32(index + 1)
            guard !query.isNull(column) else { continue }
            let value = query.int64(column), range = entry.range
            if value < range.lowest || value > range.highest {
                throw StoreError(.invalidContent, "\(path) has a value out of range: \(table) row \(query.int64(0)), "
                                 + "\(entry.column) is \(value) (expected \(range.lowest) to \(range.highest): \(range.what))")
            }
        }
    }
}
