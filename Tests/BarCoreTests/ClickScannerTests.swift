import BarCore
import XCTest

final class ClickScannerTests: XCTestCase {
    func clicks(_ chunks: [String], scanner: inout ClickScanner) -> [ClickEvent] {
        var out: [ClickEvent] = []
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBytes { raw in scanner.feed(raw) { out.append($0) } }
        }
        return out
    }

    func clicks(_ chunks: [String]) -> [ClickEvent] {
        var s = ClickScanner()
        return clicks(chunks, scanner: &s)
    }

    func testI3barStreamWithOpeningBracketAndCommaPrefixedObjects() {
        let stream = "[\n"
            + #"{"name":"mem","instance":"mem","button":1,"modifiers":["Mod4"],"x":10,"y":5}"# + "\n"
            + #",{"name":"mem","instance":"mem","button":3,"x":10,"y":5}"# + "\n"
        var left = ClickEvent(block: .mem, button: 1), right = ClickEvent(block: .mem, button: 3)
        for i in [0, 1] {
            var e = i == 0 ? left : right
            e.instance = Array("mem".utf8); e.x = 10; e.y = 5
            if i == 0 { e.modifiers = Array(#"["Mod4"]"#.utf8) }
            if i == 0 { left = e } else { right = e }
        }
        XCTAssertEqual(clicks([stream]), [left, right], "the instance and position come along (which of two clocks)")
    }

    func testSwaybarObjectsWithoutModifiersAndWithSpacesParse() {
        XCTAssertEqual(clicks([#"[{ "name" : "cpu", "button" : 2, "event": 274 }"# + "\n"]),
                       [ClickEvent(block: .cpu, button: 2)])
    }

    func testALineSplitAcrossReadsIsJoined() {
        XCTAssertEqual(clicks([#",{"name":"me"#, #"m","butto"#, "n\":1}\n"]), [ClickEvent(block: .mem, button: 1)])
    }

    func testGarbageAndPartialLinesAreIgnored() {
        var s = ClickScanner()
        XCTAssertEqual(clicks(["garbage\n", "\u{0}\u{1}{{{\n", #"{"name":"","button":1}"# + "\n",
                               #"{"name":"mem"}"# + "\n", #"{"name":"mem","button":"x"}"# + "\n",
                               #"{"name":"mem","button":1"#], scanner: &s), [])
        // The partial last line completes later.
        XCTAssertEqual(clicks(["}\n"], scanner: &s), [ClickEvent(block: .mem, button: 1)])
    }

    /// A command block named and instanced like a built-in block goes out with its instance
    /// behind `command:` (CommandSpec.clickTagged): its click is a command's, the tag dropped.
    func testATaggedInstanceIsACommandBlocksClickWhateverItsName() {
        let events = clicks([#"{"name":"cpu","instance":"command:cpu","button":1}"# + "\n"])
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.block, .command)
        XCTAssertEqual(events.first?.name, Array("cpu".utf8))
        XCTAssertEqual(events.first?.instance, Array("cpu".utf8))
        XCTAssertEqual(clicks([#"{"name":"cpu","instance":"cpu","button":1}"# + "\n"]).first?.block, .cpu, "untagged: the cpu block's")
    }

    func testAnotherNameIsACommandBlocksClickWithItsInstanceAndPosition() {
        var expected = ClickEvent(block: .command, button: 3)
        expected.name = Array("mpd".utf8)
        expected.instance = Array("Master".utf8)
        expected.x = 1210
        expected.y = 9
        expected.relativeX = 20
        XCTAssertEqual(clicks([#",{"name":"mpd","instance":"Master","button":3,"x":1210,"y":9,"relative_x":20}"# + "\n"]),
                       [expected])
        var bare = ClickEvent(block: .command, button: 1)
        bare.name = Array("firefox".utf8)
        XCTAssertEqual(clicks([#"{"name":"firefox","button":1}"# + "\n"]), [bare], "no instance, no position: empty and 0")
        XCTAssertEqual(clicks([#"{"name":"command","button":1}"# + "\n"]).first?.name, Array("command".utf8),
                       "a command block named command is a command block's click too")
    }

    func testAWrappedProgramsBlockIsKnownByItsInstancePrefixWhateverItsName() {
        // i3status names a block "load", as ours is named: the instance says it is the wrapped one.
        var expected = ClickEvent(block: .command, button: 1)
        expected.wrappedBlock = 12
        expected.name = Array("load".utf8)
        expected.instance = Array("a\"b".utf8)
        expected.x = 5
        XCTAssertEqual(clicks([#",{"name":"load","instance":"i3bar:12:a\"b","button":1,"x":5}"# + "\n"]), [expected],
                       "escapes in the instance are decoded")
        XCTAssertEqual(clicks([#"{"name":"load","instance":"i3bar:x:y","button":1}"# + "\n"]).first?.block, .load,
                       "no index: an ordinary instance")
        XCTAssertEqual(clicks([#"{"name":"load","instance":"i3bar:1234:y","button":1}"# + "\n"]).first?.wrappedBlock, -1,
                       "at most three digits")
    }

    func testAHugeLineIsDroppedWholeAndTheNextLineStillParses() {
        let huge = #"{"name":"mem","button":1,"pad":""# + String(repeating: "x", count: 10_000) + "\"}\n"
        XCTAssertEqual(clicks([huge, #"{"name":"mem","button":3}"# + "\n"]), [ClickEvent(block: .mem, button: 3)])
    }

    func testAClickKeepsEveryFieldI3barSendsForTheCommand() throws {
        let line = #",{"name":"time","button":1,"modifiers":["Shift","Mod1"],"x":1250,"y":710,"relative_x":12,"relative_y":8,"output_x":1250,"output_y":10,"width":90,"height":19}"#
        let click = try XCTUnwrap(ClickScanner.parse(Array(line.utf8)[...]))
        XCTAssertEqual(click.block, .time, "a built-in block's name")
        XCTAssertEqual(click.blockName, Array("time".utf8), "kept: a command block may have that name")
        XCTAssertEqual(click.instance, [], "none sent")
        XCTAssertEqual([click.x, click.y, click.relativeX, click.relativeY, click.outputX, click.outputY, click.width, click.height],
                       [1250, 710, 12, 8, 1250, 10, 90, 19])
        XCTAssertEqual(String(decoding: click.modifiers, as: UTF8.self), #"["Shift","Mod1"]"#)
        let swaybar = try XCTUnwrap(ClickScanner.parse(Array(#"{"name":"x","button":4}"#.utf8)[...]))
        XCTAssertEqual([swaybar.relativeX, swaybar.width], [-1, -1], "not sent: not passed")
        XCTAssertEqual(swaybar.modifiers, [])
    }
}
