import Bookmarks
import CSQLite

// What `restore` checks beyond the file being a sound SQLite database of ours: that its
// schema is exactly the one its user_version stands for, and that every value is one
// sysstats could have written. A backup is a file from anywhere; a trigger, a view or an
// odd column in it would otherwise run inside every later write of the sampler.

/// How many rows a restored database may hold per table, derived from a retention policy:
/// the most a database kept under that policy can hold, with room to spare. Anything larger
/// is refused by `restore` rather than handed to the sampler and the CLI.
public struct RestoreLimits: Equatable, Sendable {
    /// Minute samples: twice the minutes retention keeps (a clock set back can leave future minutes).
    public var samples: Int
    /// Hourly rows: twice the hours retention keeps.
    public var hourlySamples: Int
    /// Boots: one every 15 minutes for as long as retention keeps boots.
    public var boots: Int
    /// Exits: 16 a minute on average for as long as retention keeps exits.
    public var exits: Int
    /// Bookmarks: as many rules as one bookmarks file may hold.
    public var bookmarks: Int
    /// Unit rows: twice the most a minute (an hour) keeps for as long as they are kept.
    public var unitMinutes: Int
    public var unitHours: Int

    /// The limits for `policy`.
    public init(policy: RetentionPolicy = .default) {
        samples = HistoryDatabase.saturatingInt(policy.minuteSamplesSeconds / 60, times: 2)
        hourlySamples = HistoryDatabase.saturatingInt(policy.hourlySamplesSeconds / 3600, times: 2)
        boots = HistoryDatabase.saturatingInt(policy.hourlySamplesSeconds / 900, times: 1)
        exits = HistoryDatabase.saturatingInt(policy.exitsSeconds / 60, times: 16)
        bookmarks = BookmarkFile.maximumRules
        unitMinutes = HistoryDatabase.saturatingInt(policy.unitMinutesSeconds / 60, times: UInt64(HistoryDatabase.unitRowsPerMinute) * 2)
        unitHours = HistoryDatabase.saturatingInt(policy.unitHoursSeconds / 3600, times: UInt64(HistoryDatabase.unitRowsPerHour) * 2)
    }

    /// The limit for `table` and how it is derived; nil for a table without one.
    func maximum(_ table: String) -> (rows: Int, why: String)? {
        switch table {
        case "samples": (samples, "twice the minutes retention keeps")
        case "hourly_samples": (hourlySamples, "twice the hours retention keeps")
        case "boots": (boots, "one boot every 15 minutes for as long as boots are kept")
        case "exits": (exits, "16 exits a minute for as long as exits are kept")
        case "bookmarks": (bookmarks, "the most rules a bookmarks file holds")
        case "unit_minutes": (unitMinutes, "twice the units a minute keeps for as long as unit minutes are kept")
        case "unit_hours": (unitHours, "twice the units an hour keeps for as long as unit hours are kept")
        default: nil
        }
    }
}

extension HistoryDatabase {
    /// The most bytes a TEXT or BLOB column may hold, by table and column: what the writer
    /// accepts in a batch (``HistoryBatch``) and what a bookmarks file may hold
    /// (``BookmarkFile``). Kind, source and strip are short words, checked exactly afterwards.
    static let byteLimits: [String: [String: Int]] = [
        "boots": ["boot_id": HistoryBatch.maximumBootIDBytes],
        "exits": ["name": HistoryBatch.maximumNameBytes, "friendly_name": HistoryBatch.maximumNameBytes],
        "unit_minutes": ["name": UnitMinute.maximumNameBytes, "kind": UnitMinute.maximumKindBytes],
        "unit_hours": ["name": UnitMinute.maximumNameBytes, "kind": UnitMinute.maximumKindBytes],
        "bookmarks": ["kind": 32, "pattern": BookmarkFile.maximumPatternLength,
                      "friendly_name": BookmarkFile.maximumNameLength, "strip": 32, "source": 32],
    ]

    static func saturatingInt(_ value: UInt64, times factor: UInt64) -> Int {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? Int.max : Int(clamping: product)
    }

