import Bookmarks
import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

final class BackupRestoreTests: XCTestCase {
    /// A current database with a day of history, and a backup of a different one, in one folder.
    private func currentAndBackup() throws -> (Scratch, String) {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath, start: 1_750_000_020, minutes: 300, exits: 10)
        let other = scratch.file("other.sqlite")
        try makePopulatedDatabase(other, start: 1_760_000_040, minutes: 1440, exits: 200)
        let backup = scratch.file("backup.sqlite")
        try HistoryDatabase(path: other).backup(to: backup)
        return (scratch, backup)
    }

    /// Restoring `candidate` is refused with `kind`, and the current database and its folder are unchanged.
    private func assertRefused(_ candidate: String, _ kind: StoreError.Kind, _ messagePart: String, in scratch: Scratch,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try bytes(scratch.databasePath)
        let candidateBefore = try bytes(candidate)
        let listing = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).sorted()
        XCTAssertThrowsError(try HistoryDatabase.restore(from: candidate, into: scratch.databasePath), file: file, line: line) { error in
            let error = error as! StoreError
            XCTAssertEqual(error.kind, kind, error.message, file: file, line: line)
            XCTAssertTrue(error.message.contains(messagePart), error.message, file: file, line: line)
            XCTAssertFalse(error.message.contains("\n"), error.message, file: file, line: line)
        }
        XCTAssertEqual(try bytes(scratch.databasePath), before, "current database changed", file: file, line: line)
        XCTAssertEqual(try bytes(candidate), candidateBefore, "candidate changed", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).sorted(), listing,
                       "files appeared or vanished", file: file, line: line)
    }

    func testRestoreRefusesATruncatedCopy() throws {
        let (scratch, backup) = try currentAndBackup()
        let whole = try bytes(backup)
        try writeBytes(Array(whole[..<(whole.count / 2)]), backup)
        try assertRefused(backup, .truncated, "is truncated: its header says", in: scratch)
    }

    func testRestoreRefusesACopyCutInsideAPage() throws {
        let (scratch, backup) = try currentAndBackup()
        let whole = try bytes(backup)
        try writeBytes(Array(whole[..<(whole.count - 1000)]), backup)
        try assertRefused(backup, .truncated, "is truncated", in: scratch)
    }

    func testRestoreRefusesRandomBytes() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        var generator = SystemRandomNumberGenerator()
        try writeBytes((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }, scratch.file("random"))
        try assertRefused(scratch.file("random"), .notSQLite, "is not an SQLite database", in: scratch)
    }

    func testRestoreRefusesAnEmptyFile() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        try writeBytes([], scratch.file("empty"))
        try assertRefused(scratch.file("empty"), .empty, "is empty (0 bytes)", in: scratch)
    }

    func testRestoreRefusesAnotherApplicationsSQLiteFile() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        let foreign = try rawConnection(scratch.file("foreign.sqlite"))
        try foreign.execute("PRAGMA application_id = 1196444237; CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        foreign.close()
        try assertRefused(scratch.file("foreign.sqlite"), .foreignApplication, "is not a sysstats history database (application_id 0x47504a4d", in: scratch)
    }

    func testRestoreRefusesAnSQLiteFileWithoutAnyApplicationID() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        let foreign = try rawConnection(scratch.file("plain.sqlite"))
        try foreign.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        foreign.close()
        try assertRefused(scratch.file("plain.sqlite"), .foreignApplication, "is not a sysstats history database", in: scratch)
    }

    func testRestoreRefusesABackupWithCorruptedPages() throws {
        let (scratch, backup) = try currentAndBackup()
        var content = try bytes(backup)
        let pageSize = 4096, pages = content.count / pageSize
        XCTAssertGreaterThan(pages, 8)
        // Garbage over the middle of every page from the third on (page 1 keeps the header, ids intact).
        for page in 2..<pages {
            for offset in (page * pageSize + 1024)..<(page * pageSize + 3072) { content[offset] = 0xA5 }
        }
        try writeBytes(content, backup)
        try assertRefused(backup, .corrupt, "is damaged", in: scratch)
    }

    func testRestoreRefusesABackupWithOnePageOverwrittenInItsMiddle() throws {
        let (scratch, backup) = try currentAndBackup()
        var content = try bytes(backup)
        let pageSize = 4096, page = content.count / pageSize / 2
        for offset in (page * pageSize + 1024)..<(page * pageSize + 3072) { content[offset] = 0xA5 }
        try writeBytes(content, backup)
        try assertRefused(backup, .corrupt, "is damaged: integrity_check says: ", in: scratch)
    }

    func testRestoreIsRefusedWhileAnotherProcessHasTheDatabaseOpen() throws {
        let (scratch, backup) = try currentAndBackup()
        // Another process (python3's sqlite3 module) opens the database in WAL mode and stays open.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("SELECT count(*) FROM samples").fetchall()
            print("open", flush=True)
            sys.stdin.read()
            """, scratch.databasePath]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        do { try holder.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
        defer { try? input.fileHandleForWriting.close(); holder.waitUntilExit() }
        let line = output.fileHandleForReading.availableData
        guard String(decoding: line, as: UTF8.self).hasPrefix("open") else { throw XCTSkip("python3 could not open the database") }

        try assertRefused(backup, .busy, "is open in another process (stop sysstatsd first", in: scratch)
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)
    }

    func testRestoreRefusesABackupFromANewerSchema() throws {
        let (scratch, backup) = try currentAndBackup()
        let raw = try rawConnection(backup)
        try raw.execute("PRAGMA user_version = \(HistoryDatabase.schemaVersion + 1)")
        raw.close()
        try assertRefused(backup, .newerSchema, "is from a newer sysstats (schema version \(HistoryDatabase.schemaVersion + 1); this build knows up to \(HistoryDatabase.schemaVersion))", in: scratch)
    }

    // MARK: - Crafted backups: the schema of their version, exactly, and values sysstats writes

    /// A good backup changed by `sql` on a raw connection (it is in rollback-journal mode:
    /// the change stays in the one file).
    private func craftedBackup(_ sql: String) throws -> (Scratch, String) {
        let (scratch, backup) = try currentAndBackup()
        let raw = try rawConnection(backup)
        try raw.execute(sql)
        raw.close()
        XCTAssertFalse(fileExists(backup + "-wal"))
        return (scratch, backup)
    }

    func testRestoreRefusesABackupWithATrigger() throws {
        let (scratch, backup) = try craftedBackup("""
            CREATE TRIGGER plant AFTER INSERT ON samples BEGIN
                DELETE FROM exits;
                INSERT INTO bookmarks (kind, pattern, friendly_name, source, created_at) VALUES ('comm', X'6D65', 'planted', 'user', 0);
            END;
            """)
        try assertRefused(backup, .schemaMismatch, "does not have the schema of sysstats history version \(HistoryDatabase.schemaVersion): "
                          + "it has a trigger 'plant' on 'samples' (sysstats uses none)", in: scratch)
    }

    func testRestoreRefusesABackupWithARaiseTrigger() throws {
        let (scratch, backup) = try craftedBackup(
            "CREATE TRIGGER deny BEFORE INSERT ON exits BEGIN SELECT RAISE(ABORT, 'no'); END;")
        try assertRefused(backup, .schemaMismatch, "it has a trigger 'deny' on 'exits'", in: scratch)
    }

    func testRestoreRefusesABackupWhoseSamplesTableIsAView() throws {
        let (scratch, backup) = try craftedBackup("""
            DROP TABLE samples;
            CREATE VIEW samples AS SELECT hour AS minute, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib,
                load1, process_count, battery_percent, battery_state FROM hourly_samples;
            """)
        try assertRefused(backup, .schemaMismatch, "'samples' is a 'view', expected a table", in: scratch)
    }

    func testRestoreRefusesABackupWithAnExtraView() throws {
        let (scratch, backup) = try craftedBackup("CREATE VIEW recent AS SELECT * FROM samples;")
        try assertRefused(backup, .schemaMismatch, "it has a view 'recent' (sysstats uses none)", in: scratch)
    }

    func testRestoreRefusesABackupWithAnExtraTable() throws {
        let (scratch, backup) = try craftedBackup("CREATE TABLE notes (x); INSERT INTO notes VALUES (1);")
        try assertRefused(backup, .schemaMismatch, "it has an extra table 'notes'", in: scratch)
    }

    func testRestoreRefusesABackupWithAMissingColumn() throws {
        let (scratch, backup) = try craftedBackup("ALTER TABLE exits DROP COLUMN freed_kib;")
        try assertRefused(backup, .schemaMismatch, "table exits lacks the column freed_kib", in: scratch)
    }

    func testRestoreRefusesABackupWithAnExtraColumn() throws {
        let (scratch, backup) = try craftedBackup("ALTER TABLE boots ADD COLUMN note TEXT;")
        try assertRefused(backup, .schemaMismatch, "table boots has an extra column 'note'", in: scratch)
    }

    func testRestoreRefusesABackupWithAnExtraIndex() throws {
        let (scratch, backup) = try craftedBackup("CREATE INDEX samples_by_cpu ON samples (cpu_avg);")
        try assertRefused(backup, .schemaMismatch, "it has an extra index 'samples_by_cpu' on 'samples'", in: scratch)
    }

    func testRestoreRefusesABackupWithoutAnIndexItsVersionHas() throws {
        let (scratch, backup) = try craftedBackup("DROP INDEX exits_by_time;")
        try assertRefused(backup, .schemaMismatch, "it lacks the index 'exits_by_time'", in: scratch)
    }

    func testRestoreRefusesABackupWhoseColumnLostItsConstraint() throws {
        // Same columns and types, but clean_end without its CHECK: only the table's SQL differs.
        let (scratch, backup) = try craftedBackup("""
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = replace(sql, ' CHECK (clean_end IN (0, 1))', '') WHERE name = 'boots';
            PRAGMA writable_schema = OFF;
            """)
        try assertRefused(backup, .schemaMismatch, "the table 'boots' is defined differently", in: scratch)
    }

    func testRestoreRefusesAValueOfTheWrongType() throws {
        let (scratch, backup) = try craftedBackup("UPDATE samples SET cpu_avg = 'lots' WHERE minute = (SELECT min(minute) FROM samples);")
        try assertRefused(backup, .invalidContent, "has a value of the wrong type: samples row 1760000040, cpu_avg is text (expected integer)",
                          in: scratch)
    }

    /// The crafted backup of the issue: it restored "contents ok", and every `history --png`
    /// then trapped on `used + available` and `used * 10_000`.
    func testRestoreRefusesAMemoryFigureNoSamplerWrites() throws {
        let (scratch, backup) = try craftedBackup("""
            UPDATE samples SET mem_used_kib = 9223372036854775807 WHERE minute = (SELECT min(minute) FROM samples);
            """)
        try assertRefused(backup, .invalidContent, "has a value out of range: samples row 1760000040, mem_used_kib is "
                          + "9223372036854775807 (expected 0 to 1125899906842624: KiB, at most 2^50)", in: scratch)
    }

    /// One value past its column's range in each table, at either end: each refused with the
    /// table, the row, the column, the value and the range.
    func testRestoreRefusesAValueOutOfItsColumnsRangeInEveryTable() throws {
        let cases: [(sql: String, message: String)] = [
            ("UPDATE boots SET boot_time = 9223372036854775807",
             "boots row 1, boot_time is 9223372036854775807 (expected 0 to 253402300799: a unix time up to 9999-12-31)"),
            ("UPDATE exits SET freed_kib = -1 WHERE id = 7", "exits row 7, freed_kib is -1 (expected 0 to 1125899906842624"),
            ("UPDATE exits SET time_ms = 253402300800000 WHERE id = 2", "exits row 2, time_ms is 253402300800000"),
            ("UPDATE samples SET cpu_avg = 10001 WHERE minute = 1760000100", "samples row 1760000100, cpu_avg is 10001 (expected 0 to 10000"),
            ("UPDATE samples SET cpu_temp_mc = 2147483648 WHERE minute = 1760000040", "samples row 1760000040, cpu_temp_mc is 2147483648"),
            ("""
             INSERT INTO hourly_samples (hour, minutes, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib,
                                         load1, process_count) VALUES (1759996800, 0, 1, 1, 1, 1, 1, 1, 1)
             """, "hourly_samples row 1759996800, minutes is 0 (expected 1 to 4294967295: a count of minutes)"),
            ("""
             INSERT INTO bookmarks (id, kind, pattern, friendly_name, source, created_at, strip)
             VALUES (9000, 'comm', X'6D65', 'me', 'user', -5, 'none')
             """, "bookmarks row 9000, created_at is -5"),
        ]
        for (sql, message) in cases {
            let (scratch, backup) = try craftedBackup(sql + ";")
            try assertRefused(backup, .invalidContent, "has a value out of range: " + message, in: scratch)
        }
    }

    /// The top of every range is what a real sampler may write: a backup holding it restores,
    /// and reads back as written.
    func testValuesAtTheEndsOfTheirRangesRestore() throws {
        let (scratch, backup) = try craftedBackup("""
            UPDATE samples SET mem_used_kib = 1125899906842624, mem_available_kib = 0, swap_used_kib = 1125899906842624,
                cpu_avg = 10000, cpu_max = 10000, cpu_temp_mc = -2147483648, rx_bytes = 9223372036854775807
                WHERE minute = 1760000040;
            UPDATE boots SET last_seen_time = 253402300799;
            UPDATE exits SET time_ms = 253402300799999, freed_kib = 1125899906842624 WHERE id = 1;
            """)
        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)
        let restored = try scratch.open(readOnly: true)
        defer { restored.close() }
        let row = try XCTUnwrap(restored.samples(from: 1_760_000_040, to: 1_760_000_041).first)
        XCTAssertEqual(row.memoryUsedKiB, MinuteSample.maximumKiB)
        XCTAssertEqual(row.cpuTemperatureMilliCelsius, .min)
        XCTAssertEqual(try restored.boots().first?.lastSeenTime, UInt64(HistoryDatabase.latestTime))
    }

    func testEveryIntegerColumnHasARange() throws {
        let schema = try HistoryDatabase.expectedSchema(version: HistoryDatabase.schemaVersion)
        defer { schema.close() }
        for table in try HistoryDatabase.schemaObjects(schema) where table.type == "table" {
            let ranged = HistoryDatabase.valueRanges[table.name]?.map { $0.column } ?? []
            for column in try HistoryDatabase.columns(schema, table: table.name) where column.type == "INTEGER" {
                XCTAssertTrue(ranged.contains(column.name), "\(table.name).\(column.name) has no range")
            }
            for name in ranged {
                XCTAssertTrue(try HistoryDatabase.columns(schema, table: table.name).contains { $0.name == name },
                              "\(table.name).\(name) is not a column")
            }
        }
    }

    func testRestoreRefusesAnExitNameStoredAsText() throws {
        let (scratch, backup) = try craftedBackup("UPDATE exits SET name = 'text' WHERE id = 3;")
        try assertRefused(backup, .invalidContent, "exits row 3, name is text (expected blob)", in: scratch)
    }

    func testRestoreRefusesAnOverlongExitName() throws {
        let (scratch, backup) = try craftedBackup("UPDATE exits SET name = zeroblob(1000000) WHERE id = 2;")
        try assertRefused(backup, .invalidContent,
                          "has an overlong value: exits row 2, name is 1000000 bytes (at most \(HistoryBatch.maximumNameBytes))", in: scratch)
    }

    func testRestoreRefusesAnOverlongBookmarkName() throws {
        let name = String(repeating: "n", count: BookmarkFile.maximumNameLength + 1)
        let (scratch, backup) = try craftedBackup("""
            INSERT INTO bookmarks (id, kind, pattern, friendly_name, source, created_at, strip)
            VALUES (9000, 'comm', X'6D65', '\(name)', 'user', 0, 'none');
            """)
        try assertRefused(backup, .invalidContent, "bookmarks row 9000, friendly_name is \(name.utf8.count) bytes (at most \(BookmarkFile.maximumNameLength))",
                          in: scratch)
    }

    func testRestoreRefusesAnOverlongBookmarkPattern() throws {
        let (scratch, backup) = try craftedBackup("""
            INSERT INTO bookmarks (id, kind, pattern, friendly_name, source, created_at, strip)
            VALUES (9000, 'comm', randomblob(\(BookmarkFile.maximumPatternLength + 1)), 'x', 'user', 0, 'none');
            """)
        try assertRefused(backup, .invalidContent, "bookmarks row 9000, pattern is \(BookmarkFile.maximumPatternLength + 1) bytes", in: scratch)
    }

    func testRestoreRefusesMoreRowsThanRetentionCouldKeep() throws {
        let limit = RestoreLimits().samples
        let (scratch, backup) = try craftedBackup("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i <= \(limit))
            INSERT INTO samples (minute, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib, load1, process_count)
                SELECT 1800000000 + i * 60, 1, 1, 1, 1, 1, 1, 1 FROM n;
            """)
        try assertRefused(backup, .invalidContent, "has \(limit + 1440 + 1) rows in samples, more than \(limit) (twice the minutes retention keeps)",
                          in: scratch)
    }

    func testRestoreRefusesABookmarkThatMatchesEveryProcess() throws {
        let (scratch, backup) = try craftedBackup("""
            INSERT INTO bookmarks (id, kind, pattern, friendly_name, source, created_at, strip)
            VALUES (9000, 'glob', X'2A', 'everything', 'imported', 0, 'none');
            """)
        try assertRefused(backup, .invalidContent, "has a bookmark an imported bookmarks file could not hold: row 9000, glob '*': "
                          + "this rule would match every process", in: scratch)
    }

    func testRestoreRefusesABookmarkOfAnUnknownKind() throws {
        let (scratch, backup) = try craftedBackup("""
            INSERT INTO bookmarks (id, kind, pattern, friendly_name, source, created_at, strip)
            VALUES (9000, 'regex', X'2E2A', 'x', 'user', 0, 'none');
            """)
        try assertRefused(backup, .invalidContent, "row 9000, unknown kind 'regex'", in: scratch)
    }

    func testRestoreRefusesABookmarkNameWithControlCharacters() throws {
        let (scratch, backup) = try craftedBackup("""
            INSERT INTO bookmarks (id, kind, pattern, friendly_name, source, created_at, strip)
            VALUES (9000, 'comm', X'6D65', 'a' || char(27) || '[2J', 'user', 0, 'none');
            """)
        try assertRefused(backup, .invalidContent, "row 9000, comm 'me': its friendly name holds control characters", in: scratch)
    }

    func testAnOlderSchemaVersionIsCheckedAgainstItsOwnSchemaAndRestores() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        let old = scratch.file("old.sqlite")
        let raw = try rawConnection(old)
        try Schema.migrate(raw, migrations: Array(Schema.migrations.prefix(1)))
        try raw.execute("""
            INSERT INTO bookmarks (kind, pattern, friendly_name, source, created_at) VALUES ('comm', X'586F7267', 'X server', 'user', 1);
            INSERT INTO samples (minute, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib, load1, process_count) VALUES (60, 1, 2, 3, 4, 5, 6, 7);
            """)
        raw.close()
        XCTAssertEqual(try HistoryDatabase.checkRestorable(old), 1)
        try HistoryDatabase.restore(from: old, into: scratch.databasePath)
        XCTAssertEqual(try scratch.open(readOnly: true).samples(from: 0, to: 120).count, 1)

        // The same file with version 2's strip column is not version 1's schema.
        let raw2 = try rawConnection(old)
        try raw2.execute("PRAGMA user_version = 1; ALTER TABLE bookmarks ADD COLUMN strip TEXT NOT NULL DEFAULT 'none';")
        raw2.close()
        XCTAssertThrowsError(try HistoryDatabase.checkRestorable(old)) { error in
            XCTAssertEqual((error as? StoreError)?.message,
                           "\(old) does not have the schema of sysstats history version 1: table bookmarks has an extra column 'strip'")
        }
    }

    func testAVersionTwoBackupIsCheckedAsVersionTwoAndRestoresUpgradedToTheCurrentSchema() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath, minutes: 60, exits: 3)
        let old = scratch.file("version-2.sqlite")
        try makeVersionTwoDatabase(old)
        let before = try bytes(old)
        XCTAssertEqual(try HistoryDatabase.checkRestorable(old), 2)

        try HistoryDatabase.restore(from: old, into: scratch.databasePath)

        XCTAssertEqual(try bytes(old), before, "the backup itself is not upgraded")
        let restored = try scratch.open(readOnly: true)
        XCTAssertEqual(try restored.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
        XCTAssertEqual(try restored.samples(from: 0, to: .max), versionTwoSamples())
        XCTAssertEqual(try restored.exits(sinceMs: 0).count, 2)
        XCTAssertEqual(try restored.boots().map(\.cleanEnd), [true])
        restored.close()
        XCTAssertEqual(try HistoryDatabase.checkRestorable(scratch.databasePath), HistoryDatabase.schemaVersion)
    }

    func testAVersionTwoFileWithTheNewColumnsIsRefusedAsNotVersionTwosSchema() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath, minutes: 60, exits: 3)
        let old = scratch.file("version-2.sqlite")
        try makeVersionTwoDatabase(old, minutes: 10)
        let raw = try rawConnection(old)
        try raw.execute("ALTER TABLE samples ADD COLUMN rx_bytes INTEGER;")
        raw.close()
        try assertRefused(old, .schemaMismatch,
                          "does not have the schema of sysstats history version 2: table samples has an extra column 'rx_bytes'", in: scratch)
    }

    func testRestoreRefusesABackupMissingOneOfTheNewColumns() throws {
        let (scratch, backup) = try currentAndBackup()
        let raw = try rawConnection(backup)
        try raw.execute("ALTER TABLE hourly_samples DROP COLUMN root_used;")
        raw.close()
        try assertRefused(backup, .schemaMismatch, "table hourly_samples lacks the column root_used", in: scratch)
    }

    func testRestoreRefusesANewColumnDeclaredWithAnotherTypeOrHoldingAReal() throws {
        let (scratch, backup) = try craftedBackup("""
            ALTER TABLE samples DROP COLUMN power_mw;
            ALTER TABLE samples ADD COLUMN power_mw TEXT;
            """)
        try assertRefused(backup, .schemaMismatch, "column samples.power_mw is declared 'TEXT', expected 'INTEGER'", in: scratch)
        let (scratch2, backup2) = try craftedBackup("UPDATE samples SET rx_bytes = 1.5 WHERE minute = (SELECT min(minute) FROM samples);")
        try assertRefused(backup2, .invalidContent, "samples row 1760000040, rx_bytes is real (expected integer or null)", in: scratch2)
        let (scratch3, backup3) = try craftedBackup("UPDATE samples SET gpu_busy = 'busy' WHERE minute = (SELECT min(minute) FROM samples);")
        try assertRefused(backup3, .invalidContent, "samples row 1760000040, gpu_busy is text (expected integer or null)", in: scratch3)
    }

    func testEveryTableHasARowLimitAndEveryTextOrBlobColumnALengthLimit() throws {
        let schema = try HistoryDatabase.expectedSchema(version: HistoryDatabase.schemaVersion)
        for table in try HistoryDatabase.schemaObjects(schema) where table.type == "table" {
            XCTAssertNotNil(RestoreLimits().maximum(table.name), table.name)
            for column in try HistoryDatabase.columns(schema, table: table.name) where column.type != "INTEGER" {
                XCTAssertNotNil(HistoryDatabase.byteLimits[table.name]?[column.name], "\(table.name).\(column.name)")
            }
        }
    }

    func testRestoreIsRefusedWhileASamplerHoldsTheDataDirectorysSharedLock() throws {
        let (scratch, backup) = try currentAndBackup()
        // What sysstatsd (and each writer) holds for its whole run, whatever its runtime directory.
        var sampler: DataDirectoryLock? = try DataDirectoryLock.shared(scratch.directory.path).get()
        try assertRefused(backup, .busy, "\(scratch.directory.path) is in use by a running sysstatsd (stop it first)", in: scratch)
        sampler = nil
        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)
        XCTAssertNil(sampler)
    }

    func testASamplerCannotTakeTheDataDirectoryWhileARestoreHoldsIt() throws {
        let scratch = try Scratch()
        let restoring = try HistoryDatabase.lockDataDirectory(scratch.directory.path)
        XCTAssertEqual(DataDirectoryLock.shared(scratch.directory.path).map { _ in "locked" },
                       .failure(.beingRestored("\(scratch.directory.path) is being restored (sysstats restore holds it)")))
        withExtendedLifetime(restoring) {}
    }

    func testCheckingACandidateNeverWritesBesideIt() throws {
        let (scratch, backup) = try currentAndBackup()
        let before = try bytes(backup)
        XCTAssertEqual(try HistoryDatabase.checkRestorable(backup), HistoryDatabase.schemaVersion)
        XCTAssertEqual(try bytes(backup), before)
        XCTAssertFalse(fileExists(backup + "-wal"))
        XCTAssertFalse(fileExists(backup + "-shm"))
        XCTAssertFalse(fileExists(backup + "-journal"))
        _ = scratch
    }

    func testAPlainCopyOfAClosedWALDatabaseIsRestorable() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        XCTAssertEqual(try bytes(scratch.databasePath)[18...19], [2, 2])   // WAL mode in the header
        try FileManager.default.copyItem(atPath: scratch.databasePath, toPath: scratch.file("copy.sqlite"))
        XCTAssertEqual(try HistoryDatabase.checkRestorable(scratch.file("copy.sqlite")), HistoryDatabase.schemaVersion)
        XCTAssertFalse(fileExists(scratch.file("copy.sqlite-shm")))
    }

    func testABackupIsPrivateAndAPathWithURICharactersIsCheckedAsItself() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        let odd = scratch.file("we?ird #name %41&mode=rw.sqlite")
        try scratch.open(readOnly: true).backup(to: odd)
        let attributes = try FileManager.default.attributesOfItem(atPath: odd)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try HistoryDatabase.checkRestorable(odd), HistoryDatabase.schemaVersion)
        XCTAssertFalse(fileExists(scratch.file("we")))
    }

    func testAGoodBackupRestoresReadsBackEqualAndKeepsTheOldDatabaseAsBak() throws {
        let (scratch, backup) = try currentAndBackup()
        let other = try HistoryDatabase(path: scratch.file("other.sqlite"), readOnly: true)
        let current = try scratch.open(readOnly: true)
        let (oldSamples, oldExits, oldBoots) = (try current.samples(from: 0, to: .max), try current.exits(sinceMs: 0), try current.boots())
        current.close()

        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)

        let restored = try scratch.open()
        XCTAssertEqual(try restored.samples(from: 0, to: .max), try other.samples(from: 0, to: .max))
        XCTAssertEqual(try restored.exits(sinceMs: 0), try other.exits(sinceMs: 0))
        XCTAssertEqual(try restored.boots(), try other.boots())
        XCTAssertEqual(try restored.samples(from: 0, to: .max).count, 1440)
        XCTAssertNil(try restored.integrityProblem())

        let kept = try HistoryDatabase(path: scratch.databasePath + ".bak", readOnly: true)
        XCTAssertEqual(try kept.samples(from: 0, to: .max), oldSamples)
        XCTAssertEqual(try kept.exits(sinceMs: 0), oldExits)
        XCTAssertEqual(try kept.boots(), oldBoots)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).filter { $0.contains(".restore-") || $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    func testRestoreKeepsCommittedRowsThatWereOnlyInTheCurrentWALInTheBak() throws {
        let (scratch, backup) = try currentAndBackup()
        // A writer that never checkpointed (as after kill -9): rows only in history.sqlite-wal.
        let writer = try scratch.open()
        try writer.connection.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.append(samples: [sample(9_000_000_000)])
        XCTAssertTrue(fileExists(scratch.databasePath + "-wal"))
        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)
        writer.close()
        let kept = try HistoryDatabase(path: scratch.databasePath + ".bak", readOnly: true)
        XCTAssertEqual(try kept.samples(from: 9_000_000_000, to: .max), [sample(9_000_000_000)])
        let restored = try scratch.open(readOnly: true)
        XCTAssertEqual(try restored.samples(from: 9_000_000_000, to: .max), [])
    }

    func testRestoreIntoAFolderWithoutADatabaseCreatesIt() throws {
        let (scratch, backup) = try currentAndBackup()
        let fresh = scratch.file("fresh/history.sqlite")
        try HistoryDatabase.restore(from: backup, into: fresh)
        XCTAssertEqual(try HistoryDatabase(path: fresh, readOnly: true).samples(from: 0, to: .max).count, 1440)
        XCTAssertFalse(fileExists(fresh + ".bak"))
    }

    func testBackupWhileAnotherConnectionWritesPassesIntegrityCheckAndReadsBackEqual() throws {
        let scratch = try Scratch()
        try scratch.open().close()
        let path = scratch.databasePath
        let stop = Atomic(false)
        let writerError = Atomic<String?>(nil)
        let writer = Thread {
            do {
                let db = try HistoryDatabase(path: path)
                var minute: UInt64 = 60
                while !stop.value {
                    try db.append(samples: [sample(minute)])
                    try db.append(exits: [exitRecord(minute * 1000)])
                    minute += 60
                }
            } catch { writerError.value = "\(error)" }
        }
        writer.start()
        let source = try scratch.open(readOnly: true)
        var backups: [[MinuteSample]] = []
        for index in 0..<5 {
            Thread.sleep(forTimeInterval: 0.05)
            let target = scratch.file("backup-\(index).sqlite")
            try source.backup(to: target)
            XCTAssertEqual(try HistoryDatabase.checkRestorable(target), HistoryDatabase.schemaVersion)
            let copy = try HistoryDatabase(path: target, readOnly: true)
            XCTAssertNil(try copy.integrityProblem())
            backups.append(try copy.samples(from: 0, to: .max))
            // A sample and its exit are two transactions: the copy may fall between them.
            let exits = try copy.exits(sinceMs: 0).count, samples = backups.last!.count
            XCTAssertTrue(exits == samples || exits == samples - 1, "\(exits) exits, \(samples) samples")
        }
        stop.value = true
        while writer.isExecuting || !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertNil(writerError.value)
        let final = try source.samples(from: 0, to: .max)
        XCTAssertGreaterThan(backups.last!.count, 0)
        for copy in backups {   // each backup is the database as it was at one moment: a prefix
            XCTAssertEqual(copy, Array(final.prefix(copy.count)))
        }
        try source.backup(to: scratch.file("quiet.sqlite"))
        XCTAssertEqual(try HistoryDatabase(path: scratch.file("quiet.sqlite"), readOnly: true).samples(from: 0, to: .max), final)
    }

    func testAReaderReadingWhileAWriterWritesNeverSeesDatabaseIsLocked() throws {
        let scratch = try Scratch()
        try scratch.open().close()
        let path = scratch.databasePath
        let done = Atomic(false)
        let writerError = Atomic<String?>(nil)
        let writer = Thread {
            do {
                let db = try HistoryDatabase(path: path)
                for minute in 1...200 {
                    try db.append(samples: [sample(UInt64(minute) * 60)])
                    if minute % 50 == 0 { try db.checkpoint() }
                    if minute % 100 == 0 { try db.applyRetention(nowSeconds: UInt64(minute) * 60) }
                }
            } catch { writerError.value = "\(error)" }
            done.value = true
        }
        writer.start()
        let reader = try HistoryDatabase(path: path, readOnly: true)
        var reads = 0, lastCount = 0
        while !done.value {
            let rows = try reader.samples(from: 0, to: .max)
            XCTAssertGreaterThanOrEqual(rows.count, lastCount)
            lastCount = rows.count
            _ = try reader.boots()
            reads += 1
        }
        XCTAssertNil(writerError.value)
        XCTAssertEqual(try reader.samples(from: 0, to: .max).count, 200)
        XCTAssertGreaterThan(reads, 1)
    }
}

/// A lock-protected value shared between the test thread and a worker thread.
final class Atomic<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
