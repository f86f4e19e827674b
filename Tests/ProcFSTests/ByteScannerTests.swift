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

    /// Digit by digit, saturating: what unsigned() must give, however it reads (blanks eight at a time, the first 19 digits unchecked).
    private func reference(_ bytes: [UInt8], from start: Int) -> (UInt64?, Int) {
        var p = start
        while p < bytes.count, bytes[p] == 0x20 || bytes[p] == 0x09 { p += 1 }
        let first = p
        var value: UInt64 = 0
        while p < bytes.count, bytes[p] >= 0x30, bytes[p] <= 0x39 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(bytes[p] - 0x30))
            value = o1 || o2 ? .max : a
            p += 1
        }
        return p == first ? (nil, start + (first - start)) : (value, p)
    }

    func testRandomTextAndEveryRunLengthGiveTheDigitByDigitReading() {
        var generator = SystemRandomNumberGenerator()
        // Digits, blanks, the bytes either side of the digits, newlines, high bytes.
        let alphabet: [UInt8] = Array("0123456789012345678901234567890123456789  \t\n/:.kB".utf8) + [0x2F, 0x3A, 0x00, 0x80, 0xB9, 0xBA, 0xFF]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...48, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let start = Int.random(in: 0...length, using: &generator)
            let expected = reference(bytes, from: start)
            bytes.withUnsafeBytes { raw in
                var s = ByteScanner(raw, position: start)
                let value = s.unsigned()
                XCTAssertEqual(value, expected.0, "\(bytes) from \(start)")
                XCTAssertEqual(s.position, expected.1, "\(bytes) from \(start)")
            }
        }
        // Every length of a run of digits, at every offset, ended by every kind of byte.
        for digits in 1...24 {
            for end: UInt8 in [0x20, 0x0A, 0x2F, 0x3A, 0x00, 0xFF] {
                let text = Array(String(repeating: "9876543210", count: 3).utf8.prefix(digits)) + [end] + Array("12345678".utf8)
                for start in 0..<2 {
                    let bytes = Array(repeating: UInt8(0x20), count: start) + text
                    let expected = reference(bytes, from: 0)
                    bytes.withUnsafeBytes { raw in
                        var s = ByteScanner(raw)
                        XCTAssertEqual(s.unsigned(), expected.0, "\(digits) digits")
                        XCTAssertEqual(s.position, expected.1)
                    }
                }
            }
        }
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
