import CSQLite
import CLibc
import Bookmarks
import ProcFS

extension HistoryDatabase {
    /// Writes a consistent copy of the database to `path` with SQLite's online backup API,
    /// safe while another connection (the sampler) writes. The copy is written to a
    /// temporary file beside `path`, switched to rollback-journal mode (one self-contained
    /// file), synced, then renamed over `path`: `path` is either the old file or the whole copy.
    public func backup(to path: String) throws(StoreError) {
        try HistoryDatabase.onlineBackup(from: connection, to: path)
    }

    static func onlineBackup(from source: Connection, to path: String) throws(StoreError) {
        let temporary = path + ".tmp-" + Files.processTag
        Files.remove(temporary)
        do throws(StoreError) {
            try Files.createPrivateFile(temporary)
            let destination = try Connection(temporary, flags: SQLITE_OPEN_READWRITE)
            defer { destination.close() }
            guard let backup = sqlite3_backup_init(destination.handle, "main", source.handle, "main") else {
                throw destination.error(sqlite3_errcode(destination.handle), "backup of \(TerminalText.escape(source.path))")
            }
            var rc: Int32
            var attempts = 0
            repeat {
                rc = sqlite3_backup_step(backup, -1)
                if rc == SQLITE_BUSY || rc == SQLITE_LOCKED {
                    attempts += 1
                    sqlite3_sleep(20)
                }
            } while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && attempts < 500
            let finish = sqlite3_backup_finish(backup)
            guard rc == SQLITE_DONE, finish == SQLITE_OK else {
                throw StoreError(Connection.kind(for: rc == SQLITE_DONE ? finish : rc),
                                 "backup of \(TerminalText.escape(source.path)) failed: \(String(cString: sqlite3_errstr(rc == SQLITE_DONE ? finish : rc)))")
            }
            try destination.execute("PRAGMA journal_mode = DELETE")
            destination.close()
            try Files.fsyncFile(temporary)
            try Files.rename(temporary, to: path)
            Files.syncDirectory(Files.directory(of: path))
        } catch {
            Files.remove(temporary)
            Files.remove(temporary + "-journal")
            throw error
        }
    }

