@testable import BarCore
import Foundation
import SnapshotCodec
import XCTest

/// run_watch, path_exists and read_file, i3status's small modules, over looks a test sets as
/// the program would (what the program finds on a fixture tree: BarRuntimeTests'
/// FileLookTests): i3status's texts, its format_down and format_bad, its colours as the
/// levels, the first line bounded and escaped, the config's and `--blocks`' keys.
final class FileBlocksTests: XCTestCase {
    let snap = Fixture.desktop.snapshot
    let now = Fixture.desktop.nowMs

    func block(_ kind: BlockKind, _ path: String, title: String = "", format: String? = nil, down: String? = nil) throws -> BarBlock {
        var b = BarBlock(kind, argument: Array(path.utf8))
        b.title = Array(title.utf8)
        if let format { b.format = try BlockFormat(Array(format.utf8)[...], for: kind) }
        if let down { b.downFormat = try BlockFormat(Array(down.utf8)[...], for: kind) }
        return b
    }

    /// One update of `blocks` after `look` set what the program found.
    func line(_ blocks: [BarBlock], _ output: OutputKind = .text, look: (inout FileLooks) -> Void) -> String {
        var r = Renderer(output: output, blocks: blocks)
        look(&r.fileLooks)
        r.render(snap, nowMs: now)
        return String(decoding: r.line.bytes, as: UTF8.self)
    }

    func i3bar(_ blocks: [BarBlock], look: (inout FileLooks) -> Void) throws -> [[String: Any]] {
        try XCTUnwrap(parseJSON(line(blocks, .i3bar, look: look)) as? [[String: Any]])
    }

    func content(_ bytes: [UInt8]) -> (inout FileLooks) -> Void {
        { looks in bytes.withUnsafeBytes { looks.setContent(0, $0) } }
    }

    func testRunWatchAndPathExistsSayYesOrNoAfterTheirTitleInI3statusColours() throws {
        let blocks = [try block(.runWatch, "/var/run/dhclient*.pid", title: "DHCP"),
                      try block(.pathExists, "/proc/sys/net/ipv4/conf/tun0")]
        XCTAssertEqual(line(blocks) { $0.set(0, good: true); $0.set(1, good: false) }, "DHCP: yes | tun0: no\n",
                       "the title, else the path's last part")
        let shown = try i3bar(blocks) { $0.set(0, good: false); $0.set(1, good: true) }
        XCTAssertEqual(shown.map { $0["name"] as? String }, ["run_watch", "path_exists"])
        XCTAssertEqual(shown.map { $0["instance"] as? String }, ["/var/run/dhclient*.pid", "/proc/sys/net/ipv4/conf/tun0"],
                       "the instance is the path, as i3status's")
        XCTAssertEqual(shown.map { $0["full_text"] as? String }, ["DHCP: no", "tun0: yes"])
        XCTAssertEqual(shown[0]["color"] as? String, "#E06C75", "down: critical, i3status's bad colour")
        XCTAssertNil(shown[1]["color"], "up: normal")
        XCTAssertNil(shown[1]["short_text"])
    }

    func testFormatDownIsTheTextWhileDownAndWithoutOneTheFormatStaysAsInI3status() throws {
        let both = try block(.runWatch, "/run/vpn.pid", title: "VPN", format: "{title} up", down: "{title} down")
        let one = try block(.pathExists, "/mnt/usb", format: "[{title} {status}]")
        XCTAssertEqual(line([both, one]) { $0.set(0, good: true); $0.set(1, good: true) }, "VPN up | [usb yes]\n")
        XCTAssertEqual(line([both, one]) { $0.set(0, good: false); $0.set(1, good: false) }, "VPN down | [usb no]\n")
        let shown = try i3bar([both]) { $0.set(0, good: false) }
        XCTAssertEqual(shown.first?["color"] as? String, "#E06C75", "a format keeps the block's level")
    }

    func testAnEmptyTextLeavesTheBlockOutAndHideMissingHidesItWhileDown() throws {
        let hidden = try block(.pathExists, "/proc/sys/net/ipv4/conf/tun0", title: "VPN", down: "")
        let other = try block(.pathExists, "/", title: "root")
        XCTAssertEqual(line([hidden, other]) { $0.set(0, good: false); $0.set(1, good: true) }, "root: yes\n",
                       "format_down = \"\" hides it, as i3bar leaves out i3status's empty block")
        XCTAssertEqual(line([hidden, other]) { $0.set(0, good: true); $0.set(1, good: true) }, "VPN: yes | root: yes\n")
        var missing = try block(.runWatch, "/run/x.pid", title: "X")
        missing.hideMissing = true
        XCTAssertEqual(line([missing, other]) { $0.set(0, good: false); $0.set(1, good: true) }, "root: yes\n")
        XCTAssertEqual(line([missing, other]) { $0.set(0, good: true); $0.set(1, good: true) }, "X: yes | root: yes\n")
        let empty = try block(.readFile, "/tmp/empty")
        let nothing: [UInt8] = []
        XCTAssertEqual(line([empty, other]) { looks in
            nothing.withUnsafeBytes { looks.setContent(0, $0) }
            looks.set(1, good: true)
        }, "root: yes\n", "an empty file: nothing to show")
    }

