import SnapshotCodec
import TestSupport
import XCTest
@testable import HistoryStore

/// The collector's batches applied to a database: what HistoryRecorder did in one process,
/// now split between the sampler (HistoryCollector) and the writer (HistoryDatabase.apply).
final class HistoryApplyTests: XCTestCase {
    let minute0: UInt64 = 1_763_712_000_000   // a whole minute, ms

    func snapshot(atMs ms: UInt64, cpu: Permyriad, used: UInt64, exits: [ExitEntry] = []) -> Snapshot {
        var s = Snapshot()
        s.timestampMs = ms
        s.cpuBusy = cpu
        s.memory.used = used
        s.memory.available = 1_000_000 - used
        s.memory.swapUsed = 42
        s.load1 = 150
        s.processCount = 99
        s.uptimeCentiseconds = ms / 10
        s.exits = exits
        return s
    }

    func open(_ dir: TemporaryDirectory) throws -> HistoryDatabase {
        try HistoryDatabase(path: dir.file("history.sqlite"))
    }

    /// A collector whose start batch is already applied (as the sampler does at start).
    func start(_ database: HistoryDatabase, bootID: String, bootTime: UInt64, uptimeSeconds: UInt64, nowSeconds: UInt64) throws -> HistoryCollector {
        let collector = HistoryCollector(bootID: bootID, bootTime: bootTime, uptimeSeconds: uptimeSeconds)
        try database.apply(collector.startBatch(uptimeSeconds: uptimeSeconds, nowMs: nowSeconds * 1000))
        return collector
    }

    /// Records a sample and applies the batch it returns, as sampler and writer do.
    func record(_ collector: inout HistoryCollector, _ database: HistoryDatabase, _ s: Snapshot) throws {
        if let batch = collector.record(s) { try database.apply(batch) }
    }

    func testAMinuteIsWrittenWhenItEndsWithAverageAndMaximumCPU() throws {
        let dir = try TemporaryDirectory("recorder")
        let database = try open(dir)
        var collector = try start(database, bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: minute0 / 1000)
        try record(&collector, database, snapshot(atMs: minute0 + 1_000, cpu: 1000, used: 400_000))
        try record(&collector, database, snapshot(atMs: minute0 + 30_000, cpu: 3000, used: 600_000))
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 0, "nothing before the minute ends")
        try record(&collector, database, snapshot(atMs: minute0 + 60_000, cpu: 0, used: 0))
        let rows = try database.samples(from: 0, to: .max)
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?.minute, minute0 / 1000)
        XCTAssertEqual(rows.first?.cpuAverage, 2000)
        XCTAssertEqual(rows.first?.cpuMaximum, 3000)
        XCTAssertEqual(rows.first?.memoryUsedKiB, 500_000)
        XCTAssertEqual(rows.first?.memoryAvailableKiB, 500_000)
        XCTAssertEqual(rows.first?.processCount, 99)
        XCTAssertNil(rows.first?.batteryPercent)
    }

    func testExitsHeldInSeveralSnapshotsAreRecordedOnce() throws {
        let dir = try TemporaryDirectory("recorder")
        let database = try open(dir)
        var collector = try start(database, bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: minute0 / 1000)
        let firefox = ExitEntry(pid: 100, timeMs: minute0 + 2_000, lastPrivateKiB: 400_000, freedKiB: 420_000, name: Array("firefox".utf8))
        let hostile = ExitEntry(pid: 101, timeMs: minute0 + 3_000, lastPrivateKiB: 9_000, freedKiB: 0, name: Array("x\"},{</b> \u{FFFD}".utf8))
        try record(&collector, database, snapshot(atMs: minute0 + 2_000, cpu: 0, used: 1, exits: [firefox]))
        try record(&collector, database, snapshot(atMs: minute0 + 3_000, cpu: 0, used: 1, exits: [hostile, firefox]))
        try record(&collector, database, snapshot(atMs: minute0 + 4_000, cpu: 0, used: 1, exits: [hostile, firefox]))
        try record(&collector, database, snapshot(atMs: minute0 + 61_000, cpu: 0, used: 1, exits: [hostile, firefox]))
        let exits = try database.exits(sinceMs: 0)
        XCTAssertEqual(exits.map(\.pid).sorted(), [100, 101])
        XCTAssertEqual(exits.first { $0.pid == 100 }?.freedKiB, 420_000)
        XCTAssertEqual(exits.first { $0.pid == 101 }?.name, hostile.name)
    }

    func testFinishWritesThePartialMinuteAndMarksTheBootClean() throws {
        let dir = try TemporaryDirectory("recorder")
        do {
            let database = try open(dir)
            var collector = try start(database, bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: minute0 / 1000)
            try record(&collector, database, snapshot(atMs: minute0 + 5_000, cpu: 500, used: 1))
            XCTAssertEqual(try database.boots().map(\.cleanEnd), [false], "running until the last batch")
            try database.apply(collector.finish(nowMs: minute0 + 6_000))
        }
        let database = try open(dir)
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 1)
        XCTAssertEqual(try database.boots().map(\.cleanEnd), [true])
    }

    func testABootWhoseSamplerNeverFinishedStaysUncleanAfterTheNextBoot() throws {
        let dir = try TemporaryDirectory("recorder")
        do {
            let database = try open(dir)
            var crashed = try start(database, bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: 100)
            try record(&crashed, database, snapshot(atMs: minute0, cpu: 1, used: 1))   // then power loss: no finish
        }
        do {
            let database = try open(dir)
            var next = try start(database, bootID: "boot-b", bootTime: 500, uptimeSeconds: 5, nowSeconds: 600)
            try database.apply(next.finish(nowMs: 700_000))
        }
        let boots = try open(dir).boots()
        XCTAssertEqual(boots.map(\.id), ["boot-a", "boot-b"])
        XCTAssertEqual(boots.map(\.cleanEnd), [false, true])
    }
}

