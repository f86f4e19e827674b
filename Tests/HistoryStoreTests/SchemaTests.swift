import Bookmarks
import Foundation
@testable import HistoryStore
import SnapshotCodec
import TestSupport
import XCTest

final class SchemaTests: XCTestCase {
    func testOpeningAnEmptyFileAppliesEveryMigrationAndSetsApplicationIDAndWAL() throws {
        let scratch = try Scratch()
        try writeBytes([], scratch.databasePath)
        let db = try scratch.open()
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
        XCTAssertEqual(try db.connection.integer("PRAGMA application_id"), Int64(HistoryDatabase.applicationID))
        XCTAssertEqual(HistoryDatabase.applicationID, 0x5379_7353)
        for table in ["boots", "samples", "hourly_samples", "exits", "bookmarks"] {
            let statement = try db.connection.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1")
            statement.bind(1, text: table)
            XCTAssertTrue(try statement.step())
            XCTAssertEqual(statement.int64(0), 1, table)
            statement.reset()
        }
        let mode = try db.connection.statement("PRAGMA journal_mode")
        XCTAssertTrue(try mode.step())
        XCTAssertEqual(mode.text(0), "wal")
        XCTAssertEqual(try db.connection.integer("PRAGMA busy_timeout"), 5000)
        XCTAssertEqual(try db.connection.integer("PRAGMA cache_size"), -256)
    }

    func testOpeningCreatesMissingFoldersWithMode0700AndTheFileWithMode0600() throws {
        let scratch = try Scratch()
        let path = scratch.file("a/b/history.sqlite")
        _ = try HistoryDatabase(path: path)
        let folder = try FileManager.default.attributesOfItem(atPath: scratch.file("a/b"))
        XCTAssertEqual((folder[.posixPermissions] as? Int), 0o700)
        let file = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((file[.posixPermissions] as? Int), 0o600)
    }

    func testReopeningAtTheCurrentVersionKeepsDataAndRunsNoMigration() throws {
        let scratch = try Scratch()
        try scratch.open().append(samples: [sample(60)])
        let db = try scratch.open()
        XCTAssertEqual(try db.samples(from: 0, to: 120), [sample(60)])
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
    }