    func testReadFileShowsTheFirstLineAndUnreadableI3statusFormatBadEvenWithAFormat() throws {
        let plain = try block(.readFile, "/sys/class/power_supply/BAT0/capacity")
        XCTAssertEqual(line([plain], look: content(Array("87\nsecond line\n".utf8))), "87\n", "i3status's %content")
        XCTAssertEqual(line([plain], look: content(Array("a\rb".utf8))), "a\n", "a carriage return ends the line")
        XCTAssertEqual(line([plain], look: content([0x61, 0, 0x62])), "a\n", "so does a NUL, as i3status's C string")
        let titled = try block(.readFile, "/sys/class/power_supply/BAT0/capacity", title: "BAT", format: "{title}: {content}%")
        XCTAssertEqual(line([titled], look: content(Array("87\n".utf8))), "BAT: 87%\n")
        let error = Array("No such file or directory".utf8)
        let unreadable: (inout FileLooks) -> Void = { looks in error.withUnsafeBytes { looks.setError(0, errno: 2, text: $0) } }
        XCTAssertEqual(line([titled], look: unreadable), "BAT - 2: No such file or directory\n",
                       "format_bad's default, i3status's, not the format")
        XCTAssertEqual(try i3bar([titled], look: unreadable).first?["color"] as? String, "#E06C75")
        let own = try block(.readFile, "/x", title: "X", down: "{title}: {error} ({errno})")
        XCTAssertEqual(line([own], look: unreadable), "X: No such file or directory (2)\n")
        XCTAssertEqual(line([plain], look: unreadable), "capacity - 2: No such file or directory\n")
    }

    func testReadFileKeepsAtMost255BytesAndLeavesOutACharacterTheBoundWouldSplit() throws {
        let b = try block(.readFile, "/tmp/long")
        let long = Array(String(repeating: "y", count: 300).utf8)
        XCTAssertEqual(line([b], look: content(long)), String(repeating: "y", count: 255) + "\n", "i3status's max_characters")
        // é's two bytes at 254 and 255: the first would be the 255th byte shown, the second not.
        let split = Array((String(repeating: "x", count: 254) + "é and more").utf8)
        XCTAssertEqual(line([b], look: content(split)), String(repeating: "x", count: 254) + "\n")
        let fits = Array((String(repeating: "x", count: 253) + "é and more").utf8)
        XCTAssertEqual(line([b], look: content(fits)), String(repeating: "x", count: 253) + "é\n")
    }

