import ProcFS
import SnapshotCodec
import XCTest
@testable import Sampler

final class ComputationTests: XCTestCase {
    func testCPUCounterGoingBackwardsGivesZeroNotATrap() {
        var before = CPUTimes(); before.user = 500; before.idle = 500
        var after = CPUTimes(); after.user = 100; after.idle = 100
        XCTAssertEqual(CPUUsage.busy(from: before, to: after), 0)
        XCTAssertEqual(CPUUsage.busy(from: after, to: after), 0)
    }

    func testMalformedMeminfoWhosePartsExceedTotalStillSumsToTotal() {
        var info = MemInfo()
        info.memTotal = 1000; info.memFree = 600; info.active = 300; info.inactive = 300; info.unevictable = 50
        let m = MemoryBreakdown.figures(info)
        XCTAssertEqual(m.free + m.active + m.inactive + m.wired + m.other, 1000)
        XCTAssertEqual([m.free, m.active, m.inactive, m.wired, m.other], [600, 300, 100, 0, 0])
    }

    func testAvailableIsCappedAtTotalSoUsedNeverUnderflows() {
        var info = MemInfo()
        info.memTotal = 1000; info.memAvailable = 5000
        let m = MemoryBreakdown.figures(info)
        XCTAssertEqual(m.available, 1000)
        XCTAssertEqual(m.used, 0)
    }

    func testShareRoundsToNearestAndSurvivesHugeValues() {
        XCTAssertEqual(MemoryBreakdown.share(1, of: 3), 3333)
        XCTAssertEqual(MemoryBreakdown.share(2, of: 3), 6667)
        XCTAssertEqual(MemoryBreakdown.share(.max, of: .max), 10_000)
        XCTAssertEqual(MemoryBreakdown.share(5, of: 0), 0)
    }

    func testAHistoryKeepsTheLastSixtyPointsOldestFirst() {
        var history: [Permyriad] = []
        history.reserveCapacity(Snapshot.historyLength)
        for v in 1...59 { history.appendPoint(Permyriad(v)) }
        XCTAssertEqual(history, (1...59).map { Permyriad($0) })
        for v in 60...75 { history.appendPoint(Permyriad(v)) }
        XCTAssertEqual(history, (16...75).map { Permyriad($0) })
        // Moved in place once full, yet a copy taken before (a snapshot lent elsewhere) keeps
        // what it had: the move is made on the history's own storage only.
        let copy = history
        history.appendPoint(76)
        XCTAssertEqual(copy, (16...75).map { Permyriad($0) })
        XCTAssertEqual(history, (17...76).map { Permyriad($0) })
        // A history longer than its length (decoded from elsewhere) is cut to it.
        var long = [UInt32](repeating: 7, count: 70)
        long.appendPoint(8)
        XCTAssertEqual(long.count, 60)
        XCTAssertEqual(long.last, 8)
    }

    func testTopSelectionKeepsTheLargestFiveLargestFirstTiesByPid() {
        var processes: [ProcessSample] = []
        for (pid, key) in [(10, 5), (11, 0), (12, 9), (13, 5), (14, 1), (15, 7), (16, 2), (17, 9)] {
            var p = ProcessSample(); p.pid = Int32(pid); p.privateKiB = UInt64(key)
            processes.append(p)
        }
        var top = TopSelection(limit: 5)
        top.select(processes) { $0.privateKiB }
        XCTAssertEqual(top.indices.map { processes[$0].pid }, [12, 17, 15, 10, 13])
    }

    func testSimultaneousExitsShareTheRiseByPrivateMemoryAndSmallSharesAreNoise() {
        func process(_ pid: Int32, _ name: String, _ kib: UInt64) -> ProcessSample {
            var p = ProcessSample(); p.pid = pid; p.name = Array(name.utf8); p.privateKiB = kib
            return p
        }
        let tracker = ExitTracker(freedThresholdKiB: 4096)
        var exits: [ExitEntry] = []
        tracker.record([process(1, "big", 300_000), process(2, "small", 3_000), process(3, "tiny", 100)],
                       availableRiseKiB: 303_000, timeMs: 7, into: &exits)
        // tiny (100 KiB, freed nothing) is not recorded; small's 3000 KiB share is below 4 MiB.
        XCTAssertEqual(exits.map(\.pid), [2, 1])
        XCTAssertEqual(exits.map(\.freedKiB), [0, 299_901])
    }

    func testExitListKeepsTheMostRecentEight() {
        let tracker = ExitTracker()
        var exits: [ExitEntry] = []
        for pid in 1...12 {
            var p = ProcessSample(); p.pid = Int32(pid); p.privateKiB = 10_000; p.name = Array("p\(pid)".utf8)
            tracker.record([p], availableRiseKiB: 0, timeMs: UInt64(pid), into: &exits)
        }
        XCTAssertEqual(exits.map(\.pid), [12, 11, 10, 9, 8, 7, 6, 5])
    }

    func testBatteryFiguresGiveTimeToFullWhenCharging() {
        var status = BatteryStatus()
        status.count = 2; status.state = .charging; status.percentHundredths = 5000
        status.energyNow = 30_000_000; status.energyFull = 60_000_000; status.powerNow = 30_000_000
        let b = BatteryProbe.figures(status)
        XCTAssertEqual(b.state, .charging)
        XCTAssertEqual(b.minutesRemaining, 60)
        XCTAssertEqual(b.powerMilliwatts, 30_000)
        XCTAssertEqual(BatteryProbe.figures(BatteryStatus()).count, 0)
    }
}