    func testAFailingMigrationIsRolledBackWholeAndLeavesUserVersionAndDataUnchanged() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.append(samples: [sample(60)])
        let current = Int64(HistoryDatabase.schemaVersion)
        let broken = Schema.migrations + [Migration(name: "\(current + 1): broken", sql: """
            CREATE TABLE extra (x INTEGER);
            INSERT INTO extra VALUES (1);
            INSERT INTO no_such_table VALUES (1);
            """)]
        XCTAssertThrowsError(try Schema.migrate(db.connection, migrations: broken)) { error in
            XCTAssertTrue((error as! StoreError).message.contains("migration \(current + 1): broken failed"), "\(error)")
        }
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), current)
        XCTAssertEqual(try db.connection.integer("SELECT count(*) FROM sqlite_master WHERE name = 'extra'"), 0)
        XCTAssertEqual(try db.samples(from: 0, to: 120), [sample(60)])

        let fixed = Schema.migrations + [Migration(name: "\(current + 1): extra", sql: "CREATE TABLE extra (x INTEGER);")]
        try Schema.migrate(db.connection, migrations: fixed)
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), current + 1)
        XCTAssertEqual(try db.connection.integer("SELECT count(*) FROM sqlite_master WHERE name = 'extra'"), 1)
        XCTAssertEqual(try db.samples(from: 0, to: 120), [sample(60)])
    }

    func testAnInterruptedFirstMigrationOnAVersionZeroFileWithDataLeavesItAtVersionZero() throws {
        // Version 0 with our application id and data in a table migration 1 also creates:
        // migration 1 fails half-way, and must leave nothing of itself behind.
        let scratch = try Scratch()
        let raw = try rawConnection(scratch.databasePath)
        try raw.execute("PRAGMA application_id = \(HistoryDatabase.applicationID); CREATE TABLE exits (kept TEXT); INSERT INTO exits VALUES ('old row');")
        raw.close()
        XCTAssertThrowsError(try scratch.open()) { error in
            XCTAssertTrue((error as! StoreError).message.contains("migration 1: boots, samples, hourly_samples, exits, bookmarks failed"), "\(error)")
        }
        let check = try rawConnection(scratch.databasePath)
        XCTAssertEqual(try check.integer("PRAGMA user_version"), 0)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM sqlite_master WHERE name IN ('boots', 'samples', 'hourly_samples')"), 0)
        XCTAssertEqual(try check.integer("SELECT count(*) FROM exits WHERE kept = 'old row'"), 1)
    }

    func testMigrationsFromVersionZeroRunInOrderFromAFileThatHasOnlyOurApplicationID() throws {
        // A version-0 file as a crash between creation and migration 1 would leave it.
        let scratch = try Scratch()
        let raw = try rawConnection(scratch.databasePath)
        try raw.execute("PRAGMA application_id = \(HistoryDatabase.applicationID)")
        raw.close()
        let db = try scratch.open()
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
        try db.append(samples: [sample(60)])
    }

    func testMigrationThreeOnAVersionTwoDatabaseWithDataKeepsEveryRowAndAddsNullableColumns() throws {
        let scratch = try Scratch()
        try makeVersionTwoDatabase(scratch.databasePath)
        XCTAssertThrowsError(try scratch.open(readOnly: true)) { error in
            XCTAssertEqual((error as! StoreError).kind, .olderSchema, "the CLI asks for the sampler to upgrade it")
        }
        let db = try scratch.open()
        XCTAssertEqual(HistoryDatabase.schemaVersion, 4 + Int32(ListedHistory.columns.count) + Int32(Schema.writtenAfterListed.count))
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
        XCTAssertEqual(try db.samples(from: 0, to: .max), versionTwoSamples(), "every row, the new figures NULL")
        XCTAssertEqual(try db.boots().count, 1)
        XCTAssertEqual(try db.exits(sinceMs: 0).map(\.pid), [42, 43])
        XCTAssertEqual(try db.exits(sinceMs: 0).first?.name, [0xFF, 0x00, 0x6E, 0x61, 0x6D, 0x65])
        XCTAssertEqual(try db.bookmarks().filter { $0.source == .user }.map(\.friendlyName), [Array("X server".utf8)])
        XCTAssertNil(try db.integrityProblem())
        for table in ["samples", "hourly_samples"] {
            let added = try HistoryDatabase.columns(db.connection, table: table).suffix(8)
            XCTAssertEqual(added.map(\.name), ["rx_bytes", "tx_bytes", "cpu_temp_mc", "root_used", "gpu_busy", "vram_used",
                                               "fan_rpm", "power_mw"], table)
            XCTAssertEqual(Set(added.map(\.type)), ["INTEGER"])
            XCTAssertEqual(Set(added.map(\.notNull)), [false])
        }
        // The migrated file has exactly the schema of a new one (what restore compares with).
        try HistoryDatabase.checkSchema(db.connection, version: HistoryDatabase.schemaVersion, path: scratch.databasePath)

        let new = sample(1_800_086_400, rx: 123_456_789, tx: 0, temperature: -1500, root: 10_000)
        try db.append(samples: [new])
        XCTAssertEqual(try db.samples(from: 1_800_086_400, to: .max), [new])
    }

    /// Right after an upgrade the CLI reads the file the old sampler left, before the new one
    /// has migrated it: version 3 lacks only migration 4's nullable columns, read as NULL.
    func testTheCLIReadsAVersionThreeDatabaseUnmigratedWithTheGPUFiguresNil() throws {
        let scratch = try Scratch()
        try makeVersionThreeDatabase(scratch.databasePath, minutes: 30)
        let reader = try scratch.open(readOnly: true)
        XCTAssertEqual(reader.version, 3)
        XCTAssertEqual(try reader.samples(from: 0, to: .max), versionThreeSamples(minutes: 30))
        XCTAssertEqual(try reader.boots().count, 1)
        XCTAssertEqual(try reader.connection.integer("PRAGMA user_version"), 3, "read, not migrated")
        reader.close()
    }

    func testMigrationFourOnAVersionThreeDatabaseKeepsEveryFigureAndAddsTheGPUColumnsNull() throws {
        let scratch = try Scratch()
        try makeVersionThreeDatabase(scratch.databasePath)
        let db = try scratch.open()
        XCTAssertEqual(try db.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
        XCTAssertEqual(try db.samples(from: 0, to: .max), versionThreeSamples(), "every row and figure, the GPU's NULL")
        XCTAssertEqual(try db.exits(sinceMs: 0).map(\.pid), [42, 43])
        XCTAssertNil(try db.integrityProblem())
        try HistoryDatabase.checkSchema(db.connection, version: HistoryDatabase.schemaVersion, path: scratch.databasePath)
        let new = sample(1_800_086_400, gpu: 10_000, vram: UInt64(Int64.max))
        try db.append(samples: [new])
        XCTAssertEqual(try db.samples(from: 1_800_086_400, to: .max), [new])
    }

    /// The listed parts' history columns come from their figure tables: one migration each,
    /// named by its column, after the written ones. A version-4 file (the GPU columns, none of
    /// the listed parts') gains them NULL, and reads them back once written; read unmigrated
    /// (the CLI right after an upgrade), they are nil.
    func testEachListedHistoryColumnIsAMigrationOfItsOwnAndAVersionFourFileGainsThemNull() throws {
        XCTAssertEqual(Schema.listedColumnMigrations.map(\.name), ["5: samples fan_rpm", "6: samples power_mw"])
        for i in Schema.listedColumnMigrations.indices {
            XCTAssertTrue(Schema.listedColumnName(i).utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F },
                          "a name spliced into SQL: [a-z0-9_] only")
        }
        let scratch = try Scratch()
        let raw = try rawConnection(scratch.databasePath)
        try Schema.migrate(raw, migrations: Array(Schema.migrations.prefix(4)))
        raw.close()
        try scratch.open().close()   // migrated by the sampler's writer...
        let fresh = try Scratch()
        let old = try rawConnection(fresh.databasePath)
        try Schema.migrate(old, migrations: Array(Schema.migrations.prefix(4)))
        try old.execute("INSERT INTO samples (minute, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib, load1, process_count) VALUES (60, 1, 2, 3, 4, 5, 6, 7)")
        old.close()
        let unmigrated = try fresh.open(readOnly: true)
        XCTAssertEqual(unmigrated.version, 4)
        XCTAssertEqual(try unmigrated.samples(from: 0, to: .max).first?.listed, FigureValues(), "...and before: nil")
        unmigrated.close()
        let db = try fresh.open()
        XCTAssertEqual(try db.samples(from: 0, to: .max).first?.listed, FigureValues())
        var listed = FigureValues()
        listed[0] = 1_200
        listed[1] = 15_300
        var new = sample(120)
        new.listed = listed
        try db.append(samples: [new])
        XCTAssertEqual(try db.samples(from: 120, to: 180), [new])
        try HistoryDatabase.checkSchema(db.connection, version: HistoryDatabase.schemaVersion, path: fresh.databasePath)
    }

    func testTheNewFiguresRoundTripAndACounterPastSQLitesLargestIntegerIsStoredAsTheLargest() throws {
        let db = try Scratch().open()
        let written = [sample(60, rx: 0, tx: UInt64(Int64.max), temperature: .min, root: 0),
                       sample(120, rx: 1, tx: nil, temperature: nil, root: 3334),
                       sample(180, temperature: .max)]
        try db.append(samples: written + [sample(240, rx: .max, tx: UInt64(Int64.max) + 1)])
        XCTAssertEqual(try db.samples(from: 0, to: 240), written)
        let clamped = try db.samples(from: 240, to: 300).first
        XCTAssertEqual(clamped?.rxBytes, UInt64(Int64.max))
        XCTAssertEqual(clamped?.txBytes, UInt64(Int64.max))
    }

    func testANewerUserVersionIsRefusedWithAClearMessage() throws {
        let scratch = try Scratch()
        try scratch.open().close()
        let raw = try rawConnection(scratch.databasePath)
        try raw.execute("PRAGMA user_version = 99")
        raw.close()
        XCTAssertThrowsError(try scratch.open()) { error in
            let error = error as! StoreError
            XCTAssertEqual(error.kind, .newerSchema)
            XCTAssertEqual(error.message, "\(scratch.databasePath) is from a newer sysstats (schema version 99; this build knows up to \(HistoryDatabase.schemaVersion))")
        }
        XCTAssertThrowsError(try scratch.open(readOnly: true)) { XCTAssertEqual(($0 as! StoreError).kind, .newerSchema) }
    }

    func testAnotherApplicationsDatabaseIsRefusedAndNotMigrated() throws {
        let scratch = try Scratch()
        let raw = try rawConnection(scratch.databasePath)
        try raw.execute("PRAGMA application_id = 305419896; CREATE TABLE notes (text TEXT);")
        raw.close()
        let before = try bytes(scratch.databasePath)
        XCTAssertThrowsError(try scratch.open()) { error in
            let error = error as! StoreError
            XCTAssertEqual(error.kind, .foreignApplication)
            XCTAssertTrue(error.message.contains("is not a sysstats history database (application_id 0x12345678, expected 0x53797353)"), error.message)
        }
        XCTAssertEqual(try bytes(scratch.databasePath), before)
    }

    func testAnSQLiteFileWithTablesButNoApplicationIDIsRefused() throws {
        let scratch = try Scratch()
        let raw = try rawConnection(scratch.databasePath)
        try raw.execute("CREATE TABLE notes (text TEXT)")
        raw.close()
        XCTAssertThrowsError(try scratch.open()) { XCTAssertEqual(($0 as! StoreError).kind, .foreignApplication) }
    }

    func testReadOnlyOpenOfAMissingFileFailsAndCreatesNothing() throws {
        let scratch = try Scratch()
        XCTAssertThrowsError(try scratch.open(readOnly: true)) { XCTAssertEqual(($0 as! StoreError).kind, .io) }
        XCTAssertFalse(fileExists(scratch.databasePath))
    }

    func testReadOnlyConnectionCannotWrite() throws {
        let scratch = try Scratch()
        try scratch.open().close()
        let reader = try scratch.open(readOnly: true)
        XCTAssertThrowsError(try reader.append(samples: [sample(60)]))
    }

    func testDefaultDirectoryPrefersDataDirThenXDGDataHomeThenHome() {
        XCTAssertEqual(HistoryDatabase.defaultDirectory(dataDir: "/d", xdgDataHome: "/x", home: "/h"), "/d")
        XCTAssertEqual(HistoryDatabase.defaultDirectory(xdgDataHome: "/x/", home: "/h"), "/x/sysstats")
        XCTAssertEqual(HistoryDatabase.defaultDirectory(xdgDataHome: "relative", home: "/h"), "/h/.local/share/sysstats")
        XCTAssertEqual(HistoryDatabase.defaultDirectory(xdgDataHome: nil, home: "/h"), "/h/.local/share/sysstats")
        XCTAssertNil(HistoryDatabase.defaultDirectory(xdgDataHome: nil, home: nil))
        XCTAssertEqual(HistoryDatabase.databasePath(in: "/x/sysstats"), "/x/sysstats/history.sqlite")
    }
}