    /// Checks that `path` could replace the history database, without modifying it
    /// (opened read-only and immutable, so not even -wal/-shm files appear beside it).
    /// Returns its schema version. Refuses, each with its own one-line message:
    /// an empty file, a file without the SQLite header (random bytes), a file shorter than
    /// its header says (truncated), a file failing `PRAGMA integrity_check`, another
    /// application's database (application_id), a database from a newer build (user_version),
    /// a schema other than exactly that of its user_version (``checkSchema(_:version:path:)``:
    /// triggers, views, extra or missing tables, columns, indexes), and a value sysstats never
    /// writes (``checkContent(_:version:path:limits:)``: types, ranges, lengths, row counts, bookmarks).
    public static func checkRestorable(_ path: String) throws(StoreError) -> Int32 {
        let (size, header) = try Files.sizeAndPrefix(path, count: 100)
        if size == 0 {
            throw StoreError(.empty, "\(TerminalText.escape(path)) is empty (0 bytes): not a sysstats backup")
        }
        let magic = Array("SQLite format 3".utf8) + [0]
        guard header.count == 100, Array(header[0..<16]) == magic else {
            throw StoreError(.notSQLite, "\(TerminalText.escape(path)) is not an SQLite database (it does not start with the SQLite header)")
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw StoreError(.corrupt, "\(TerminalText.escape(path)) is damaged: its header gives an impossible page size (\(rawPageSize))")
        }
        let pageCount = Int(header[28]) << 24 | Int(header[29]) << 16 | Int(header[30]) << 8 | Int(header[31])
        let countIsValid = header[92..<96] == header[24..<28] && pageCount > 0
        if size % pageSize != 0 || (countIsValid && size < pageCount * pageSize) {
            let expected = countIsValid ? "\(pageCount * pageSize) bytes (\(pageCount) pages of \(pageSize))" : "whole pages of \(pageSize) bytes"
            throw StoreError(.truncated, "\(TerminalText.escape(path)) is truncated: its header says \(expected), the file has \(size) bytes")
        }

        let connection: Connection
        do {
            connection = try Connection("file:" + uriEscaped(path) + "?immutable=1", flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                                        displayPath: path)
        } catch {
            throw StoreError(.corrupt, "\(TerminalText.escape(path)) cannot be opened as an SQLite database: \(error.message)")
        }
        defer { connection.close() }
        let problems: [String]
        do {
            problems = try connection.integrityCheck()
        } catch {
            throw StoreError(.corrupt, "\(TerminalText.escape(path)) is damaged: \(error.message)")
        }
        guard problems == ["ok"] else {
            let complaints = problems.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("*** ") }
            let more = complaints.count > 1 ? " (and \(complaints.count - 1) more)" : ""
            throw StoreError(.corrupt, "\(TerminalText.escape(path)) is damaged: integrity_check says: \(complaints.first ?? "nothing")\(more)")
        }
        let version = try checkOwnership(connection)
        guard version > 0 else {
            throw StoreError(.foreignApplication, "\(TerminalText.escape(path)) is not a sysstats history database (no schema)")
        }
        try checkSchema(connection, version: version, path: path)
        try checkContent(connection, version: version, path: path)
        return version
    }

    /// Replaces the database at `databasePath` with the backup `candidate`.
    ///
    /// Checks the candidate (``checkRestorable(_:)``), copies it to a temporary file beside
    /// the database, migrates the copy if it is older, and checks the copy again. Only then the
    /// current database (with its WAL content) is kept as `history.sqlite.bak` via the online
    /// backup API (a raw copy if it cannot be read), its WAL is checkpointed and emptied, the
    /// copy is renamed over it, and the old -wal/-shm files are removed. Before that point any
    /// failure leaves the current database byte-for-byte unchanged. Refused while another process
    /// has the database open (the sampler must be stopped, or close it, first). Last, the
    /// bookmarks rules cache beside it is rewritten from the restored bookmarks.
    public static func restore(from candidate: String, into databasePath: String) throws(StoreError) {
        _ = try checkRestorable(candidate)
        let directory = Files.directory(of: databasePath)
        try Files.makeDirectories(directory)
        // Held until the new file is in place: no sampler or writer starts meanwhile.
        let lock = try lockDataDirectory(directory)
        defer { withExtendedLifetime(lock) {} }
        if Files.isOpenInAnotherProcess(shmPath: databasePath + "-shm") {
            throw StoreError(.busy, "\(TerminalText.escape(databasePath)) is open in another process (stop sysstatsd first, then restore)")
        }
        let copy = databasePath + ".restore-" + Files.processTag
        let removeCopy = {
            Files.remove(copy)
            Files.remove(copy + "-wal")
            Files.remove(copy + "-shm")
            Files.remove(copy + "-journal")
        }
        removeCopy()
        do throws(StoreError) {
            try Files.copy(candidate, to: copy)
            let rulesCache: [UInt8]
            do {
                let migrated = try HistoryDatabase(path: copy)
                // The restored bookmarks, for the sampler's rules cache once the copy is in place.
                rulesCache = try migrated.rulesCache()
                try migrated.checkpoint()
                try migrated.connection.execute("PRAGMA journal_mode = DELETE")
                migrated.close()
            }
            _ = try checkRestorable(copy)

            if Files.exists(databasePath) {
                let kept = databasePath + ".bak"
                do throws(StoreError) {
                    let current = try Connection(databasePath, flags: SQLITE_OPEN_READWRITE)
                    defer { current.close() }
                    sqlite3_busy_timeout(current.handle, 5000)
                    try onlineBackup(from: current, to: kept)
                    try current.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                } catch let error where error.kind == .busy {
                    throw StoreError(.busy, "\(TerminalText.escape(databasePath)) is in use (stop sysstatsd first): \(error.message)")
                } catch {
                    // The current file is unreadable (the reason to restore): keep its bytes as they are.
                    Files.remove(kept + ".tmp-" + Files.processTag)
                    Files.remove(kept)
                    try Files.copy(databasePath, to: kept)
                }
            }
            try Files.rename(copy, to: databasePath)
            Files.remove(databasePath + "-wal")
            Files.remove(databasePath + "-shm")
            Files.syncDirectory(directory)
            // The restore is done; a rules cache that cannot be written is removed rather than
            // left stale (the sampler then uses its built-in rules, sysstatsd-history rewrites it).
            let cachePath = rulesCachePath(in: directory)
            do throws(StoreError) {
                try Files.writeAtomically(rulesCache, to: cachePath)
            } catch {
                Files.remove(cachePath)
            }
        } catch {
            removeCopy()
            throw error
        }
    }

    /// The data directory's exclusive lock (``DataDirectoryLock``); refused (``StoreError/Kind/busy``)
    /// while a sampler or writer holds its shared lock.
    public static func lockDataDirectory(_ directory: String) throws(StoreError) -> DataDirectoryLock {
        switch DataDirectoryLock.exclusive(directory) {
        case .success(let lock): return lock
        case .failure(.inUse(let message)): throw StoreError(.busy, TerminalText.escape(message))
        case .failure(let failure): throw StoreError(.io, TerminalText.escape(failure.message))
        }
    }

    /// `path` escaped for an SQLite `file:` URI: every byte but unreserved ones and "/" as %XX.
    static func uriEscaped(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in pathBytes(path) {   // the bytes the path names (ProcFS's pathString)
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
