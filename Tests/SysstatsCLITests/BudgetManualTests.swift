import Foundation
import SysstatsCLI
import TestSupport
import XCTest

/// sysstats-budget(5) and docs/budgets.md's key table are what the budgets-file parser takes
/// (issue 45, item 21): written from its key table, compared with the committed files
/// (SYSSTATS_UPDATE_MANUAL=1 writes them), and the table itself checked against the parser.
final class BudgetManualTests: XCTestCase {
    func testThePageAndTheKeyTableAreWrittenFromTheParsersKeys() throws {
        let url = Fixtures.packageRoot.appendingPathComponent("assets/man/sysstats-budget.5")
        let committed = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        if committed != BudgetManual.page() && ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_MANUAL"] == "1" {
            try BudgetManual.page().write(to: url, atomically: true, encoding: .utf8)
        } else {
            XCTAssertEqual(committed, BudgetManual.page(), "assets/man/sysstats-budget.5 differs: run scripts/generate-manual.sh")
        }
        let differing = try ReferenceSections.differing([("budget keys", BudgetManual.keysTable())], in: "docs/budgets.md")
        XCTAssertEqual(differing, [], "docs/budgets.md differs from the code: run scripts/generate-manual.sh")
    }

    /// Each key of the table is one the parser knows (a value of the wrong type is refused for
    /// its type, not as an unknown key), and the page's example, which uses every key, parses.
    func testEveryKeyOfTheTableIsTakenByTheParserAndTheExampleUsesEachOne() throws {
        for key in BudgetFile.keyTable {
            var keys: KeyValuePairs<String, String> { ["name": "\"n\"", "command": "\"true\"", "peak_rss": "1"] }
            var text = "[[budget]]\n"
            for (name, value) in keys where name != key.name { text += "\(name) = \(value)\n" }
            text += "\(key.name) = [1]\n"
            do {
                _ = try BudgetFile.parse(Array(text.utf8))
                XCTFail("\(key.name) = [1] was taken")
            } catch {
                XCTAssertFalse(error.reason.contains("unknown key"), "\(key.name): \(error.reason)")
                XCTAssertTrue(error.reason.contains(key.name), "\(key.name): \(error.reason)")
            }
        }
        let budgets = try BudgetFile.parse(Array(BudgetManual.example.utf8))
        XCTAssertEqual(budgets.map(\.name), ["applet", "import 10k rows", "server", "this session's panel"])
        for key in BudgetFile.keyTable {
            XCTAssertTrue(BudgetManual.example.contains("\n\(key.name) = ") || BudgetManual.example.hasPrefix("\(key.name) = "),
                          "the example does not use \(key.name)")
        }
        XCTAssertThrowsError(try BudgetFile.parse(Array("[[budget]]\nname = \"n\"\ncommand = \"x\"\nbogus = 1\n".utf8)))
    }
}