    /// An in-memory database with the schema of `version`, built by running the real
    /// migrations up to it: the one source of truth for what a file of that version holds.
    static func expectedSchema(version: Int32) throws(StoreError) -> Connection {
        let memory = try Connection(":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY,
                                    displayPath: "the schema of version \(version)")
        try Schema.migrate(memory, migrations: Array(Schema.migrations.prefix(Int(version))))
        return memory
    }

    /// One row of `sqlite_master`.
    struct SchemaObject: Equatable {
        var type: String
        var name: String
        var table: String
        var sql: String?
    }

    static func schemaObjects(_ connection: Connection) throws(StoreError) -> [SchemaObject] {
        let query = try connection.statement("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid")
        defer { query.reset() }
        var objects: [SchemaObject] = []
        while try query.step() {
            objects.append(SchemaObject(type: query.text(0), name: query.text(1), table: query.text(2),
                                        sql: query.isNull(3) ? nil : query.text(3)))
        }
        return objects
    }

    /// One column as `PRAGMA table_xinfo` describes it.
    struct ColumnInfo: Equatable {
        var name: String
        var type: String
        var notNull: Bool
        var defaultValue: String?
        var primaryKey: Int64
        var hidden: Int64
    }

    static func columns(_ connection: Connection, table: String) throws(StoreError) -> [ColumnInfo] {
        // table_xinfo takes the name as a bound value, never spliced into SQL text.
        let query = try connection.statement("SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?1)")
        defer { query.reset() }
        query.bind(1, text: table)
        var columns: [ColumnInfo] = []
        while try query.step() {
            columns.append(ColumnInfo(name: query.text(0), type: query.text(1), notNull: query.int64(2) != 0,
                                      defaultValue: query.isNull(3) ? nil : query.text(3),
                                      primaryKey: query.int64(4), hidden: query.int64(5)))
        }
        return columns
    }

    /// Refuses a candidate whose `sqlite_master` is not exactly that of schema `version`:
    /// the same tables, indexes (and automatic indexes), each on the same table, each defined
    /// by the same SQL (whitespace aside) with the same columns; no trigger, no view, nothing
    /// more and nothing less.
    static func checkSchema(_ candidate: Connection, version: Int32, path: String) throws(StoreError) {
        let expectedConnection = try expectedSchema(version: version)
        defer { expectedConnection.close() }
        let expected = try schemaObjects(expectedConnection)
        let found = try schemaObjects(candidate)
        func refuse(_ what: String) -> StoreError {
            StoreError(.schemaMismatch, "\(path) does not have the schema of sysstats history version \(version): \(what)")
        }
        for object in found where !expected.contains(where: { $0.name == object.name }) {
            switch object.type {
            case "trigger": throw refuse("it has a trigger \(quoted(object.name)) on \(quoted(object.table)) (sysstats uses none)")
            case "view": throw refuse("it has a view \(quoted(object.name)) (sysstats uses none)")
            case "index": throw refuse("it has an extra index \(quoted(object.name)) on \(quoted(object.table))")
            case "table": throw refuse("it has an extra table \(quoted(object.name))")
            default: throw refuse("it has an extra \(quoted(object.type)) \(quoted(object.name))")
            }
        }
        for object in expected {
            guard let other = found.first(where: { $0.name == object.name }) else {
                throw refuse("it lacks the \(object.type) \(quoted(object.name))")
            }
            guard other.type == object.type else {
                throw refuse("\(quoted(object.name)) is a \(quoted(other.type)), expected a \(object.type)")
            }
            guard other.table == object.table else {
                throw refuse("the \(object.type) \(quoted(object.name)) is on \(quoted(other.table)), expected \(object.table)")
            }
            if object.type == "table" {
                try compareColumns(expected: try columns(expectedConnection, table: object.name),
                                   found: try columns(candidate, table: object.name), table: object.name, refuse: refuse)
            }
            guard other.sql.map(normalizedSQL) == object.sql.map(normalizedSQL) else {
                throw refuse("the \(object.type) \(quoted(object.name)) is defined differently: \(quoted(other.sql ?? "(none)"))")
            }
        }
    }

