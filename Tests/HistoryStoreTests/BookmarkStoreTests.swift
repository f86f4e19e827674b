import Bookmarks
import CSQLite
import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

final class BookmarkStoreTests: XCTestCase {
    private func b(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func rule(_ kind: MatchKind, _ pattern: String, _ name: String, strip: SuffixStrip = .none,
                      source: RuleSource = .user) -> BookmarkRule {
        BookmarkRule(kind: kind, pattern: b(pattern), friendlyName: b(name), strip: strip, source: source)
    }

    private func file(_ body: String) throws -> BookmarkFile {
        try BookmarkFile.parse(b("sysstats-bookmarks 1\n" + body))
    }

    /// Every column of every bookmarks row, in id order, with the table's definition: equal
    /// dumps mean the table is unchanged.
    private func dump(_ db: HistoryDatabase) throws -> [String] {
        var rows: [String] = []
        let schema = try db.connection.statement("SELECT sql FROM sqlite_master WHERE tbl_name = 'bookmarks' ORDER BY name")
        while try schema.step() { rows.append(schema.text(0)) }
        schema.reset()
        let query = try db.connection.statement(
            "SELECT id, kind, hex(pattern), hex(friendly_name), strip, source, created_at FROM bookmarks ORDER BY id")
        while try query.step() {
            rows.append((0..<7).map { query.text(Int32($0)) }.joined(separator: "|"))
        }
        query.reset()
        return rows
    }

    private func userAndImported(_ db: HistoryDatabase) throws -> [BookmarkRule] {
        try db.bookmarks().filter { $0.source != .builtin }
    }

    // MARK: - Schema

    func testMigrationOneToTwoKeepsBookmarkRowsAndAddsStripAndTheKeyIndex() throws {
        let scratch = try Scratch()
        let raw = try rawConnection(scratch.databasePath)
        try raw.execute("PRAGMA journal_mode = WAL")
        try Schema.migrate(raw, migrations: Array(Schema.migrations.prefix(1)))
        try raw.execute("""
            INSERT INTO bookmarks (kind, pattern, friendly_name, source, created_at) VALUES ('comm', X'586F7267', 'X server', 'user', 1);
            INSERT INTO bookmarks (kind, pattern, friendly_name, source, created_at) VALUES ('glob', X'6B776F726B65722F2A', 'kernel worker', 'imported', 2);
            INSERT INTO samples (minute, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib, load1, process_count) VALUES (60, 1, 2, 3, 4, 5, 6, 7);
            """)
        XCTAssertEqual(try raw.integer("PRAGMA user_version"), 1)
        raw.close()

        let db = try scratch.open()   // migrates through 2 to the current version
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
        XCTAssertEqual(try userAndImported(db), [
            rule(.comm, "Xorg", "X server"),
            rule(.glob, "kworker/*", "kernel worker", source: .imported),
        ])
        XCTAssertEqual(try db.samples(from: 0, to: 120).count, 1)
        XCTAssertEqual(try db.connection.integer("SELECT count(*) FROM sqlite_master WHERE name = 'bookmarks_by_key'"), 1)
        XCTAssertThrowsError(try db.connection.execute(
            "INSERT INTO bookmarks (kind, pattern, friendly_name, source, created_at) VALUES ('comm', X'586F7267', 'again', 'user', 3)"),
            "the key is unique per source")
    }

    // MARK: - Add, remove, list

    func testAFreshDatabaseListsTheBuiltinDefaultsAfterTheUsersRules() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        XCTAssertEqual(try db.bookmarks(), BuiltinBookmarks.rules)
        try db.addBookmark(rule(.comm, "code", "My editor"))
        let all = try db.bookmarks()
        XCTAssertEqual(all.first, rule(.comm, "code", "My editor"))
        XCTAssertEqual(Array(all.dropFirst()), BuiltinBookmarks.rules)
        XCTAssertEqual(NameResolver(rules: all).resolve(comm: b("code"), executable: b("code"), commandLine: []), b("My editor"),
                       "the user's rule wins over the built-in exe rule")
    }

