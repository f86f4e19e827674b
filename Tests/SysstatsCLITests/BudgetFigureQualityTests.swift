import Foundation
@testable import SysstatsCLI
import TestSupport
import XCTest

/// Issue 60, items 2 and 9: every budget figure says how it was obtained and how sure it is;
/// a limit on a figure too few samples gave is an error, never a pass; a growth needs 10
/// samples over 10 s after the warm-up, and is neither printed nor recorded from less.
final class BudgetFigureQualityTests: XCTestCase {
    /// One process, `count` samples `everyMs` apart, its PSS (and RSS, USS) `kib(i)` at sample i.
    static func samples(_ count: Int, everyMs: UInt64, name: String = "prog", kib: (Int) -> UInt32) -> Recording {
        var r = Recording()
        r.sampleTimesMs = (0..<count).map { UInt64($0) * everyMs }
        var p = RecordedProcess(pid: 20, parentPid: 1, name: Array(name.utf8), firstSample: 0)
        p.values = (0..<count).map { i in ProcessValues(rssKiB: kib(i), pssKiB: kib(i), ussKiB: kib(i), swapKiB: 0) }
        r.processes = count == 0 ? [] : [p]
        r.commandExit = .exited(0)
        r.commandPid = 20
        r.commandFromHelper = true
        r.wallMs = UInt64(max(count, 1)) * everyMs
        return r
    }

    func check(_ budget: Budget, _ recording: Recording, warmupMs: UInt64 = 0) -> BudgetResult {
        BudgetResult(budget: budget, summary: MeasureSummary(recording, warmupMs: warmupMs))
    }

