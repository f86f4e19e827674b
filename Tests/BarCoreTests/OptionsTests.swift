import BarCore
import SnapshotCodec
import XCTest

final class OptionsTests: XCTestCase {
    func parse(_ args: [String]) throws(OptionsError) -> BarOptions {
        try BarOptions.parse(args.map { Array($0.utf8) })
    }

    func testDefaultsAreTextWithTheDefaultBlocks() throws {
        let o = try parse([])
        XCTAssertEqual(o.output, .text)
        XCTAssertEqual(o.blocks.map(\.kind), BlockKind.defaults)
        XCTAssertNil(o.runtimeDir)
        XCTAssertFalse(o.once)
    }

    func testAllOptionsParseInBothSpellings() throws {
        let o = try parse(["--output", "i3bar", "--runtime-dir=/run/x", "--blocks", "mem,self,cpu", "--once"])
        XCTAssertEqual(o.output, .i3bar)
        XCTAssertEqual(o.runtimeDir, Array("/run/x".utf8))
        XCTAssertEqual(o.blocks.map(\.kind), [.mem, .selfCost, .cpu])
        XCTAssertTrue(o.once)
        XCTAssertEqual(try parse(["--output=waybar"]).output, .waybar)
    }

    func testBadCommandLinesAreRejectedWithTheirReason() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try parse(args); return nil } catch { return error }
        }
        XCTAssertEqual(error(["--bogus"]), .unknownOption(Array("--bogus".utf8)))
        XCTAssertEqual(error(["--output"]), .missingValue)
        XCTAssertEqual(error(["--output", "dzen2"]), .unknownOutput)
        XCTAssertEqual(error(["--blocks", "cpu,,mem"]), .unknownBlock([]))
        XCTAssertEqual(error(["--blocks", "nosuch"]), .unknownBlock(Array("nosuch".utf8)))
        XCTAssertEqual(error(["--runtime-dir="]), .emptyRuntimeDir)
    }

    func testAnUnknownBlockNameIsNamedInTheLineEscapedAndCut() throws {
        func line(_ args: [String]) -> String {
            do { _ = try parse(args); return "" } catch {
                var w = ByteWriter(capacity: 256)
                error.describe(into: &w)
                return String(decoding: w.bytes, as: UTF8.self)
            }
        }
        XCTAssertTrue(line(["--blocks", "cpu,nosuch,mem"]).hasPrefix("sysstats-bar: --blocks: unknown block 'nosuch'; the blocks are cpu, mem,"))
        XCTAssertTrue(line(["--blocks", "nosuch:0"]).hasPrefix("sysstats-bar: --blocks: unknown block 'nosuch'; "))
        XCTAssertTrue(line(["--blocks", "cpu,"]).hasPrefix("sysstats-bar: --blocks: an empty block name"))
        let hostile = line(["--blocks", "x\u{1B}[2J\ny" + String(repeating: "z", count: 100)])
        XCTAssertFalse(hostile.contains("\u{1B}") || hostile.contains("\n"), hostile)
        XCTAssertTrue(hostile.contains("'x [2J y" + String(repeating: "z", count: 57) + "'"), "the first 64 bytes: " + hostile)
    }

    func testOptionsTheOutputWouldIgnoreAreRefused() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try parse(args); return nil } catch { return error }
        }
        XCTAssertEqual(error(["--click", "1"]), .genmonOnlyOption)
        XCTAssertEqual(error(["--output", "png:/tmp/p.png", "--image", "q.png"]), .genmonOnlyOption)
        XCTAssertEqual(error(["--position", "1,1", "--output", "png:/tmp/p.png"]), .positionNeedsWindow)
        XCTAssertEqual(error(["--size", "200x64"]), .sizeNeedsImage)
        XCTAssertEqual(error(["--output", "i3bar", "--size", "200x64"]), .sizeNeedsImage)
        XCTAssertNil(error(["--image", "q.png", "--output", "genmon", "--click", "3", "--size", "200x64"]))
        XCTAssertNil(error(["--output", "x11-window", "--position", "-1,0", "--size", "200x64"]))
    }

    func testVersionIsAnOption() throws {
        XCTAssertTrue(try parse(["--version"]).version)
        XCTAssertFalse(try parse([]).version)
    }

    func testPanelOutputsTakeTheirFileSizeAndPosition() throws {
        let png = try parse(["--output", "png:/tmp/p/panel.png", "--size", "200x64"])
        XCTAssertEqual(png.output, .png)
        XCTAssertEqual(png.imagePath, Array("/tmp/p/panel.png".utf8))
        XCTAssertEqual([png.width, png.height], [200, 64])
        let window = try parse(["--output=x11-window", "--position=-10,20"])
        XCTAssertEqual(window.output, .x11Window)
        XCTAssertEqual([window.positionX, window.positionY], [-10, 20])
        XCTAssertEqual([window.width, window.height], [180, 56], "the default size")
        let genmon = try parse(["--output", "genmon", "--image", "p.png"])
        XCTAssertEqual(genmon.output, .genmon)
        XCTAssertEqual(genmon.imagePath, Array("p.png".utf8))
        XCTAssertTrue(OutputKind.png.isImage && OutputKind.genmon.isImage && OutputKind.x11Window.isImage)
        XCTAssertFalse(OutputKind.text.isImage || OutputKind.x11Root.isImage)
    }

    func testTheWindowTypeDefaultsToOverrideAndTakesConkysFourNames() throws {
        XCTAssertEqual(try parse(["--output", "x11-window"]).windowType, .override)
        for type in WindowType.allCases {
            let name = String(describing: type)
            XCTAssertEqual(try parse(["--output", "x11-window", "--window-type", name]).windowType, type, name)
            XCTAssertEqual(try parse(["--output=x11-window", "--window-type=\(name)"]).windowType, type, name)
        }
        // CBarX11's CBARX11_TYPE_* values.
        XCTAssertEqual(WindowType.allCases.map(\.rawValue), [0, 1, 2, 3])
    }

    func testABadOrMisplacedWindowTypeIsRefused() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try parse(args); return nil } catch { return error }
        }
        for bad in ["", "Dock", "panel", "override\0", "dock,normal", " normal", String(repeating: "d", count: 4096)] {
            XCTAssertEqual(error(["--output", "x11-window", "--window-type", bad]), .badWindowType, bad)
        }
        XCTAssertEqual(error(["--output", "x11-window", "--window-type"]), .missingValue)
        XCTAssertEqual(error(["--window-type", "dock"]), .positionNeedsWindow)
        XCTAssertEqual(error(["--output", "png:/tmp/p.png", "--window-type", "normal"]), .positionNeedsWindow)
    }

    func testTheWaylandPanelTakesItsAnchorLayerMarginExclusiveZoneAndOutput() throws {
        let plain = try parse(["--output", "wayland-panel"])
        XCTAssertEqual(plain.output, .waylandPanel)
        XCTAssertEqual([plain.anchor.name.description, plain.layer.name.description], ["top-right", "top"], "the defaults")
        XCTAssertEqual(plain.margin, 0)
        XCTAssertFalse(plain.exclusive)
        XCTAssertNil(plain.waylandOutput)
        let placed = try parse(["--output", "wayland-panel", "--anchor", "bottom", "--layer", "overlay", "--margin", "12",
                                "--exclusive", "--wayland-output", "HDMI-A-1", "--size", "300x40"])
        XCTAssertEqual(placed.anchor, .bottom)
        XCTAssertEqual(placed.layer, .overlay)
        XCTAssertEqual(placed.margin, 12)
        XCTAssertTrue(placed.exclusive)
        XCTAssertEqual(placed.waylandOutput, Array("HDMI-A-1".utf8))
        XCTAssertEqual([placed.width, placed.height], [300, 40])
        for anchor in PanelAnchor.allCases {
            XCTAssertEqual(try parse(["--output=wayland-panel", "--anchor=\(anchor.name)"]).anchor, anchor)
        }
        // The layer-shell protocol's anchor bits (top 1, bottom 2, left 4, right 8) and layers.
        XCTAssertEqual(PanelAnchor.allCases.map(\.rawValue), [1, 2, 5, 9, 6, 10])
        XCTAssertEqual(PanelLayer.allCases.map(\.rawValue), [0, 1, 2, 3])
        // `panel` takes both outputs' options: the session decides which apply.
        let panel = try parse(["--output", "panel", "--anchor", "top-left", "--position", "5,5", "--window-type", "dock"])
        XCTAssertEqual(panel.output, .panel)
        XCTAssertEqual(panel.anchor, .topLeft)
        XCTAssertEqual(panel.windowType, .dock)
        XCTAssertTrue(OutputKind.waylandPanel.isImage && OutputKind.panel.isImage)
    }

    func testBadOrMisplacedWaylandPanelOptionsAreRefusedWithTheirReason() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try parse(args); return nil } catch { return error }
        }
        let panel = ["--output", "wayland-panel"]
        for bad in ["", "Top", "left", "top-centre", "top\0", String(repeating: "t", count: 4096)] {
            XCTAssertEqual(error(panel + ["--anchor", bad]), .badAnchor, bad)
        }
        for bad in ["", "above", "TOP", "2"] { XCTAssertEqual(error(panel + ["--layer", bad]), .badLayer, bad) }
        for bad in ["", "-1", "4097", "1e3", "99999999999"] { XCTAssertEqual(error(panel + ["--margin", bad]), .badMargin, bad) }
        for bad in ["", "a\0b", String(repeating: "o", count: 64)] {
            XCTAssertEqual(error(panel + ["--wayland-output", bad]), .badWaylandOutput, bad)
        }
        XCTAssertEqual(error(["--anchor", "top"]), .placementNeedsWayland, "text output")
        XCTAssertEqual(error(["--output", "x11-window", "--exclusive"]), .placementNeedsWayland)
        XCTAssertEqual(error(panel + ["--position", "0,0"]), .positionNeedsWindow)
        XCTAssertEqual(error(panel + ["--exclusive"]), .exclusiveNeedsEdge, "the default anchor is a corner")
        XCTAssertEqual(error(panel + ["--anchor", "bottom-left", "--exclusive"]), .exclusiveNeedsEdge)
        XCTAssertNil(error(panel + ["--anchor", "top", "--exclusive"]))
    }

    func testBadPanelOptionsAreRejectedWithTheirReason() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try parse(args); return nil } catch { return error }
        }
        XCTAssertEqual(error(["--output", "png"]), .unknownOutput, "png needs its file")
        XCTAssertEqual(error(["--output", "png:"]), .emptyImagePath)
        XCTAssertEqual(error(["--image", ""]), .emptyImagePath)
        for size in ["63x56", "180x23", "1025x56", "180x257", "180", "x", "180x", "-180x56", "180x56x2", "99999999x56", " 180x56"] {
            XCTAssertEqual(error(["--size", size]), .badSize, size)
        }
        XCTAssertNil(error(["--size", "64x24", "--output", "png:p.png"]))
        XCTAssertNil(error(["--size", "1024x256", "--output", "png:p.png"]))
        for position in ["1", "1,", ",1", "a,b", "1;2", "--1,2", "123456,0"] {
            XCTAssertEqual(error(["--position", position]), .badPosition, position)
        }
    }

    func testRuntimeDirFollowsTheSamplersRules() {
        func dir(_ option: String?, _ xdg: String?, _ uid: UInt32 = 1000) -> String {
            String(decoding: resolveRuntimeDir(option: option.map { Array($0.utf8) }, xdgRuntimeDir: xdg.map { Array($0.utf8) }, uid: uid),
                   as: UTF8.self)
        }
        XCTAssertEqual(dir("/x", "/run/user/1000"), "/x")
        XCTAssertEqual(dir(nil, "/run/user/1000"), "/run/user/1000/sysstats")
        XCTAssertEqual(dir(nil, "/run/user/1000/"), "/run/user/1000/sysstats")
        XCTAssertEqual(dir(nil, "relative"), "/tmp/sysstats-1000")
        XCTAssertEqual(dir(nil, nil, 0), "/tmp/sysstats-0")
    }

    func testAnXDGRuntimeDirThatIsNotUTF8IsKeptByteForByte() {
        // A String on the way repaired 0xFF into U+FFFD: the bar watched another folder than
        // the sampler wrote.
        let xdg: [UInt8] = Array("/run/user/1000/".utf8) + [0xFF, 0x2F]
        XCTAssertEqual(resolveRuntimeDir(option: nil, xdgRuntimeDir: xdg, uid: 1000), xdg + Array("sysstats".utf8))
        let option: [UInt8] = [0x2F, 0x74, 0xE9]   // "/t\xe9"
        XCTAssertEqual(resolveRuntimeDir(option: option, xdgRuntimeDir: xdg, uid: 1000), option)
    }

    func testTheRendererWakesJustAfterTheSnapshotTurnsStale() {
        var s = Snapshot()
        s.timestampMs = 10_000
        s.intervalMs = 1000
        XCTAssertEqual(s.msUntilStale(nowMs: 12_000), 3001)   // stale after 5 s, not 3
        XCTAssertEqual(s.msUntilStale(nowMs: 20_000), 0)
        s.intervalMs = 2000
        XCTAssertEqual(s.msUntilStale(nowMs: 12_000), 4001)
    }
}

