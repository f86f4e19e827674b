import Bookmarks
import CLibc

// The bookmarks table: the user's rules, imported ones and the built-in defaults, in
// one table so that listing and export read one place. Every change is one transaction
// and is mirrored into the rules cache (`bookmarks.rules`, the file format with
// `source=`), which is how the sampler, which does not link SQLite, learns of it.

/// What importing a bookmarks file would do, worked out before anything is written
/// (``HistoryDatabase/planImport(_:)``), so the user can be asked first.
public struct ImportPlan: Equatable, Sendable {
    /// Rules whose key (kind, pattern, strip) no imported rule has yet.
    public var adds: [BookmarkRule]
    /// Rules whose key an imported rule has with another friendly name: that name changes.
    public var changes: [BookmarkRule]
    /// Rules already imported as they are, and later repeats of a key within the file.
    public var skips: [BookmarkRule]
    /// Friendly names the file's reader had to clean (``BookmarkFile/sanitizedNames``).
    public var sanitizedNames: Int

    public init(adds: [BookmarkRule] = [], changes: [BookmarkRule] = [], skips: [BookmarkRule] = [],
                sanitizedNames: Int = 0) {
        self.adds = adds
        self.changes = changes
        self.skips = skips
        self.sanitizedNames = sanitizedNames
    }

    /// True when applying it would change nothing.
    public var changesNothing: Bool { adds.isEmpty && changes.isEmpty }
}

/// What ``HistoryDatabase/addBookmark(_:)`` did.
public enum AddBookmarkOutcome: Equatable, Sendable {
    /// A new user rule.
    case added
    /// A user rule with the same key had another friendly name; it now has this one.
    case renamed
    /// The same rule was already there.
    case unchanged
}

extension HistoryDatabase {
    /// The rules cache's file name in the data directory.
    public static let rulesCacheFileName = "bookmarks.rules"

    /// `<directory>/bookmarks.rules`: the rules cache the sampler watches.
    public static func rulesCachePath(in directory: String) -> String { Files.join(directory, rulesCacheFileName) }

    /// Every bookmark in precedence order: the user's, then imported ones, then the built-in
    /// defaults; within a source, in the order they were added (a file's order for imports).
    /// A read-write database first brings its built-in rows in line with this build's defaults.
    /// Rows this build cannot read (a hand-edited kind or strip) are left out.
    public func bookmarks() throws(StoreError) -> [BookmarkRule] {
        if readOnly {
            // Cannot sync: this build's defaults stand in for whatever the table holds.
            return try storedBookmarks(includeBuiltin: false) + BuiltinBookmarks.rules
        }
        _ = try syncBuiltinBookmarks()
        return try storedBookmarks(includeBuiltin: true)
    }

    /// The rules to write into a shared file: the user's and imported ones, and the
    /// built-in defaults too when asked.
    public func exportRules(includeBuiltin: Bool) throws(StoreError) -> [BookmarkRule] {
        let all = try bookmarks()
        return includeBuiltin ? all : all.filter { $0.source != .builtin }
    }

    /// Adds a user bookmark (whatever `rule.source` says), or gives the user rule with the
    /// same key the new friendly name. Refuses (``StoreError/Kind/refused``) a rule that
    /// would match every process, a pattern over 256 bytes, a friendly name over 48 bytes,
    /// and a change that would take the bookmarks over the file format's limits. Control
    /// characters in the name are replaced as an import would (``BookmarkFile/sanitizeName(_:)``).
    @discardableResult
    public func addBookmark(_ rule: BookmarkRule) throws(StoreError) -> AddBookmarkOutcome {
        var rule = rule
        rule.source = .user
        do throws(BookmarkRuleProblem) {
            try rule.validate()
        } catch {
            throw StoreError(.refused, "bookmark \(HistoryDatabase.describe(rule)): \(error.message)")
        }
        guard rule.friendlyName.count <= BookmarkFile.maximumNameLength else {
            throw StoreError(.refused, "bookmark \(HistoryDatabase.describe(rule)): the friendly name is \(rule.friendlyName.count) bytes, more than \(BookmarkFile.maximumNameLength)")
        }
        rule.friendlyName = BookmarkFile.sanitizeName(rule.friendlyName)
        return try changeBookmarks { () throws(StoreError) -> AddBookmarkOutcome in
            switch try friendlyName(of: rule.key, source: .user) {
            case nil:
                try insert(rule)
                return .added
            case rule.friendlyName?:
                return .unchanged
            case _?:
                try upsert(rule)
                return .renamed
            }
        } changed: { $0 != .unchanged }
    }

