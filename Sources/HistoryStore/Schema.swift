import SnapshotCodec

/// One step of the schema. Migrations are add-only: a released one is never edited
/// or removed; a change is a new migration appended to ``Schema/migrations``.
struct Migration {
    var name: String
    var sql: String
}

enum Schema {
    /// Every migration in order; `PRAGMA user_version` is the number applied: the written
    /// ones, one per listed part's history column released before the unit tables, the
    /// written ones after them, then one per later listed column. A released migration
    /// keeps its number.
    static let migrations: [Migration] = written + Array(listedColumnMigrations.prefix(listedColumnsBeforeUnits))
        + writtenAfterListed + Array(listedColumnMigrations.dropFirst(listedColumnsBeforeUnits))

    /// The listed columns released before ``writtenAfterListed`` (fans' and power's).
    static let listedColumnsBeforeUnits = 2

    /// One migration per ``ListedHistory/columns`` entry, in its order (which only grows at
    /// its end, so each stays the migration it was): the column on minute and hourly rows,
    /// NULL in every row written before.
    static let listedColumnMigrations: [Migration] = {
        var list: [Migration] = []
        for i in 0..<min(ListedHistory.columns.count, ListedHistory.maximumColumns) {
            let column = listedColumnName(i)
            list.append(Migration(name: "\(listedColumnVersion(i)): samples \(column)", sql: """
                ALTER TABLE samples ADD COLUMN \(column) INTEGER;
                ALTER TABLE hourly_samples ADD COLUMN \(column) INTEGER;
                """))
        }
        return list
    }()

