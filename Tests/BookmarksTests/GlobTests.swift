@testable import Bookmarks
import XCTest

final class GlobTests: XCTestCase {
    private func glob(_ pattern: [UInt8], _ name: [UInt8]) -> Bool {
        pattern.withUnsafeBytes { p in name.withUnsafeBytes { n in Glob.matches(p, n) } }
    }
    private func glob(_ pattern: String, _ name: String) -> Bool { glob(b(pattern), b(name)) }
    private func wildcardOnly(_ pattern: String) -> Bool { b(pattern).withUnsafeBytes { Glob.isWildcardOnly($0) } }

    func testStarMatchesAnyRunIncludingSlashAndNothing() {
        XCTAssertTrue(glob("kworker/*", "kworker/0:1-events"))
        XCTAssertTrue(glob("kworker/*", "kworker/"))
        XCTAssertTrue(glob("*/u*", "kworker/u8:2"))
        XCTAssertTrue(glob("a*b*c", "axxbyyc"))
        XCTAssertFalse(glob("a*b*c", "axxbyy"))
        XCTAssertTrue(glob("a*c", "abcbc"), "backtracks past an early match of the tail")
        XCTAssertFalse(glob("kworker/*", "xkworker/1"))
    }

    func testDoubleStarIsOneStar() {
        XCTAssertTrue(glob("a**b", "ab"))
        XCTAssertTrue(glob("a**b", "a/x/b"))
        XCTAssertTrue(glob("**", ""))
        XCTAssertFalse(glob("a**b", "ba"))
    }

    func testQuestionMarkIsExactlyOneByte() {
        XCTAssertTrue(glob("irq/??-x", "irq/12-x"))
        XCTAssertFalse(glob("irq/??-x", "irq/1-x"))
        XCTAssertTrue(glob(b("?"), [0xC3]), "a byte, not a character")
        XCTAssertFalse(glob("?", "ä"), "ä is two bytes")
    }

    func testBracketClassesRangesNegationAndClosingBracketFirst() {
        XCTAssertTrue(glob("cpu[0-9]", "cpu7"))
        XCTAssertFalse(glob("cpu[0-9]", "cpux"))
        XCTAssertTrue(glob("[abc]x", "bx"))
        XCTAssertTrue(glob("[!abc]x", "dx"))
        XCTAssertFalse(glob("[!abc]x", "ax"))
        XCTAssertTrue(glob("[^a]", "b"))
        XCTAssertTrue(glob("[]]", "]"), "] first in a set is a member")
        XCTAssertTrue(glob("[a-]", "-"), "- before the closing ] is a member")
        XCTAssertTrue(glob("[\\]]", "]"))
    }

    func testAnUnclosedBracketIsALiteral() {
        XCTAssertTrue(glob("a[b", "a[b"))
        XCTAssertFalse(glob("a[b", "ab"))
        XCTAssertTrue(glob("[", "["))
        XCTAssertTrue(glob("x[!", "x[!"))
    }

    func testBackslashEscapesAndATrailingBackslashIsItself() {
        XCTAssertTrue(glob("a\\*", "a*"))
        XCTAssertFalse(glob("a\\*", "ab"))
        XCTAssertTrue(glob("a\\?", "a?"))
        XCTAssertTrue(glob("a\\", "a\\"))
        XCTAssertTrue(glob("\\[x]", "[x]"))
    }

    func testEmptyPatternAndEmptyName() {
        XCTAssertTrue(glob("", ""))
        XCTAssertFalse(glob("", "a"))
        XCTAssertFalse(glob("a", ""))
        XCTAssertTrue(glob("*", ""))
    }

    func testPatternsWithoutALiteralByteAreWildcardOnly() {
        for pattern in ["", "*", "**", "?", "*?*", "[a-z]*", "[!x]", "???"] {
            XCTAssertTrue(wildcardOnly(pattern), pattern)
        }
        for pattern in ["k*", "*/", "\\*", "[", "a[", "*x?"] {
            XCTAssertFalse(wildcardOnly(pattern), pattern)
        }
    }

    func testALongNameAgainstManyStarsFinishesQuickly() {
        // One backtracking point: pattern × name steps, no exponential blow-up.
        let name = [UInt8](repeating: UInt8(ascii: "a"), count: 4096)
        let pattern = b(String(repeating: "*a", count: 100) + "b")
        XCTAssertFalse(glob(pattern, name))
    }
}
