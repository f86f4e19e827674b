import XCTest
@testable import ProcFS

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

    func testSkipLineStopsJustAfterTheFirstNewlineAtEveryOffsetAndLength() {
        // Eight bytes at a time: the newline in every place of a word, in the tail shorter than
        // a word, none at all; high bytes (0x80, 0xFF) and 0x0B beside it, which a wrong
        // word test would take for a newline or let hide one.
        for length in 0...40 {
            for newline in [-1] + Array(0..<max(length, 1)) where newline < length {
                for filler: UInt8 in [0x41, 0x80, 0xFF, 0x0B, 0x09, 0x00] {
                    var bytes = [UInt8](repeating: filler, count: length)
                    if newline >= 0 { bytes[newline] = 0x0A }
                    if newline >= 0 && newline + 3 < length { bytes[newline + 3] = 0x0A }   // a second one after it
                    for start in 0...min(2, length) {
                        let expected = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? length
                        bytes.withUnsafeBytes { raw in
                            var s = ByteScanner(raw, position: start)
                            s.skipLine()
                            XCTAssertEqual(s.position, expected, "length \(length), newline at \(newline), filler \(filler), from \(start)")
                        }
                    }
                }
            }
        }
    }

    func testAWordLiteralIsConsumedWholeOrNotAtAll() {
        func consume(_ text: String, at start: Int = 0, _ take: (inout ByteScanner) -> Bool) -> (Bool, Int) {
            withBytes(text) { bytes in
                var s = ByteScanner(bytes, position: start)
                return (take(&s), s.position)
            }
        }
        let running: (inout ByteScanner) -> Bool = { $0.consume("procs_running ", low: 0x7572_5F73_636F_7270, high: 0x0000_2067_6E69_6E6E) }
        let cpu: (inout ByteScanner) -> Bool = { $0.consume("cpu", low: 0x0000_0000_0075_7063) }
        // Sixteen bytes or more left: compared by words.
        XCTAssertEqual(consume("procs_running 3\nprocs_blocked 0\n", running).1, 14)
        XCTAssertEqual(consume("procs_runninG 3\nprocs_blocked 0\n", running).0, false)
        XCTAssertEqual(consume("procs_blocked 0\nprocs_running 3\n", running).1, 0, "not consumed: the cursor stays")
        XCTAssertEqual(consume("cpu  1 2 3 4 5 6 7 8\n", cpu).1, 3)
        XCTAssertEqual(consume("cpx  1 2 3 4 5 6 7 8\n", cpu).0, false)
        XCTAssertEqual(consume("xxcpu0 1 2 3 4 5 6 7 8\n", at: 2, cpu).1, 5)
        // Near the end: byte by byte, the same answers.
        XCTAssertEqual(consume("procs_running 3", running).1, 14)
        XCTAssertEqual(consume("procs_running", running).0, false, "shorter than the literal")
        XCTAssertEqual(consume("procs_runnin_ 3", running).0, false)
        XCTAssertEqual(consume("cpu", cpu).1, 3)
        XCTAssertEqual(consume("cp", cpu).0, false)
        XCTAssertEqual(consume("cpX1", cpu).0, false)
    }

    func testTheSamplersWordLiteralsSpellTheirText() {
        // Release builds never look at the literal: the words are what is compared. Each
        // call checks them in a debug build; these are the ones /proc/stat and
        // /proc/pressure/memory are read with, and what a wrong word looks like.
        XCTAssertTrue(ByteScanner.spells("cpu", 0x0000_0000_0075_7063, 0))
        XCTAssertTrue(ByteScanner.spells("processes ", 0x6573_7365_636F_7270, 0x0000_0000_0000_2073))
        XCTAssertTrue(ByteScanner.spells("avg300=", 0x003D_3030_3367_7661, 0))
        XCTAssertFalse(ByteScanner.spells("cpu", 0x0000_0000_0075_7064, 0))
        XCTAssertFalse(ByteScanner.spells("cpu", 0x0000_0001_0075_7063, 0), "a byte past the literal")
        XCTAssertFalse(ByteScanner.spells("processes ", 0x6573_7365_636F_7270, 0), "the second word missing")
        XCTAssertFalse(ByteScanner.spells("seventeen letters", 0, 0), "longer than two words")
    }
}
