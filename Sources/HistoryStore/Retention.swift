import SnapshotCodec

extension HistoryDatabase {
    /// Applies `policy` at time `nowSeconds`, in one transaction: minute samples older than
    /// the minute retention are rolled up into hourly rows (whole hours only; averages of the
    /// minute averages, maximum of the minute maxima, battery state of the hour's last minute;
    /// traffic summed, the hottest temperature and the most video memory, the root file
    /// system's used share and the GPU's busy share averaged over the minutes that measured
    /// them), then deleted; hourly rows and boots last seen
    /// before the hourly retention are deleted; exits older than the exit retention are deleted;
    /// the unit tables are kept as ``applyUnitRetention(hourCutoff:hourlyCutoff:)`` says. Freed pages are returned to the file
    /// system (incremental vacuum). The sampler calls it at start and then about hourly.
    public func applyRetention(nowSeconds: UInt64, policy: RetentionPolicy = .default) throws(StoreError) {
        let minuteCutoff = nowSeconds > policy.minuteSamplesSeconds ? nowSeconds - policy.minuteSamplesSeconds : 0
        let hourCutoff = minuteCutoff - minuteCutoff % 3600
        let hourlyCutoff = nowSeconds > policy.hourlySamplesSeconds ? nowSeconds - policy.hourlySamplesSeconds : 0
        let exitCutoff = nowSeconds > policy.exitsSeconds ? nowSeconds - policy.exitsSeconds : 0
        let unitMinuteCutoff = nowSeconds > policy.unitMinutesSeconds ? nowSeconds - policy.unitMinutesSeconds : 0
        let unitHourCutoff = nowSeconds > policy.unitHoursSeconds ? nowSeconds - policy.unitHoursSeconds : 0
        try connection.transaction { () throws(StoreError) in
            // An hour rolled up earlier (minutes written late) is merged, weighted by minutes.
            let rollUp = try connection.statement("""
                INSERT INTO hourly_samples (hour, minutes, cpu_avg, cpu_max, mem_used_kib, mem_available_kib,
                    swap_used_kib, load1, process_count, battery_percent, battery_state,
                    rx_bytes, tx_bytes, cpu_temp_mc, root_used, gpu_busy, vram_used\(Self.listedNames))
                SELECT minute - minute % 3600 AS h, count(*),
                    CAST(round(avg(cpu_avg)) AS INTEGER), max(cpu_max),
                    CAST(round(avg(mem_used_kib)) AS INTEGER), CAST(round(avg(mem_available_kib)) AS INTEGER),
                    CAST(round(avg(swap_used_kib)) AS INTEGER), CAST(round(avg(load1)) AS INTEGER),
                    CAST(round(avg(process_count)) AS INTEGER), CAST(round(avg(battery_percent)) AS INTEGER),
                    (SELECT s2.battery_state FROM samples s2 WHERE s2.minute < ?1
                        AND s2.minute - s2.minute % 3600 = samples.minute - samples.minute % 3600
                        ORDER BY s2.minute DESC LIMIT 1),
                    \(Self.hourTotal("rx_bytes")), \(Self.hourTotal("tx_bytes")),
                    max(cpu_temp_mc), CAST(round(avg(root_used)) AS INTEGER),
                    CAST(round(avg(gpu_busy)) AS INTEGER), max(vram_used)\(Self.listedRollUps)
                FROM samples WHERE minute < ?1 GROUP BY h
                ON CONFLICT (hour) DO UPDATE SET
                    cpu_avg = CAST(round((cpu_avg * minutes + excluded.cpu_avg * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER),
                    cpu_max = max(cpu_max, excluded.cpu_max),
                    mem_used_kib = CAST(round((mem_used_kib * minutes + excluded.mem_used_kib * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER),
                    mem_available_kib = CAST(round((mem_available_kib * minutes + excluded.mem_available_kib * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER),
                    swap_used_kib = CAST(round((swap_used_kib * minutes + excluded.swap_used_kib * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER),
                    load1 = CAST(round((load1 * minutes + excluded.load1 * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER),
                    process_count = CAST(round((process_count * minutes + excluded.process_count * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER),
                    battery_percent = CASE WHEN battery_percent IS NULL THEN excluded.battery_percent
                        WHEN excluded.battery_percent IS NULL THEN battery_percent
                        ELSE CAST(round((battery_percent * minutes + excluded.battery_percent * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER) END,
                    battery_state = coalesce(excluded.battery_state, battery_state),
                    rx_bytes = \(Self.mergedTotal("rx_bytes")),
                    tx_bytes = \(Self.mergedTotal("tx_bytes")),
                    cpu_temp_mc = coalesce(max(cpu_temp_mc, excluded.cpu_temp_mc), cpu_temp_mc, excluded.cpu_temp_mc),
                    root_used = CASE WHEN root_used IS NULL THEN excluded.root_used
                        WHEN excluded.root_used IS NULL THEN root_used
                        ELSE CAST(round((root_used * minutes + excluded.root_used * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER) END,
                    gpu_busy = CASE WHEN gpu_busy IS NULL THEN excluded.gpu_busy
                        WHEN excluded.gpu_busy IS NULL THEN gpu_busy
                        ELSE CAST(round((gpu_busy * minutes + excluded.gpu_busy * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER) END,
                    vram_used = coalesce(max(vram_used, excluded.vram_used), vram_used, excluded.vram_used),\(Self.listedMerges)
                    minutes = minutes + excluded.minutes
                """)
            rollUp.bind(1, hourCutoff)
            try rollUp.run()

            try run("DELETE FROM samples WHERE minute < ?1", hourCutoff)
            try run("DELETE FROM hourly_samples WHERE hour < ?1", hourlyCutoff)
            try run("DELETE FROM boots WHERE last_seen_time < ?1", hourlyCutoff)
            try run("DELETE FROM exits WHERE time_ms < ?1", exitCutoff &* 1000)
            try applyUnitRetention(hourCutoff: unitMinuteCutoff - unitMinuteCutoff % 3600, hourlyCutoff: unitHourCutoff)
        }
        try connection.execute("PRAGMA incremental_vacuum")
    }

