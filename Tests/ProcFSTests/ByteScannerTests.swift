import XCTest
import ProcFS

final class ByteScannerTests: XCTestCase {
    private func unsigned(_ text: String) -> (UInt64?, Int) {
        withBytes(text) { bytes in
            var s = ByteScanner(bytes)
            let value = s.unsigned()
            return (value, s.position)
        }
    }

    func testNumbersUpToTwentyDigitsAreExactAndLargerOnesSaturate() {
        XCTAssertEqual(unsigned("1234567890123456789").0, 1234567890123456789)        // 19 digits
        XCTAssertEqual(unsigned("18446744073709551615").0, UInt64.max)                // 20, the largest
        XCTAssertEqual(unsigned("18446744073709551614").0, UInt64.max - 1)
        XCTAssertEqual(unsigned("18446744073709551616").0, UInt64.max)                // one over: saturates
        XCTAssertEqual(unsigned("99999999999999999999999").0, UInt64.max)
        XCTAssertEqual(unsigned("00000000000000000000000042").0, 42)                   // long, but small
        let (value, position) = unsigned("123456789012345678901234 kB")
        XCTAssertEqual(value, UInt64.max)
        XCTAssertEqual(position, 24, "every digit is consumed, also past the saturation")
    }

    func testBlanksBeforeANumberAreSkippedInAnyRunAndMix() {
        for blanks in [0, 1, 7, 8, 9, 16, 17, 40] {
            let text = String(repeating: " ", count: blanks) + "77 kB"
            XCTAssertEqual(unsigned(text).0, 77, "\(blanks) spaces")
            XCTAssertEqual(unsigned(text).1, blanks + 2)
        }
        XCTAssertEqual(unsigned("        \t  \t          5").0, 5)
        XCTAssertEqual(unsigned(String(repeating: " ", count: 8) + "\n5").0, nil, "a newline is not a blank")
    }

    func testNoDigitsGivesNilAndConsumesOnlyTheBlanks() {
        XCTAssertEqual(unsigned("").0, nil)
        XCTAssertEqual(unsigned("kB").0, nil)
        XCTAssertEqual(unsigned("kB").1, 0)
        XCTAssertEqual(unsigned("   -5").0, nil)
        XCTAssertEqual(unsigned("   -5").1, 3)
    }

    func testANumberAtTheVeryEndOfTheBufferIsRead() {
        // No terminator after the digits: the scan must stop at the buffer's end.
        let bytes: [UInt8] = Array("12345678".utf8)
        bytes.withUnsafeBytes { raw in
            var s = ByteScanner(UnsafeRawBufferPointer(rebasing: raw[0..<5]))
            XCTAssertEqual(s.unsigned(), 12345)
            XCTAssertTrue(s.isAtEnd)
        }
    }
}
