import BarCore
import SnapshotCodec
import XCTest

/// What a config file gives a block of its own (formats, thresholds) and the bar as a whole
/// (separator, n/a text, colours).
final class ThemeAndOverridesTests: XCTestCase {
    let desktop = Fixture.desktop.snapshot
    let now = Fixture.desktop.nowMs

    func format(_ text: String, _ kind: BlockKind) throws -> BlockFormat { try BlockFormat(Array(text.utf8)[...], for: kind) }

    func line(_ renderer: inout Renderer, _ snap: Snapshot) -> String {
        renderer.render(snap, nowMs: now)
        return String(decoding: renderer.line.bytes, as: UTF8.self)
    }

    func testABlocksOwnFormatsWinOverTheKindsFormatAndTheBuiltInText() throws {
        var first = BarBlock(.cpu)
        first.format = try format("C{busy}", .cpu)
        first.shortFormat = try format("c{busy}", .cpu)
        let second = BarBlock(.cpu)
        var r = Renderer(output: .i3bar, blocks: [first, second], formats: try formats("cpu=K{busy}"))
        let blocks = try XCTUnwrap(parseJSON(line(&r, desktop)) as? [[String: Any]])
        XCTAssertEqual(blocks.map { $0["full_text"] as? String }, ["C12", "K12"])
        XCTAssertEqual(blocks.map { $0["short_text"] as? String }, ["c12", "cpu 12%"])
    }

    func testABlocksOwnThresholdsSetItsLevel() throws {
        var low = BarBlock(.cpu)
        low.warning = 10; low.critical = 50
        var disk = BarBlock(.disk, argument: Array("/home".utf8))
        disk.warning = 96; disk.critical = 99
        var temp = BarBlock(.temp)
        temp.warning = 40; temp.critical = 50
        var r = Renderer(output: .i3bar, blocks: [low, BarBlock(.cpu), disk, temp])
        let blocks = try XCTUnwrap(parseJSON(line(&r, SystemBlocksTests.station())) as? [[String: Any]])
        XCTAssertEqual(blocks.map { $0["color"] as? String }, ["#E5C07B", nil, nil, "#E06C75"],
                       "cpu 12% past a 10% warning; the other cpu block keeps 70%; /home at 95% under its 96%; 52 °C past 50")
        XCTAssertEqual(blocks[3]["urgent"] as? Bool, true)
    }

    func testATimeBlocksOwnFormats() throws {
        var utc = BarBlock(.time, argument: Array("UTC".utf8))
        utc.timeFormat = Array("%H:%M:%S".utf8)
        utc.timeShortFormat = Array("%H".utf8)
        var r = Renderer(output: .i3bar, blocks: [utc, BarBlock(.time, argument: Array("UTC".utf8))])
        let blocks = try XCTUnwrap(parseJSON(line(&r, desktop)) as? [[String: Any]])
        XCTAssertEqual(blocks.map { $0["full_text"] as? String }, ["18:33:20", "Fri 2025-11-21 18:33"])
        XCTAssertEqual(blocks.map { $0["short_text"] as? String }, ["18", "18:33"])
        XCTAssertEqual(r.nextClockTick(after: 0), 1001, "the finest clock sets the wake-up")
    }

    func testTheThemesSeparatorNATextAndColours() throws {
        var theme = Theme()
        theme.separator = Array(" ┃ <b>".utf8)
        theme.notAvailable = Array("?".utf8)
        theme.warning = Array("#FFAA00".utf8)
        var s = Fixture.laptop.snapshot
        s.available.remove(.load)
        var text = Renderer(output: .text, blocks: [.cpu, .load, .uptime], theme: theme)
        XCTAssertEqual(line(&text, s), "cpu 95% ▂▃▄▅▆▇██ ┃ <b>load ? ┃ <b>up 1d 17h\n")
        var waybar = Renderer(output: .waybar, blocks: [.uptime, .uptime], theme: theme)
        XCTAssertTrue(line(&waybar, s).hasPrefix(#"{"text":"up 1d 17h ┃ &lt;b&gt;up 1d 17h""#), "escaped as Pango")
        var i3bar = Renderer(output: .i3bar, blocks: [.cpu, .battery], theme: theme)
        let blocks = try XCTUnwrap(parseJSON(line(&i3bar, s)) as? [[String: Any]])
        XCTAssertEqual(blocks.map { $0["color"] as? String }, ["#E06C75", "#E06C75"])
        var warm = Fixture.desktop.snapshot
        warm.cpuBusy = 7500
        let warning = try XCTUnwrap(parseJSON(line(&i3bar, warm)) as? [[String: Any]])
        XCTAssertEqual(warning[0]["color"] as? String, "#FFAA00")
        // The next renderer with the default theme says n/a again.
        var plain = Renderer(output: .text, blocks: [.load])
        XCTAssertEqual(line(&plain, s), "load n/a\n")
    }

    func testColoursAreCheckedAsI3barColours() {
        for good in ["#E5C07B", "#e5c07b", "#E5C07BFF"] { XCTAssertTrue(Theme.isColor(Array(good.utf8)), good) }
        for bad in ["E5C07B", "#E5C07", "#E5C07BF", "#GGGGGG", "#E5C07B\"", "red", ""] {
            XCTAssertFalse(Theme.isColor(Array(bad.utf8)), bad)
        }
    }
}

/// `[[block.click]]`: what a button does on a block, and which block of a kind a click names.
final class ClickActionTests: XCTestCase {
    let desktop = Fixture.desktop.snapshot
    let now = Fixture.desktop.nowMs

    func click(_ kind: BlockKind, _ button: Int, instance: String = "") -> ClickEvent {
        var c = ClickEvent(block: kind, button: button)
        c.instance = Array(instance.utf8)
        return c
    }

    func testActionsRunCycleAndToggleAndOtherButtonsKeepTheBlocksOwn() throws {
        var mem = BarBlock(.mem)
        mem.clicks = [ClickAction(button: 2, .run(Array("gnome-system-monitor".utf8))), ClickAction(button: 4, .cycle)]
        var cpu = BarBlock(.cpu)
        cpu.clicks = [ClickAction(button: 1, .toggleFormat)]
        var r = Renderer(output: .text, blocks: [mem, cpu])
        XCTAssertEqual(r.click(click(.mem, 2)), .run(Array("gnome-system-monitor".utf8)))
        XCTAssertEqual(r.click(click(.mem, 4)), .redraw)
        XCTAssertEqual(r.memForm, .breakdown)
        XCTAssertEqual(r.click(click(.mem, 1)), .redraw, "left keeps mem's own: the next form")
        XCTAssertEqual(r.memForm, .bar)
        XCTAssertEqual(r.click(click(.cpu, 1)), .redraw)
        r.render(desktop, nowMs: now)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "mem ██▌░░░░░ | cpu 12%\n", "cpu shows its short text")
        XCTAssertEqual(r.click(click(.cpu, 1)), .redraw)
        r.render(desktop, nowMs: now)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "mem ██▌░░░░░ | cpu 12% ▂▃▄▅▆▇██\n", "and back")
        XCTAssertEqual(r.click(click(.cpu, 3)), .none)
        XCTAssertEqual(r.click(click(.load, 1)), .none, "no such block")
    }

