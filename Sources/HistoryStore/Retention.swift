import SnapshotCodec

extension HistoryDatabase {
    /// Applies `policy` at time `nowSeconds`, in one transaction: minute samples older than
    /// the minute retention are rolled up into hourly rows (whole hours only; each column as
    /// its ``HistoryColumn/RollUp`` says: averages of the minutes that measured it, the
    /// largest, the hour's last minute's, a total), then deleted; hourly rows and boots last seen
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
            let rollUp = try connection.statement(Self.rollUpSQL)
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

    /// Rolls the minutes before `?1` up into their hours (``HistoryColumn/hourValue``), merging
    /// into an hour rolled up before (``HistoryColumn/mergedValue``).
    static let rollUpSQL: String = {
        let columns = HistoryColumn.all
        return """
            INSERT INTO hourly_samples (hour, minutes, \(columns.map { $0.name }.joined(separator: ", ")))
            SELECT minute - minute % 3600 AS h, count(*),
                \(columns.map { $0.hourValue }.joined(separator: ",\n    "))
            FROM samples WHERE minute < ?1 GROUP BY h
            ON CONFLICT (hour) DO UPDATE SET
                \(columns.map { "\($0.name) = \($0.mergedValue)," }.joined(separator: "\n    "))
                minutes = minutes + excluded.minutes
            """
    }()

    /// Runs `sql` with `value` bound as `?1` (a prepared statement, cached by its text).
    func run(_ sql: String, _ value: UInt64) throws(StoreError) {
        let statement = try connection.statement(sql)
        statement.bind(1, value)
        try statement.run()
    }
}
