import Foundation
@testable import SysstatsCLI
import XCTest

/// Issue 60, item 7: the default tolerance failed 8 of 10 checks of an unchanged program
/// whose `steady_uss` moved 0.99-1.89 MiB between runs. A regression must pass both the
/// percentage and 1 MiB.
final class BudgetToleranceTests: XCTestCase {
    func compared(_ key: String, _ value: Double, over base: Double, tolerance: Double = BudgetRunner.Options(file: "x").tolerance) -> BudgetResult {
        var budget = Budget(name: "tree", command: "x")
        budget.steadyUSS = 1 << 40
        budget.peakPSS = 1 << 40
        var result = BudgetResult(budget: budget)
        result.figures[key] = value
        result.compare(with: [key: base], tolerance: tolerance)
        return result
    }

    func testTheDefaultToleranceLetsASmallFigureMoveByUpToAMebibyte() {
        let mib = 1024.0 * 1024
        XCTAssertTrue(compared("steady_uss", 1.89 * mib, over: 989 * 1024).passed, "the unchanged shared-memory tree")
        let doubled = compared("steady_uss", 20 * mib, over: 10 * mib)
        XCTAssertFalse(doubled.passed)
        XCTAssertEqual(doubled.line, "FAIL tree: steady_uss 20.0 MiB regressed over the baseline 10.0 MiB by 100.0%, tolerance 10.0%, at least 1.00 MiB; "
                       + "if the change is meant: sysstats budget record writes a new baseline, or --tolerance allows more")
        // Past the mebibyte, a small figure's rise is one.
        XCTAssertFalse(compared("steady_uss", 2.1 * mib, over: 989 * 1024).passed)
        // A large figure is held to the percentage: 10 % of 100 MiB is more than 1 MiB.
        XCTAssertTrue(compared("peak_pss", 109 * mib, over: 100 * mib).passed)
        XCTAssertFalse(compared("peak_pss", 111 * mib, over: 100 * mib).passed)
        XCTAssertTrue(compared("peak_pss", 104 * mib, over: 100 * mib, tolerance: 0.05).passed)
        XCTAssertFalse(compared("peak_pss", 106 * mib, over: 100 * mib, tolerance: 0.05).passed)
    }
}
