import BarCore
import CommandOptions
import TestSupport
import XCTest

/// sysstats-bar(1)'s SYNOPSIS and OPTIONS are what the option table writes
/// (scripts/generate-manual.sh writes them).
final class BarManualTests: XCTestCase {
    func testTheManualsSynopsisAndOptionsAreTheOptionTables() throws {
        var synopsis: [UInt8] = [], options: [UInt8] = []
        BarOptions.table.writeManualSynopsis(into: &synopsis)
        BarOptions.table.writeManualOptions(into: &options)
        let differing = try ManualSections.differing("assets/man/sysstats-bar.1", [
            ("SYNOPSIS", String(decoding: synopsis, as: UTF8.self)), ("OPTIONS", String(decoding: options, as: UTF8.self)),
        ])
        XCTAssertEqual(differing, [], "assets/man/sysstats-bar.1 differs from BarOptions.table: run scripts/generate-manual.sh")
    }
}
