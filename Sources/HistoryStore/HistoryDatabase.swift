import CSQLite
import CLibc
import Bookmarks
import SnapshotCodec

/// The history database: the one owner of its connection, schema and migrations.
///
/// The writer (`sysstatsd-history`, started by the sampler) opens it read-write and applies
/// one batch a minute (and one on SIGTERM); the CLI
/// opens it read-only to read. WAL mode lets a reader read while the writer writes;
/// `busy_timeout` (5 s) covers the short moments WAL still needs a lock. Not thread-safe:
/// use one instance per thread.
public final class HistoryDatabase {
    /// `PRAGMA application_id` of every sysstats history file: "SysS".
    public static let applicationID: Int32 = 0x5379_7353
    /// The schema version this build writes (`PRAGMA user_version`): the number of migrations.
    public static var schemaVersion: Int32 { Int32(Schema.migrations.count) }
    /// The oldest schema version a read-only open (the CLI) reads: the versions since added
    /// nullable columns only, read as NULL, so that `sysstats history` and `reboots` work
    /// right after an upgrade, before the new sampler has migrated the file.
    public static let oldestReadableSchemaVersion: Int32 = 3
    /// The database's file name inside the data directory.
    public static let fileName = "history.sqlite"

    /// The data directory: `dataDir` (from `--data-dir`) if given, else `$XDG_DATA_HOME/sysstats`
    /// when XDG_DATA_HOME is absolute, else `$HOME/.local/share/sysstats`; nil when none applies.
    public static func defaultDirectory(dataDir: String? = nil, xdgDataHome: String?, home: String?) -> String? {
        DataDirectory.resolve(dataDir: dataDir, xdgDataHome: xdgDataHome, home: home)
    }

    /// `<directory>/history.sqlite`.
    public static func databasePath(in directory: String) -> String { Files.join(directory, fileName) }

    let connection: Connection
    /// The database file's path.
    public let path: String
    /// True when opened read-only (the CLI).
    public let readOnly: Bool
    /// The file's schema version once opened (read-write: this build's, after migrating).
    public private(set) var version: Int32 = 0
    /// Where every change to the bookmarks is mirrored for the sampler (the rules cache,
    /// Bookmarks.swift): `bookmarks.rules` beside the database unless set otherwise;
    /// nil writes none.
    public var rulesCachePath: String?

    /// Opens the database at `path`.
    ///
    /// Read-write (the sampler): creates the folder (0700) and the file (0600) if missing,
    /// turns on WAL, and applies missing migrations. Read-only (the CLI): the file must exist
    /// and be at least at ``oldestReadableSchemaVersion``. Either way it refuses a file of another
    /// application (application_id) or from a newer build (user_version).
    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        self.readOnly = readOnly
        rulesCachePath = HistoryDatabase.rulesCachePath(in: Files.directory(of: path))
        if readOnly {
            connection = try HistoryDatabase.openForReading(path)
        } else {
            try Files.makeDirectories(Files.directory(of: path))
            try Files.createPrivateFile(path)
            connection = try Connection(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        }
        sqlite3_busy_timeout(connection.handle, 5000)
        try connection.execute("PRAGMA cache_size = -256")   // 256 KiB: the sampler's memory budget is tight
        try connection.execute("PRAGMA foreign_keys = ON")

        let version = try HistoryDatabase.checkOwnership(connection)
        self.version = version
        if version > 0 { try HistoryDatabase.checkTablesAreTables(connection, path) }
        if readOnly {
            if version < HistoryDatabase.oldestReadableSchemaVersion {
                throw StoreError(.olderSchema, "\(TerminalText.escape(path)) has schema version \(version); run sysstatsd once to upgrade it to \(HistoryDatabase.schemaVersion)")
            }
            return
        }
        if version == 0 { try connection.execute("PRAGMA auto_vacuum = INCREMENTAL") }
        let mode = try journalMode("wal")
        guard mode == "wal" else { throw StoreError(.sqlite, "\(TerminalText.escape(path)): cannot turn on WAL (journal_mode is \(mode))") }
        try connection.execute("PRAGMA synchronous = NORMAL")
        try Schema.migrate(connection)
        self.version = HistoryDatabase.schemaVersion
    }

