import TOML
import XCTest

/// The case tables of TOMLCases.swift through the parser, and the error's reporting.
final class TOMLSpecTests: XCTestCase {
    func testEveryValidCaseParsesToItsValues() {
        for c in TOMLCases.valid + TOMLCases.acceptedOnPurpose {
            do {
                let document = try TOMLDocument.parse(Array(c.text.utf8))
                XCTAssertEqual(Dump.readable(document), c.expected, c.name)
            } catch {
                XCTFail("\(c.name): refused at \(error.line):\(error.column): \(error.reason.message)")
            }
        }
        XCTAssertGreaterThanOrEqual(TOMLCases.valid.count, 50)
    }

    func testEveryInvalidCaseIsRefusedAtItsLineAndColumnWithItsReason() {
        for c in TOMLCases.invalid + TOMLCases.refusedOnPurpose {
            check(c)
        }
        XCTAssertGreaterThanOrEqual(TOMLCases.invalid.count, 100)
    }

    func testDatesAndTimesAreRefusedWithTheirOwnReasonWherePlacedAndHoweverWritten() {
        let dates = TOMLCases.refusedOnPurpose.filter { $0.reason == .dateTimeUnsupported }
        XCTAssertGreaterThanOrEqual(dates.count, 12)
        XCTAssertEqual(TOMLError.Reason.dateTimeUnsupported.message.description, "dates and times are not supported")
        // A time-looking value is never read as a number, a date never as a subtraction.
        for text in ["a = 00:00:00", "a = 99:99", "a = [12:30]", "a = { t = 23:59:59.999 }", "a = 2024-01-01",
                     "a = 0000-00-00", "a = 1979-05-27T07:32:00+01:00"] {
            XCTAssertEqual(refusal(text)?.reason, .dateTimeUnsupported, text)
        }
    }

    func testEveryReasonIsReachedByACaseOrALimit() {
        var reached = Set((TOMLCases.invalid + TOMLCases.refusedOnPurpose).map(\.reason))
        // The limits' reasons are pinned in TOMLLimitsTests.
        reached.formUnion([.fileTooLarge, .stringTooLong, .keyTooLong, .nestingTooDeep])
        XCTAssertEqual(reached, Set(TOMLError.Reason.allCases))
    }

    func testEveryReasonHasAOneLineASCIIMessage() {
        for reason in TOMLError.Reason.allCases {
            let message = reason.message.withUTF8Buffer { Array($0) }
            XCTAssertFalse(message.isEmpty, "\(reason)")
            XCTAssertTrue(message.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(reason)")
        }
    }

    func testDescribeWritesFileLineColumnAndReason() {
        let error = refusal("a = 1\n[t]\nb = \"x\n")!
        XCTAssertEqual(pin(error, offset: true), "3:5 @14 unterminatedString")
        var out = Array("> ".utf8)
        error.describe(file: Array("/home/me/.config/sysstats/config.toml".utf8), into: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self),
                       "> /home/me/.config/sysstats/config.toml:3:5: unterminated string")
        var big: [UInt8] = []
        TOMLError(line: 65536, column: 1000, offset: 0, reason: .duplicateKey).describe(file: [], into: &big)
        XCTAssertEqual(String(decoding: big, as: UTF8.self), ":65536:1000: duplicate key")
    }

    func testColumnsCountBytesAndTabsCountOne() {
        // "é" is two bytes, "€" three, a tab one: the value starts at byte 11 (character 8).
        let error = refusal("\"é€\"\t= 0x\n")!
        XCTAssertEqual(pin(error), "1:11 invalidNumber")
        // A CRLF's CR ends its line like the LF.
        let crlf = refusal("a = 1\r\nb = 1 2\r\n")!
        XCTAssertEqual(pin(crlf), "2:7 expectedEndOfLine")
    }

    func testAnErrorAtTheEndOfTheFileIsJustPastItsLastByte() {
        let withNewline = refusal("a = \"\"\"x\n")!
        XCTAssertEqual(pin(withNewline), "1:5 unterminatedString")
        let key = refusal("a = 1\nb")!
        XCTAssertEqual(pin(key, offset: true), "2:2 @7 expectedEquals")
        let value = refusal("a = 1\nb =\n")!
        XCTAssertEqual(pin(value), "2:4 expectedValue")
        let array = refusal("a = [\n")!
        XCTAssertEqual(pin(array, offset: true), "2:1 @6 expectedValue")
    }

    // MARK: - Helpers

    /// "LINE:COLUMN REASON", or with `offset` "LINE:COLUMN @OFFSET REASON".
    private func pin(_ error: TOMLError, offset: Bool = false) -> String {
        "\(error.line):\(error.column)" + (offset ? " @\(error.offset)" : "") + " \(error.reason)"
    }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> TOMLError? {
        do {
            let document = try TOMLDocument.parse(Array(text.utf8))
            XCTFail("accepted: \(Dump.readable(document))", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func check(_ c: InvalidCase, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let document = try TOMLDocument.parse(c.bytes)
            XCTFail("\(c.name): accepted as \(Dump.readable(document))", file: file, line: line)
        } catch {
            XCTAssertEqual("\(error.line):\(error.column) \(error.reason)", "\(c.line):\(c.column) \(c.reason)", c.name,
                           file: file, line: line)
        }
    }
}
