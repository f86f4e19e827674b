import ConfigImport
import Foundation
import XCTest

/// docs/configuration.md's "Moving from …" tables are the imports' own tables
/// (`SYSSTATS_UPDATE_MANUAL=1` writes them again).
final class ImportDocsTests: XCTestCase {
    func testEachMovingFromTableIsItsImportsTable() throws {
        let url = ConfigCommandTests.root.appendingPathComponent("docs/configuration.md")
        var text = try String(contentsOf: url, encoding: .utf8)
        for source in ImportSource.allCases {
            let open = "<!-- import-table: \(source.rawValue) -->\n", close = "<!-- /import-table -->"
            let start = try XCTUnwrap(text.range(of: open), "no \(open) in docs/configuration.md")
            let end = try XCTUnwrap(text.range(of: close, range: start.upperBound..<text.endIndex))
            let expected = ConfigImporter.movingFromTable(source)
            if ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_MANUAL"] == "1" {
                text.replaceSubrange(start.upperBound..<end.lowerBound, with: expected)
            } else {
                XCTAssertEqual(String(text[start.upperBound..<end.lowerBound]), expected,
                               "docs/configuration.md's \(source.rawValue) table is not the import's (SYSSTATS_UPDATE_MANUAL=1)")
            }
        }
        if ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_MANUAL"] == "1" { try text.write(to: url, atomically: true, encoding: .utf8) }
    }
}
