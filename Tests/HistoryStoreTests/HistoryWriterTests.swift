import Foundation
import HistoryRecords
import XCTest
@testable import HistoryStore

/// `sysstatsd-history`'s work, in-process: the program itself only wires stdin and stderr.
final class HistoryWriterTests: XCTestCase {
    let batch = HistoryBatch(bootID: "1eddd26a-bed7-45c3-88ca-11e106c23142", bootTime: 1_750_000_000, uptimeSeconds: 5000,
                             nowSeconds: 1_750_005_000, samples: [sample(1_750_004_940)],
                             exits: [exitRecord(1_750_004_999_000)], endsCleanly: true)

    func run(_ arguments: [String], _ input: Result<[UInt8], HistoryWriter.InputProblem>) -> (Int32, [String]) {
        var lines: [String] = []
        let status = HistoryWriter.run(arguments: arguments, input: { input }, report: { lines.append($0) })
        return (status, lines)
    }

    func testABatchIsStoredWithTheRulesCacheBesideIt() throws {
        let scratch = try Scratch()
        let directory = scratch.file("data")
        let (status, lines) = run(["--data-dir", directory], .success(batch.encoded))
        XCTAssertEqual(status, 0)
        XCTAssertEqual(lines, [])
        let database = try HistoryDatabase(path: HistoryDatabase.databasePath(in: directory), readOnly: true)
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 1)
        XCTAssertTrue(fileExists(HistoryDatabase.rulesCachePath(in: directory)))
    }

    func testBadArgumentsUnreadableInputAndAnUndecodableBatchAreOneLineAndStatusOne() throws {
        let scratch = try Scratch()
        let directory = scratch.file("data")
        XCTAssertEqual(run([], .success(batch.encoded)).0, 1)
        XCTAssertTrue(run(["--data-dir"], .success([])).1.first?.hasPrefix("sysstatsd-history: usage:") == true)
        XCTAssertEqual(run(["--data-dir", directory], .failure(.init("batch on stdin is over 1 bytes"))).1,
                       ["sysstatsd-history: batch on stdin is over 1 bytes"])
        let (status, lines) = run(["--data-dir", directory], .success(Array("not a batch".utf8)))
        XCTAssertEqual(status, 1)
        XCTAssertEqual(lines.count, 1)
        XCTAssertFalse(fileExists(HistoryDatabase.databasePath(in: directory)), "nothing created for a bad batch")
    }

    func testWhileARestoreHoldsTheDataDirectoryTheBatchIsNotWritten() throws {
        let scratch = try Scratch()
        let directory = scratch.file("data")
        XCTAssertEqual(mkdir(directory, 0o700), 0)
        do {
            let restore = try DataDirectoryLock.exclusive(directory).get()
            let (status, lines) = run(["--data-dir", directory], .success(batch.encoded))
            XCTAssertEqual(status, 1)
            XCTAssertTrue(lines.first?.hasSuffix("this batch is not written") == true, "\(lines)")
            withExtendedLifetime(restore) {}
        }
        XCTAssertEqual(run(["--data-dir", directory], .success(batch.encoded)).0, 0)
    }

    /// The export's boot figures: written at a start batch, the running boot not counted.
    func testAStartBatchWritesHowTheEarlierBootsEndedForTheSampler() throws {
        let scratch = try Scratch()
        let directory = scratch.file("data")
        func start(_ id: String, at time: UInt64) -> [UInt8] {
            HistoryBatch(bootID: id, bootTime: time, uptimeSeconds: 10, nowSeconds: time + 10, samples: [], exits: [],
                         endsCleanly: false).encoded
        }
        func end(_ id: String, at time: UInt64) -> [UInt8] {
            HistoryBatch(bootID: id, bootTime: time, uptimeSeconds: 100, nowSeconds: time + 100, samples: [], exits: [],
                         endsCleanly: true).encoded
        }
        func summary() throws -> String {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/" + BootSummary.fileName)), as: UTF8.self)
        }
        XCTAssertEqual(run(["--data-dir", directory], .success(start("boot-a", at: 1_000))).0, 0)
        XCTAssertEqual(try summary(), "0 0 -\n", "the first boot: no earlier one")
        XCTAssertEqual(run(["--data-dir", directory], .success(end("boot-a", at: 1_000))).0, 0)   // stopped cleanly
        XCTAssertEqual(run(["--data-dir", directory], .success(start("boot-b", at: 2_000))).0, 0)
        XCTAssertEqual(try summary(), "1 0 1\n")
        // boot-b crashes: boot-c's start counts it unclean.
        XCTAssertEqual(run(["--data-dir", directory], .success(start("boot-c", at: 3_000))).0, 0)
        XCTAssertEqual(try summary(), "1 1 0\n")
        // A missing file is written again by the next batch, whatever it is.
        try FileManager.default.removeItem(atPath: directory + "/" + BootSummary.fileName)
        XCTAssertEqual(run(["--data-dir", directory], .success(batch.encoded)).0, 0)
        XCTAssertTrue(fileExists(directory + "/" + BootSummary.fileName))
    }
}
