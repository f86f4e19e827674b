import Foundation
import XCTest
@testable import SysstatsCLI

/// `budget check --png DIR`: a chart per budget with its limit as a dashed red line.
final class BudgetChartsTests: XCTestCase {
    func testTheLimitIsADashedRedLineAtItsHeightAndTheScaleReachesIt() {
        let summary = MeasureSummary(BudgetCheckTests.recording(), warmupMs: 0)
        let chart = MeasureChart(summary, command: ["tool"], limit: ("peak_pss limit", 4 << 20))
        XCTAssertEqual(chart.scaleKiB, 5 * 1024, "4 MiB over a 1.4 MiB peak: the scale reaches the limit")
        let plot = MeasureChart.bottom - MeasureChart.top
        let y = MeasureChart.bottom - 4 * plot / 5
        XCTAssertEqual(chart.image[MeasureChart.left, y], MeasureChart.limitColour)
        XCTAssertEqual(chart.image[MeasureChart.left + 5, y], 0xFFFFFF, "dashed")
        XCTAssertEqual(MeasureChart(summary).scaleKiB, 2048, "no limit: the peak's scale")
    }

    func testTheChartShowsPeakPSSsLimitElseTheFirstSizeLimit() {
        var budget = Budget(name: "x", command: "x")
        budget.peakRSS = 8 << 20
        budget.steadyUSS = 4 << 20
        var result = BudgetResult(budget: budget)
        XCTAssertEqual(result.chartLimit?.key, "peak_rss")
        result.budget.peakPSS = 6 << 20
        XCTAssertEqual(result.chartLimit?.key, "peak_pss")
        XCTAssertEqual(result.chartLimit?.bytes, 6 << 20)
        XCTAssertNil(BudgetResult(budget: Budget(name: "g", command: "x")).chartLimit)
    }

    /// A budget's name is anything printable: the file name keeps what is safe in a path.
    func testBudgetNamesBecomeSafeFileNamesAndEachChartIsWritten() throws {
        XCTAssertEqual(BudgetCharts.fileName("sampler, 1000 processes"), "sampler--1000-processes.png")
        XCTAssertEqual(BudgetCharts.fileName("../../etc/passwd"), "-..-..-etc-passwd.png")
        XCTAssertEqual(BudgetCharts.fileName(".hidden"), "-.hidden.png")
        XCTAssertEqual(BudgetCharts.fileName(""), "-.png")
        XCTAssertEqual(BudgetCharts.fileName(String(repeating: "é", count: 80)).utf8.count, 64 + 4)
        let dir = NSTemporaryDirectory() + "budget-charts-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var a = BudgetResult(budget: Budget(name: "a b", command: "x"), summary: MeasureSummary(BudgetCheckTests.recording(), warmupMs: 0))
        a.budget.peakPSS = 1 << 20
        var b = a
        b.budget.name = "a/b"
        let failed = BudgetResult(budget: Budget(name: "not run", command: "x"))
        XCTAssertNil(BudgetCharts.write([a, b, failed], to: dir))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["a-b-2.png", "a-b.png"])
        let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/a-b.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }
}
