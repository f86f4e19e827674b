import BarCore
import SnapshotCodec
import XCTest

final class RendererTests: XCTestCase {
    let desktop = Fixture.desktop.snapshot
    let now = Fixture.desktop.nowMs

    func testMemFormsShowUsedTotalBreakdownBarAndPercent() {
        let lines = MemForm.allCases.map { rendered(desktop, .text, blocks: [.mem], nowMs: now, memForm: $0) }
        XCTAssertEqual(lines, ["mem 4.8G/15.3G\n", "mem active 2.9G inact 1.9G wired 977M other 1.9G free 7.6G\n", "mem ██▌░░░░░\n", "mem 31%\n"])
    }

    func testLeftClickOnMemCyclesFormsAndRightClickGoesBack() {
        var r = Renderer(output: .i3bar, blocks: [.cpu, .mem])
        XCTAssertTrue(r.handleClick(ClickEvent(block: .mem, button: 1)))
        XCTAssertEqual(r.memForm, .breakdown)
        for _ in 0..<3 { _ = r.handleClick(ClickEvent(block: .mem, button: 1)) }
        XCTAssertEqual(r.memForm, .usedTotal, "wraps around")
        XCTAssertTrue(r.handleClick(ClickEvent(block: .mem, button: 3)))
        XCTAssertEqual(r.memForm, .percent)
        XCTAssertFalse(r.handleClick(ClickEvent(block: .cpu, button: 1)))
        XCTAssertFalse(r.handleClick(ClickEvent(block: .mem, button: 4)))
        XCTAssertEqual(r.memForm, .percent)
        var noMem = Renderer(output: .i3bar, blocks: [.cpu])
        XCTAssertFalse(noMem.handleClick(ClickEvent(block: .mem, button: 1)))
    }

    func testStreamingI3barOpensTheArrayOnceThenSeparatesUpdatesWithCommas() {
        var r = Renderer(output: .i3bar, blocks: [.uptime], streaming: true)
        var out = ""
        for _ in 0..<3 {
            r.render(desktop, nowMs: now)
            out += String(decoding: r.line.bytes, as: UTF8.self)
        }
        let block = #"[{"name":"uptime","instance":"uptime","full_text":"up 1d 17h"}]"#
        XCTAssertEqual(out, "[\n\(block)\n,\(block)\n,\(block)\n")
        XCTAssertTrue(i3barHeader.description.hasPrefix(#"{"version":1,"click_events":true,"stop_signal":10,"cont_signal":12}"#))
    }

    func testStaleMessageIsVisibleInEveryOutput() {
        var lines: [String] = []
        for output in OutputKind.allCases where !output.isImage {
            var r = Renderer(output: output, blocks: [.cpu, .mem])
            r.renderMessage(staleMessage)
            lines.append(String(decoding: r.line.bytes, as: UTF8.self))
        }
        XCTAssertEqual(lines, [
            "sysstatsd stopped\n", "sysstatsd stopped\n", "sysstatsd stopped\n", "sysstatsd stopped\n",
            ##"[{"name":"sysstats","full_text":"sysstatsd stopped","color":"#E06C75"}]"## + "\n",
            #"{"text":"sysstatsd stopped","alt":"stale","tooltip":"sysstatsd stopped","class":"stale"}"# + "\n",
            "sysstatsd stopped",
        ])
    }

    func testExitedShowsTheLatestExitOnlyWhileRecent() {
        let laptop = Fixture.laptop.snapshot
        let exitTime = laptop.exits[0].timeMs
        XCTAssertEqual(rendered(laptop, .text, blocks: [.exited], nowMs: exitTime + 60_000), "exited chromium freed 1.2G\n")
        XCTAssertEqual(rendered(laptop, .text, blocks: [.exited], nowMs: exitTime + 60_001), "\n")
        XCTAssertEqual(rendered(laptop, .text, blocks: [.procs, .exited], nowMs: exitTime + 60_001), "procs 312 (2 run)\n")
    }

    func testBatteryBlockSaysNAWithoutABatteryHidesWithHideMissingAndShowsStateAndTimeLeft() {
        XCTAssertEqual(rendered(desktop, .text, blocks: [.battery], nowMs: now), "bat n/a\n",
                       "asked for by name, a missing battery says n/a as a missing GPU or sensor does")
        XCTAssertEqual(rendered(desktop, .text, blocks: BarBlock.defaults.filter { $0.kind == .battery }, nowMs: now), "\n",
                       "the default bar hides it")
        var s = Fixture.laptop.snapshot
        XCTAssertEqual(rendered(s, .text, blocks: [.battery], nowMs: now), "bat 8% - 1:23\n")
        s.battery.state = .charging; s.battery.minutesRemaining = .max; s.urgent = []
        XCTAssertEqual(rendered(s, .i3bar, blocks: [.battery], nowMs: now),
                       #"[{"name":"battery","instance":"battery","full_text":"bat 8% +","short_text":"bat 8%"}]"# + "\n")
    }

    func testColourThresholdsForCPU() {
        var s = desktop
        var colours: [String] = []
        for busy in [6999, 7000, 9000] as [Permyriad] {
            s.cpuBusy = busy
            let line = rendered(s, .i3bar, blocks: [.cpu], nowMs: now)
            colours.append(line.contains("#E5C07B") ? "warning" : (line.contains("#E06C75") ? "critical" : "normal"))
        }
        XCTAssertEqual(colours, ["normal", "warning", "critical"])
    }

    func testSteadyStateRenderingReusesTheLineBuffer() {
        var r = Renderer(output: .i3bar, blocks: allBlocks, streaming: true)
        let snap = Fixture.hostile.snapshot
        r.render(snap, nowMs: now)
        let first = r.line.bytes.withUnsafeBufferPointer { $0.baseAddress }
        let capacity = r.line.bytes.capacity
        for i in 0..<1000 {
            r.render(snap, nowMs: now + UInt64(i))
            r.line.bytes.withUnsafeBufferPointer { XCTAssertEqual($0.baseAddress, first) }
        }
        XCTAssertEqual(r.line.bytes.capacity, capacity)
    }
}

final class X11RootRenderingTests: XCTestCase {
    func testX11RootIsPlainTextWithoutNewline() {
        let line = rendered(Fixture.hostile.snapshot, .x11Root, blocks: [.uptime, .exited], nowMs: Fixture.hostile.nowMs)
        XCTAssertEqual(line, #"up 1d 17h | exited a"b\c</span>"},{"full_text":"x had 2.0M"#)
    }

    func testWMNameCutNeverSplitsAUTF8Character() {
        let bytes = Array(String(repeating: "a", count: 253).utf8) + Array("€€".utf8)  // € is 3 bytes
        XCTAssertEqual(utf8PrefixLength(bytes, maximum: 255), 253)
        XCTAssertEqual(utf8PrefixLength(bytes, maximum: 256), 256)
        XCTAssertEqual(utf8PrefixLength(Array("short".utf8), maximum: 255), 5)
        let exact = Array(String(repeating: "b", count: 255).utf8) + [0xC3, 0xA9]
        XCTAssertEqual(utf8PrefixLength(exact, maximum: 255), 255)
    }
}
