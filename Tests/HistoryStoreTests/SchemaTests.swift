import Foundation
@testable import HistoryStore
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
