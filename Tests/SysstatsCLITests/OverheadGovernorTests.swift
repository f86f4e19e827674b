import Foundation
@testable import SysstatsCLI
import TestSupport
import XCTest

/// `measure --max-overhead`: its own CPU held to a share of one core by samples that wait.
final class OverheadGovernorTests: XCTestCase {
    func testUnderTheShareEachSampleKeepsItsInterval() {
        var g = OverheadGovernor(share: 0.02, intervalMs: 10)
        XCTAssertEqual(g.nextSample(deadline: 10, now: 0, elapsedMs: 0, cpuNs: 3_000_000), 10)
        // 10 ms of CPU after 1 s: 1 %.
        XCTAssertEqual(g.nextSample(deadline: 1010, now: 1000, elapsedMs: 1000, cpuNs: 10_000_000), 1010)
        XCTAssertNil(g.record(sampleTimesMs: [0, 1000]), "no sample waited: the report says nothing")
    }

    func testOverTheShareTheNextSampleWaitsUntilItHasCaughtUp() throws {
        var g = OverheadGovernor(share: 0.02, intervalMs: 10)
        _ = g.nextSample(deadline: 10, now: 0, elapsedMs: 0, cpuNs: 3_000_000)
        // 30 ms of CPU after 1 s, where 20 are allowed: one longest wait (20 intervals) pays
        // back 4 ms, and the other 6 are forgiven.
        XCTAssertEqual(g.nextSample(deadline: 1010, now: 1000, elapsedMs: 1000, cpuNs: 30_000_000), 1200)
        XCTAssertEqual(g.forgivenNs, 6_000_000, accuracy: 1)
        XCTAssertEqual(g.nextSample(deadline: 1210, now: 1200, elapsedMs: 1200, cpuNs: 30_000_000), 1210, "paid back")
        // 1 ms more at once: 0.8 over, paid back at 1.25 s.
        XCTAssertEqual(g.nextSample(deadline: 1220, now: 1210, elapsedMs: 1210, cpuNs: 31_000_000), 1250)
        let record = try XCTUnwrap(g.record(sampleTimesMs: [0, 1000, 1200, 1210, 1250]))
        XCTAssertEqual(record.deferredSamples, 19 + 3, "the intervals whose sample came later")
        XCTAssertEqual(record.longestGapMs, 1000)
        XCTAssertEqual(record.share, 0.02)
    }

    /// A burst (children faulting in a shared map, every rollup read in rounds) costs one
    /// longest wait; the quiet samples after it come at their interval again, not thinned out
    /// until the whole burst is paid for.
    func testABurstCostsOneLongestWaitAndTheQuietSamplesAfterItKeepTheirInterval() {
        var g = OverheadGovernor(share: 0.02, intervalMs: 10)
        _ = g.nextSample(deadline: 10, now: 0, elapsedMs: 0, cpuNs: 3_000_000)
        XCTAssertEqual(g.nextSample(deadline: 60, now: 50, elapsedMs: 50, cpuNs: 23_000_000), 250)
        var deadline: UInt64 = 260, cpu: UInt64 = 23_000_000
        for now in stride(from: UInt64(250), to: 1_000, by: 10) {
            cpu += 40_000   // a quiet sample
            XCTAssertEqual(g.nextSample(deadline: deadline, now: now, elapsedMs: now, cpuNs: cpu), deadline, "at \(now) ms")
            deadline += 10
        }
    }

    /// docs/budgets.md gives the option's default and the longest wait as the code has them.
    func testTheGuideGivesTheDefaultShareAndTheLongestWait() throws {
        let guide = try String(contentsOfFile: Fixtures.packageRoot.appendingPathComponent("docs/budgets.md").path, encoding: .utf8)
        let row = try XCTUnwrap(guide.split(separator: "\n").first { $0.hasPrefix("| `--max-overhead") })
        XCTAssertTrue(row.contains("`--max-overhead \(OverheadGovernor.percentText(OverheadGovernor.defaultShare))`"), String(row))
        XCTAssertTrue(row.contains("at most \(OverheadGovernor.longestDeferIntervals) intervals"), String(row))
    }

    /// A share too small to be paid back within a wait (under the 0.01 % the option takes)
    /// waits the longest, without overflow.
    func testATinyShareWaitsTheLongestWithoutOverflow() {
        var g = OverheadGovernor(share: 1e-302, intervalMs: 10)
        _ = g.nextSample(deadline: 10, now: 0, elapsedMs: 0, cpuNs: 1_000_000)
        XCTAssertEqual(g.nextSample(deadline: 20, now: 10, elapsedMs: 10, cpuNs: 9_500_000), 210)
        XCTAssertEqual(g.nextSample(deadline: 220, now: 210, elapsedMs: 210, cpuNs: .max), 410)
    }

