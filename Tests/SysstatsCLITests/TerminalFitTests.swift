import XCTest
@testable import SysstatsCLI

/// `report --watch` cuts its line to the terminal's width: by columns, on character
/// boundaries, with `…` when cut.
final class TerminalFitTests: XCTestCase {
    func testALineThatFitsIsKeptAsItIs() {
        XCTAssertEqual(TerminalFit.cut("[CPU]: 23%", toColumns: 10), "[CPU]: 23%")
        XCTAssertEqual(TerminalFit.cut("", toColumns: 1), "")
    }

    func testALongerLineIsCutToTheWidthEndingInAnEllipsis() {
        let line = String(repeating: "x", count: 150)
        let cut = TerminalFit.cut(line, toColumns: 79)
        XCTAssertEqual(cut, String(repeating: "x", count: 78) + "…")
        XCTAssertEqual(TerminalFit.width(of: cut), 79)
        XCTAssertEqual(TerminalFit.cut("abc", toColumns: 0), "")
    }

    func testWideCharactersCountTwoColumnsAndAreNeverHalved() {
        XCTAssertEqual(TerminalFit.width(of: "咖啡"), 4)
        XCTAssertEqual(TerminalFit.width(of: "🙂"), 2)
        // 5 columns: "ab" (2) + "咖" (2) leaves 1, the ellipsis; "啡" would need 2.
        XCTAssertEqual(TerminalFit.cut("ab咖啡cd", toColumns: 5), "ab咖…")
        XCTAssertEqual(TerminalFit.cut("ab咖啡cd", toColumns: 4), "ab…")
    }

    func testCombiningMarksStayWithTheirLetterAndTakeNoColumn() {
        let decomposed = "Cafe\u{301} net"
        XCTAssertEqual(TerminalFit.width(of: decomposed), 8)
        XCTAssertEqual(TerminalFit.cut(decomposed + " and more", toColumns: 5), "Cafe\u{301}…")
        XCTAssertEqual(TerminalFit.width(of: "°C"), 2)
    }

    func testTheLineIsOneColumnNarrowerThanTheTerminalSoItNeverWraps() {
        XCTAssertEqual(TerminalFit.lineWidth(columns: 80), 79)
        XCTAssertEqual(TerminalFit.lineWidth(columns: nil), 79)
        XCTAssertEqual(TerminalFit.lineWidth(columns: 1), 1)
    }
}
