import ProcFS
import Bookmarks
import CSQLite
import CLibc

/// One sqlite3 connection and its cache of prepared statements.
///
/// Statements are prepared once per SQL text and reused (reset, rebound) on every
/// call: the sampler writes once a minute and must not re-prepare each time.
final class Connection {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: Statement] = [:]
    private var isClosed = false

    /// Opens `filename` (a path, or a `file:` URI with `SQLITE_OPEN_URI`) with `flags`.
    init(_ filename: String, flags: Int32, displayPath: String? = nil) throws(StoreError) {
        path = displayPath ?? filename
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(cPath(filename), &db, flags | SQLITE_OPEN_NOMUTEX, nil)   // a path's bytes as given: ProcFS's pathString
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw StoreError(Connection.kind(for: rc), "cannot open \(TerminalText.escape(displayPath ?? filename)): \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    /// Finalizes the cached statements and closes the connection (the last close of a
    /// WAL database checkpoints and removes the -wal file).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in statements.values { sqlite3_finalize(statement.pointer) }
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    static func kind(for rc: Int32) -> StoreError.Kind {
        switch rc & 0xFF {
        case SQLITE_NOTADB: .notSQLite
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_FULL: .full
        case SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_PERM, SQLITE_READONLY: .io
        default: .sqlite
        }
    }

    /// The error for result code `rc` while doing `what`. A full file system is its own kind
    /// whichever way SQLite saw it: SQLITE_FULL when a write of the database or its journal
    /// failed, an SQLITE_IOERR (e.g. extending the -shm file) when the failed call said ENOSPC.
    func error(_ rc: Int32, _ what: String) -> StoreError {
        Connection.error(rc, what, handle: handle, path: path)
    }

    /// ``error(_:_:)`` for the database `handle` whose file is `path`.
    static func error(_ rc: Int32, _ what: String, handle: OpaquePointer?, path: String) -> StoreError {
        var kind = Connection.kind(for: rc)
        if rc & 0xFF == SQLITE_IOERR, Files.isNoSpace(sqlite3_system_errno(handle)) { kind = .full }
        let message = String(cString: sqlite3_errmsg(handle))
        let reason = kind == .full && rc & 0xFF == SQLITE_IOERR ? "\(message) (\(Errno(rawValue: sqlite3_system_errno(handle)).description))" : message
        return StoreError(kind, "\(TerminalText.escape(path)): \(what): \(reason)")
    }

    /// Runs SQL without parameters or results (pragmas, DDL, transaction control).
    /// Never pass data in `sql`: data goes through ``statement(_:)`` bindings.
    func execute(_ sql: String) throws(StoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, "\(sql.prefix(60))") }
    }

    /// The cached prepared statement for `sql`, reset and with its bindings cleared.
    func statement(_ sql: String) throws(StoreError) -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var pointer: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard rc == SQLITE_OK, let pointer else { throw error(rc, "prepare \(sql.prefix(60))") }
        let statement = Statement(pointer: pointer, path: path)
        statements[sql] = statement
        return statement
    }

    /// A single integer from a query such as `PRAGMA user_version`.
    func integer(_ sql: String) throws(StoreError) -> Int64 {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { throw StoreError(.sqlite, "\(TerminalText.escape(path)): \(sql) returned no row") }
        return statement.int64(0)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed if it returns,
    /// rolled back if it throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        // Inside an open transaction the body joins it: the outer one commits or rolls back.
        if sqlite3_get_autocommit(handle) == 0 { return try body() }
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Rows changed by the last statement.
    var changes: Int32 { sqlite3_changes(handle) }

    /// The rows of `PRAGMA integrity_check` (one row "ok" when the file is sound).
    func integrityCheck() throws(StoreError) -> [String] {
        let statement = try statement("PRAGMA integrity_check(20)")
        defer { statement.reset() }
        var rows: [String] = []
        while try statement.step() { rows.append(statement.text(0)) }
        return rows
    }
}

/// A prepared statement owned by a ``Connection``'s cache.
final class Statement {
    let pointer: OpaquePointer
    /// The database's file, for errors. The statement holds no reference to its connection
    /// (which owns its statement cache and finalizes it before it goes): SQLite knows the
    /// statement's database (`sqlite3_db_handle`), and the one behaviour is the same in
    /// Embedded Swift, which has no checked unowned references, and in normal Swift.
    let path: String

    init(pointer: OpaquePointer, path: String) {
        self.pointer = pointer
        self.path = path
    }

    func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(pointer, index, value) }
    func bind(_ index: Int32, _ value: UInt64) { sqlite3_bind_int64(pointer, index, Int64(clamping: value)) }
    func bind(_ index: Int32, _ value: UInt32) { sqlite3_bind_int64(pointer, index, Int64(value)) }
    func bindNull(_ index: Int32) { sqlite3_bind_null(pointer, index) }

    func bind(_ index: Int32, _ value: UInt32?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }

    /// Binds a counter; past `Int64.max` (SQLite's largest integer) it is stored as `Int64.max`.
    func bind(_ index: Int32, _ value: UInt64?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }

    func bind(_ index: Int32, _ value: Int32?) {
        if let value { bind(index, Int64(value)) } else { bindNull(index) }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }

    func bind(_ index: Int32, _ value: UInt8?) {
        if let value { bind(index, Int64(value)) } else { bindNull(index) }
    }

    /// Binds arbitrary bytes as a BLOB (an empty array is an empty BLOB, not NULL).
    func bind(_ index: Int32, blob bytes: [UInt8]) {
        if bytes.isEmpty {
            sqlite3_bind_zeroblob(pointer, index, 0)
            return
        }
        bytes.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(pointer, index, raw.baseAddress, Int32(raw.count), csqlite_transient())
        }
    }

    /// Binds bytes as TEXT (copied by SQLite); the caller makes sure they are UTF-8.
    func bind(_ index: Int32, textBytes bytes: [UInt8]) {
        guard !bytes.isEmpty else {
            _ = sqlite3_bind_text(pointer, index, "", 0, csqlite_transient())
            return
        }
        bytes.withUnsafeBytes { raw in
            let chars = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(pointer, index, chars, Int32(raw.count), csqlite_transient())
        }
    }

    /// Binds text (copied by SQLite); nil binds NULL.
    func bind(_ index: Int32, text: String?) {
        guard var text else { bindNull(index); return }
        text.withUTF8 { utf8 in
            if let base = utf8.baseAddress, utf8.count > 0 {
                let chars = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                _ = sqlite3_bind_text(pointer, index, chars, Int32(utf8.count), csqlite_transient())
            } else {
                _ = sqlite3_bind_text(pointer, index, "", 0, csqlite_transient())
            }
        }
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(pointer)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = Connection.error(rc, "step", handle: sqlite3_db_handle(pointer), path: path)
            sqlite3_reset(pointer)
            throw failure
        }
    }

    /// Steps to completion (a write), then resets.
    func run() throws(StoreError) {
        defer { sqlite3_reset(pointer) }
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }
    func uint64(_ column: Int32) -> UInt64 { UInt64(clamping: int64(column)) }
    func uint32(_ column: Int32) -> UInt32 { UInt32(clamping: int64(column)) }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(pointer, column))
        guard count > 0, let base = sqlite3_column_blob(pointer, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    func text(_ column: Int32) -> String {
        guard let base = sqlite3_column_text(pointer, column) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}