    func testNoShareNeverWaits() {
        var g = OverheadGovernor(share: 0, intervalMs: 10)
        XCTAssertEqual(g.nextSample(deadline: 20, now: 10, elapsedMs: 10, cpuNs: 1_000_000_000), 20)
        XCTAssertNil(g.record(sampleTimesMs: [10, 20]))
    }

    /// A short command's first samples come while the program's own start is still being paid
    /// for: the allowance covers it (and 4 ms more), and runs out as the share grows to cover it.
    func testTheStartIsAllowedAndTheAllowanceRunsOutAtTwiceItself() {
        var started = OverheadGovernor(share: 0.02, intervalMs: 10)
        XCTAssertEqual(started.nextSample(deadline: 10, now: 0, elapsedMs: 0, cpuNs: 6_000_000), 10,
                       "the program's start (6 ms) does not hold back its first samples")
        XCTAssertEqual(started.allowance, 10_000_000)
        var slow = OverheadGovernor(share: 0.02, intervalMs: 10)
        XCTAssertEqual(slow.nextSample(deadline: 10, now: 0, elapsedMs: 0, cpuNs: 12_000_000), 10, "nor a slow machine's (12 ms)")
        XCTAssertEqual(slow.nextSample(deadline: 20, now: 10, elapsedMs: 10, cpuNs: 15_000_000), 20)
        let a = 10_000_000.0, end = UInt64(2 * a / 0.02 / 1_000_000)   // 1 s
        XCTAssertEqual(started.allowedNs(afterMs: 0), a)
        XCTAssertEqual(started.allowedNs(afterMs: end), 0.02 * Double(end) * 1_000_000, accuracy: 1)
        XCTAssertEqual(started.allowedNs(afterMs: end - 1), started.allowedNs(afterMs: end) - 0.01 * 1_000_000, accuracy: 1,
                       "continuous, still rising")
        XCTAssertEqual(started.allowedNs(afterMs: 5_000), 0.02 * 5e9, "after it, the share alone: a longer run is held to it")
        for ms: UInt64 in [0, 100, 999, 1_000, 2_000] {
            XCTAssertEqual(started.caughtUpMs(started.allowedNs(afterMs: ms)), Double(ms), accuracy: 0.01, "the inverse at \(ms) ms")
        }
    }

    func testTheShareIsReadAsAPercentage() {
        XCTAssertEqual(try OverheadGovernor.parseShare("2%").get(), 0.02)
        XCTAssertEqual(try OverheadGovernor.parseShare("0.5").get(), 0.005)
        XCTAssertEqual(try OverheadGovernor.parseShare("0").get(), 0)
        XCTAssertEqual(try OverheadGovernor.parseShare("0.01%").get(), 0.0001)
        for bad in ["101%", "-1", "two", "", "nan", "inf%", "0.001%", "1e-300%"] {
            guard case .failure(let e) = OverheadGovernor.parseShare(bad) else { return XCTFail("\(bad) accepted") }
            XCTAssertEqual(e.message, "'\(bad)' is not a share of one core from 0.01% to 100% (0: no limit)")
        }
        XCTAssertEqual(OverheadGovernor.percentText(0.02), "2%")
        XCTAssertEqual(OverheadGovernor.percentText(0.005), "0.5%")
        XCTAssertEqual(OverheadGovernor.percentText(0.1234), "12.34%")
    }

    func testTheReportSaysHowManySamplesWaitedAndTheLongestGap() throws {
        var recording = Recording()
        recording.sampleTimesMs = [0, 200]
        var process = RecordedProcess(pid: 10, parentPid: 1, name: Array("storm".utf8), firstSample: 0)
        process.values = [ProcessValues(MemoryFigures()), ProcessValues(MemoryFigures())]
        recording.processes = [process]
        recording.governed = GovernedSampling(share: 0.02, deferredSamples: 19, longestGapMs: 200)
        let summary = MeasureSummary(recording, warmupMs: 0)
        let text = MeasureReport.text(summary, command: ["storm"])
        XCTAssertEqual(text[2], "19 samples waited (at most 200 ms between two) to hold measure's CPU to 2% of a core (--max-overhead)")
        let json = MeasureReport.json(summary, command: ["storm"])
        XCTAssertEqual(json.deferredSamples, 19)
        XCTAssertEqual(json.longestSampleGapMs, 200)
        recording.governed = nil
        let plain = MeasureReport.json(MeasureSummary(recording, warmupMs: 0), command: ["storm"])
        XCTAssertNil(plain.deferredSamples)
        XCTAssertFalse(MeasureReport.encode(plain).contains("deferred_samples"), "absent when no sample waited")
        XCTAssertFalse(MeasureReport.text(MeasureSummary(recording, warmupMs: 0), command: ["storm"]).contains { $0.contains("waited") })
    }
}