    private static func compareColumns(expected: [ColumnInfo], found: [ColumnInfo], table: String,
                                       refuse: (String) -> StoreError) throws(StoreError) {
        for column in expected where !found.contains(where: { $0.name == column.name }) {
            throw refuse("table \(table) lacks the column \(column.name)")
        }
        for column in found where !expected.contains(where: { $0.name == column.name }) {
            throw refuse("table \(table) has an extra column \(quoted(column.name))")
        }
        for (want, have) in zip(expected, found) where want != have {
            guard want.name == have.name else {
                throw refuse("table \(table) has its columns in another order (\(quoted(have.name)) where \(want.name) belongs)")
            }
            throw refuse("column \(table).\(want.name) is declared \(declaration(have)), expected \(declaration(want))")
        }
    }

    private static func declaration(_ column: ColumnInfo) -> String {
        var text = column.type.isEmpty ? "without a type" : quoted(column.type)
        if column.notNull { text += " NOT NULL" }
        if let value = column.defaultValue { text += " DEFAULT \(quoted(value))" }
        if column.primaryKey != 0 { text += " PRIMARY KEY" }
        if column.hidden != 0 { text += " (hidden \(column.hidden))" }
        return text
    }

    /// `sql` with runs of white space made one space and none next to parentheses or commas,
    /// so that indentation never matters (literals are compared through the column list too).
    static func normalizedSQL(_ sql: String) -> String {
        var out: [UInt8] = []
        var pendingSpace = false
        for byte in sql.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                pendingSpace = true
                continue
            }
            let tight = byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: ",")
            if pendingSpace && !out.isEmpty && !tight,
               let last = out.last, last != UInt8(ascii: "("), last != UInt8(ascii: ",") {
                out.append(0x20)
            }
            pendingSpace = false
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Refuses a candidate (whose schema ``checkSchema(_:version:path:)`` accepted) holding a
    /// value sysstats never writes: more rows than `limits`, a value of another type than its
    /// column's (typeof), a number outside its column's range (``valueRanges``), a name or
    /// pattern longer than the writer or a bookmarks file allows, or a bookmark that an
    /// imported bookmarks file could not hold.
    static func checkContent(_ candidate: Connection, version: Int32, path: String,
                             limits: RestoreLimits = RestoreLimits()) throws(StoreError) {
        let expectedConnection = try expectedSchema(version: version)
        defer { expectedConnection.close() }
        let tables = try schemaObjects(expectedConnection).filter { $0.type == "table" }.map { $0.name }
        for table in tables {
            if let limit = limits.maximum(table) {
                let count = try candidate.integer("SELECT count(*) FROM \(identifier(table))")
                if count > Int64(limit.rows) {
                    throw StoreError(.invalidContent, "\(path) has \(count) rows in \(table), more than \(limit.rows) (\(limit.why))")
                }
            }
        }
        for table in tables {
            let tableColumns = try columns(expectedConnection, table: table)
            try checkTypes(candidate, table: table, columns: tableColumns, path: path)
            try checkRanges(candidate, table: table, columns: tableColumns, path: path)
        }
        for table in tables {
            for (column, maximum) in (byteLimits[table] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let query = try candidate.statement("""
                    SELECT rowid, length(CAST(\(identifier(column)) AS BLOB)) FROM \(identifier(table))
                    WHERE length(CAST(\(identifier(column)) AS BLOB)) > ?1 LIMIT 1
                    """)
                defer { query.reset() }
                query.bind(1, Int64(maximum))
                if try query.step() {
                    throw StoreError(.invalidContent, "\(path) has an overlong value: \(table) row \(query.int64(0)), "
                                     + "\(column) is \(query.int64(1)) bytes (at most \(maximum))")
                }
            }
        }
        if tables.contains("bookmarks") {
            // Before migration 2 there is no strip column: every rule strips nothing.
            let hasStrip = try columns(expectedConnection, table: "bookmarks").contains { $0.name == "strip" }
            try checkBookmarks(candidate, hasStrip: hasStrip, path: path)
        }
    }

    /// Each value's `typeof` must be its column's declared type (NULL only where allowed).
    private static func checkTypes(_ candidate: Connection, table: String, columns: [ColumnInfo],
                                   path: String) throws(StoreError) {
        var allowed: [(name: String, types: [String])] = []
        for column in columns {
            let type: String
            switch column.type.uppercased() {
            case "INTEGER": type = "integer"
            case "TEXT": type = "text"
            case "BLOB": type = "blob"
            default: continue
            }
            allowed.append((column.name, column.notNull || column.primaryKey != 0 ? [type] : [type, "null"]))
        }
        guard !allowed.isEmpty else { return }
        let list = { (types: [String]) in types.map { "'\($0)'" }.joined(separator: ", ") }
        let selected = allowed.map { "typeof(\(identifier($0.name)))" }.joined(separator: ", ")
        let condition = allowed.map { "typeof(\(identifier($0.name))) NOT IN (\(list($0.types)))" }.joined(separator: " OR ")
        let query = try candidate.statement("SELECT rowid, \(selected) FROM \(identifier(table)) WHERE \(condition) LIMIT 1")
        defer { query.reset() }
        guard try query.step() else { return }
        for (index, column) in allowed.enumerated() {
            let type = query.text(Int32(index + 1))
            if !column.types.contains(type) {
                throw StoreError(.invalidContent, "\(path) has a value of the wrong type: \(table) row \(query.int64(0)), "
                                 + "\(column.name) is \(type) (expected \(column.types.joined(separator: " or ")))")
            }
        }
    }

    /// Every bookmark row must be a rule an imported bookmarks file could hold: a known kind,
    /// source and strip, a pattern ``BookmarkRule/validate()`` accepts (nothing that matches
    /// every process), a friendly name as ``BookmarkFile/sanitizeName(_:)`` leaves it; and all
    /// of them together must make a file ``BookmarkFile/parse(_:)`` reads back unchanged.
    private static func checkBookmarks(_ candidate: Connection, hasStrip: Bool, path: String) throws(StoreError) {
        let query = try candidate.statement(
            "SELECT id, kind, pattern, friendly_name, \(hasStrip ? "strip" : "'none'"), source FROM bookmarks ORDER BY id")
        defer { query.reset() }
        var rules: [BookmarkRule] = []
        while try query.step() {
            let row = query.int64(0)
            func refuse(_ why: String) -> StoreError {
                StoreError(.invalidContent, "\(path) has a bookmark an imported bookmarks file could not hold: row \(row), \(why)")
            }
            let kindText = query.blob(1), sourceText = query.blob(5), stripText = query.blob(4)
            guard let kind = MatchKind.allCases.first(where: { bytes($0.name) == kindText }) else {
                throw refuse("unknown kind \(quoted(String(decoding: kindText, as: UTF8.self)))")
            }
            guard let source = RuleSource.allCases.first(where: { bytes($0.name) == sourceText }) else {
                throw refuse("unknown source \(quoted(String(decoding: sourceText, as: UTF8.self)))")
            }
            guard let strip = SuffixStrip(text: stripText) else {
                throw refuse("unknown strip \(quoted(String(decoding: stripText, as: UTF8.self)))")
            }
            let rule = BookmarkRule(kind: kind, pattern: query.blob(2), friendlyName: query.blob(3), strip: strip, source: source)
            do throws(BookmarkRuleProblem) { try rule.validate() } catch {
                throw refuse("\(describe(rule)): \(error.message)")
            }
            guard BookmarkFile.sanitizeName(rule.friendlyName) == rule.friendlyName else {
                throw refuse("\(describe(rule)): its friendly name holds control characters, invalid UTF-8 or outer spaces")
            }
            rules.append(rule)
        }
        let reread: BookmarkFile
        do throws(BookmarkFileError) {
            reread = try BookmarkFile.parse(BookmarkFile.encode(rules, withSource: true))
        } catch {
            throw StoreError(.invalidContent, "\(path) has bookmarks no bookmarks file could hold: \(error.message(file: "as one file"))")
        }
        guard reread.rules == rules, reread.sanitizedNames == 0 else {
            throw StoreError(.invalidContent, "\(path) has bookmarks that do not read back the same from a bookmarks file")
        }
    }

    /// An SQL identifier in double quotes (only ever our own table and column names).
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    /// `'text'` for a one-line message: printable ASCII as is, other bytes as `\xHH`, at most 80 bytes.
    static func quoted(_ text: String) -> String {
        var out = "'"
        var count = 0
        for byte in text.utf8 {
            if count == 80 { out += "..."; break }
            if byte >= 0x20 && byte < 0x7F && byte != 0x27 && byte != 0x5C {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
            count += 1
        }
        return out + "'"
    }
}

extension String {
    /// Every `target` replaced by `replacement` (no Foundation here).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
