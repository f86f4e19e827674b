import CSQLite
import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

final class RecordTests: XCTestCase {
    let bootA = "1eddd26a-bed7-45c3-88ca-11e106c23142"
    let bootB = "2f3e4d5c-0000-4000-8000-aaaaaaaaaaaa"

    func testTheSameBootIDRefreshesTheSameRow() throws {
        let db = try Scratch().open()
        XCTAssertEqual(try db.recordBoot(id: bootA, bootTime: 1000, uptimeSeconds: 10, nowSeconds: 1010), .newBoot(previous: nil))
        XCTAssertEqual(try db.recordBoot(id: bootA, bootTime: 1000, uptimeSeconds: 70, nowSeconds: 1070), .sameBoot)
        try db.refreshBoot(id: bootA, uptimeSeconds: 130, nowSeconds: 1130)
        XCTAssertEqual(try db.boots(), [BootRecord(id: bootA, bootTime: 1000, lastSeenUptime: 130, lastSeenTime: 1130, cleanEnd: false)])
    }

    func testANewBootIDAddsARowAndThePreviousBootWithoutACleanMarkIsUnclean() throws {
        let db = try Scratch().open()
        _ = try db.recordBoot(id: bootA, bootTime: 1000, uptimeSeconds: 10, nowSeconds: 1010)
        try db.refreshBoot(id: bootA, uptimeSeconds: 70, nowSeconds: 1070)
        let crashed = BootRecord(id: bootA, bootTime: 1000, lastSeenUptime: 70, lastSeenTime: 1070, cleanEnd: false)
        XCTAssertEqual(try db.recordBoot(id: bootB, bootTime: 5000, uptimeSeconds: 5, nowSeconds: 5005), .newBoot(previous: crashed))
        XCTAssertEqual(try db.boots(), [crashed, BootRecord(id: bootB, bootTime: 5000, lastSeenUptime: 5, lastSeenTime: 5005, cleanEnd: false)])
    }

    func testABootMarkedCleanStaysCleanAfterTheNextBoot() throws {
        let db = try Scratch().open()
        _ = try db.recordBoot(id: bootA, bootTime: 1000, uptimeSeconds: 10, nowSeconds: 1010)
        try db.markBootClean(id: bootA, uptimeSeconds: 90, nowSeconds: 1090)
        let clean = BootRecord(id: bootA, bootTime: 1000, lastSeenUptime: 90, lastSeenTime: 1090, cleanEnd: true)
        XCTAssertEqual(try db.recordBoot(id: bootB, bootTime: 5000, uptimeSeconds: 5, nowSeconds: 5005), .newBoot(previous: clean))
        XCTAssertEqual(try db.boots().first, clean)
    }

    func testASamplerRestartInTheSameBootClearsTheCleanMark() throws {
        let db = try Scratch().open()
        _ = try db.recordBoot(id: bootA, bootTime: 1000, uptimeSeconds: 10, nowSeconds: 1010)
        try db.markBootClean(id: bootA, uptimeSeconds: 90, nowSeconds: 1090)
        XCTAssertEqual(try db.recordBoot(id: bootA, bootTime: 1000, uptimeSeconds: 200, nowSeconds: 1200), .sameBoot)
        XCTAssertEqual(try db.boots().map(\.cleanEnd), [false])
    }

    func testRefreshingABootThatWasNeverRecordedFails() throws {
        let db = try Scratch().open()
        XCTAssertThrowsError(try db.refreshBoot(id: bootA, uptimeSeconds: 1, nowSeconds: 1))
        XCTAssertThrowsError(try db.markBootClean(id: bootA, uptimeSeconds: 1, nowSeconds: 1))
    }

    func testSamplesRoundTripInTimeOrderWithAndWithoutBattery() throws {
        let db = try Scratch().open()
        let written = [sample(180, cpu: 0, max: 0, used: 0), sample(60, battery: 8512, state: 2),
                       sample(120, cpu: 10_000, max: 10_000, used: UInt64(Int64.max))]
        try db.append(samples: written)
        XCTAssertEqual(try db.samples(from: 0, to: 1000), written.sorted { $0.minute < $1.minute })
        XCTAssertEqual(try db.samples(from: 120, to: 180), [written[2]])
    }

    func testWritingAMinuteAgainReplacesIt() throws {
        let db = try Scratch().open()
        try db.append(samples: [sample(60, cpu: 1)])
        try db.append(samples: [sample(60, cpu: 2)])
        XCTAssertEqual(try db.samples(from: 0, to: 1000), [sample(60, cpu: 2)])
    }

    func testExitsRoundTripWithHostileNames() throws {
        let db = try Scratch().open()
        let names: [[UInt8]] = [
            Array("'); DROP TABLE exits; --".utf8),
            Array("\"quoted\" `back` 'single'".utf8),
            [0x01, 0x02, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x7F, 0x0A, 0x0D, 0x09],
            [0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80],
            [],
            [UInt8](repeating: 0x41, count: 100_000),
        ]
        let written = names.enumerated().map { index, name in
            exitRecord(1_000 + UInt64(index), name: name, friendly: index == 1 ? "Fire'fox \"🦊\"" : nil)
        }
        try db.append(exits: written)
        // Stored as given; read cut to what the writer stores (a name of 100,000 bytes can only
        // come from an edited file: the writer cuts at HistoryBatch.maximumNameBytes).
        var read = written
        read[5].name = Array(read[5].name.prefix(HistoryBatch.maximumNameBytes))
        XCTAssertEqual(try db.exits(sinceMs: 0), read)
        XCTAssertEqual(try db.exits(sinceMs: 1_004), Array(read[4...]))
        XCTAssertEqual(try db.connection.integer("SELECT max(length(name)) FROM exits"), 100_000, "the row as written")
        XCTAssertEqual(try db.connection.integer("SELECT count(*) FROM exits"), Int64(names.count))
    }

    func testTheSampleInsertIsPreparedOnceAndReusedForEveryRowAndCall() throws {
        let db = try Scratch().open()
        try db.append(samples: [sample(60), sample(120)])
        try db.append(samples: [sample(180)])
        var inserts: [OpaquePointer] = []
        var statement = sqlite3_next_stmt(db.connection.handle, nil)
        while let current = statement {
            if String(cString: sqlite3_sql(current)).contains("INTO samples") { inserts.append(current) }
            statement = sqlite3_next_stmt(db.connection.handle, current)
        }
        XCTAssertEqual(inserts.count, 1)
        XCTAssertEqual(sqlite3_stmt_status(inserts[0], SQLITE_STMTSTATUS_RUN, 0), 3)
    }
}
