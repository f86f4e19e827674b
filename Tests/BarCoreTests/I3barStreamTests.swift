import BarCore
import Foundation
import SnapshotCodec
import XCTest

/// Another program's i3bar stream, read line by line (`block = "i3bar"`): what is shown, what
/// is dropped, and how it reaches each output.
final class I3barStreamTests: XCTestCase {
    /// Feeds each line; returns whether the last one changed the blocks.
    @discardableResult
    func feed(_ stream: inout I3barStream, _ lines: [String]) -> Bool {
        var changed = false
        for line in lines { changed = Array(line.utf8).withUnsafeBytes { stream.feed(line: $0) } }
        return changed
    }
    func texts(_ s: I3barStream) -> [String] { (0..<s.count).map { String(decoding: s.shown[$0].full.bytes, as: UTF8.self) } }

    func testI3statusOutputShowsEachArrayAsItComes() {
        // i3status's own framing: header, `[`, the first array, then `,`-prefixed ones.
        var s = I3barStream()
        XCTAssertFalse(feed(&s, [#"{"version":1}"#, "["]))
        XCTAssertTrue(feed(&s, [#"[{"name":"load","markup":"none","full_text":"0.52"},{"name":"tztime","instance":"local","full_text":"12:00:01"}]"#]))
        XCTAssertEqual(texts(s), ["0.52", "12:00:01"])
        XCTAssertEqual(String(decoding: s.shown[1].instance.bytes, as: UTF8.self), "local")
        XCTAssertFalse(s.clickEvents, "i3status asks for no click events")
        XCTAssertTrue(feed(&s, [#",[{"name":"load","full_text":"0.60"}]"#]))
        XCTAssertEqual(texts(s), ["0.60"], "each array replaces the last")
    }

    func testVariantsOfFramingAreAllRead() {
        // The opening bracket and the first array on one line, arrays with trailing commas (conky's
        // i3bar scripts), an empty first array, several arrays on a line (the last one shows).
        var s = I3barStream()
        feed(&s, [#"{"version":1,"click_events":true,"stop_signal":10,"extra":{"a":[1,2,{"b":null}]}}"#, #"[[],"#])
        XCTAssertTrue(s.clickEvents)
        XCTAssertEqual(s.count, 0)
        feed(&s, [#"[{"full_text":"a"}],"#])
        XCTAssertEqual(texts(s), ["a"])
        feed(&s, [#"[{"full_text":"b"}],[{"full_text":"c"},{"full_text":"d"}]"#])
        XCTAssertEqual(texts(s), ["c", "d"])
        var t = I3barStream()
        feed(&t, [#"{"version":1} [ [{"full_text":"same line"}]"#])
        XCTAssertEqual(texts(t), ["same line"])
    }

    func testAMalformedLineIsDroppedAndTheLastGoodBlocksStay() {
        var s = I3barStream()
        feed(&s, [#"{"version":1}"#, "[", #"[{"full_text":"good"}]"#])
        for bad in [#",[{"full_text":"cut"#, #",[{"full_text":1}]"#, #",[{"full_text":"x"},]"#, "garbage", #",[{"a":[[[[[[[[[[1]]]]]]]]]]}]"#] {
            XCTAssertFalse(feed(&s, [bad]), bad)
            XCTAssertEqual(texts(s), ["good"], bad)
        }
        XCTAssertEqual(s.malformedLines, 5)
    }

    func testAProgramWithoutHeaderIsPlainTextOneBlockPerLine() {
        var s = I3barStream()
        XCTAssertTrue(feed(&s, ["just text\r"]))
        XCTAssertEqual(texts(s), ["just text"])
        feed(&s, [#"{"looks":"like json"}"#])
        XCTAssertEqual(texts(s), [#"{"looks":"like json"}"#], "once plain, always plain")
    }

    func testHostileMembersAreBoundedAndCheckedNeverTrusted() {
        var s = I3barStream()
        let many = (0..<100).map { #"{"full_text":"b\#($0)"}"# }.joined(separator: ",")
        let long = String(repeating: "é", count: 5000)
        feed(&s, [#"{"version":1}"#, "[", "[" + many + "]"])
        XCTAssertEqual(s.count, I3barStream.maximumBlocks, "at most \(I3barStream.maximumBlocks) blocks kept")
        feed(&s, [##",[{"full_text":"\##(long)","name":"\##(long)","color":"red\"},{","background":"#000000","border":"#12345"}]"##])
        XCTAssertEqual(s.count, 1)
        XCTAssertLessThanOrEqual(s.shown[0].full.count, CommandBlockOutput.maximumLineLength)
        XCTAssertNotNil(String(validating: s.shown[0].full.bytes, as: UTF8.self), "never cut inside a character")
        XCTAssertLessThanOrEqual(s.shown[0].name.count, WrappedBlock.maximumNameLength)
        XCTAssertTrue(s.shown[0].color.isEmpty, "not a colour")
        XCTAssertEqual(String(decoding: s.shown[0].background.bytes, as: UTF8.self), "#000000")
        XCTAssertTrue(s.shown[0].border.isEmpty)
    }

    func testRestartExpectsAHeaderAgain() {
        var s = I3barStream()
        feed(&s, [#"{"version":1,"click_events":true}"#, "[", #"[{"full_text":"a"}]"#])
        s.restart()
        XCTAssertEqual(s.count, 0)
        XCTAssertFalse(s.clickEvents)
        feed(&s, [#"{"version":1}"#, "[", #"[{"full_text":"b"}]"#])
        XCTAssertEqual(texts(s), ["b"])
    }

    // MARK: through the renderer

    func wrapper() -> BarBlock {
        var block = BarBlock(.command)
        var spec = CommandSpec(command: Array("i3status".utf8), name: Array("i3bar".utf8), instance: Array("i3bar".utf8), persist: true)
        spec.wrapsI3bar = true
        block.command = spec
        return block
    }

    func render(_ output: OutputKind, _ lines: [String]) -> String {
        var r = Renderer(output: output, blocks: [BarBlock(.uptime), wrapper(), BarBlock(.load)])
        for line in lines { _ = Array(line.utf8).withUnsafeBytes { r.feedWrapped(1, line: $0) } }
        var snap = Snapshot()
        snap.timestampMs = 1_000
        snap.uptimeCentiseconds = 360_000
        snap.load1 = 52; snap.load5 = 48; snap.load15 = 40
        r.render(snap, nowMs: 1_000)
        return String(decoding: r.line.bytes, as: UTF8.self)
    }

    func testWrappedBlocksTakeTheirPlaceWithTheirMembersInI3bar() throws {
        let line = render(.i3bar, [#"{"version":1}"#, "[",
            ##"[{"name":"wireless","instance":"wlan0","full_text":"W: up","short_text":"W","color":"#00FF00","separator":false,"separator_block_width":3,"min_width":"W: 100%","align":"right","urgent":true,"markup":"pango"},{"name":"tztime","full_text":"12:00"}]"##])
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.map { $0["name"] as? String }, ["uptime", "wireless", "tztime", "load"])
        XCTAssertEqual(array[1]["instance"] as? String, "i3bar:1:wlan0", "the instance says whose it is, for clicks")
        XCTAssertEqual(array[2]["instance"] as? String, "i3bar:1:")
        XCTAssertEqual(array[1]["full_text"] as? String, "W: up")
        XCTAssertEqual(array[1]["short_text"] as? String, "W")
        XCTAssertEqual(array[1]["color"] as? String, "#00FF00")
        XCTAssertEqual(array[1]["separator"] as? Bool, false)
        XCTAssertEqual(array[1]["separator_block_width"] as? Int, 3)
        XCTAssertEqual(array[1]["min_width"] as? String, "W: 100%")
        XCTAssertEqual(array[1]["align"] as? String, "right")
        XCTAssertEqual(array[1]["urgent"] as? Bool, true)
        XCTAssertEqual(array[1]["markup"] as? String, "pango")
    }

    func testOtherOutputsShowWrappedBlocksAsText() {
        let lines = [#"{"version":1}"#, "[", #"[{"full_text":"W: up"},{"full_text":"12:00"}]"#]
        XCTAssertEqual(render(.text, lines), "up 1h 0m | W: up | 12:00 | load 0.52 0.48 0.40\n")
        XCTAssertTrue(render(.waybar, lines).contains("W: up | 12:00"), render(.waybar, lines))
    }

    func testAProblemReplacesTheWrappedBlocksUntilItSpeaksAgain() {
        var r = Renderer(output: .text, blocks: [wrapper()])
        for line in [#"{"version":1}"#, "[", #"[{"full_text":"old"}]"#] { _ = Array(line.utf8).withUnsafeBytes { r.feedWrapped(0, line: $0) } }
        r.setCommandProblem(0, "ended, starting it again")
        var snap = Snapshot()
        snap.timestampMs = 1_000
        r.render(snap, nowMs: 1_000)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "i3bar: ended, starting it again\n")
        for line in [#"{"version":1}"#, "[", #"[{"full_text":"new"}]"#] { _ = Array(line.utf8).withUnsafeBytes { r.feedWrapped(0, line: $0) } }
        r.render(snap, nowMs: 1_000)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "new\n")
    }

    /// i3status with a stock config prints plain text under anything but i3bar: its line is
    /// shown as i3bar would, and the block says how to fix it, in the warning colour; a plain
    /// program other than i3status is left alone.
    func testI3statusPrintingPlainTextIsShownWithHowToFixIt() throws {
        let line = render(.i3bar, ["W: down | 1.2 GiB | 12:00"])
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.map { $0["full_text"] as? String },
                       ["up 1h 0m", "W: down | 1.2 GiB | 12:00", "i3status: set output_format = \"i3bar\" in its general section, then pkill -HUP sysstats-bar", "load 0.52 0.48 0.40"])
        XCTAssertEqual(array[2]["color"] as? String, "#E5C07B")
        var script = wrapper()
        script.command?.command = Array("~/bin/status.sh".utf8)
        var r = Renderer(output: .text, blocks: [script])
        _ = Array("plain".utf8).withUnsafeBytes { r.feedWrapped(0, line: $0) }
        var snap = Snapshot()
        snap.timestampMs = 1_000
        r.render(snap, nowMs: 1_000)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "plain\n", "another program's plain text, as i3bar shows it")
    }
}