    /// The listed parts' history columns, each after a comma.
    static var listedNames: String {
        Schema.listedColumnMigrations.indices.map { ", " + Schema.listedColumnName($0) }.joined()
    }

    /// Each listed column's value for the hour, by its roll-up, each after a comma.
    static var listedRollUps: String {
        Schema.listedColumnMigrations.indices.map { i -> String in
            let c = Schema.listedColumnName(i)
            switch ListedHistory.columns[i].history.rollUp {
            case .average: return ", CAST(round(avg(\(c))) AS INTEGER)"
            case .maximum: return ", max(\(c))"
            case .last:
                return ", (SELECT s2.\(c) FROM samples s2 WHERE s2.minute < ?1 AND s2.\(c) IS NOT NULL"
                    + " AND s2.minute - s2.minute % 3600 = samples.minute - samples.minute % 3600 ORDER BY s2.minute DESC LIMIT 1)"
            }
        }.joined()
    }

    /// Each listed column of an hour rolled up before, merged with the late minutes'
    /// (`excluded`), each followed by a comma.
    static var listedMerges: String {
        Schema.listedColumnMigrations.indices.map { i -> String in
            let c = Schema.listedColumnName(i)
            switch ListedHistory.columns[i].history.rollUp {
            case .average:
                return "\n\(c) = CASE WHEN \(c) IS NULL THEN excluded.\(c) WHEN excluded.\(c) IS NULL THEN \(c) "
                    + "ELSE CAST(round((\(c) * minutes + excluded.\(c) * excluded.minutes) * 1.0 / (minutes + excluded.minutes)) AS INTEGER) END,"
            case .maximum: return "\n\(c) = coalesce(max(\(c), excluded.\(c)), \(c), excluded.\(c)),"
            case .last: return "\n\(c) = coalesce(excluded.\(c), \(c)),"
            }
        }.joined()
    }

    /// The sum of an hour's byte counts, NULL when no minute has one. Summed as a REAL
    /// (`total`): `sum` fails the whole statement with "integer overflow" past `Int64.max`,
    /// which a hostile or broken counter can reach, and retention would then never run
    /// again. A REAL is exact for realistic totals (below 2^53 bytes an hour); the CAST
    /// saturates at `Int64.max` and keeps the column's values integers (`restore` checks types).
    static func hourTotal(_ column: String) -> String {
        "CASE WHEN count(\(column)) = 0 THEN NULL ELSE CAST(total(\(column)) AS INTEGER) END"
    }

    /// An hour's byte count plus the late minutes' (`excluded`), either NULL: the other. An
    /// integer `+` that overflows gives a REAL in SQLite; the CAST saturates it back.
    static func mergedTotal(_ column: String) -> String {
        "CASE WHEN \(column) IS NULL THEN excluded.\(column) WHEN excluded.\(column) IS NULL THEN \(column) "
            + "ELSE CAST(\(column) + excluded.\(column) AS INTEGER) END"
    }

    /// Runs `sql` with `value` bound as `?1` (a prepared statement, cached by its text).
    func run(_ sql: String, _ value: UInt64) throws(StoreError) {
        let statement = try connection.statement(sql)
        statement.bind(1, value)
        try statement.run()
    }
}
