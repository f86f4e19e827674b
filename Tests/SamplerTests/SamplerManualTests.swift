import CommandOptions
import Sampler
import TestSupport
import XCTest

/// sysstatsd(1)'s SYNOPSIS and OPTIONS are what the option table writes: an option added,
/// renamed or described anew shows in `--help` and the manual together
/// (scripts/generate-manual.sh writes them).
final class SamplerManualTests: XCTestCase {
    func testTheManualsSynopsisAndOptionsAreTheOptionTables() throws {
        let differing = try ManualSections.differing("assets/man/sysstatsd.1", from: SamplerOptions.table)
        XCTAssertEqual(differing, [], "assets/man/sysstatsd.1 differs from SamplerOptions.table: run scripts/generate-manual.sh")
    }

    func testHelpListsEveryOptionOfTheTable() {
        for option in SamplerOptions.table.options {
            XCTAssertTrue(SamplerOptions.usage.contains("\(option.name)"), "\(option.name)")
        }
    }
}