    /// Removes the bookmark with `key` from `source` (nil: from the user's rules and the
    /// imported ones). Returns false when there was none. Built-in rules cannot be removed
    /// (``StoreError/Kind/refused``): a user rule with the same pattern overrides one. (A
    /// way to switch a built-in rule off may come later; it would be a new column.)
    @discardableResult
    public func removeBookmark(key: RuleKey, source: RuleSource? = nil) throws(StoreError) -> Bool {
        if source == .builtin {
            throw StoreError(.refused, "built-in bookmarks cannot be removed; add your own bookmark for the same pattern to override it")
        }
        return try changeBookmarks { () throws(StoreError) -> Bool in
            let delete = try connection.statement("""
                DELETE FROM bookmarks WHERE kind = ?1 AND pattern = ?2 AND strip = ?3
                AND (source = ?4 OR (?4 IS NULL AND source IN ('user', 'imported')))
                """)
            delete.bind(1, text: "\(key.kind.name)")
            delete.bind(2, blob: key.pattern)
            delete.bind(3, textBytes: key.strip.text)
            delete.bind(4, text: source.map { "\($0.name)" })
            try delete.run()
            return connection.changes > 0
        } changed: { $0 }
    }

    /// What importing `file` would do: each of its rules, as an imported rule, is an add
    /// (its key is not among the imported rules), a change (it is, with another friendly
    /// name) or a skip (it is, as it is; or the file repeats the key). Reads only.
    public func planImport(_ file: BookmarkFile) throws(StoreError) -> ImportPlan {
        var imported: [RuleKey: [UInt8]] = [:]
        for rule in try storedBookmarks(includeBuiltin: false) where rule.source == .imported {
            imported[rule.key] = rule.friendlyName
        }
        var plan = ImportPlan(sanitizedNames: file.sanitizedNames)
        var seen = Set<RuleKey>()
        for var rule in file.rules {
            rule.source = .imported
            guard seen.insert(rule.key).inserted else {
                plan.skips.append(rule)
                continue
            }
            switch imported[rule.key] {
            case nil: plan.adds.append(rule)
            case rule.friendlyName?: plan.skips.append(rule)
            case _?: plan.changes.append(rule)
            }
        }
        return plan
    }

    /// Applies a plan from ``planImport(_:)`` in one transaction: all of it or, when
    /// something fails or the result would exceed the format's limits (``StoreError/Kind/refused``),
    /// none of it. A plan that changes nothing writes nothing.
    public func applyImport(_ plan: ImportPlan) throws(StoreError) {
        guard !plan.changesNothing else { return }
        try changeBookmarks { () throws(StoreError) in
            for rule in plan.adds + plan.changes {
                var rule = rule
                rule.source = .imported
                try upsert(rule)
            }
        } changed: { true }
    }

    /// Replaces the built-in rows with this build's defaults (``BuiltinBookmarks/rules``)
    /// when they differ. Returns true when it changed the table. Costs one read of the
    /// built-in rows when nothing changed (sysstatsd-history calls it once a minute).
    @discardableResult
    public func syncBuiltinBookmarks() throws(StoreError) -> Bool {
        guard !readOnly else { return false }
        // Read first, outside a transaction: the usual answer is "in sync", and BEGIN
        // IMMEDIATE would take the write lock for nothing.
        // Parsed once here: BuiltinBookmarks.rules parses the compiled-in text on each use.
        let builtin = BuiltinBookmarks.rules
        guard try storedBuiltinBookmarks() != builtin else { return false }
        return try connection.transaction { () throws(StoreError) -> Bool in
            guard try storedBuiltinBookmarks() != builtin else { return false }
            try connection.statement("DELETE FROM bookmarks WHERE source = 'builtin'").run()
            for rule in builtin { try insert(rule) }
            return true
        }
    }

    /// The rules cache's content: every rule in precedence order, in the file format with `source=`.
    public func rulesCache() throws(StoreError) -> [UInt8] {
        BookmarkFile.encode(try bookmarks(), withSource: true)
    }

    /// Writes the rules cache to `path` (a temporary file renamed over it, mode 0600).
    /// A read-write database holds its write lock meanwhile, so two writers of the
    /// cache (the CLI, sysstatsd-history) cannot leave an older table's rules last.
    public func writeRulesCache(to path: String) throws(StoreError) {
        try Files.makeDirectories(Files.directory(of: path))
        if readOnly {
            try Files.writeAtomically(try rulesCache(), to: path)
            return
        }
        try connection.transaction { () throws(StoreError) in
            try Files.writeAtomically(try rulesCache(), to: path)
        }
    }

    // MARK: - Helpers

