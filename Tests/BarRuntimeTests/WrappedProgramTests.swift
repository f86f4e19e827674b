import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// `block = "i3bar"` in the running loop, in-process: another program's i3bar stream merged
/// into ours, clicks forwarded to it, and the program started again when it dies. With real
/// i3status. (Its flood and garbage against the bar's memory: BarWrapTests, the program.)
final class WrappedProgramTests: RuntimeDirectoryHarness {

    override func setUpWithError() throws {
        try super.setUpWithError()
        try publish { $0.fillSample(); $0.uptimeCentiseconds = 360_000 }
    }

    /// A running i3bar bar over `toml`, reading clicks from the pipe.
    func running(_ toml: String) throws -> Bar<Sink> {
        try writeConfig(toml)
        var b = try program(["--output", "i3bar", "--config", configFile.path])
        giveClickPipe(&b)
        begin(&b)
        return b
    }

    /// The blocks of the last line shown.
    func blocks(_ b: Bar<Sink>) -> [[String: Any]] {
        guard let last = b.sink.lines.last else { return [] }
        let text = last.hasPrefix(",") ? String(last.dropFirst()) : last
        return ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]) ?? []
    }

    func block(_ b: Bar<Sink>, named name: String) -> [String: Any]? {
        blocks(b).first { $0["name"] as? String == name }
    }

    /// The status of `sh -c command`, run to its end (a pattern of pgrep or pkill there is
    /// written `[i]3status`: the shell's own command line must not match it).
    func shell(_ command: String) -> Int32 {
        let status = system(command)
        return status >> 8 & 0xFF
    }

    func testAWrappedI3statusShowsItsBlocksInPlaceAndAClickMakesItRedraw() throws {
        let i3statusConfig = directory.appendingPathComponent("i3status.conf")
        // An hour between updates: only the click's SIGUSR1 can make it redraw sooner.
        try """
            general {
                output_format = "i3bar"
                colors = true
                interval = 3600
            }
            order += "tztime utc"
            order += "load"
            tztime utc {
                format = "%H:%M:%S"
                timezone = "UTC"
            }
            load {
                format = "L %1min"
            }
            """.write(to: i3statusConfig, atomically: true, encoding: .utf8)
        var b = try running("""
            [[block]]
            block = "uptime"

            [[block]]
            block = "i3bar"
            command = "i3status -c \(i3statusConfig.path)"

            [[block]]
            block = "procs"
            """)
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertTrue(turns(&b, seconds: 10, until: { self.block($0, named: "tztime") != nil }), "\(b.sink.lines.suffix(3))")
        let shownBlocks = blocks(b)
        XCTAssertEqual(shownBlocks.map { $0["name"] as? String }, ["uptime", "tztime", "load", "procs"],
                       "i3status's blocks take the i3bar block's place")
        XCTAssertEqual(shownBlocks[1]["instance"] as? String, "i3bar:1:utc")
        XCTAssertTrue((shownBlocks[2]["full_text"] as? String)?.hasPrefix("L ") == true, "\(shownBlocks[2])")
        let shown = try XCTUnwrap(shownBlocks[1]["full_text"] as? String)

        // A click on i3status's clock: forwarded as i3status understands it (SIGUSR1), it redraws.
        turns(&b, seconds: 1.1)
        sendClicks("[\n" + #"{"name":"tztime","instance":"i3bar:1:utc","button":1,"x":900,"y":5}"# + "\n")
        XCTAssertTrue(turns(&b, seconds: 5, until: { (self.block($0, named: "tztime")?["full_text"] as? String).map { $0 != shown } ?? false }),
                      "the click reached i3status: \(b.sink.lines.suffix(2))")

        // i3status killed: an error block in its place, then it is started again.
        XCTAssertEqual(shell("pkill -KILL -f '[i]3status -c \(i3statusConfig.path)'"), 0)
        XCTAssertTrue(turns(&b, seconds: 5, until: { ($0.sink.lines.last ?? "").contains("i3bar: failed, starting it again") }),
                      "\(b.sink.lines.suffix(2))")
        XCTAssertTrue(turns(&b, seconds: 8, until: { self.block($0, named: "tztime") != nil }), "restarted: \(b.sink.lines.suffix(2))")
        // Stopping the bar stops what it started.
        XCTAssertEqual(b.stopCommands(returning: 0), 0)
        XCTAssertEqual(shell("pgrep -f '[i]3status -c \(i3statusConfig.path)' > /dev/null"), 1, "no i3status left running")
    }

    func testClicksReachAWrappedProgramThatAsksForThemWithItsOwnNames() throws {
        let script = directory.appendingPathComponent("echo-clicks.py")
        try #"""
            import json, sys
            def show(text):
                print(json.dumps([{"name": "echo", "instance": 'a"b', "full_text": text}]) + ",", flush=True)
            print(json.dumps({"version": 1, "click_events": True}), flush=True)
            print("[", flush=True)
            show("waiting")
            for line in sys.stdin:
                line = line.strip().lstrip(",")
                if line in ("", "["):
                    continue
                click = json.loads(line)
                show("button %d %s %s" % (click["button"], click["name"], click["instance"]))
            """#.write(to: script, atomically: true, encoding: .utf8)
        var b = try running("""
            [[block]]
            block = "i3bar"
            name = "py"
            command = "exec python3 \(script.path)"
            """)
        defer { _ = b.stopCommands(returning: 0) }
        func shows(_ text: String) -> (Bar<Sink>) -> Bool { { self.block($0, named: "echo")?["full_text"] as? String == text } }
        XCTAssertTrue(turns(&b, seconds: 10, until: shows("waiting")), "\(b.sink.lines.suffix(3))")
        XCTAssertEqual(block(b, named: "echo")?["instance"] as? String, "i3bar:0:a\"b")
        sendClicks("[\n" + #"{"name":"echo","instance":"i3bar:0:a\"b","button":3,"x":1,"y":2}"# + "\n")
        XCTAssertTrue(turns(&b, seconds: 5, until: shows("button 3 echo a\"b")),
                      "the program got its own name and instance back: \(b.sink.lines.suffix(2))")
        sendClicks(#",{"name":"echo","instance":"i3bar:0:a\"b","button":4,"x":1,"y":2}"# + "\n")
        XCTAssertTrue(turns(&b, seconds: 5, until: shows("button 4 echo a\"b")), "and every click after it: \(b.sink.lines.suffix(2))")
    }
}
