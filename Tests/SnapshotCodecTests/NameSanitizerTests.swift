import SnapshotCodec
import XCTest

final class NameSanitizerTests: XCTestCase {
    func sanitized(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        NameSanitizer.sanitize(raw, into: &out)
        return out
    }

    func sanitized(_ raw: String) -> String {
        String(decoding: sanitized(Array(raw.utf8)), as: UTF8.self)
    }

    let fffd: [UInt8] = [0xEF, 0xBF, 0xBD]

    func testQuotesBackslashesAndMarkupAreKeptVerbatim() {
        for name in [#"a "quoted" \name\"#, "</span>", #""},{"full_text":"x"#, "<b>&amp;'"] {
            XCTAssertEqual(sanitized(name), name)
        }
    }

    func testTabNewlineAndCarriageReturnBecomeSpaces() {
        XCTAssertEqual(sanitized("a\nb\tc\rd"), "a b c d")
    }

    func testEscapeOtherC0ControlsAndDELBecomeQuestionMarks() {
        XCTAssertEqual(sanitized("\u{1B}[31mred"), "?[31mred")
        XCTAssertEqual(sanitized([0x61, 0x00, 0x07, 0x7F, 0x62]), Array("a???b".utf8))
    }

    func testC1ControlsBecomeQuestionMarks() {
        XCTAssertEqual(sanitized([0x61, 0xC2, 0x80, 0xC2, 0x9B, 0xC2, 0x9F, 0xC2, 0xA0]), Array("a???".utf8) + [0xC2, 0xA0])
    }

    func testInvalidByteBecomesReplacementCharacter() {
        XCTAssertEqual(sanitized([0x61, 0xFF, 0x62]), [0x61] + fffd + [0x62])
    }

    func testTruncatedThreeByteSequenceBecomesOneReplacementCharacter() {
        XCTAssertEqual(sanitized([0x61, 0xE2, 0x82]), [0x61] + fffd)
        XCTAssertEqual(sanitized([0xE2, 0x82, 0x61]), fffd + [0x61])
    }

    func testOverlongEncodingBecomesReplacementCharacters() {
        XCTAssertEqual(sanitized([0xC0, 0xAF, 0x61]), fffd + fffd + [0x61])
        XCTAssertEqual(sanitized([0xE0, 0x80, 0xAF]), fffd + fffd + fffd)
    }

    func testSurrogateBecomesReplacementCharacters() {
        XCTAssertEqual(sanitized([0xED, 0xA0, 0x80]), fffd + fffd + fffd)
    }

    func testValidMultiByteCharactersAreKept() {
        XCTAssertEqual(sanitized("café €5 𝄞 日本"), "café €5 𝄞 日本")
        XCTAssertEqual(sanitized([0xF4, 0x8F, 0xBF, 0xBF]), [0xF4, 0x8F, 0xBF, 0xBF])   // U+10FFFF
        XCTAssertEqual(sanitized([0xF4, 0x90, 0x80, 0x80]), fffd + fffd + fffd + fffd)  // above U+10FFFF
    }

    func testInvalidSequencesGiveTheSameReplacementsAsSwiftsDecoder() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            // Bytes without controls, so only UTF-8 repair applies (and no trimming or cap).
            let raw = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                UInt8.random(in: 0...255, using: &rng) | 0x80
            }.map { $0 == 0xC2 ? 0x41 : $0 }   // avoid forming C1 controls
            let expected = String(decoding: raw, as: UTF8.self)
            if expected.utf8.count <= Snapshot.maximumNameLength {
                XCTAssertEqual(sanitized(raw), Array(expected.utf8), "\(raw)")
            }
        }
    }

    func testHundredByteNameOfThreeByteCharactersIsCutOnABoundaryWithin48Bytes() {
        let raw = Array(String(repeating: "€", count: 33).utf8) + [0x78]   // 100 bytes
        XCTAssertEqual(raw.count, 100)
        let out = sanitized(raw)
        XCTAssertEqual(out, Array(String(repeating: "€", count: 16).utf8))
        var shifted = Array("ab".utf8) + raw
        shifted.removeLast(2)
        let cut = sanitized(shifted)
        XCTAssertLessThanOrEqual(cut.count, Snapshot.maximumNameLength)
        XCTAssertEqual(cut, Array(("ab" + String(repeating: "€", count: 15)).utf8))   // 47 bytes
    }

    func testLeadingAndTrailingSpacesAreTrimmedBeforeTheCap() {
        XCTAssertEqual(sanitized("  \t name \n "), "name")
        let raw = Array(repeating: UInt8(0x20), count: 60) + Array(repeating: UInt8(0x61), count: 48)
        XCTAssertEqual(sanitized(raw), Array(repeating: 0x61, count: 48))
    }

    func testEmptyOrAllSpaceNameBecomesQuestionMark() {
        XCTAssertEqual(sanitized([]), Array("?".utf8))
        XCTAssertEqual(sanitized(" \n\t "), "?")
    }

    func testRawBufferAndSliceInputsGiveTheSameResultAsArrays() {
        let raw: [UInt8] = [0x20, 0x61, 0x0A, 0xFF, 0x1B, 0x62, 0x20]
        let expected = Array("a ".utf8) + fffd + Array("?b".utf8)
        var out: [UInt8] = []
        raw.withUnsafeBytes { NameSanitizer.sanitize($0, into: &out) }
        XCTAssertEqual(out, expected)
        NameSanitizer.sanitize(([0x7A] + raw)[1...], into: &out)
        XCTAssertEqual(out, expected)
    }

    func testSanitizeReusesTheOutputBuffer() {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        let base = out.withUnsafeBufferPointer { $0.baseAddress }
        NameSanitizer.sanitize(Array(repeating: UInt8(0x61), count: 200), into: &out)
        NameSanitizer.sanitize(Array("b".utf8), into: &out)
        XCTAssertEqual(out, Array("b".utf8))
        XCTAssertEqual(out.withUnsafeBufferPointer { $0.baseAddress }, base)
    }
}
