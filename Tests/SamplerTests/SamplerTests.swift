import Foundation
import ProcFS
import SnapshotCodec
import XCTest
import AllocationCounter
import TestSupport
@testable import Sampler

/// The sampler on committed two-sample fixture trees (Tests/Fixtures/make-sampler-fixtures.py
/// documents how each expected figure follows from the fixture's numbers).
final class SamplerTests: XCTestCase {
    static let t0: UInt64 = 1_763_712_345_000

    func sampleTwice(_ fixture: String) throws -> (first: Snapshot, second: Snapshot, machine: FixtureMachine) {
        let machine = try FixtureMachine(fixture)
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        config.measureSelf = false
        config.builtinBookmarks = false   // these tests pin the kernel's names
        try machine.advance(to: 1)
        let sampler = Sampler(configuration: config)
        sampler.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        let first = sampler.snapshot
        try machine.advance(to: 2)
        sampler.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        return (first, sampler.snapshot, machine)
    }

    func testFirstSampleHasNoRatesYet() throws {
        let s = try sampleTwice("sampler-desktop").first
        XCTAssertEqual(s.sequence, 1)
        XCTAssertEqual(s.cpuBusy, 0)
        XCTAssertEqual(s.coreBusy, [0, 0])
        XCTAssertTrue(s.topCPU.isEmpty)
        XCTAssertTrue(s.exits.isEmpty)
        XCTAssertEqual(s.processCount, 7)
    }

    func testCPUBusyAndIOWaitInTotalAndPerCore() throws {
        let s = try sampleTwice("sampler-desktop").second
        XCTAssertEqual(s.cpuBusy, 3500)    // 70 of 200 ticks
        XCTAssertEqual(s.cpuIOWait, 250)   // 5 of 200
        XCTAssertEqual(s.coreBusy, [6000, 1000])
        // The priming reading has no shares: it is not a point of the history.
        XCTAssertEqual(s.cpuHistory, [3500])
        XCTAssertEqual(s.iowaitHistory, [250])
    }

    func testFivePartMemoryBreakdownSumsToTotal() throws {
        let m = try sampleTwice("sampler-desktop").second.memory
        XCTAssertEqual(m.total, 8_000_000)
        XCTAssertEqual(m.free, 1_420_000)
        XCTAssertEqual(m.active, 2_300_000)
        XCTAssertEqual(m.inactive, 1_300_000)
        XCTAssertEqual(m.wired, 150_000)   // 10000 + 80000 + 15000 + 45000
        XCTAssertEqual(m.other, 2_830_000)
        XCTAssertEqual(m.free + m.active + m.inactive + m.wired + m.other, m.total)
        XCTAssertEqual(m.available, 3_420_000)
        XCTAssertEqual(m.used, 4_580_000)
        XCTAssertEqual(m.swapTotal, 2_000_000)
        XCTAssertEqual(m.swapUsed, 500_000)
    }

    func testMemoryHistoryHoldsUsedShareOfTotal() throws {
        let s = try sampleTwice("sampler-desktop").second
        XCTAssertEqual(s.memoryHistory, [6250, 5725])
    }

    func testExitedProcessIsRecordedWithFreedMemoryFromMemAvailableRise() throws {
        let s = try sampleTwice("sampler-desktop").second
        XCTAssertEqual(s.exits.count, 1)
        let exit = try XCTUnwrap(s.exits.first)
        XCTAssertEqual(exit.pid, 100)
        XCTAssertEqual(String(decoding: exit.name, as: UTF8.self), "firefox-esr")
        XCTAssertEqual(exit.lastPrivateKiB, 400_000)
        // MemAvailable rose 420,000 KiB; firefox held 400,000 KiB and the page tables mapping
        // it (782 KiB + 16): the other 19,202 KiB came from elsewhere and are not credited.
        XCTAssertEqual(exit.freedKiB, 400_798)
        XCTAssertEqual(exit.timeMs, Self.t0 + 1000)
    }