extension HistoryApplyTests {
    func testTheSameBootIDRefreshesItsRowAndClearsTheCleanMark() throws {
        let dir = try TemporaryDirectory("recorder")
        let database = try open(dir)
        var first = try start(database, bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: 100)
        try database.apply(first.finish(nowMs: 200_000))
        XCTAssertEqual(try database.boots().map(\.cleanEnd), [true])
        _ = try start(database, bootID: "boot-a", bootTime: 1, uptimeSeconds: 300, nowSeconds: 400)
        let boots = try database.boots()
        XCTAssertEqual(boots.map(\.id), ["boot-a"])
        XCTAssertEqual(boots.map(\.cleanEnd), [false])
        XCTAssertEqual(boots.first?.lastSeenUptime, 300)
    }

    func testABatchThatWentThroughTheEncodingStoresTheSameRows() throws {
        let dir = try TemporaryDirectory("recorder")
        let database = try open(dir)
        let name: [UInt8] = [0xFF, 0x00, 0x22, 0x0A] + Array("'; DROP TABLE exits; --".utf8)
        let batch = HistoryBatch(bootID: "boot-a", bootTime: 1, uptimeSeconds: 2, nowSeconds: 3,
                                 samples: [MinuteSample(minute: 60, cpuAverage: 1, cpuMaximum: 2, memoryUsedKiB: 3,
                                                        memoryAvailableKiB: 4, swapUsedKiB: 5, load1: 6, processCount: 7,
                                                        batteryPercent: 8512, batteryState: 2)],
                                 exits: [ExitRecord(timeMs: 5, pid: 9, name: name, lastPrivateKiB: 10, freedKiB: 11)],
                                 endsCleanly: true)
        try database.apply(try HistoryBatch.decode(batch.encoded))
        XCTAssertEqual(try database.samples(from: 0, to: .max), batch.samples)
        XCTAssertEqual(try database.exits(sinceMs: 0), batch.exits)
        XCTAssertEqual(try database.boots().map(\.cleanEnd), [true])
    }

    func testWritesInsideATransactionJoinItAndRollBackWithIt() throws {
        let dir = try TemporaryDirectory("apply")
        let database = try open(dir)
        let sample = MinuteSample(minute: 60, cpuAverage: 1, cpuMaximum: 2, memoryUsedKiB: 3,
                                  memoryAvailableKiB: 4, swapUsedKiB: 0, load1: 5, processCount: 6)
        try database.connection.transaction { () throws(StoreError) in
            _ = try database.recordBoot(id: "kept", bootTime: 1, uptimeSeconds: 2, nowSeconds: 3)
            try database.append(samples: [sample])
        }
        XCTAssertThrowsError(try database.connection.transaction { () throws(StoreError) in
            _ = try database.recordBoot(id: "rolled-back", bootTime: 1, uptimeSeconds: 2, nowSeconds: 3)
            try database.append(samples: [MinuteSample(minute: 120, cpuAverage: 1, cpuMaximum: 2, memoryUsedKiB: 3,
                                                       memoryAvailableKiB: 4, swapUsedKiB: 0, load1: 5, processCount: 6)])
            throw StoreError(.io, "the writer dies half-way")
        })
        XCTAssertEqual(try database.boots().map(\.id), ["kept"])
        XCTAssertEqual(try database.samples(from: 0, to: .max).map(\.minute), [60])
    }
}