    /// The tables every command reads are tables: a view (or anything else) of one of their
    /// names, planted in the user's file, could compute without end (a recursive view hung
    /// `history` and `exited`). Refused in one line.
    static func checkTablesAreTables(_ connection: Connection, _ path: String) throws(StoreError) {
        let query = try connection.statement("""
            SELECT name, type FROM sqlite_master
            WHERE name IN ('boots', 'samples', 'hourly_samples', 'exits', 'bookmarks') AND type != 'table'
            """)
        defer { query.reset() }
        if try query.step() {
            throw StoreError(.refused, "\(TerminalText.escape(path)): \(TerminalText.escape(query.text(0))) is a "
                             + "\(TerminalText.escape(query.text(1))), not a table: this is not a history database sysstats wrote")
        }
    }

    /// A read-only connection that never needs to write, even to the -shm file.
    ///
    /// A read-only connection to a WAL database still writes: when no other connection has
    /// the database open (the writer is a short-lived process, so usually none has), the last
    /// one to close removed -wal and -shm, and the first reader creates -shm and extends it to
    /// 32 KiB to rebuild the WAL index there; on a full file system that extension fails
    /// (ENOSPC, "disk I/O error"). So when the plain open fails on its first read, it is
    /// opened again with `readonly_shm=1`: SQLite then only reads -shm and, finding it not
    /// initialized by a live connection, builds the WAL index in heap memory from -wal (its
    /// read-only-media path, which requires -wal and -shm to exist: empty ones are created,
    /// which takes an inode and no data blocks). Read locks still guard against a checkpoint
    /// overwriting pages it reads.
    static func openForReading(_ path: String) throws(StoreError) -> Connection {
        let plain = try Connection(path, flags: SQLITE_OPEN_READONLY)
        sqlite3_busy_timeout(plain.handle, 5000)
        do {
            _ = try plain.integer("PRAGMA user_version")   // the first read maps the WAL index
            return plain
        } catch let failure where failure.kind == .full || failure.kind == .io {
            plain.close()
            Files.createEmptyIfMissing(path + "-wal")
            Files.createEmptyIfMissing(path + "-shm")
            do throws(StoreError) {
                let fallback = try Connection("file:" + uriEscaped(path) + "?mode=ro&readonly_shm=1",
                                              flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, displayPath: path)
                sqlite3_busy_timeout(fallback.handle, 5000)
                do throws(StoreError) {
                    _ = try fallback.integer("PRAGMA user_version")
                } catch {
                    fallback.close()
                    throw error
                }
                return fallback
            } catch {
                throw failure   // the first failure says what is wrong
            }
        }
    }

    /// Closes the connection now (also done when the value goes away).
    public func close() { connection.close() }

    private func journalMode(_ mode: String) throws(StoreError) -> String {
        let statement = try connection.statement("PRAGMA journal_mode = " + mode)
        defer { statement.reset() }
        guard try statement.step() else { return "" }
        return statement.text(0)
    }

    /// Checks application_id and user_version; returns user_version.
    static func checkOwnership(_ connection: Connection, schemaVersion: Int32 = HistoryDatabase.schemaVersion) throws(StoreError) -> Int32 {
        let path = connection.path
        let applicationID = Int32(truncatingIfNeeded: try connection.integer("PRAGMA application_id"))
        let version = Int32(truncatingIfNeeded: try connection.integer("PRAGMA user_version"))
        if applicationID != HistoryDatabase.applicationID {
            let tables = try connection.integer("SELECT count(*) FROM sqlite_master")
            if applicationID != 0 || version != 0 || tables != 0 {
                throw StoreError(.foreignApplication, "\(TerminalText.escape(path)) is not a sysstats history database (application_id \(hex(applicationID)), expected \(hex(HistoryDatabase.applicationID)))")
            }
        }
        if version > schemaVersion {
            throw StoreError(.newerSchema, "\(TerminalText.escape(path)) is from a newer sysstats (schema version \(version); this build knows up to \(schemaVersion))")
        }
        return version
    }

    static func hex(_ value: Int32) -> String {
        "0x" + String(UInt32(bitPattern: value), radix: 16)
    }