    /// A process of the desktop fixture's first sample, copied from firefox's entry (pid 100)
    /// with another name, pid, private memory and start time.
    func addProcess(_ machine: FixtureMachine, pid: Int32, name: String, privateKiB: UInt64, startTicks: UInt64) throws {
        let proc = URL(fileURLWithPath: machine.procRoot)
        let dir = proc.appendingPathComponent("\(pid)")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.copyItem(at: proc.appendingPathComponent("100"), to: dir)
        var fields = try String(contentsOf: dir.appendingPathComponent("stat"), encoding: .utf8)
            .replacingOccurrences(of: "100 (firefox-esr)", with: "\(pid) (\(name))").split(separator: " ").map(String.init)
        fields[21] = "\(startTicks)"   // field 22: start time, ticks after boot
        fields[23] = "\(privateKiB / 4 + 10)"   // field 24: rss pages
        try fields.joined(separator: " ").write(to: dir.appendingPathComponent("stat"), atomically: false, encoding: .utf8)
        // statm: size resident shared … — private = resident − shared.
        try "5000 \(privateKiB / 4 + 10) 10 10 0 3000 0\n".write(to: dir.appendingPathComponent("statm"), atomically: false, encoding: .utf8)
        try "\(name)\n".write(to: dir.appendingPathComponent("comm"), atomically: false, encoding: .utf8)
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("exe"))
        try "\(name)\u{0}".write(to: dir.appendingPathComponent("cmdline"), atomically: false, encoding: .utf8)
    }

    func testAnExitIsCreditedAtMostWhatItHeldAndShortLivedSmallExitsAreLeftOut() throws {
        // The desktop fixture with firefox still running in the second sample: MemAvailable rises
        // 420,000 KiB while only a 100 KiB `sleep` and a 1.1 MiB `bash` (a shell command's
        // subshell, 2 s old) exit. Before, sleep was credited the whole rise ("sleep freed 410M").
        let (config, machine) = try FixtureMachine.desktopConfiguration()
        // Uptime of the second sample: 12,346.67 s = 1,234,667 ticks at USER_HZ 100.
        try addProcess(machine, pid: 600, name: "sleep", privateKiB: 100, startTicks: 1_000)
        try addProcess(machine, pid: 601, name: "bash", privateKiB: 1_100, startTicks: 1_234_467)
        try addProcess(machine, pid: 602, name: "make", privateKiB: 1_100, startTicks: 1_000)
        let sampler = Sampler(configuration: config)
        sampler.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        let firefox = try Data(contentsOf: URL(fileURLWithPath: machine.procRoot + "/100/stat"))
        try machine.advance(to: 2)
        // firefox (pid 100) goes on: copy its first-sample entry back.
        try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("sampler-desktop/1/proc/100"),
                                         to: URL(fileURLWithPath: machine.procRoot + "/100"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: machine.procRoot + "/100/stat")), firefox)
        sampler.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        let exits = sampler.snapshot.exits
        XCTAssertEqual(exits.map { String(decoding: $0.name, as: UTF8.self) }, ["make"],
                       "sleep (under 1 MiB, freed nothing) and bash (2 s old, freed nothing) are not news; make lived long")
        XCTAssertEqual(exits.first?.freedKiB, 0, "no exit is credited memory it never held: the rise came from elsewhere")
        XCTAssertEqual(sampler.prometheusCounters.freedKiB, 0)
        XCTAssertEqual(sampler.prometheusCounters.exits, 3, "every exit is still counted")
    }

    func testTopProcessesByCPUAndMemoryWithFriendlyAndSanitizedNames() throws {
        let s = try sampleTwice("sampler-desktop").second
        XCTAssertEqual(s.topCPU.map(\.pid), [200, 300, 1, 400])
        XCTAssertEqual(s.topCPU.map(\.cpu), [4000, 500, 200, 200])
        XCTAssertEqual(s.topCPU.map { String(decoding: $0.name, as: UTF8.self) },
                       ["Isolated Web Co", "gnome-shell-calendar-server", "systemd", "x\"},{</b> \u{FFFD}"])
        XCTAssertEqual(s.topMemory.map(\.pid), [200, 300, 400, 1, 401])
        XCTAssertEqual(s.topMemory.map(\.privateKiB), [300_000, 20_000, 8_000, 4_000, 4_000])
        XCTAssertEqual(String(decoding: s.topMemory[4].name, as: UTF8.self), "a) b (c")
    }

    func testProcessCountsSkipAProcessThatVanishedMidScan() throws {
        let s = try sampleTwice("sampler-desktop").second
        XCTAssertEqual(s.processCount, 6)   // pid 999 has a directory but no stat
        XCTAssertEqual(s.runningCount, 3)
    }

    func testLoadUptimeBootTimeAndPressure() throws {
        let s = try sampleTwice("sampler-desktop").second
        XCTAssertEqual([s.load1, s.load5, s.load15], [60, 59, 59])
        XCTAssertEqual(s.uptimeCentiseconds, 1_234_667)
        XCTAssertEqual(s.bootTime, 1_763_700_000)
        XCTAssertEqual(s.memoryPressure, 1250)
    }

    func testDischargingBatteryAt8PercentIsUrgentWithTimeLeft() throws {
        let s = try sampleTwice("sampler-desktop").second
        XCTAssertEqual(s.battery.count, 1)
        XCTAssertEqual(s.battery.state, .discharging)
        XCTAssertEqual(s.battery.percent, 800)
        XCTAssertEqual(s.battery.powerMilliwatts, 10_000)
        XCTAssertEqual(s.battery.minutesRemaining, 24)
        XCTAssertTrue(s.urgent.contains(.batteryLow))
        XCTAssertTrue(s.urgent.contains(.memoryPressure))   // some avg10 12.50 > 10.00
        XCTAssertFalse(s.urgent.contains(.memoryLow))
    }

    func testOldKernelIgnoresPressureAndEstimatesAvailableWithoutMemAvailable() throws {
        let s = try sampleTwice("sampler-server").second
        XCTAssertNil(s.memoryPressure)    // 3.10 < 4.20, though the fixture has the file
        XCTAssertEqual(s.memory.available, 2_520_000)   // 500000 + 100000 + 2000000 + 120000 − 200000
        XCTAssertEqual(s.battery.count, 0)
        XCTAssertEqual(s.cpuBusy, 5000)
        XCTAssertEqual(s.coreBusy, [5000])
        XCTAssertEqual(s.urgent, [])
    }

    /// The golden snapshot: the committed bytes that the desktop fixture's two samples produce.
    /// Regenerate with SYSSTATS_REGENERATE_GOLDEN=1 after an intended change.
    func testDesktopFixtureProducesTheGoldenSnapshot() throws {
        let s = try sampleTwice("sampler-desktop").second
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        let golden = Fixtures.root.appendingPathComponent("sampler-desktop/expected.snapshot")
        if ProcessInfo.processInfo.environment["SYSSTATS_REGENERATE_GOLDEN"] == "1" {
            try Data(bytes).write(to: golden)
        }
        XCTAssertEqual(bytes, [UInt8](try Data(contentsOf: golden)))
        XCTAssertEqual(try bytes.withUnsafeBytes { try Snapshot.decode($0) }, s)
    }

    func testSteadyStateSamplesKeepArrayStorage() throws {
        let machine = try FixtureMachine("sampler-desktop")
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        config.measureSelf = false
        let sampler = Sampler(configuration: config)
        try machine.advance(to: 2)
        for i in 0..<3 { sampler.sample(realtimeMs: Self.t0 + UInt64(i) * 1000, monotonicNs: UInt64(i + 1) * 1_000_000_000) }
        let before = sampler.snapshot.topMemory.map { $0.name.capacity }
        for i in 3..<50 { sampler.sample(realtimeMs: Self.t0 + UInt64(i) * 1000, monotonicNs: UInt64(i + 1) * 1_000_000_000) }
        XCTAssertEqual(sampler.snapshot.topMemory.map { $0.name.capacity }, before)
        XCTAssertEqual(sampler.snapshot.cpuHistory.count, 49, "every sample after the priming one")
        XCTAssertEqual(sampler.snapshot.iowaitHistory.count, 49)
        XCTAssertEqual(sampler.snapshot.sequence, 50)
    }
}

