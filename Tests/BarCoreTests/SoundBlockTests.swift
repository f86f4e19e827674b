@testable import BarCore
import SnapshotCodec
import XCTest

/// The volume and microphone blocks: made from their parts' tables like the other listed
/// blocks, plus i3status's muted text and colour, `format_muted`, `step`, `max`, and the wheel
/// and left click that change the device through the sound helper.
final class SoundBlockTests: XCTestCase {
    let now = Fixture.station.nowMs
    let volume = BlockKind.listed(.volume)!
    let microphone = BlockKind.listed(.microphone)!

    func config(_ text: String) throws -> BarConfig {
        try Array(text.utf8).withUnsafeBytes { BarConfig.parse($0) }.get()
    }

    func reason(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .failure(let e) = Array(text.utf8).withUnsafeBytes({ BarConfig.parse($0) }) else {
            XCTFail("accepted: \(text)", file: file, line: line); return ""
        }
        return String(decoding: e.reason, as: UTF8.self)
    }

    func testTheBlocksShowTheVolumeAndAMutedDeviceInTheDegradedColour() throws {
        let s = Fixture.station.snapshot
        XCTAssertEqual(rendered(s, .text, blocks: [volume, microphone], nowMs: now), "vol 40% | mic muted (60%)\n")
        let line = rendered(s, .i3bar, blocks: [volume, microphone], nowMs: now)
        let blocks = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        XCTAssertEqual(blocks[0]["name"] as? String, "volume")
        XCTAssertNil(blocks[0]["color"], "unmuted: the normal colour")
        XCTAssertEqual(blocks[1]["color"] as? String, String(decoding: Theme().warning, as: UTF8.self), "muted: i3status's degraded colour")
        XCTAssertEqual(volume.placeholders.map { $0.name.description }, ["volume", "muted", "source", "label", "port", "device"])
    }

    func testFormatAndFormatMutedTakeThePlaceholdersAndTheKeysAreChecked() throws {
        let c = try config("""
            [[block]]
            block = "volume"
            format = "{device} on {port}: {volume}%"
            format_muted = "{device}: muted"
            step = 2
            max = 150
            [[block]]
            block = "microphone"
            format = "{device} on {port}: {volume}%"
            format_muted = "{device}: muted ({muted})"
            """)
        let blocks = try XCTUnwrap(c.blocks)
        XCTAssertEqual(blocks[0].wheelStep, 2)
        XCTAssertEqual(blocks[0].soundMaximum, 150)
        let s = Fixture.station.snapshot
        XCTAssertEqual(rendered(s, .text, blocks: blocks, nowMs: now),
                       "Built-in Audio Analog Stereo on Headphones: 40% | Built-in Audio Analog Stereo: muted (1)\n")
        XCTAssertTrue(reason("[[block]]\nblock = \"volume\"\nstep = 0\n").contains("out of range: 1 to 100"))
        XCTAssertTrue(reason("[[block]]\nblock = \"volume\"\nmax = 2000\n").contains("out of range: 1 to 1000"))
        XCTAssertTrue(reason("[[block]]\nblock = \"cpu\"\nformat_muted = \"x\"\n").contains("unknown key"), "only sound blocks take it")
        XCTAssertTrue(reason("[[block]]\nblock = \"volume\"\nformat_muted = \"{rpm}\"\n").contains("rpm"))
        XCTAssertTrue(reason("[[block]]\nblock = \"volume\"\nsetp = 5\n").contains("did you mean \"step\""))
    }

    func testTheWheelChangesTheVolumeByTheStepAndALeftClickTogglesMute() throws {
        var block = BarBlock(volume)
        block.wheelStep = 2
        block.soundMaximum = 150
        var r = Renderer(output: .i3bar, blocks: [block, BarBlock(microphone)])
        XCTAssertEqual(r.click(ClickEvent(block: volume, button: 4)),
                       .sound(SoundChange(device: Array("sink".utf8), toggleMute: false, deltaPermyriad: 200, maximumPermyriad: 15_000)))
        XCTAssertEqual(r.click(ClickEvent(block: volume, button: 5)),
                       .sound(SoundChange(device: Array("sink".utf8), toggleMute: false, deltaPermyriad: -200, maximumPermyriad: 15_000)))
        XCTAssertEqual(r.click(ClickEvent(block: microphone, button: 1)),
                       .sound(SoundChange(device: Array("source".utf8), toggleMute: true, deltaPermyriad: 0, maximumPermyriad: 10_000)))
        XCTAssertEqual(r.click(ClickEvent(block: volume, button: 3)), .none, "the right button is the user's to give a command")
        XCTAssertEqual(SoundChange(device: Array("sink".utf8), toggleMute: false, deltaPermyriad: -200, maximumPermyriad: 15_000)
            .arguments.map { String(decoding: $0, as: UTF8.self) }, ["change", "sink", "-200", "15000"])
        XCTAssertEqual(SoundChange(device: Array("source".utf8), toggleMute: true, deltaPermyriad: 0, maximumPermyriad: 0)
            .arguments.map { String(decoding: $0, as: UTF8.self) }, ["mute", "source"])
    }

    func testAClickTableEntryReplacesTheBlocksOwnActionForItsButton() throws {
        let c = try config("""
            [[block]]
            block = "volume"
            [[block.click]]
            button = "right"
            cmd = "pavucontrol"
            [[block.click]]
            button = "left"
            cmd = "pactl set-sink-mute @DEFAULT_SINK@ toggle"
            """)
        var r = Renderer(output: .i3bar, blocks: try XCTUnwrap(c.blocks))
        XCTAssertEqual(r.click(ClickEvent(block: volume, button: 3)), .run(Array("pavucontrol".utf8)))
        XCTAssertEqual(r.click(ClickEvent(block: volume, button: 1)), .run(Array("pactl set-sink-mute @DEFAULT_SINK@ toggle".utf8)))
        if case .sound = r.click(ClickEvent(block: volume, button: 4)) {} else { XCTFail("the wheel keeps its own action") }
    }

    func testWithoutASoundServerTheBlocksSayNAOrHide() throws {
        var s = Fixture.station.snapshot
        s.available.subtract(SnapshotSections(tag: .volume)!.union(SnapshotSections(tag: .microphone)!))
        XCTAssertEqual(rendered(s, .text, blocks: [volume, microphone], nowMs: now), "vol n/a | mic n/a\n")
        var hidden = BarBlock(volume)
        hidden.hideMissing = true
        XCTAssertEqual(rendered(s, .text, blocks: [hidden, BarBlock(.load)], nowMs: now).hasPrefix("load "), true)
        var noDefault = Fixture.station.snapshot
        _ = noDefault.listed.update(.volume) { $0 = [] }
        XCTAssertEqual(rendered(noDefault, .text, blocks: [volume], nowMs: now), "vol n/a\n", "a server without a default sink")
    }
}
