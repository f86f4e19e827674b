import BarCore
import CommandOptions
import TestSupport
import XCTest

/// sysstats-bar(1)'s SYNOPSIS and OPTIONS are what the option table writes
/// (scripts/generate-manual.sh writes them).
final class BarManualTests: XCTestCase {
    func testTheManualsSynopsisAndOptionsAreTheOptionTables() throws {
        let differing = try ManualSections.differing("assets/man/sysstats-bar.1", from: BarOptions.table)
        XCTAssertEqual(differing, [], "assets/man/sysstats-bar.1 differs from BarOptions.table: run scripts/generate-manual.sh")
    }
}