/// The hot path's promise: once warmed up, a sample and its snapshot write allocate nothing.
final class SteadyStateAllocationTests: XCTestCase {
    func testSteadyStateSampleAndWriteAllocateNothing() throws {
        let machine = try FixtureMachine("sampler-desktop")
        try machine.advance(to: 2)
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        // A rules cache that names processes of the fixture: its stat each sample and the
        // friendly names in the snapshot must not allocate either.
        let rules = machine.root.appendingPathComponent("bookmarks.rules")
        try Data("sysstats-bookmarks 1\nexe\tgnome-shell-calendar-server\tCalendar\tsource=user\n".utf8).write(to: rules)
        config.rulesPath = rules.path
        let sampler = Sampler(configuration: config)
        let runtime = machine.root.appendingPathComponent("run").path
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(runtime).get())
        var now: UInt64 = SamplerTests.t0
        func step() {
            now += 1000
            sampler.sample(realtimeMs: now, monotonicNs: now * 1_000_000)
            _ = sampler.write(to: writer)   // as the loop publishes: the snapshot lent, not copied
        }
        for _ in 0..<(Snapshot.historyLength + 5) { step() }   // rings full, arrays at capacity

        allocation_counter_start()
        for _ in 0..<200 { step() }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "200 steady-state samples allocated \(allocations) times")
    }

    func testTheCounterSeesAnAllocation() {
        allocation_counter_start()
        let array = [Int](repeating: 7, count: Int.random(in: 100...200))
        let allocations = allocation_counter_stop()
        XCTAssertGreaterThanOrEqual(allocations, 1)
        XCTAssertEqual(array.first, 7)
    }
}
