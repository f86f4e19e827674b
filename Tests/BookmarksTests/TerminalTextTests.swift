import Bookmarks
import XCTest

/// TerminalText: what the CLI prints of a name, a path or a pattern shows as it is and can
/// neither drive the terminal nor reorder or hide text.
final class TerminalTextTests: XCTestCase {
    func testPrintableTextAndValidUTF8StayAsTheyAre() {
        XCTAssertEqual(TerminalText.escape("firefox — Café 日本"), "firefox — Café 日本")
    }

    func testC0ControlsDelBackslashNewlineAndTabAreWrittenAsEscapes() {
        XCTAssertEqual(TerminalText.escape([0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x7F, 0x5C, 0x0A, 0x09, 0x07]), "\\x1b[31m\\x7f\\\\\\n\\t\\x07")
    }

    func testC1ControlsBidiOverridesZeroWidthAndPrivateUseAreWrittenAsCodePoints() {
        XCTAssertEqual(TerminalText.escape("a\u{9B}31m"), "a\\u{9b}31m", "the one-byte CSI")
        XCTAssertEqual(TerminalText.escape("\u{202E}gnp.exe"), "\\u{202e}gnp.exe")
        XCTAssertEqual(TerminalText.escape("x\u{2066}y\u{2069}\u{200B}\u{200F}"), "x\\u{2066}y\\u{2069}\\u{200b}\\u{200f}")
        XCTAssertEqual(TerminalText.escape("\u{E000}\u{E0041}"), "\\u{e000}\\u{e0041}")
    }

    func testInvalidUTF8OverlongsAndSurrogatesAreWrittenByteByByte() {
        XCTAssertEqual(TerminalText.escape([0xFF, 0x41, 0xC0, 0xAF, 0xED, 0xA0, 0x80]), "\\xffA\\xc0\\xaf\\xed\\xa0\\x80")
    }

    func testAPathsByteCarriedInAStringShowsAsTheByteItStandsFor() {
        // U+10FFFF and U+10FF80 carry 0xFF and 0x80 of a path that is not UTF-8 (UTF8Text's
        // ExactBytes): the message shows the folder's real name, as the raw bytes would be shown.
        XCTAssertEqual(TerminalText.escape([0x2F, 0x61, 0xF4, 0x8F, 0xBF, 0xBF, 0xF4, 0x8F, 0xBE, 0x80]), "/a\\xff\\x80")
        XCTAssertEqual(TerminalText.escape([0x2F, 0x61, 0xFF, 0x80]), "/a\\xff\\x80")
        XCTAssertEqual(TerminalText.escape("\u{10FF7F}"), "\\u{10ff7f}", "the private use character below them is one")
    }

    func testTheLimitCutsTheInputAndSaysSo() {
        XCTAssertEqual(TerminalText.escape(Array("abcdef".utf8), limit: 3), "abc...")
        XCTAssertEqual(TerminalText.escape(Array("abc".utf8), limit: 3), "abc")
    }
}
