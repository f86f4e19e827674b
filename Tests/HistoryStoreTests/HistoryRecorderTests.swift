import SnapshotCodec
import TestSupport
import XCTest
@testable import HistoryStore

final class HistoryRecorderTests: XCTestCase {
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

    func testAMinuteIsWrittenWhenItEndsWithAverageAndMaximumCPU() throws {
        let dir = try TemporaryDirectory("recorder")
        let recorder = try HistoryRecorder(database: try open(dir), bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: minute0 / 1000)
        recorder.record(snapshot(atMs: minute0 + 1_000, cpu: 1000, used: 400_000))
        recorder.record(snapshot(atMs: minute0 + 30_000, cpu: 3000, used: 600_000))
        XCTAssertEqual(try recorder.database.samples(from: 0, to: .max).count, 0, "nothing before the minute ends")
        recorder.record(snapshot(atMs: minute0 + 60_000, cpu: 0, used: 0))
        let rows = try recorder.database.samples(from: 0, to: .max)
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
        let recorder = try HistoryRecorder(database: try open(dir), bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: minute0 / 1000)
        let firefox = ExitEntry(pid: 100, timeMs: minute0 + 2_000, lastPrivateKiB: 400_000, freedKiB: 420_000, name: Array("firefox".utf8))
        let hostile = ExitEntry(pid: 101, timeMs: minute0 + 3_000, lastPrivateKiB: 9_000, freedKiB: 0, name: Array("x\"},{</b> \u{FFFD}".utf8))
        recorder.record(snapshot(atMs: minute0 + 2_000, cpu: 0, used: 1, exits: [firefox]))
        recorder.record(snapshot(atMs: minute0 + 3_000, cpu: 0, used: 1, exits: [hostile, firefox]))
        recorder.record(snapshot(atMs: minute0 + 4_000, cpu: 0, used: 1, exits: [hostile, firefox]))
        recorder.record(snapshot(atMs: minute0 + 61_000, cpu: 0, used: 1, exits: [hostile, firefox]))
        let exits = try recorder.database.exits(sinceMs: 0)
        XCTAssertEqual(exits.map(\.pid).sorted(), [100, 101])
        XCTAssertEqual(exits.first { $0.pid == 100 }?.freedKiB, 420_000)
        XCTAssertEqual(exits.first { $0.pid == 101 }?.name, hostile.name)
    }

    func testFinishWritesThePartialMinuteAndMarksTheBootClean() throws {
        let dir = try TemporaryDirectory("recorder")
        let recorder = try HistoryRecorder(database: try open(dir), bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: minute0 / 1000)
        recorder.record(snapshot(atMs: minute0 + 5_000, cpu: 500, used: 1))
        XCTAssertNil(recorder.finish(nowMs: minute0 + 6_000, deadlineMs: 2000))
        let database = try open(dir)
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 1)
        XCTAssertEqual(try database.boots().map(\.cleanEnd), [true])
    }

    func testABootWhoseSamplerNeverFinishedStaysUncleanAfterTheNextBoot() throws {
        let dir = try TemporaryDirectory("recorder")
        do {
            let crashed = try HistoryRecorder(database: try open(dir), bootID: "boot-a", bootTime: 1, uptimeSeconds: 10, nowSeconds: 100)
            crashed.record(snapshot(atMs: minute0, cpu: 1, used: 1))   // then power loss: no finish
        }
        let next = try HistoryRecorder(database: try open(dir), bootID: "boot-b", bootTime: 500, uptimeSeconds: 5, nowSeconds: 600)
        XCTAssertNil(next.finish(nowMs: 700_000, deadlineMs: 2000))
        let boots = try open(dir).boots()
        XCTAssertEqual(boots.map(\.id), ["boot-a", "boot-b"])
        XCTAssertEqual(boots.map(\.cleanEnd), [false, true])
    }
}
