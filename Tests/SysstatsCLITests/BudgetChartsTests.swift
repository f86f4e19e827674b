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

    /// `budget check --png DIR` wrote through another user's link at DIR (`mkdir`'s EEXIST, then
    /// the path used as it was): a link (with or without a trailing slash), a directory others
    /// may write, another user's directory (checked when the tests run as root) or a file
    /// at DIR is refused in one line, and nothing is written; in the user's own directory a link
    /// planted at a chart's name is replaced, not written through.
    func testALinkADirectoryOthersMayWriteOrAFileAtTheChartDirectoryIsRefusedAndNothingIsWritten() throws {
        let dir = try TemporaryDirectory()
        var result = BudgetResult(budget: Budget(name: "a", command: "x"), summary: MeasureSummary(BudgetCheckTests.recording(), warmupMs: 0))
        result.budget.peakPSS = 1 << 20
        let target = dir.file("target"), link = dir.file("link")
        XCTAssertEqual(mkdir(target, 0o755), 0)
        XCTAssertEqual(symlink(target, link), 0)
        for path in [link, link + "/", link + "//"] {
            XCTAssertEqual(BudgetCharts.write([result], to: path),
                           "\(path) is a symbolic link: no chart is written through it (name the directory itself)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target), [], "nothing written through the link")

        let shared = dir.file("shared")
        XCTAssertEqual(mkdir(shared, 0o755), 0)
        for mode: mode_t in [0o777, 0o1777, 0o757] {
            XCTAssertEqual(chmod(shared, mode), 0)
            XCTAssertEqual(BudgetCharts.write([result], to: shared),
                           "\(shared) may be written by others: no chart is written into it (chmod o-w it)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared), [])
        // The user's own group-writable directory (a user-private group, umask 002) is written into.
        XCTAssertEqual(chmod(shared, 0o775), 0)
        XCTAssertNil(BudgetCharts.write([result], to: shared))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared), ["a.png"])
        try dir.write(Array("x".utf8), to: "file")
        XCTAssertEqual(BudgetCharts.write([result], to: dir.file("file")), "\(dir.file("file")) is not a directory")
        if geteuid() == 0 {
            let foreign = dir.file("foreign")
            XCTAssertEqual(mkdir(foreign, 0o755), 0)
            XCTAssertEqual(chown(foreign, 4242, 4242), 0)
            XCTAssertEqual(BudgetCharts.write([result], to: foreign),
                           "\(foreign) is owned by uid 4242, not by you or root: no chart is written into it")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: foreign), [])
        }

        let own = dir.file("own"), victim = dir.file("victim")
        XCTAssertEqual(mkdir(own, 0o700), 0)
        try dir.write(Array("keep".utf8), to: "victim")
        XCTAssertEqual(symlink(victim, own + "/a.png"), 0)
        XCTAssertNil(BudgetCharts.write([result], to: own + "/"))
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: own), ["a.png"], "no temporary file left")
        var info = stat()
        XCTAssertEqual(lstat(own + "/a.png", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        let png = try Data(contentsOf: URL(fileURLWithPath: own + "/a.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }
}