    func testAddStoresUserRulesInOrderAndTheSameKeyRenames() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        XCTAssertEqual(try db.addBookmark(rule(.comm, "a", "A", source: .imported)), .added, "whatever it says, an added rule is the user's")
        XCTAssertEqual(try db.addBookmark(rule(.glob, "b*", "B", strip: .version)), .added)
        XCTAssertEqual(try db.addBookmark(rule(.comm, "a", "A")), .unchanged)
        XCTAssertEqual(try db.addBookmark(rule(.comm, "a", "Renamed")), .renamed)
        XCTAssertEqual(try db.addBookmark(rule(.glob, "b*", "B without strip")), .added, "the strip is part of the key")
        XCTAssertEqual(try userAndImported(db), [
            rule(.comm, "a", "Renamed"), rule(.glob, "b*", "B", strip: .version), rule(.glob, "b*", "B without strip"),
        ])
    }

    func testAddRefusesMatchEverythingAndOversizedRulesWithOneLineAndChangesNothing() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.addBookmark(rule(.comm, "keep", "Kept"))
        let before = try dump(db)
        let cases: [(BookmarkRule, String)] = [
            (rule(.glob, "*", "all"), "bookmark glob '*': this rule would match every process (a glob needs a literal character outside [...]); refused"),
            (rule(.comm, "", "none"), "bookmark comm '': this rule would match every process (empty pattern); refused"),
            (rule(.commandLine, " x ", "x"), "bookmark cmdline ' x ': this rule would match every process (a command-line substring needs at least 2 characters that are not spaces); refused"),
            (rule(.comm, String(repeating: "p", count: 300), "long"), "bookmark comm '\(String(repeating: "p", count: 64))...': the pattern is 300 bytes, more than 256"),
            (rule(.comm, "x", String(repeating: "n", count: 49)), "bookmark comm 'x': the friendly name is 49 bytes, more than 48"),
            (BookmarkRule(kind: .comm, pattern: [0x1B, 0x27], friendlyName: b(String(repeating: "n", count: 49))),
             "bookmark comm '\\x1B\\x27': the friendly name is 49 bytes, more than 48"),
        ]
        for (bad, message) in cases {
            XCTAssertThrowsError(try db.addBookmark(bad)) { error in
                XCTAssertEqual((error as? StoreError)?.kind, .refused)
                XCTAssertEqual((error as? StoreError)?.message, message)
            }
        }
        XCTAssertEqual(try dump(db), before)
    }

    func testAddSanitizesControlCharactersInTheName() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.addBookmark(BookmarkRule(kind: .comm, pattern: b("x"), friendlyName: b("a\u{1B}[31mb\n")))
        XCTAssertEqual(try userAndImported(db).first?.friendlyName, b("a?[31mb"))
    }

    func testRemoveTakesUserAndImportedRulesButNeverBuiltinOnes() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.addBookmark(rule(.comm, "a", "A"))
        try db.applyImport(db.planImport(file("comm\ta\tImported A\ncomm\tb\tImported B\n")))
        XCTAssertTrue(try db.removeBookmark(key: RuleKey(kind: .comm, pattern: b("b")), source: .imported))
        XCTAssertFalse(try db.removeBookmark(key: RuleKey(kind: .comm, pattern: b("b"))), "already gone")
        XCTAssertFalse(try db.removeBookmark(key: RuleKey(kind: .comm, pattern: b("a"), strip: .version)), "another key")
        XCTAssertTrue(try db.removeBookmark(key: RuleKey(kind: .comm, pattern: b("a"))), "nil source: user and imported")
        XCTAssertEqual(try userAndImported(db), [])

        let builtin = BuiltinBookmarks.rules[0]
        XCTAssertThrowsError(try db.removeBookmark(key: builtin.key, source: .builtin)) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .refused)
            XCTAssertEqual((error as? StoreError)?.message,
                           "built-in bookmarks cannot be removed; add your own bookmark for the same pattern to override it")
        }
        XCTAssertFalse(try db.removeBookmark(key: builtin.key), "a nil source does not reach built-in rules")
        XCTAssertEqual(try db.bookmarks(), BuiltinBookmarks.rules)
    }

    func testBuiltinRowsAreBroughtInLineWithThisBuildsDefaults() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        XCTAssertTrue(try db.syncBuiltinBookmarks(), "a fresh table gets the defaults")
        XCTAssertFalse(try db.syncBuiltinBookmarks(), "in sync: nothing to do")
        // An older build's defaults: one rule renamed, one gone, one extra.
        try db.connection.execute("""
            UPDATE bookmarks SET friendly_name = 'old name' WHERE source = 'builtin' AND id = (SELECT min(id) FROM bookmarks WHERE source = 'builtin');
            DELETE FROM bookmarks WHERE source = 'builtin' AND id = (SELECT max(id) FROM bookmarks WHERE source = 'builtin');
            INSERT INTO bookmarks (kind, pattern, friendly_name, strip, source, created_at) VALUES ('comm', X'6F6C64', 'retired', 'none', 'builtin', 1);
            """)
        try db.addBookmark(rule(.comm, "mine", "Mine"))
        XCTAssertEqual(try db.bookmarks(), [rule(.comm, "mine", "Mine")] + BuiltinBookmarks.rules)
    }

    func testAReadOnlyDatabaseListsTheStoredRulesWithThisBuildsDefaultsAndRefusesChanges() throws {
        let scratch = try Scratch()
        try scratch.open().addBookmark(rule(.comm, "mine", "Mine"))
        let db = try scratch.open(readOnly: true)
        XCTAssertEqual(try db.bookmarks(), [rule(.comm, "mine", "Mine")] + BuiltinBookmarks.rules)
        XCTAssertThrowsError(try db.addBookmark(rule(.comm, "x", "X")))
    }

    // MARK: - Import

    func testImportPlanCountsAddsChangesAndSkips() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.applyImport(db.planImport(file("comm\ta\tA\ncomm\tb\tB\n")))
        try db.addBookmark(rule(.comm, "c", "user C"))
        let plan = try db.planImport(file("""
            comm\ta\tA
            comm\tb\tB changed
            comm\tc\tC
            comm\ta\tA again
            comm\td\tD\tsource=builtin

            """))
        XCTAssertEqual(plan.adds, [rule(.comm, "c", "C", source: .imported), rule(.comm, "d", "D", source: .imported)],
                       "a user rule with the key does not count; source= in a shared file is ignored")
        XCTAssertEqual(plan.changes, [rule(.comm, "b", "B changed", source: .imported)])
        XCTAssertEqual(plan.skips, [rule(.comm, "a", "A", source: .imported), rule(.comm, "a", "A again", source: .imported)])
        try db.applyImport(plan)
        XCTAssertEqual(try userAndImported(db), [
            rule(.comm, "c", "user C"),
            rule(.comm, "a", "A", source: .imported), rule(.comm, "b", "B changed", source: .imported),
            rule(.comm, "c", "C", source: .imported), rule(.comm, "d", "D", source: .imported),
        ], "a change keeps the rule's place")
    }

    func testImportingTheSameFileTwiceChangesNothingTheSecondTime() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        let shared = try file("comm\ta\tA\nglob\tkworker/*\tworker\tstrip=after:~\ncmdline\t--x\t\n")
        let first = try db.planImport(shared)
        XCTAssertEqual([first.adds.count, first.changes.count, first.skips.count], [3, 0, 0])
        try db.applyImport(first)
        let before = try dump(db)
        let cacheBefore = try bytes(scratch.file(HistoryDatabase.rulesCacheFileName))
        let second = try db.planImport(shared)
        XCTAssertEqual([second.adds.count, second.changes.count, second.skips.count], [0, 0, 3])
        XCTAssertTrue(second.changesNothing)
        try db.applyImport(second)
        XCTAssertEqual(try dump(db), before)
        XCTAssertEqual(try bytes(scratch.file(HistoryDatabase.rulesCacheFileName)), cacheBefore)
    }

    func testExportThenImportIntoAnotherDatabaseGivesEqualRules() throws {
        let first = try Scratch("one"), second = try Scratch("two")
        let one = try first.open(), two = try second.open()
        try one.addBookmark(rule(.comm, "Xorg", "My X"))
        try one.addBookmark(BookmarkRule(kind: .executable, pattern: [0xFF, 0x09, 0x5C, 0x0A], friendlyName: b("odd <b>bytes</b>"),
                                         strip: .after(0x7E)))
        try one.applyImport(one.planImport(file("truncated\tgnome-control-center\tControl\tstrip=version\ncmdline\t--type=gpu\tGPU\n")))
        let exported = BookmarkFile.encode(try one.exportRules(includeBuiltin: false))
        try two.applyImport(two.planImport(BookmarkFile.parse(exported)))

        func keysAndNames(_ rules: [BookmarkRule]) -> [String] {
            rules.map { "\($0.kind.name) \($0.pattern) \($0.strip) \($0.friendlyName)" }
        }
        let expected = try one.exportRules(includeBuiltin: false)
        let got = try two.exportRules(includeBuiltin: false)
        XCTAssertEqual(keysAndNames(got), keysAndNames(expected))
        XCTAssertTrue(got.allSatisfy { $0.source == .imported })
        XCTAssertEqual(BookmarkFile.encode(got), exported, "and it exports the same file")
        XCTAssertEqual(try one.exportRules(includeBuiltin: true).count, expected.count + BuiltinBookmarks.rules.count)
    }

    func testEachRefusedFileLeavesTheTableAndTheCacheUnchanged() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.addBookmark(rule(.comm, "keep", "Kept"))
        try db.applyImport(db.planImport(file("comm\tim\tImported\n")))
        let before = try dump(db)
        let cachePath = scratch.file(HistoryDatabase.rulesCacheFileName)
        let cacheBefore = try bytes(cachePath)
        let header = "sysstats-bookmarks 1\n"
        let refused: [(String, [UInt8])] = [
            ("too large", b(header) + [UInt8](repeating: 0x23, count: BookmarkFile.maximumSize)),
            ("not the format", b("<html>hello</html>\n")),
            ("newer version", b("sysstats-bookmarks 2\ncomm\tx\ty\n")),
            ("matches everything", b(header + "comm\tnew\tNew\nglob\t*\teverything\n")),
            ("syntax", b(header + "comm\tnew\tNew\ncomm new New\n")),
            ("too many rules", b(header + String(repeating: "comm\tx\ty\n", count: BookmarkFile.maximumRules + 1))),
        ]
        for (label, content) in refused {
            XCTAssertThrowsError(try db.applyImport(db.planImport(BookmarkFile.parse(content))), label)
            XCTAssertEqual(try dump(db), before, label)
            XCTAssertEqual(try bytes(cachePath), cacheBefore, label)
        }
    }

    func testAnImportThatWouldExceedTheLimitsIsRefusedWhole() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        let before = try dump(db)
        var body = ""
        for i in 0..<(BookmarkFile.maximumRules - BuiltinBookmarks.rules.count + 1) { body += "comm\tp\(i)\tName \(i)\n" }
        let plan = try db.planImport(file(body))
        XCTAssertThrowsError(try db.applyImport(plan)) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .refused)
            XCTAssertEqual((error as? StoreError)?.message, "that would make 4097 bookmarks, more than 4096; remove some first")
        }
        XCTAssertEqual(try dump(db), before, "not even the built-in sync of the same transaction")
    }

    // MARK: - The rules cache

    func testEveryChangeRewritesTheRulesCacheWhichParsesBackToAllRules() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        let cachePath = scratch.file(HistoryDatabase.rulesCacheFileName)
        XCTAssertEqual(db.rulesCachePath, cachePath)
        XCTAssertFalse(fileExists(cachePath), "opening writes no cache")

        try db.addBookmark(rule(.comm, "a", "A"))
        var cached = try BookmarkFile.parse(bytes(cachePath))
        XCTAssertEqual(cached.rules, try db.bookmarks())
        XCTAssertEqual(cached.rules.first, rule(.comm, "a", "A"))
        let attributes = try FileManager.default.attributesOfItem(atPath: cachePath)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)

        try db.applyImport(db.planImport(file("comm\tb\tB\n")))
        cached = try BookmarkFile.parse(bytes(cachePath))
        XCTAssertEqual(Array(cached.rules.prefix(2)), [rule(.comm, "a", "A"), rule(.comm, "b", "B", source: .imported)])

        try db.removeBookmark(key: RuleKey(kind: .comm, pattern: b("a")))
        cached = try BookmarkFile.parse(bytes(cachePath))
        XCTAssertEqual(cached.rules, try db.bookmarks())
        XCTAssertEqual(cached.rules.count, 1 + BuiltinBookmarks.rules.count)

        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    func testTheCacheIsReplacedByRenameSoAnOpenReaderKeepsTheOldFile() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        let cachePath = scratch.file(HistoryDatabase.rulesCacheFileName)
        try db.writeRulesCache(to: cachePath)
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: cachePath))
        defer { try? reader.close() }
        var before = stat(), after = stat()
        XCTAssertEqual(stat(cachePath, &before), 0)
        try db.addBookmark(rule(.comm, "a", "A"))
        XCTAssertEqual(stat(cachePath, &after), 0)
        XCTAssertNotEqual(before.st_ino, after.st_ino, "a new file was renamed into place")
        let old = try BookmarkFile.parse([UInt8](reader.readDataToEndOfFile()))
        XCTAssertEqual(old.rules, BuiltinBookmarks.rules, "the open file is still the whole old cache")
    }

    func testAChangeWhoseCacheCannotBeWrittenIsRolledBack() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.addBookmark(rule(.comm, "a", "A"))
        let before = try dump(db)
        db.rulesCachePath = scratch.file("missing-folder/bookmarks.rules")
        XCTAssertThrowsError(try db.addBookmark(rule(.comm, "b", "B"))) { error in
            let message = (error as? StoreError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("bookmarks not changed: the sampler's rules cache cannot be written: cannot create "), message)
            XCTAssertFalse(message.contains("\n"))
        }
        XCTAssertThrowsError(try db.applyImport(db.planImport(file("comm\tc\tC\n"))))
        XCTAssertEqual(try dump(db), before)
    }

    func testNoCacheIsWrittenWhenTheDatabaseHasNoCachePath() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        db.rulesCachePath = nil
        try db.addBookmark(rule(.comm, "a", "A"))
        XCTAssertFalse(fileExists(scratch.file(HistoryDatabase.rulesCacheFileName)))
    }

    func testRestoreRewritesTheRulesCacheFromTheRestoredBookmarks() throws {
        let scratch = try Scratch()
        let backupPath = scratch.file("backup.sqlite")
        do {
            let db = try scratch.open()
            try db.addBookmark(rule(.comm, "from-backup", "Backed up"))
            try db.backup(to: backupPath)
            try db.addBookmark(rule(.comm, "later", "Later"))
            db.close()
        }
        try HistoryDatabase.restore(from: backupPath, into: scratch.databasePath)
        let cached = try BookmarkFile.parse(bytes(scratch.file(HistoryDatabase.rulesCacheFileName)))
        XCTAssertEqual(cached.rules.first, rule(.comm, "from-backup", "Backed up"))
        XCTAssertFalse(cached.rules.contains(rule(.comm, "later", "Later")))
    }
}

