import HistoryRecords

// The busiest units of each minute (`unit_minutes`) and, past the unit retention, of each hour
// (`unit_hours`): what `sysstats history --units` reads. An hour row's figures are the hour's
// averages with a minute the unit was not among the busiest counting 0, so an hour rolled up
// twice (minutes written late) adds up.

extension HistoryDatabase {
    /// The most unit rows a restored database may hold per minute and per hour kept.
    static let unitRowsPerMinute = 8, unitRowsPerHour = 10

    /// Appends the units of some minutes; a unit's minute already stored is replaced.
    public func append(units: [UnitMinute]) throws(StoreError) {
        guard !units.isEmpty, version >= Schema.unitTablesVersion else { return }
        try connection.transaction { () throws(StoreError) in
            let insert = try connection.statement("""
                INSERT OR REPLACE INTO unit_minutes (minute, name, kind, cpu, mem_bytes, read_bps, write_bps)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """)
            for u in units where !u.name.isEmpty {
                insert.bind(1, u.minute)
                insert.bind(2, blob: Array(u.name.prefix(UnitMinute.maximumNameBytes)))
                insert.bind(3, text: String(decoding: u.kind.prefix(UnitMinute.maximumKindBytes), as: UTF8.self))
                insert.bind(4, u.cpuPermyriad)
                insert.bind(5, u.memoryBytes)
                insert.bind(6, u.readBytesPerSecond)
                insert.bind(7, u.writeBytesPerSecond)
                try insert.run()
            }
        }
    }

    /// Unit rows whose minute (or hour) starts in `from..<to`, oldest first: minute rows, and
    /// hourly rows (``UnitMinute/isHourly``) where retention rolled the minutes up. Empty for
    /// a file from before the unit tables.
    public func units(from: UInt64, to: UInt64) throws(StoreError) -> [UnitMinute] {
        guard version >= Schema.unitTablesVersion else { return [] }
        let n = UnitMinute.maximumNameBytes, k = UnitMinute.maximumKindBytes
        let query = try connection.statement("""
            SELECT hour, substr(CAST(name AS BLOB), 1, \(n)), substr(CAST(kind AS BLOB), 1, \(k)), minutes, cpu, mem_bytes,
                   read_bps, write_bps, 1 FROM unit_hours WHERE hour >= ?1 AND hour < ?2
            UNION ALL
            SELECT minute, substr(CAST(name AS BLOB), 1, \(n)), substr(CAST(kind AS BLOB), 1, \(k)), 1, cpu, mem_bytes,
                   read_bps, write_bps, 0 FROM unit_minutes WHERE minute >= ?1 AND minute < ?2
            ORDER BY 1, 9 DESC, 5 DESC, 6 DESC
            """)
        defer { query.reset() }
        query.bind(1, from)
        query.bind(2, to)
        var result: [UnitMinute] = []
        while try query.step() {
            result.append(UnitMinute(minute: query.uint64(0), name: query.blob(1), kind: query.blob(2),
                                     cpuPermyriad: query.uint32(4), memoryBytes: query.uint64(5),
                                     readBytesPerSecond: query.uint64(6), writeBytesPerSecond: query.uint64(7),
                                     minutes: max(1, min(60, query.uint32(3))), isHourly: query.int64(8) != 0))
        }
        return result
    }

    /// Retention of the unit tables, inside ``applyRetention(nowSeconds:policy:)``'s
    /// transaction: unit minutes before `hourCutoff` rolled up into hours (each hour's
    /// ``unitRowsPerHour`` busiest kept), unit hours before `hourlyCutoff` deleted.
    func applyUnitRetention(hourCutoff: UInt64, hourlyCutoff: UInt64) throws(StoreError) {
        guard version >= Schema.unitTablesVersion else { return }
        let rollUp = try connection.statement("""
            INSERT INTO unit_hours (hour, name, kind, minutes, cpu, mem_bytes, read_bps, write_bps)
            SELECT minute - minute % 3600, name, kind, count(*), CAST(round(total(cpu) / 60) AS INTEGER), max(mem_bytes),
                CAST(round(total(read_bps) / 60) AS INTEGER), CAST(round(total(write_bps) / 60) AS INTEGER)
            FROM unit_minutes WHERE minute < ?1 GROUP BY 1, 2, 3
            ON CONFLICT (hour, name, kind) DO UPDATE SET
                minutes = min(60, minutes + excluded.minutes),
                cpu = CAST(min(cpu + excluded.cpu, 4294967295) AS INTEGER),
                mem_bytes = max(mem_bytes, excluded.mem_bytes),
                read_bps = CAST(read_bps + excluded.read_bps AS INTEGER),
                write_bps = CAST(write_bps + excluded.write_bps AS INTEGER)
            """)
        rollUp.bind(1, hourCutoff)
        try rollUp.run()
        try run("""
            DELETE FROM unit_hours WHERE rowid IN (SELECT rowid FROM (SELECT rowid, row_number() OVER
                (PARTITION BY hour ORDER BY cpu DESC, mem_bytes DESC) AS place FROM unit_hours WHERE hour < ?1)
                WHERE place > \(Self.unitRowsPerHour))
            """, hourCutoff)
        try run("DELETE FROM unit_minutes WHERE minute < ?1", hourCutoff)
        try run("DELETE FROM unit_hours WHERE hour < ?1", hourlyCutoff)
    }
}