    /// Runs `body` in one transaction with the built-in rows in sync, checks that the
    /// result still fits one bookmarks file (the rules cache must parse) and, when
    /// `changed` says so, writes the rules cache (if ``rulesCachePath`` is set) before
    /// committing: writers of the cache take turns under the database's write lock, and
    /// a cache that cannot be written rolls the change back (the sampler would not see it).
    private func changeBookmarks<T>(_ body: () throws(StoreError) -> T,
                                    changed: (T) -> Bool) throws(StoreError) -> T {
        guard !readOnly else { throw StoreError(.io, "\(TerminalText.escape(path)) is open read-only; bookmarks cannot change") }
        var wroteCache = false
        do {
            return try connection.transaction { () throws(StoreError) -> T in
                _ = try syncBuiltinBookmarks()
                let result = try body()
                guard changed(result) else { return result }
                let rules = try storedBookmarks(includeBuiltin: true)
                if rules.count > BookmarkFile.maximumRules {
                    throw StoreError(.refused, "that would make \(rules.count) bookmarks, more than \(BookmarkFile.maximumRules); remove some first")
                }
                let cache = BookmarkFile.encode(rules, withSource: true)
                if cache.count > BookmarkFile.maximumSize {
                    throw StoreError(.refused, "the bookmarks would take \(cache.count) bytes, more than \(BookmarkFile.maximumSize); remove some first")
                }
                if let rulesCachePath {
                    do throws(StoreError) {
                        try Files.writeAtomically(cache, to: rulesCachePath)
                    } catch {
                        throw StoreError(error.kind, "bookmarks not changed: the sampler's rules cache cannot be written: \(error.message)")
                    }
                    wroteCache = true
                }
                return result
            }
        } catch {
            // Only when COMMIT itself failed is the cache ahead of the table: put it back.
            if wroteCache, let rulesCachePath { try? writeRulesCache(to: rulesCachePath) }
            throw error
        }
    }

    private func storedBookmarks(includeBuiltin: Bool) throws(StoreError) -> [BookmarkRule] {
        try readRules(includeBuiltin ? """
            SELECT kind, pattern, friendly_name, strip, source FROM bookmarks
            ORDER BY CASE source WHEN 'user' THEN 0 WHEN 'imported' THEN 1 ELSE 2 END, id
            """ : """
            SELECT kind, pattern, friendly_name, strip, source FROM bookmarks WHERE source != 'builtin'
            ORDER BY CASE source WHEN 'user' THEN 0 ELSE 1 END, id
            """)
    }

    private func storedBuiltinBookmarks() throws(StoreError) -> [BookmarkRule] {
        try readRules("SELECT kind, pattern, friendly_name, strip, source FROM bookmarks WHERE source = 'builtin' ORDER BY id")
    }

    private func readRules(_ sql: String) throws(StoreError) -> [BookmarkRule] {
        let query = try connection.statement(sql)
        defer { query.reset() }
        var rules: [BookmarkRule] = []
        while try query.step() {
            let kindText = query.blob(0), sourceText = query.blob(4)
            guard let kind = MatchKind.allCases.first(where: { HistoryDatabase.bytes($0.name) == kindText }),
                  let source = RuleSource.allCases.first(where: { HistoryDatabase.bytes($0.name) == sourceText }),
                  let strip = SuffixStrip(text: query.blob(3)) else { continue }
            rules.append(BookmarkRule(kind: kind, pattern: query.blob(1), friendlyName: query.blob(2),
                                      strip: strip, source: source))
        }
        return rules
    }

    private func friendlyName(of key: RuleKey, source: RuleSource) throws(StoreError) -> [UInt8]? {
        let query = try connection.statement(
            "SELECT friendly_name FROM bookmarks WHERE source = ?1 AND kind = ?2 AND pattern = ?3 AND strip = ?4")
        defer { query.reset() }
        query.bind(1, text: "\(source.name)")
        query.bind(2, text: "\(key.kind.name)")
        query.bind(3, blob: key.pattern)
        query.bind(4, textBytes: key.strip.text)
        return try query.step() ? query.blob(0) : nil
    }

    private func insert(_ rule: BookmarkRule) throws(StoreError) {
        try write(rule, sql: """
            INSERT INTO bookmarks (kind, pattern, friendly_name, strip, source, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
    }

    /// Inserts, or renames the rule with the same source and key (keeping its place).
    private func upsert(_ rule: BookmarkRule) throws(StoreError) {
        try write(rule, sql: """
            INSERT INTO bookmarks (kind, pattern, friendly_name, strip, source, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (source, kind, pattern, strip) DO UPDATE SET friendly_name = excluded.friendly_name
            """)
    }

    private func write(_ rule: BookmarkRule, sql: String) throws(StoreError) {
        let statement = try connection.statement(sql)
        statement.bind(1, text: "\(rule.kind.name)")
        statement.bind(2, blob: rule.pattern)
        statement.bind(3, textBytes: rule.friendlyName)
        statement.bind(4, textBytes: rule.strip.text)
        statement.bind(5, text: "\(rule.source.name)")
        statement.bind(6, Int64(time(nil)))
        try statement.run()
    }

    static func bytes(_ text: StaticString) -> [UInt8] { text.withUTF8Buffer { Array($0) } }

    /// `KIND PATTERN` for a one-line message, hostile bytes as `\xHH`.
    static func describe(_ rule: BookmarkRule) -> String {
        var out = "\(rule.kind.name) '"
        for byte in rule.pattern.prefix(64) {
            if byte >= 0x20 && byte < 0x7F && byte != 0x27 && byte != 0x5C {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out + (rule.pattern.count > 64 ? "...'" : "'")
    }
}
