import Foundation
import XCTest
import TestSupport
@testable import Sampler

/// The sampler lists the proc root only when /proc/stat's `processes` or /proc/loadavg's
/// task total or last pid moved since the last sample (ProcessTable's change counters).
final class MembershipSkipTests: XCTestCase {
    func testANewProcessIsSeenOnlyOnceTheForkCountMoved() throws {
        let (sampler, machine) = try FixtureMachine.desktop()
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 7)
        try FileManager.default.copyItem(atPath: machine.procRoot + "/300", toPath: machine.procRoot + "/350")
        // Counters unchanged: no task was created as far as the kernel says; /proc is not listed.
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 7)
        try rewrite(machine.procRoot + "/stat", "processes 4321", "processes 4322")
        try rewrite(machine.procRoot + "/loadavg", "3/345 12345", "3/346 350")
        sampler.sample(realtimeMs: 3_000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 8)
    }

    /// The thread count (conky's `$threads`) is /proc/loadavg's total, read each sample.
    func testTheThreadCountIsTheLoadAveragesTotalOfEachSample() throws {
        let (sampler, machine) = try FixtureMachine.desktop()
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        XCTAssertEqual(sampler.snapshot.threadCount, 345)
        try rewrite(machine.procRoot + "/loadavg", "3/345 12345", "3/360 12345")
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(sampler.snapshot.threadCount, 360)
    }

    func testAnExitWithoutAForkIsListedAndShownInThatSample() throws {
        let (sampler, machine) = try FixtureMachine.desktop()
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)   // unchanged: not listed
        // Sample 2 of the fixture: firefox (pid 100) reaped, the task total fell 345 → 340,
        // the fork count stayed 4321.
        try machine.advance(to: 2)
        sampler.sample(realtimeMs: 3_000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 6)
        XCTAssertEqual(sampler.snapshot.exits.first?.pid, 100)
        XCTAssertEqual(sampler.snapshot.exits.first?.freedKiB, 400_798)   // at most what it held: private + page tables
    }

    func testUnreadableCountersMeanAListingEverySample() throws {
        let (sampler, machine) = try FixtureMachine.desktop()
        try rewrite(machine.procRoot + "/stat", "processes 4321\n", "")
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        try FileManager.default.copyItem(atPath: machine.procRoot + "/300", toPath: machine.procRoot + "/350")
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 8)
    }

    func testTopListsAreRefreshedEveryThreeSecondsWithSharesOverTheWholeSpan() throws {
        let (sampler, machine) = try FixtureMachine.desktop()
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        try machine.advance(to: 2)
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)   // shares from the second sample on
        let first = try XCTUnwrap(sampler.snapshot.topCPU.first)
        XCTAssertEqual(first.pid, 200)
        XCTAssertEqual(first.cpu, 4000)                                  // 40 of 100 ticks
        // Pid 200 uses 150 more ticks over the next three seconds (100 ticks per core each).
        let stat200 = machine.procRoot + "/200/stat"
        try rewrite(stat200, " 5030 510 ", " 5180 510 ")
        for second in 3...4 {
            try machine.advanceClock(idle: 200)
            sampler.sample(realtimeMs: UInt64(second) * 1_000, monotonicNs: UInt64(second) * 1_000_000_000)
            XCTAssertEqual(sampler.snapshot.topCPU.first?.cpu, 4000, "second \(second): not re-read yet")
        }
        try machine.advanceClock(idle: 200)
        sampler.sample(realtimeMs: 5_000, monotonicNs: 5_000_000_000)
        XCTAssertEqual(sampler.snapshot.topCPU.first?.pid, 200)
        XCTAssertEqual(sampler.snapshot.topCPU.first?.cpu, 5000)          // 150 of 300 ticks
    }

    func testARefreshPeriodOfZeroReadsEveryProcessEverySample() throws {
        let machine = try FixtureMachine("sampler-desktop")
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        config.measureSelf = false
        config.processRefreshMs = 0
        try machine.advance(to: 1)
        let sampler = Sampler(configuration: config)
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        try machine.advance(to: 2)
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)
        try rewrite(machine.procRoot + "/200/stat", " 5030 510 ", " 5080 510 ")
        try machine.advanceClock(idle: 200)
        sampler.sample(realtimeMs: 3_000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(sampler.snapshot.topCPU.first?.cpu, 5000)          // 50 of 100 ticks
    }

    func testBetweenRefreshesTheMemoryOfProcessesThatRanIsReadEverySample() throws {
        let (sampler, machine) = try FixtureMachine.desktop()
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        try machine.advance(to: 2)
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)
        func privateKiB(_ pid: UInt32) -> UInt64? { sampler.snapshot.topMemory.first { $0.pid == pid }?.privateKiB }
        XCTAssertEqual(privateKiB(200), 300_000)   // (80000 − 5000) pages
        // 200 ran in the last interval: its growth shows in the next sample, not at the refresh.
        // 401 did not run: its statm is not read until the refresh.
        try rewrite(machine.procRoot + "/200/statm", "50000 80000 5000 ", "50000 100000 5000 ")
        try rewrite(machine.procRoot + "/401/statm", "50000 2000 1000 ", "50000 900000 1000 ")
        try machine.advanceClock(idle: 200)
        sampler.sample(realtimeMs: 3_000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(privateKiB(200), 380_000)
        XCTAssertNotEqual(sampler.snapshot.topMemory.first?.pid, 401)
        // It exits (reaped: the task total falls): the exit carries the memory it had grown to.
        try FileManager.default.removeItem(atPath: machine.procRoot + "/200")
        try rewrite(machine.procRoot + "/loadavg", "2/340 12350", "2/339 12350")
        try machine.advanceClock(idle: 200)
        sampler.sample(realtimeMs: 4_000, monotonicNs: 4_000_000_000)
        XCTAssertEqual(sampler.snapshot.exits.first?.pid, 200)
        XCTAssertEqual(sampler.snapshot.exits.first?.lastPrivateKiB, 380_000)
    }
}