/// The live database is the user's file, and anyone with the user's rights may have edited it.
final class HostileLiveDatabaseTests: XCTestCase {
    /// 20–50 MB names made `exited --json` take 1.2 GB: names are cut to what the writer
    /// stores as they are read. (1 MB names here: a freed 20 MB block raises glibc's mmap
    /// threshold for the rest of the test process, and the memory-budget tests that run later
    /// in it measure what malloc maps.)
    func testHugeExitNamesAreCutToWhatTheWriterStoresWhenRead() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.connection.execute("""
            INSERT INTO exits (time_ms, pid, name, friendly_name, last_private_kib, freed_kib)
            VALUES (5000, 7, zeroblob(1000000), CAST(zeroblob(1000000) AS TEXT), 1, 2);
            INSERT INTO exits (time_ms, pid, name, friendly_name, last_private_kib, freed_kib)
            VALUES (6000, 8, X'6D616B65', NULL, 3, 4);
            """)
        let exits = try db.exits(sinceMs: 0)
        XCTAssertEqual(exits.count, 2)
        XCTAssertEqual(exits[0].name.count, HistoryBatch.maximumNameBytes)
        XCTAssertLessThanOrEqual(exits[0].friendlyName?.utf8.count ?? 0, HistoryBatch.maximumNameBytes)
        XCTAssertEqual(exits[1].name, Array("make".utf8), "a normal name is read as it is")
        XCTAssertNil(exits[1].friendlyName)
    }
}

extension HostileLiveDatabaseTests {
    /// A recursive view planted in place of `samples` hung `history` and `exited`: a table
    /// every command reads must be a table, or the file is refused in one line.
    func testAViewPlantedInPlaceOfATableIsRefusedNotRead() throws {
        let scratch = try Scratch()
        do {
            let db = try scratch.open()
            try db.connection.execute("""
                DROP TABLE samples;
                CREATE VIEW samples AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x AS minute FROM n;
                """)
        }
        for readOnly in [true, false] {
            XCTAssertThrowsError(try scratch.open(readOnly: readOnly)) { error in
                XCTAssertTrue("\(error)".contains("samples is a view, not a table"), "\(error)")
            }
        }
    }
}