extension OptionsTests {
    /// Issue 29's small ones: an unknown option is named (as sysstatsd names it), a block given
    /// twice is refused (clicks name a block by name and argument), and --help no longer calls
    /// the x11-window output a dock window (its default type is override).
    func testAnUnknownOptionIsNamedAndABlockTwiceIsRefused() throws {
        func line(_ args: [String]) -> String {
            do { _ = try BarOptions.parse(args.map { Array($0.utf8) }); return "" } catch {
                var w = ByteWriter(capacity: 256)
                error.describe(into: &w)
                return String(decoding: w.bytes, as: UTF8.self)
            }
        }
        XCTAssertEqual(line(["--bogus"]), "sysstats-bar: unknown option '--bogus' (see sysstats-bar --help)")
        XCTAssertEqual(line(["--bo\u{1B}[2Jgus"]), "sysstats-bar: unknown option '--bo [2Jgus' (see sysstats-bar --help)")
        XCTAssertEqual(line(["--blocks", "cpu,mem,cpu"]), "sysstats-bar: --blocks: 'cpu' is there twice (a click names a block by its name and argument)")
        XCTAssertEqual(line(["--blocks", "time,time:UTC,disk:/,disk:/home"]), "", "the same kind with other arguments is fine")
        var help = ByteWriter(capacity: 8192)
        helpText(into: &help)
        let text = String(decoding: help.bytes, as: UTF8.self)
        XCTAssertFalse(text.contains("dock window"), text)
    }
}
