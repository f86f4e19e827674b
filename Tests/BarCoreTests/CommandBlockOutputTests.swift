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

    /// waybar's `return-type = json` and i3status-rust's `json = true` scripts write `text`:
    /// the full text where the object gives no `full_text`, which wins wherever it stands.
    func testWaybarsAndI3statusRustsTextIsTheFullTextWithoutAFullText() {
        XCTAssertEqual(text(parseJSON(#"{"text": "12°C", "tooltip": "x", "class": "hot"}"#).full), "12°C")
        XCTAssertTrue(parseJSON(#"{"icon": "x", "state": "Info", "text": "3 updates", "short_text": "3"}"#).visible)
        XCTAssertEqual(text(parseJSON(#"{"icon": "x", "state": "Info", "text": "3 updates", "short_text": "3"}"#).short), "3")
        XCTAssertEqual(text(parseJSON(#"{"text": "alias", "full_text": "own"}"#).full), "own")
        XCTAssertEqual(text(parseJSON(#"{"full_text": "own", "text": "alias"}"#).full), "own")
    }

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
    }

    /// i3blocks 1.5 sets a key for every line it reads: an empty first line is an empty full
    /// text, a block still shown (its label alone), and an empty second line a `short_text` of "".
    func testAnEmptyLineIsAnEmptyValueNotAMissingOne() {
        let v = parse("\n\n")
        XCTAssertTrue(v.visible)
        XCTAssertEqual(text(v.full), "")
        XCTAssertEqual(v.given & 3, 3, "full_text and short_text given")
        XCTAssertEqual(parse("x\n").given, 1, "one line: full_text only")
    }

    /// Lines 4 to 17 are i3bar's other keys in the order i3blocks 1.5 reads them; an 18th is
    /// ignored; the block's own name and instance stay (lines 8 and 9 are read, not shown).
    func testLinesAfterTheThirdAreI3barKeysInI3blocksOrder() {
        let lines = ["all", "", "#AABBCC", "#000000", "#FF0000", "120", "center", "other-name", "other-instance",
                     "true", "false", "20", "pango", "1", "2", "3", "4", "ignored"]
        let v = parse(lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(text(v.members), ##","background":"#000000","border":"#FF0000","min_width":120,"align":"center","separator":false,"separator_block_width":20,"markup":"pango","border_top":1,"border_bottom":2,"border_left":3,"border_right":4"##)
        XCTAssertTrue(v.urgent)
        XCTAssertTrue(v.pango)
        XCTAssertEqual(text(v.color), "#AABBCC")
    }

    /// A number or `true`/`false` goes to i3bar as it is only where i3bar takes one; anything
    /// else is a JSON string, escaped: no output can add members or break the array.
    func testAValueIsWrittenAsJSONTheKeyTakesAndNeverAsRawText() {
        let v = parse(["x", "", "", "", "", #"1,"urgent":true"#, ##"left"},{"full_text":"##, "", "", "", "-2.5e1", "12abc"].joined(separator: "\n"))
        XCTAssertEqual(text(v.members), #","min_width":"1,\"urgent\":true","align":"left\"},{\"full_text\":","separator":-2.5e1,"separator_block_width":"12abc""#)
        XCTAssertEqual(parse("x\n\n\nred\nblue\n").members.count, 0, "a background or border that is not a colour is dropped")
        for notANumber in ["01", "1.", ".5", "1e", "-", "+1", "1e+", "--1", "0x10", "1 "] {
            XCTAssertEqual(text(parse("x\n\n\n\n\n" + notANumber).members), #","min_width":""# + notANumber + "\"", notANumber)
        }
        for number in ["0", "-0", "10", "1.5", "-2.5e-3", "7E+2"] {
            XCTAssertEqual(text(parse("x\n\n\n\n\n" + number).members), #","min_width":"# + number, number)
        }
    }

    func testAJSONObjectsI3barMembersAreAllRead() {
        let v = parseJSON(##"{"full_text":"j","background":"#040506","border_top":1,"min_width":"wide","align":"right","separator":false,"separator_block_width":7,"markup":"pango","name":"x","count":5}"##)
        XCTAssertEqual(text(v.members), ##","background":"#040506","border_top":1,"min_width":"wide","align":"right","separator":false,"separator_block_width":7,"markup":"pango""##)
        XCTAssertTrue(v.pango)
    }

    /// What /bin/sh (dash), bash and zsh say when a command is missing, in a script too: the
    /// missing command is named, not the script.
    func testTheCommandAShellDidNotFindIsNamed() {
        func name(_ line: String) -> String? { CommandBlockOutput.commandNotFound(Array(line.utf8)).map { String(decoding: $0, as: UTF8.self) } }
        XCTAssertEqual(name("sh: 1: nosuchtool: not found"), "nosuchtool")
        XCTAssertEqual(name("/home/me/bin/cpu: 3: jq: not found"), "jq")
        XCTAssertEqual(name("/home/me/bin/cpu: line 3: jq: command not found"), "jq")
        XCTAssertEqual(name("bash: line 1: ./battery: command not found"), "./battery")
        XCTAssertEqual(name("zsh:1: command not found: jq"), "jq")
        XCTAssertEqual(name("jq: not found"), "jq")
        XCTAssertNil(name("cpu: exiting with 127"))
        XCTAssertNil(name(""))
        XCTAssertNil(name("sh: 1: " + String(repeating: "x", count: 100) + ": not found"), "a name is short")
        XCTAssertNil(name("sh: 1: a\u{1B}[31m: not found"), "controls are not a name")
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