    // MARK: - Boots

    /// Records the sampler's start in boot `id`. A known id (the sampler restarted in the
    /// same boot) refreshes its row and clears its clean mark; a new id (the machine
    /// rebooted) adds a row, and the previous boot keeps whatever mark it had.
    public func recordBoot(id: String, bootTime: UInt64, uptimeSeconds: UInt64, nowSeconds: UInt64) throws(StoreError) -> BootOutcome {
        try connection.transaction { () throws(StoreError) -> BootOutcome in
            let update = try connection.statement(
                "UPDATE boots SET last_seen_uptime = ?2, last_seen_time = ?3, clean_end = 0 WHERE boot_id = ?1")
            update.bind(1, text: id)
            update.bind(2, uptimeSeconds)
            update.bind(3, nowSeconds)
            try update.run()
            if connection.changes > 0 { return .sameBoot }

            let previous = try latestBoot()
            let insert = try connection.statement("""
                INSERT INTO boots (boot_id, boot_time, first_seen_time, last_seen_uptime, last_seen_time, clean_end)
                VALUES (?1, ?2, ?3, ?4, ?3, 0)
                """)
            insert.bind(1, text: id)
            insert.bind(2, bootTime)
            insert.bind(3, nowSeconds)
            insert.bind(4, uptimeSeconds)
            try insert.run()
            return .newBoot(previous: previous)
        }
    }

    /// Updates boot `id`'s "last seen" (the sampler does this each minute).
    public func refreshBoot(id: String, uptimeSeconds: UInt64, nowSeconds: UInt64) throws(StoreError) {
        try updateBoot(id: id, uptimeSeconds: uptimeSeconds, nowSeconds: nowSeconds, clean: false)
    }

    /// Marks boot `id` as ended cleanly (the sampler's SIGTERM path), with a last "last seen".
    public func markBootClean(id: String, uptimeSeconds: UInt64, nowSeconds: UInt64) throws(StoreError) {
        try updateBoot(id: id, uptimeSeconds: uptimeSeconds, nowSeconds: nowSeconds, clean: true)
    }

    private func updateBoot(id: String, uptimeSeconds: UInt64, nowSeconds: UInt64, clean: Bool) throws(StoreError) {
        let update = try connection.statement(
            "UPDATE boots SET last_seen_uptime = ?2, last_seen_time = ?3, clean_end = ?4 WHERE boot_id = ?1")
        update.bind(1, text: id)
        update.bind(2, uptimeSeconds)
        update.bind(3, nowSeconds)
        update.bind(4, Int64(clean ? 1 : 0))
        try update.run()
        if connection.changes == 0 {
            throw StoreError(.sqlite, "\(TerminalText.escape(path)): boot \(id) was never recorded (call recordBoot first)")
        }
    }

    private func latestBoot() throws(StoreError) -> BootRecord? {
        let query = try connection.statement(
            "SELECT boot_id, boot_time, last_seen_uptime, last_seen_time, clean_end FROM boots ORDER BY first_seen_time DESC, id DESC LIMIT 1")
        defer { query.reset() }
        return try query.step() ? HistoryDatabase.boot(query) : nil
    }

    private static func boot(_ row: Statement) -> BootRecord {
        BootRecord(id: row.text(0), bootTime: row.uint64(1), lastSeenUptime: row.uint64(2),
                   lastSeenTime: row.uint64(3), cleanEnd: row.int64(4) != 0)
    }

    /// Every recorded boot, oldest first.
    public func boots() throws(StoreError) -> [BootRecord] {
        let query = try connection.statement(
            "SELECT boot_id, boot_time, last_seen_uptime, last_seen_time, clean_end FROM boots ORDER BY first_seen_time, id")
        defer { query.reset() }
        var result: [BootRecord] = []
        while try query.step() { result.append(HistoryDatabase.boot(query)) }
        return result
    }

    // MARK: - Samples and exits

