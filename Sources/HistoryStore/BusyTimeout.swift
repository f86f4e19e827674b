import CSQLite

extension HistoryDatabase {
    /// How long a write waits for a lock before failing with "database is locked"
    /// (`sqlite3_busy_timeout`). The sampler shortens it to its shutdown deadline.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(connection.handle, max(milliseconds, 0))
    }
}
