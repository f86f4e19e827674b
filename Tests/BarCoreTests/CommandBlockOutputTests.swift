import BarCore
import XCTest

/// What a command block shows of its command's output: i3blocks' lines, or a JSON object.
final class CommandBlockOutputTests: XCTestCase {
    func parse(_ text: String, exit: Int32 = 0, json: Bool = false) -> BlockValue {
        var v = BlockValue()
        var bytes = Array(text.utf8)
        bytes.withUnsafeBytes { CommandBlockOutput.parse($0, exitStatus: exit, json: json, into: &v) }
        return v
    }
    /// With `format = "json"`.
    func parseJSON(_ text: String) -> BlockValue { parse(text, json: true) }

    func parse(bytes: [UInt8], exit: Int32 = 0) -> BlockValue {
        var v = BlockValue()
        bytes.withUnsafeBytes { CommandBlockOutput.parse($0, exitStatus: exit, into: &v) }
        return v
    }
    func text(_ w: ByteWriter) -> String { String(decoding: w.bytes, as: UTF8.self) }

    func testLinesAreFullTextShortTextAndColour() {
        let v = parse("VOL 42%\n42%\n#00FF00\nignored\n")
        XCTAssertEqual(text(v.full), "VOL 42%")
        XCTAssertEqual(text(v.short), "42%")
        XCTAssertEqual(text(v.color), "#00FF00")
        XCTAssertEqual(v.level, .normal)
        XCTAssertFalse(v.urgent)
        XCTAssertEqual(text(parse("only\r\n").full), "only", "CRLF")
        XCTAssertEqual(text(parse("no newline").full), "no newline")
    }

    func testExit33IsUrgentAndAnotherFailureShowsWhatItPrinted() {
        XCTAssertTrue(parse("mail 3\n", exit: 33).urgent)
        XCTAssertEqual(parse("mail 3\n", exit: 33).level, .normal)
        XCTAssertEqual(parse("oops\n", exit: 1).level, .normal, "i3blocks 1.5 shows it as printed")
        XCTAssertEqual(text(parse("oops\n", exit: 1).full), "oops")
        XCTAssertFalse(parse("", exit: 0).visible, "no output: nothing to show")
        XCTAssertFalse(parse("\n\n", exit: 0).visible)
    }

    func testABadColourIsIgnored() {
        for bad in ["red", "#12345", "#1234567", "#GGGGGG", "#123456\"},{", ""] {
            XCTAssertEqual(text(parse("x\n\n\(bad)\n").color), "", bad)
        }
        XCTAssertEqual(text(parse("x\n\n#11223344\n").color), "#11223344")
    }

    func testAJSONObjectLine() {
        XCTAssertEqual(text(parse(#"{"full_text":"plain"}"# + "\n").full), #"{"full_text":"plain"}"#,
                       "without format = json a brace is text, as in i3blocks")
        let v = parseJSON(##"  {"full_text":"Caf\u00e9 \"x\"","short_text":"C","color":"#AABBCC","urgent":true,"n":12.5e3,"m":null,"b":false}"## + "\n")
        XCTAssertEqual(text(v.full), "Café \"x\"")
        XCTAssertEqual(text(v.short), "C")
        XCTAssertEqual(text(v.color), "#AABBCC")
        XCTAssertTrue(v.urgent)
        XCTAssertEqual(text(parseJSON(#"{"full_text":"\ud83d\ude00 \ud800 x"}"#).full), "😀 \u{FFFD} x", "surrogate pairs; a lone half")
        XCTAssertEqual(text(parseJSON(##"{"full_text":"ok","color":"#zzz"}"##).color), "")
        XCTAssertFalse(parseJSON(#"{"short_text":"no full text"}"#).visible)
        XCTAssertEqual(text(parseJSON(#"{"full_text":"cut"#).full), "", "malformed: what was read stays, the rest is dropped")
        XCTAssertEqual(text(parseJSON(#"{"full_text":"a","junk":[1,2]}"#).full), "a")
    }

    func testHostileOutputIsBoundedAndCutOnACharacterBoundary() {
        let long = String(repeating: "é", count: 2000) + "\n"
        let v = parse(long)
        XCTAssertLessThanOrEqual(v.full.count, CommandBlockOutput.maximumLineLength)
        XCTAssertEqual(v.full.count % 2, 0, "never half of a 2-byte character")
        XCTAssertNotNil(String(validating: v.full.bytes, as: UTF8.self))
        // Controls, invalid UTF-8 and markup are kept raw here: the outputs escape them.
        let raw = parse(bytes: [0x1B, 0x5B, 0x33, 0x31, 0x6D, 0xFF, 0x3C, 0x62, 0x3E, 0x0A])
        XCTAssertEqual(raw.full.bytes, [0x1B, 0x5B, 0x33, 0x31, 0x6D, 0xFF, 0x3C, 0x62, 0x3E])
        var line = ByteWriter(capacity: 64)
        line.append(escaped: raw.full.bytes, .json)
        XCTAssertFalse(line.bytes.contains { $0 < 0x20 })
    }
}