    /// Appends minute samples in one transaction. A minute already stored is replaced
    /// (a restarted sampler may write the same minute again). `isHourly` is ignored.
    public func append(samples: [MinuteSample]) throws(StoreError) {
        guard !samples.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            let columns = HistoryColumn.all
            let insert = try connection.statement("""
                INSERT OR REPLACE INTO samples (minute, \(columns.map { $0.name }.joined(separator: ", ")))
                VALUES (?1\(columns.indices.map { ", ?\($0 + 2)" }.joined()))
                """)
            for s in samples {
                insert.bind(1, s.minute)
                for i in columns.indices { columns[i].bind(insert, Int32(i + 2), s) }
                try insert.run()
            }
        }
    }

    /// Appends process exits in one transaction.
    public func append(exits: [ExitRecord]) throws(StoreError) {
        guard !exits.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            let insert = try connection.statement("""
                INSERT INTO exits (time_ms, pid, name, friendly_name, last_private_kib, freed_kib)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """)
            for e in exits {
                insert.bind(1, e.timeMs)
                insert.bind(2, e.pid)
                insert.bind(3, blob: e.name)
                insert.bind(4, text: e.friendlyName)
                insert.bind(5, e.lastPrivateKiB)
                insert.bind(6, e.freedKiB)
                try insert.run()
            }
        }
    }

    /// Samples whose start is in `from..<to` (unix seconds), oldest first: minute rows, and
    /// hourly rows (``MinuteSample/isHourly`` true, `minute` = start of the hour) where the
    /// minutes were rolled up by retention. Minute and hourly rows never cover the same time.
    public func samples(from: UInt64, to: UInt64) throws(StoreError) -> [MinuteSample] {
        // A file not yet migrated (read-only, right after an upgrade) lacks the columns added
        // since: NULL in their place.
        let columns = HistoryColumn.all
        let selected = columns.map { version >= $0.since ? $0.name : "NULL" }.joined(separator: ", ")
        let query = try connection.statement("""
            SELECT hour, 1, \(selected) FROM hourly_samples WHERE hour >= ?1 AND hour < ?2
            UNION ALL
            SELECT minute, 0, \(selected) FROM samples WHERE minute >= ?1 AND minute < ?2
            ORDER BY 1, 2 DESC
            """)
        defer { query.reset() }
        query.bind(1, from)
        query.bind(2, to)
        var result: [MinuteSample] = []
        while try query.step() {
            var sample = MinuteSample(minute: query.uint64(0), cpuAverage: 0, cpuMaximum: 0, memoryUsedKiB: 0,
                                      memoryAvailableKiB: 0, swapUsedKiB: 0, load1: 0, processCount: 0,
                                      isHourly: query.int64(1) != 0)
            for i in columns.indices { columns[i].read(query, Int32(i + 2), &sample) }
            result.append(sample)
        }
        return result
    }

    /// Exits at or after `sinceMs` (unix milliseconds), oldest first. Names are cut to what
    /// the writer stores (``HistoryBatch/maximumNameBytes``) as they are read: a live database
    /// anyone with the user's rights could have edited held 20–50 MB names, and `exited
    /// --json` took 1.2 GB for them.
    public func exits(sinceMs: UInt64) throws(StoreError) -> [ExitRecord] {
        let n = HistoryBatch.maximumNameBytes
        let query = try connection.statement("""
            SELECT time_ms, pid, substr(CAST(name AS BLOB), 1, \(n)),
                   CAST(substr(CAST(friendly_name AS BLOB), 1, \(n)) AS TEXT), last_private_kib, freed_kib FROM exits
            WHERE time_ms >= ?1 ORDER BY time_ms, id
            """)
        defer { query.reset() }
        query.bind(1, sinceMs)
        var result: [ExitRecord] = []
        while try query.step() {
            result.append(ExitRecord(
                timeMs: query.uint64(0), pid: query.uint32(1), name: query.blob(2),
                friendlyName: query.isNull(3) ? nil : query.text(3),
                lastPrivateKiB: query.uint64(4), freedKiB: query.uint64(5)))
        }
        return result
    }

    /// Writes all WAL content into the main file and empties the WAL (for measurements and before a restore).
    public func checkpoint() throws(StoreError) {
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// `PRAGMA integrity_check`: nil when "ok", else its first complaint.
    public func integrityProblem() throws(StoreError) -> String? {
        let rows = try connection.integrityCheck()
        return rows == ["ok"] ? nil : (rows.first ?? "no result")
    }
}
