import AllocationCounter
import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// What the bar finds for run_watch, path_exists and read_file on fixture files (the test's
/// own runtime directory), as `--once` shows it: pid files read and their processes asked for
/// (the test's own is the live one), patterns, links, FIFOs, first lines, errors; the looks
/// spaced and, once warm, allocating nothing.
final class FileLookTests: RuntimeDirectoryHarness {
    let critical: String? = "#E06C75"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try publish { $0.fillSample() }
    }

    /// A fixture file in the runtime directory; its path.
    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @discardableResult
    func file(_ name: String, _ text: String) throws -> String { try file(name, Array(text.utf8)) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A `[[block]]` of `kind` with its title and path.
    func entry(_ kind: String, _ title: String, _ key: String, _ path: String) -> String {
        "[[block]]\nblock = \"\(kind)\"\ntitle = \"\(title)\"\n\(key) = \"\(path)\"\n"
    }

    /// `--once --output i3bar` over `toml`: each block's full text and colour.
    func shown(_ toml: String) throws -> [(text: String, color: String?)] {
        try writeConfig(toml)
        let ((b, status), _) = try capturingStderr { () throws -> (Bar<Sink>, Int32) in
            var b = try program(["--once", "--output", "i3bar", "--config", configFile.path])
            let status = b.runOnce()
            return (b, status)
        }
        XCTAssertEqual(status, 0)
        let line = b.sink.lines.joined()
        let blocks = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]], line)
        return blocks.map { (text: $0["full_text"] as? String ?? "", color: $0["color"] as? String) }
    }

    func testRunWatchReadsItsPidFileAsStrtolAndAsksForThatProcess() throws {
        let me = getpid()
        let cases: [(title: String, name: String, text: String)] = [
            ("LIVE", "live.pid", "\(me)\n"), ("SPACED", "spaced.pid", " \t\(me)\n"), ("PLUS", "plus.pid", "+\(me)"),
            ("DEAD", "dead.pid", "2147483646\n"), ("ZERO", "zero.pid", "0\n"), ("NEGATIVE", "negative.pid", "-\(me)\n"),
            ("JUNK", "junk.pid", "abc\n"), ("EMPTY", "empty.pid", ""), ("HUGE", "huge.pid", "99999999999999\n"),
        ]
        var toml = ""
        for c in cases {
            let pidfile = try file(c.name, c.text)
            toml += entry("run_watch", c.title, "pidfile", pidfile)
        }
        XCTAssertEqual(symlink(path("live.pid"), path("link.pid")), 0)
        XCTAssertEqual(mkfifo(path("fifo.pid"), 0o600), 0)
        for (title, name) in [("MISSING", "missing.pid"), ("LINK", "link.pid"), ("FIFO", "fifo.pid")] {
            toml += entry("run_watch", title, "pidfile", path(name))
        }
        let blocks = try shown(toml)
        XCTAssertEqual(blocks.map { $0.text }, ["LIVE: yes", "SPACED: yes", "PLUS: yes", "DEAD: no", "ZERO: no", "NEGATIVE: no",
                                                "JUNK: no", "EMPTY: no", "HUGE: no", "MISSING: no", "LINK: no", "FIFO: no"],
                       "no number, 0 or less is no process (i3status's kill(0, 0) said yes); a link or a FIFO is not read")
        let colors: [String?] = [nil, nil, nil] + Array(repeating: critical, count: 9)
        XCTAssertEqual(blocks.map { $0.color }, colors)
    }

    func testAPidFilePatternSaysYesWhenAnyFileItMatchesNamesARunningProcess() throws {
        let dead = "2147483646\n", live = "\(getpid())\n"
        try file("dhclient-eth0.pid", dead)
        try file("dhclient-wlan0.pid", live)
        try file(".dhclient-hidden.pid", live)
        func text(_ pattern: String) throws -> String { try shown(entry("run_watch", "P", "pidfile", pattern)).first?.text ?? "" }
        XCTAssertEqual(try text(path("dhclient-*.pid")), "P: yes", "one of the two runs")
        XCTAssertEqual(try text(path("dhclient-e*.pid")), "P: no")
        XCTAssertEqual(try text(path("dhclient-[vw]lan?.pid")), "P: yes")
        XCTAssertEqual(try text(path("*hidden.pid")), "P: no", "a leading dot is matched only by a dot, as glob(3)'s")
        XCTAssertEqual(try text(path(".dhclient-*")), "P: yes")
        XCTAssertEqual(try text(path("nothing-*.pid")), "P: no")
        XCTAssertEqual(try text(path("no-folder/*.pid")), "P: no")
        try FileManager.default.removeItem(atPath: path("dhclient-wlan0.pid"))
        XCTAssertEqual(try text(path("dhclient-*.pid")), "P: no", "the live one gone")
    }

    func testPathExistsIsWhatStatSeesALinkFollowed() throws {
        try FileManager.default.createDirectory(atPath: path("tun0"), withIntermediateDirectories: false)
        XCTAssertEqual(symlink(path("tun0"), path("link")), 0)
        XCTAssertEqual(symlink(path("nowhere"), path("dangling")), 0)
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        let names = ["tun0", "link", "dangling", "nothing", "fifo"]
        let blocks = try shown(names.map { entry("path_exists", $0.uppercased(), "path", path($0)) }.joined())
        XCTAssertEqual(blocks.map { $0.text }, ["TUN0: yes", "LINK: yes", "DANGLING: no", "NOTHING: no", "FIFO: yes"])
        XCTAssertEqual(blocks.map { $0.color }, [nil, nil, critical, critical, nil])
    }

    func testReadFileShowsTheFirstLineBoundedAndEscapedOrWhyNot() throws {
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        let line = try file("line", "first line\nsecond\n")
        XCTAssertEqual(symlink(line, path("linked")), 0)
        let long = try file("long", String(repeating: "x", count: 300))
        let binary = try file("binary", [0x61, 0x62, 0x01, 0xFF, 0xFE, 0x63, 0x64, 0x0A])
        let files: [(String, String)] = [
            ("LINE", line), ("LONG", long), ("BINARY", binary),
            ("MISSING", path("missing")), ("FOLDER", directory.path), ("FIFO", path("fifo")), ("LINKED", path("linked")),
        ]
        let blocks = try shown(files.map { entry("read_file", $0.0, "path", $0.1) }.joined())
        XCTAssertEqual(blocks.map { $0.text }, [
            "first line", String(repeating: "x", count: 255), "ab \u{FFFD}\u{FFFD}cd",
            "MISSING - 2: No such file or directory", "FOLDER - 21: Is a directory", "FIFO - 22: Invalid argument",
            "first line",
        ], "a FIFO is never opened (the test would wait for a writer), a link the user named is followed")
        XCTAssertEqual(blocks.map { $0.color }, [nil, nil, nil, critical, critical, critical, nil])
    }

    func testATildeIsTheHomeForPidFilesAndReadFilesAndNotForPathExists() throws {
        try file("home.pid", "\(getpid())\n")
        try file("home.txt", "at home\n")
        let saved = getenv("HOME").map { String(cString: $0) }
        setenv("HOME", directory.path, 1)
        defer { if let saved { setenv("HOME", saved, 1) } else { unsetenv("HOME") } }
        let toml = entry("run_watch", "PID", "pidfile", "~/home.pid") + entry("read_file", "TXT", "path", "~/home.txt")
            + entry("path_exists", "HOME", "path", "~")
        XCTAssertEqual(try shown(toml).map { $0.text }, ["PID: yes", "at home", "HOME: no"],
                       "i3status expands ~ in a pid file and a read file's path, path_exists takes it as it is")
    }

    /// Command output may ask for twenty updates a second: the files are looked at once in
    /// 900 ms, and a renderer made afresh (a reload) looks at once.
    func testTheFilesAreLookedAtAtMostOnceInASecondOfUpdates() throws {
        try FileManager.default.createDirectory(atPath: path("tun0"), withIntermediateDirectories: false)
        try writeConfig(entry("path_exists", "VPN", "path", path("tun0")))
        var b = try program(["--output", "text", "--config", configFile.path])
        _ = b.load()
        func drawn() -> String {
            b.draw()
            return String(decoding: b.renderer.line.bytes, as: UTF8.self)
        }
        XCTAssertEqual(drawn(), "VPN: yes\n")
        try FileManager.default.removeItem(atPath: path("tun0"))
        XCTAssertEqual(drawn(), "VPN: yes\n", "drawn again at once: not looked at again")
        b.renderer.fileLooks.takenMs -= FileLooker.spacingMs
        XCTAssertEqual(drawn(), "VPN: no\n")
        b.renderer = Renderer(output: .text, blocks: b.renderer.blocks)
        try FileManager.default.createDirectory(atPath: path("tun0"), withIntermediateDirectories: false)
        XCTAssertEqual(drawn(), "VPN: yes\n", "a new renderer has no look yet")
    }

    func testRepeatedLooksOfEveryKindShowTheSameLine() throws {
        try file("live.pid", "\(getpid())\n")
        try file("other.pid", "2147483646\n")
        try file("line", "first line\n")
        let toml = entry("run_watch", "ONE", "pidfile", path("live.pid")) + entry("run_watch", "ANY", "pidfile", path("*.pid"))
            + entry("path_exists", "THERE", "path", path("line")) + entry("read_file", "LINE", "path", path("line"))
            + entry("read_file", "GONE", "path", path("missing"))
        try writeConfig(toml)
        var b = try program(["--output", "text", "--config", configFile.path])
        _ = b.load()
        func step() {
            b.renderer.fileLooks.takenMs = 0
            b.draw()
        }
        for _ in 0..<3 { step() }
        XCTAssertEqual(String(decoding: b.renderer.line.bytes, as: UTF8.self),
                       "ONE: yes | ANY: yes | THERE: yes | first line | GONE - 2: No such file or directory\n")
        // Whether a look allocates is not shown here: a debug build's draw allocates by itself
        // (eight a draw of load and cpu), so an in-process count says nothing.
        for _ in 0..<20 { step() }
        XCTAssertEqual(String(decoding: b.renderer.line.bytes, as: UTF8.self),
                       "ONE: yes | ANY: yes | THERE: yes | first line | GONE - 2: No such file or directory\n")
    }
}