    /// Listed history column `i`'s name (`[a-z0-9_]`, checked by a test: it is spliced into SQL).
    static func listedColumnName(_ i: Int) -> String {
        let name = ListedHistory.columns[i].history.column
        return String(decoding: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), as: UTF8.self)
    }

    /// The schema version that added listed column `i`.
    static func listedColumnVersion(_ i: Int) -> Int32 {
        Int32(written.count + i + 1 + (i < listedColumnsBeforeUnits ? 0 : writtenAfterListed.count))
    }

    /// The schema version that added `unit_minutes` and `unit_hours`.
    static var unitTablesVersion: Int32 { Int32(written.count + listedColumnsBeforeUnits + 1) }

    /// The hand-written migrations released after the first listed columns.
    static let writtenAfterListed: [Migration] = [
        // The busiest units of each minute (``UnitMinute``) and, past the unit retention, of
        // each hour: one row per unit (its name and kind) and minute or hour.
        Migration(name: "\(written.count + listedColumnsBeforeUnits + 1): unit_minutes, unit_hours", sql: """
            CREATE TABLE unit_minutes (
                minute INTEGER NOT NULL,
                name BLOB NOT NULL,
                kind TEXT NOT NULL,
                cpu INTEGER NOT NULL,
                mem_bytes INTEGER NOT NULL,
                read_bps INTEGER NOT NULL,
                write_bps INTEGER NOT NULL,
                PRIMARY KEY (minute, name, kind)
            );
            CREATE TABLE unit_hours (
                hour INTEGER NOT NULL,
                name BLOB NOT NULL,
                kind TEXT NOT NULL,
                minutes INTEGER NOT NULL,
                cpu INTEGER NOT NULL,
                mem_bytes INTEGER NOT NULL,
                read_bps INTEGER NOT NULL,
                write_bps INTEGER NOT NULL,
                PRIMARY KEY (hour, name, kind)
            );
            """),
    ]

    /// The hand-written migrations.
    static let written: [Migration] = [
        Migration(name: "1: boots, samples, hourly_samples, exits, bookmarks", sql: """
            CREATE TABLE boots (
                id INTEGER PRIMARY KEY,
                boot_id TEXT NOT NULL UNIQUE,
                boot_time INTEGER NOT NULL,
                first_seen_time INTEGER NOT NULL,
                last_seen_uptime INTEGER NOT NULL,
                last_seen_time INTEGER NOT NULL,
                clean_end INTEGER NOT NULL DEFAULT 0 CHECK (clean_end IN (0, 1))
            );
            CREATE TABLE samples (
                minute INTEGER PRIMARY KEY,
                cpu_avg INTEGER NOT NULL,
                cpu_max INTEGER NOT NULL,
                mem_used_kib INTEGER NOT NULL,
                mem_available_kib INTEGER NOT NULL,
                swap_used_kib INTEGER NOT NULL,
                load1 INTEGER NOT NULL,
                process_count INTEGER NOT NULL,
                battery_percent INTEGER,
                battery_state INTEGER
            );
            CREATE TABLE hourly_samples (
                hour INTEGER PRIMARY KEY,
                minutes INTEGER NOT NULL,
                cpu_avg INTEGER NOT NULL,
                cpu_max INTEGER NOT NULL,
                mem_used_kib INTEGER NOT NULL,
                mem_available_kib INTEGER NOT NULL,
                swap_used_kib INTEGER NOT NULL,
                load1 INTEGER NOT NULL,
                process_count INTEGER NOT NULL,
                battery_percent INTEGER,
                battery_state INTEGER
            );
            CREATE TABLE exits (
                id INTEGER PRIMARY KEY,
                time_ms INTEGER NOT NULL,
                pid INTEGER NOT NULL,
                name BLOB NOT NULL,
                friendly_name TEXT,
                last_private_kib INTEGER NOT NULL,
                freed_kib INTEGER NOT NULL
            );
            CREATE INDEX exits_by_time ON exits (time_ms);
            CREATE TABLE bookmarks (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                pattern BLOB NOT NULL,
                friendly_name TEXT,
                source TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            PRAGMA application_id = \(HistoryDatabase.applicationID);
            """),
        // Bookmarks get their suffix strip (the file format's `strip=` text: none, version,
        // after:X) and one row per (source, kind, pattern, strip): an import updates a rule
        // in place. Rows are read in id order within a source, so ids keep the file order.
        Migration(name: "2: bookmarks strip and key", sql: """
            ALTER TABLE bookmarks ADD COLUMN strip TEXT NOT NULL DEFAULT 'none';
            DELETE FROM bookmarks WHERE id NOT IN (SELECT min(id) FROM bookmarks GROUP BY source, kind, pattern, strip);
            CREATE UNIQUE INDEX bookmarks_by_key ON bookmarks (source, kind, pattern, strip);
            """),
        // Network traffic of the minute (bytes), the hottest CPU temperature (millidegrees
        // Celsius) and the root file system's used share (hundredths of a percent), on minute
        // and hourly rows alike; NULL where not measured, and in every row written before.
        Migration(name: "3: samples network, temperature and root disk", sql: """
            ALTER TABLE samples ADD COLUMN rx_bytes INTEGER;
            ALTER TABLE samples ADD COLUMN tx_bytes INTEGER;
            ALTER TABLE samples ADD COLUMN cpu_temp_mc INTEGER;
            ALTER TABLE samples ADD COLUMN root_used INTEGER;
            ALTER TABLE hourly_samples ADD COLUMN rx_bytes INTEGER;
            ALTER TABLE hourly_samples ADD COLUMN tx_bytes INTEGER;
            ALTER TABLE hourly_samples ADD COLUMN cpu_temp_mc INTEGER;
            ALTER TABLE hourly_samples ADD COLUMN root_used INTEGER;
            """),
        // The busiest GPU's busy share (hundredths of a percent, the minute's average) and the
        // video memory in use (bytes, all GPUs, the minute's largest), on minute and hourly
        // rows; NULL where the GPUs were not measured, and in every row written before.
        Migration(name: "4: samples GPU busy and video memory", sql: """
            ALTER TABLE samples ADD COLUMN gpu_busy INTEGER;
            ALTER TABLE samples ADD COLUMN vram_used INTEGER;
            ALTER TABLE hourly_samples ADD COLUMN gpu_busy INTEGER;
            ALTER TABLE hourly_samples ADD COLUMN vram_used INTEGER;
            """),
    ]

    /// Applies the migrations after `user_version`, each in its own transaction that also
    /// sets `user_version`: an interrupted or failing migration leaves the file at the
    /// version before it.
    static func migrate(_ connection: Connection, migrations: [Migration] = Schema.migrations) throws(StoreError) {
        let current = try connection.integer("PRAGMA user_version")
        guard current < migrations.count else { return }
        for index in Int(current)..<migrations.count {
            let migration = migrations[index]
            do {
                try connection.transaction { () throws(StoreError) in
                    try connection.execute(migration.sql)
                    try connection.execute("PRAGMA user_version = \(index + 1)")
                }
            } catch {
                throw StoreError(error.kind, "\(connection.path): migration \(migration.name) failed: \(error.message)")
            }
        }
    }
}