    func testAToggledShortTextTakesItsOwnWidthNotTheFullTexts() throws {
        var cpu = BarBlock(.cpu)
        cpu.clicks = [ClickAction(button: 1, .toggleFormat)]
        var r = Renderer(output: .i3bar, blocks: [cpu])
        func shown() throws -> (text: String?, minWidth: String?) {
            r.render(desktop, nowMs: now)
            let block = try XCTUnwrap(parseJSON(String(decoding: r.line.bytes, as: UTF8.self)) as? [[String: Any]]).first
            return (block?["full_text"] as? String, block?["min_width"] as? String)
        }
        XCTAssertNil(try shown().minWidth, "a narrower short text: no min_width (i3bar would pad the short text to it)")
        XCTAssertEqual(r.click(click(.cpu, 1)), .redraw)
        let short = try shown()
        XCTAssertEqual(short.text, "cpu 12%")
        XCTAssertEqual(short.minWidth, "cpu 12%", "no gap after the short text")
        XCTAssertEqual(r.click(click(.cpu, 1)), .redraw)
        let full = try shown()
        XCTAssertEqual(full.text, "cpu 12% ▂▃▄▅▆▇██", "the full text again, unpadded")
        XCTAssertNil(full.minWidth)
    }

    func testTheInstanceNamesWhichOfTwoClocks() {
        var utc = BarBlock(.time, argument: Array("UTC".utf8))
        utc.clicks = [ClickAction(button: 1, .run(Array("a".utf8)))]
        var tokyo = BarBlock(.time, argument: Array("Asia/Tokyo".utf8))
        tokyo.clicks = [ClickAction(button: 1, .run(Array("b".utf8)))]
        var r = Renderer(output: .i3bar, blocks: [utc, tokyo])
        XCTAssertEqual(r.click(click(.time, 1, instance: "Asia/Tokyo")), .run(Array("b".utf8)))
        XCTAssertEqual(r.click(click(.time, 1, instance: "UTC")), .run(Array("a".utf8)))
        XCTAssertEqual(r.click(click(.time, 1)), .run(Array("a".utf8)), "no instance: the first of the kind")
        XCTAssertEqual(r.click(click(.time, 1, instance: "Europe/Paris")), .none)
    }

    func testClicksFromTheConfigFile() throws {
        let text = """
            [[block]]
            block = "mem"
            [[block.click]]
            button = "middle"
            cmd = "gnome-system-monitor"
            [[block.click]]
            button = 4
            action = "cycle"

            [[block]]
            block = "time"
            [[block.click]]
            button = "left"
            action = "toggle_format"
            """
        let config = try Array(text.utf8).withUnsafeBytes { BarConfig.parse($0) }.get()
        let blocks = try XCTUnwrap(config.blocks)
        XCTAssertEqual(blocks[0].clicks, [ClickAction(button: 2, .run(Array("gnome-system-monitor".utf8))), ClickAction(button: 4, .cycle)])
        XCTAssertEqual(blocks[1].clicks, [ClickAction(button: 1, .toggleFormat)])
        for (bad, message) in [
            ("[[block]]\nblock = \"cpu\"\n[[block.click]]\nbutton = \"side\"\ncmd = \"x\"\n", "c:4:10: button is left, middle, right, up, down or 1 to 5"),
            ("[[block]]\nblock = \"cpu\"\n[[block.click]]\nbutton = 1\naction = \"cycle\"\n", "c:5:10: only the mem block has forms to cycle"),
            ("[[block]]\nblock = \"cpu\"\n[[block.click]]\nbutton = 1\n", "c:3:1: a click needs button and cmd or action"),
        ] {
            guard case .failure(let e) = Array(bad.utf8).withUnsafeBytes({ BarConfig.parse($0) }) else { XCTFail(bad); continue }
            var out: [UInt8] = []
            e.describe(file: Array("c".utf8), into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), message)
        }
    }
}