    /// An 8 MiB program that ends at once passed a 4 MiB `peak_pss` on the one sample that
    /// caught it before it touched its memory: 160 KiB, "96% headroom".
    func testOneSampleUnderTheLimitIsAnErrorNotAPass() {
        var budget = Budget(name: "short", command: "exec ./prog")
        budget.peakPSS = 4 << 20
        let result = check(budget, Self.samples(1, everyMs: 6) { _ in 160 })
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.isError)
        XCTAssertEqual(result.line, "ERROR short: peak_pss 160 KiB of 4.00 MiB (sampled, 1 sample: too few to judge, 3 at least)")
        let xml = JUnitReport.xml([result])
        XCTAssertTrue(xml.contains("failures=\"0\" errors=\"1\""), xml)
        XCTAssertTrue(xml.contains("<error message=\"ERROR short: peak_pss 160 KiB of 4.00 MiB (sampled, 1 sample: too few"), xml)
    }

    /// Samples that waited to hold measure to its share (`max_overhead`) left too few: the
    /// error says so, and how to have every interval sampled.
    func testTooFewSamplesForTheOverheadShareSayHowToSampleEveryInterval() {
        var budget = Budget(name: "storm", command: "exec ./storm")
        budget.peakPSS = 4 << 20
        var recording = Self.samples(2, everyMs: 200) { _ in 160 }
        recording.governed = GovernedSampling(share: 0.02, deferredSamples: 38, longestGapMs: 200)
        let result = check(budget, recording)
        XCTAssertTrue(result.isError)
        XCTAssertEqual(result.line, "ERROR storm: peak_pss 160 KiB of 4.00 MiB (sampled, 2 samples: too few to judge, 3 at least) "
                       + "[38 samples waited to hold measure to 2% of a core: max_overhead = \"0%\" samples every interval]")
    }

    /// A sample is at most the true peak: one already over the limit fails, however few.
    func testASampledPeakAlreadyOverItsLimitFailsOnOneSample() {
        var budget = Budget(name: "short", command: "exec ./prog")
        budget.peakPSS = 4 << 20
        let result = check(budget, Self.samples(1, everyMs: 10) { _ in 8192 })
        XCTAssertFalse(result.passed)
        XCTAssertFalse(result.isError)
        XCTAssertTrue(result.line.hasPrefix("FAIL short: peak_pss 8.00 MiB of 4.00 MiB (100% over; sampled, 1 sample)"), result.line)
        // A mean is not a peak: a steady figure from too few samples is an error either way.
        budget.peakPSS = nil
        budget.steadyUSS = 4 << 20
        XCTAssertTrue(check(budget, Self.samples(2, everyMs: 10) { _ in 8192 }).line.hasPrefix(
            "ERROR short: steady_uss 8.00 MiB of 4.00 MiB (sampled, 2 samples: too few to judge, 3 at least)"))
        // Three samples are enough.
        budget.steadyUSS = 16 << 20
        XCTAssertEqual(check(budget, Self.samples(3, everyMs: 10) { _ in 8192 }).line,
                       "ok   short: steady_uss 8.00 MiB of 16.0 MiB (50% headroom; sampled, 3 samples)")
    }

    /// With no warm-up set, a run no sample saw failed "[no sample after the warm-up]": it
    /// says what happened, and is an error.
    func testAFigureNoSampleGaveSaysWhatHappenedNotTheWarmUp() {
        var budget = Budget(name: "short", command: "exec ./prog")
        budget.peakPSS = 4 << 20
        budget.steadyUSS = 1 << 20
        var none = Self.samples(0, everyMs: 4) { _ in 0 }
        none.wallMs = 4
        let result = check(budget, none)
        XCTAssertTrue(result.isError, result.line)
        XCTAssertEqual(result.line, "ERROR short: peak_pss n/a of 4.00 MiB [no sample at all before the command ended (after 4 ms); "
                       + "a shorter interval, or limit peak_rss_exact instead]; "
                       + "steady_uss n/a of 1.00 MiB [no sample at all before the command ended (after 4 ms); shorten warmup, or set a longer duration]")
        budget.peakPSS = nil
        let warm = check(budget, BudgetCheckTests.recording(), warmupMs: 1000)
        XCTAssertEqual(warm.line, "ERROR short: steady_uss n/a of 1.00 MiB [no sample after the 1.00 s warm-up: the run ended after 450 ms; "
                       + "shorten warmup, or set a longer duration]")
    }

    /// The kernel's figure at the process's end judges a command no sample could: the tree
    /// was that one process. With a second process beside it, it is only a lower bound.
    func testAnExactFigureJudgesAShortCommandAndALowerBoundOnlyWhenOver() {
        var budget = Budget(name: "prog", command: "exec ./prog")
        budget.peakRSS = 16 << 20
        budget.peakRSSExact = 16 << 20
        var r = Self.samples(1, everyMs: 6) { _ in 160 }
        r.processes[0].exactMaxRSSKiB = 8400
        r.processes[0].exactIsOwn = true
        XCTAssertEqual(check(budget, r).line, "ok   prog: peak_rss 8.20 MiB of 16.0 MiB (49% headroom; exact: wait4 at the process's end); "
                       + "peak_rss_exact 8.20 MiB of 16.0 MiB (49% headroom; exact: wait4 at a process's end)")
        var child = RecordedProcess(pid: 21, parentPid: 20, name: Array("child".utf8), firstSample: 0)
        child.values = [ProcessValues(rssKiB: 100, pssKiB: 100, ussKiB: 100, swapKiB: 0)]
        r.processes.append(child)
        let bounded = check(budget, r)
        XCTAssertTrue(bounded.isError, bounded.line)
        XCTAssertEqual(bounded.line, "ERROR prog: peak_rss 8.20 MiB of 16.0 MiB (lower bound: one process's wait4 at its end, 1 sample: too few to judge, 3 at least); "
                       + "peak_rss_exact 8.20 MiB of 16.0 MiB (49% headroom; exact: wait4 at a process's end)")
        budget.peakRSS = 4 << 20
        let over = check(budget, r)
        XCTAssertFalse(over.isError)
        XCTAssertTrue(over.line.hasPrefix("FAIL prog: peak_rss 8.20 MiB of 4.00 MiB (105% over; lower bound: one process's wait4 at its end, 1 sample)"), over.line)
    }

    /// The report and the JSON say, for each budget key, the figure and how it was obtained.
    func testTheMeasureReportAndItsJSONSayHowEachFigureWasObtained() throws {
        var r = Self.samples(1, everyMs: 6) { _ in 160 }
        r.cgroup = .measured(bytes: 9 << 20, source: "cgroup v2 memory.peak")
        let s = MeasureSummary(r, warmupMs: 0)
        let text = MeasureReport.text(s, command: ["./prog"])
        XCTAssertTrue(text.contains("budget figures (sysstats-budget(5)'s keys) and how each was obtained:"), "\(text)")
        XCTAssertTrue(text.contains { $0.hasPrefix("peak_pss ") && $0.hasSuffix(" 160 KiB       sampled, 1 sample: too few to judge, 3 at least") }, "\(text)")
        XCTAssertTrue(text.contains { $0.hasPrefix("peak_cgroup ") && $0.hasSuffix(" 9.00 MiB      exact: cgroup v2 memory.peak") }, "\(text)")
        XCTAssertTrue(text.contains { $0.hasPrefix("peak_rss_exact ") && $0.hasSuffix("measure reaped no counted process: each was reaped by its own parent") },
                      "\(text)")
        let json = MeasureReport.json(s, command: ["./prog"])
        XCTAssertEqual(json.budgetFigures["peak_pss"],
                       MeasureReport.BudgetFigureJSON(value: 160 * 1024, how: "sampled", samples: 1, enough: false))
        XCTAssertEqual(json.budgetFigures["peak_cgroup"],
                       MeasureReport.BudgetFigureJSON(value: Double(9 << 20), how: "exact", source: "cgroup v2 memory.peak", enough: true))
        XCTAssertEqual(json.budgetFigures["growth_per_minute"]?.how, "fit")
        XCTAssertEqual(json.budgetFigures["growth_per_minute"]?.enough, false)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(MeasureReport.encode(json).utf8)) as? [String: Any])
        let figures = try XCTUnwrap(object["budget_figures"] as? [String: [String: Any]])
        XCTAssertEqual(figures["steady_uss"]?["samples"] as? Int, 1)
        XCTAssertEqual(figures["peak_rss_exact"]?["enough"] as? Bool, false)
    }

    /// 0.58 s printed "+2.42 GiB/min, R² 0.17" and `budget record` stored it: no growth is
    /// given from fewer than 10 samples over 10 s after the warm-up, a limit on it is an
    /// error, and the baseline leaves it out.
    func testGrowthNeedsTenSamplesOverTenSecondsAndIsNotRecordedWithout() {
        var budget = Budget(name: "short", command: "exec ./prog")
        budget.growthPerMinute = 1 << 20
        budget.peakPSS = 1 << 30
        // Jitter of a page or two, which a line through 0.58 s makes gigabytes a minute.
        let short = Self.samples(59, everyMs: 10) { i in 8192 + UInt32(i % 3) * 4 }
        let summary = MeasureSummary(short, warmupMs: 0)
        XCTAssertNil(summary.growth)
        XCTAssertNil(MeasureReport.json(summary, command: ["x"]).growth)
        XCTAssertTrue(MeasureReport.text(summary, command: ["x"]).contains(
            "growth of PSS after the warm-up: n/a (fit of 59 samples over 580 ms: too short to judge, 10 samples over 10.00 s at least)"))
        let result = check(budget, short)
        XCTAssertTrue(result.isError)
        XCTAssertTrue(result.line.contains("growth_per_minute n/a of 1.00 MiB/min (fit of 59 samples over 580 ms: too short to judge, 10 samples over 10.00 s at least)"),
                      result.line)
        let baseline = BudgetBaseline([result]).budgets["short"]
        XCTAssertNil(baseline?["growth_per_minute"])
        XCTAssertEqual(baseline?["peak_pss"], Double(8200 * 1024), "59 samples are enough for a peak")

        // 100 KiB more every 100 ms for 11 s: a growth, judged and recorded.
        let leak = Self.samples(111, everyMs: 100) { i in 1000 + UInt32(i) * 10 }
        let leaking = check(budget, leak, warmupMs: 500)
        XCTAssertTrue(leaking.line.hasPrefix("FAIL short: "), leaking.line)
        XCTAssertTrue(leaking.line.contains("; growth_per_minute +5.86 MiB/min of 1.00 MiB/min (486% over; fit of 106 samples over 10.50 s)"),
                      leaking.line)
        XCTAssertEqual(BudgetBaseline([leaking]).budgets["short"]?["growth_per_minute"] ?? 0, 6000 * 1024, accuracy: 1)
    }

    /// A baseline recorded before growth needed 10 s may hold a slope from half a second: it
    /// is read, and no check fails on it; one without growth is read too.
    func testAnOldBaselinesGrowthFromAShortRunFailsNoCheck() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Array(#"{"version": 1, "budgets": {"leak": {"peak_pss": 2097152, "growth_per_minute": 2465827405.66}}}"#.utf8), to: "old.json")
        let old = try BudgetBaseline.read(path: dir.file("old.json")).get()
        var budget = Budget(name: "leak", command: "exec ./prog")
        budget.growthPerMinute = 64 << 20
        budget.peakPSS = 1 << 30
        var result = check(budget, Self.samples(111, everyMs: 100) { i in 1000 + UInt32(i) * 10 }, warmupMs: 500)
        result.compare(with: old.budgets["leak"] ?? [:], tolerance: BudgetResult.defaultTolerance)
        XCTAssertTrue(result.passed, result.line)
        XCTAssertEqual(result.regressions.map(\.key), ["peak_pss"])
        try dir.write(Array(#"{"version": 1, "budgets": {"leak": {"peak_pss": 2097152}}}"#.utf8), to: "new.json")
        XCTAssertEqual(try BudgetBaseline.read(path: dir.file("new.json")).get().budgets["leak"], ["peak_pss": 2_097_152])
    }

    /// A figure too few samples gave is neither recorded nor compared: the one sample would
    /// be what later runs are held to. The exact figure of the same run is recorded.
    func testABaselineLeavesOutWhatTooFewSamplesGave() {
        var budget = Budget(name: "short", command: "exec ./prog")
        budget.peakPSS = 1 << 30
        var r = Self.samples(1, everyMs: 6) { _ in 160 }
        r.processes[0].exactMaxRSSKiB = 8400
        r.processes[0].exactIsOwn = true
        var result = check(budget, r)
        let recorded = BudgetBaseline([result]).budgets["short"] ?? [:]
        XCTAssertNil(recorded["peak_pss"])
        XCTAssertEqual(recorded["peak_rss_exact"], 8400 * 1024)
        result.compare(with: ["peak_pss": 1], tolerance: BudgetResult.defaultTolerance)
        XCTAssertEqual(result.regressions, [])
    }
}