    func testReadFileContentIsEscapedForEachOutputAsAnyText() throws {
        let b = try block(.readFile, "/tmp/binary")
        let binary: [UInt8] = [0x61, 0x62, 0x01, 0xFF, 0xFE, 0x63, 0x64, 0x0A]
        XCTAssertEqual(line([b], look: content(binary)), "ab \u{FFFD}\u{FFFD}cd\n", "a control as a space, invalid UTF-8 as U+FFFD")
        XCTAssertEqual(try i3bar([b], look: content(binary)).first?["full_text"] as? String, "ab \u{FFFD}\u{FFFD}cd")
        let injection = Array(#"x"},{"full_text":"planted"#.utf8)
        let shown = try i3bar([b], look: content(injection))
        XCTAssertEqual(shown.count, 1, "a file cannot add a block")
        XCTAssertEqual(shown.first?["full_text"] as? String, #"x"},{"full_text":"planted"#)
        let pango = try XCTUnwrap(parseJSON(line([b], .waybar, look: content(Array("<b>&".utf8)))) as? [String: Any])
        XCTAssertEqual(pango["text"] as? String, "&lt;b&gt;&amp;", "waybar's markup escaped")
    }

    func testTheTitleIsGivenElseThePathsLastPartElseThePath() throws {
        func text(_ path: String, title: String = "") throws -> String {
            line([try block(.pathExists, path, title: title)]) { $0.set(0, good: true) }
        }
        XCTAssertEqual(try text("/proc/sys/net/ipv4/conf/tun0"), "tun0: yes\n")
        XCTAssertEqual(try text("relative"), "relative: yes\n")
        XCTAssertEqual(try text("/mnt/usb/"), "/mnt/usb/: yes\n", "no last part: the whole path")
        XCTAssertEqual(try text("/mnt/usb", title: "USB stick"), "USB stick: yes\n")
    }

    func testAFileBlockWithoutAPathShowsNothingAndNoBlockAsksTheSamplerForAPart() throws {
        XCTAssertEqual(rendered(snap, .text, blocks: [.runWatch, .pathExists, .readFile], nowMs: now), "\n")
        let r = Renderer(output: .text, blocks: [try block(.runWatch, "/run/x.pid"), try block(.readFile, "/x")])
        XCTAssertEqual(r.partsShown, [], "their figures are the bar's own")
        XCTAssertTrue(r.fileLooks.any)
        XCTAssertFalse(Renderer(output: .text, blocks: [.cpu, .time]).fileLooks.any, "nothing to look at: no look")
        XCTAssertEqual(BlockKind.allCases.filter { $0.fileCheck != nil }, [.runWatch, .pathExists, .readFile])
    }
}

/// The file blocks' keys in config.toml and `--blocks`.
final class FileBlockKeysTests: XCTestCase {
    func parse(_ text: String) -> Result<BarConfig, ConfigError> {
        Array(text.utf8).withUnsafeBytes { BarConfig.parse($0) }
    }

    func reason(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .failure(let e) = parse(text) else { XCTFail("accepted: \(text)", file: file, line: line); return "" }
        return String(decoding: e.reason, as: UTF8.self)
    }

    func testTheConfigFileGivesTitlePathAndTheTextWhileDown() throws {
        let config = try parse("""
            [[block]]
            block = "run_watch"
            title = "DHCP"
            pidfile = "/var/run/dhclient*.pid"
            format_down = "{title} down"
            hide_missing = true

            [[block]]
            block = "read_file"
            path = "~/.cache/weather"
            format = "{content}"
            format_bad = "{error}"

            """).get()
        let blocks = try XCTUnwrap(config.blocks)
        XCTAssertEqual(blocks.map(\.kind), [.runWatch, .readFile])
        XCTAssertEqual(blocks[0].title, Array("DHCP".utf8))
        XCTAssertEqual(blocks[0].argument, Array("/var/run/dhclient*.pid".utf8))
        XCTAssertNotNil(blocks[0].downFormat)
        XCTAssertTrue(blocks[0].hideMissing)
        XCTAssertEqual(blocks[1].argument, Array("~/.cache/weather".utf8), "kept as written: the bar expands ~")
        XCTAssertNotNil(blocks[1].downFormat)
        let long = "/" + String(repeating: "p", count: 300)
        XCTAssertNoThrow(try parse("[[block]]\nblock = \"path_exists\"\npath = \"\(long)\"\n").get(), "a path may be longer than a name")
        XCTAssertEqual(reason("[[block]]\nblock = \"disk\"\nmount = \"\(long)\"\n"), "too long")
    }

    func testAFileBlockNeedsItsPathAndTakesOnlyItsOwnKeys() {
        XCTAssertEqual(reason("[[block]]\nblock = \"run_watch\"\ntitle = \"DHCP\"\n"),
                       "a run_watch block needs pidfile = \"…\" (the path it looks at)")
        XCTAssertEqual(reason("[[block]]\nblock = \"read_file\"\n"), "a read_file block needs path = \"…\" (the path it looks at)")
        XCTAssertTrue(reason("[[block]]\nblock = \"run_watch\"\npidfile = \"/x\"\nformat_bad = \"x\"\n").hasPrefix("unknown key \"format_bad\""),
                      "format_bad is read_file's")
        XCTAssertTrue(reason("[[block]]\nblock = \"read_file\"\npath = \"/x\"\nformat_down = \"x\"\n").hasPrefix("unknown key \"format_down\""))
        XCTAssertTrue(reason("[[block]]\nblock = \"cpu\"\ntitle = \"x\"\n").hasPrefix("unknown key \"title\""))
        XCTAssertTrue(reason("[[block]]\nblock = \"path_exists\"\npath = \"/x\"\nformat_down = \"{content}\"\n")
            .hasPrefix("format: unknown placeholder {content}"), "path_exists has {title} and {status}")
    }

    func testBlocksTakesAPathAndRefusesAFileBlockWithoutOne() throws {
        func parse(_ args: [String]) throws(OptionsError) -> BarOptions { try BarOptions.parse(args.map { Array($0.utf8) }) }
        let o = try parse(["--blocks", "path_exists:/proc/sys/net/ipv4/conf/tun0,run_watch:/run/dhclient*.pid,read_file:/x:y",
                           "--format", "run_watch={title}={status}"])
        XCTAssertEqual(o.blocks.map(\.kind), [.pathExists, .runWatch, .readFile])
        XCTAssertEqual(o.blocks.map { String(decoding: $0.argument, as: UTF8.self) },
                       ["/proc/sys/net/ipv4/conf/tun0", "/run/dhclient*.pid", "/x:y"])
        XCTAssertThrowsError(try parse(["--blocks", "cpu,run_watch"])) { XCTAssertEqual($0 as? OptionsError, .missingPath) }
        let long = "/" + String(repeating: "p", count: 300)
        XCTAssertNoThrow(try parse(["--blocks", "read_file:" + long]))
        XCTAssertThrowsError(try parse(["--blocks", "disk:" + long])) { XCTAssertEqual($0 as? OptionsError, .badArgument) }
        var w = ByteWriter(capacity: 256)
        OptionsError.missingPath.describe(into: &w)
        XCTAssertTrue(String(decoding: w.bytes, as: UTF8.self).hasPrefix("sysstats-bar: --blocks: run_watch, path_exists and read_file need a path"))
    }
}
