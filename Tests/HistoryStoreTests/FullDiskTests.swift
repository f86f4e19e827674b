import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

/// History on a real full file system (a small tmpfs; skipped where mounting is not allowed).
final class FullDiskTests: XCTestCase {
    func smallFileSystem(kilobytes: Int = 2048) throws -> SmallFileSystem {
        do { return try SmallFileSystem(kilobytes: kilobytes) } catch let error as SmallFileSystem.Unavailable {
            throw XCTSkip("\(error)")
        }
    }

    func testReadOnlyOpensReadEverythingOnAFullFileSystem() throws {
        let disk = try smallFileSystem()
        let path = disk.file("data/history.sqlite")
        try makePopulatedDatabase(path, minutes: 1440, exits: 50)
        XCTAssertFalse(fileExists(path + "-shm"), "closed: the writer's close removed -wal and -shm")
        disk.fill()
        XCTAssertEqual(disk.availableBytes, 0)

        let database = try HistoryDatabase(path: path, readOnly: true)
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 1440)
        XCTAssertEqual(try database.exits(sinceMs: 0).count, 50)
        XCTAssertEqual(try database.boots().count, 1)
        XCTAssertFalse(try database.bookmarks().isEmpty)
        let copy = try TemporaryDirectory("full-backup")
        try database.backup(to: copy.file("backup.sqlite"))
        XCTAssertEqual(try HistoryDatabase.checkRestorable(copy.file("backup.sqlite")), HistoryDatabase.schemaVersion)
    }

    func testAReadOnlyOpenOnAFullFileSystemSeesRowsThatAreOnlyInTheWAL() throws {
        let disk = try smallFileSystem()
        let path = disk.file("data/history.sqlite")
        try makePopulatedDatabase(path, minutes: 10, exits: 0)
        // As after a kill -9 of a writer: committed rows only in -wal, and no -shm.
        let writer = try HistoryDatabase(path: path)
        try writer.connection.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.append(samples: [sample(9_000_000_000)])
        let copy = disk.file("copy/history.sqlite")
        try FileManager.default.createDirectory(atPath: disk.file("copy"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        writer.close()
        disk.fill()

        let database = try HistoryDatabase(path: copy, readOnly: true)
        XCTAssertEqual(try database.samples(from: 9_000_000_000, to: .max), [sample(9_000_000_000)])
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 11)
    }

    func testTheWriterOnAFullFileSystemFailsAsFullChangesNothingAndWorksOnceThereIsRoom() throws {
        let disk = try smallFileSystem()
        let path = disk.file("data/history.sqlite")
        try makePopulatedDatabase(path, minutes: 10, exits: 0)
        disk.fill()
        let before = try bytes(path)
        let batch = HistoryBatch(bootID: "1eddd26a-bed7-45c3-88ca-11e106c23142", bootTime: 1_750_000_000, uptimeSeconds: 5000,
                                 nowSeconds: 1_750_005_000, samples: [sample(1_750_005_000 - 1_750_005_000 % 60)], exits: [],
                                 endsCleanly: false)
        XCTAssertThrowsError(try HistoryDatabase(path: path).apply(batch)) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .full, "\(error)")
        }
        XCTAssertEqual(try bytes(path), before)

        disk.free()
        try HistoryDatabase(path: path).apply(batch)
        let database = try HistoryDatabase(path: path, readOnly: true)
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 11)
        XCTAssertNil(try database.integrityProblem())
    }

    func testCreatingTheDatabaseOnAFullFileSystemFailsAsFullAndIsRetriedWholeLater() throws {
        let disk = try smallFileSystem(kilobytes: 1024)
        try FileManager.default.createDirectory(atPath: disk.file("data"), withIntermediateDirectories: false)
        let path = disk.file("data/history.sqlite")
        disk.fill()
        XCTAssertThrowsError(try HistoryDatabase(path: path)) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .full, "\(error)")
        }
        disk.free()
        let database = try HistoryDatabase(path: path)
        XCTAssertEqual(try database.connection.integer("PRAGMA user_version"), Int64(HistoryDatabase.schemaVersion))
        XCTAssertEqual(try database.connection.integer("PRAGMA auto_vacuum"), 2, "incremental, as a new file gets it")
        XCTAssertNil(try database.integrityProblem())
    }
}
