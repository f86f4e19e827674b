import Foundation
import XCTest

/// `block = "i3bar"`: another program's i3bar stream merged into ours, clicks forwarded to it,
/// and the program started again when it dies. With real i3status.
extension BarConfigTests {
    /// The i3bar array of a streamed line (`,` before all but the first).
    func array(_ line: String) -> [[String: Any]]? {
        let text = line.hasPrefix(",") ? String(line.dropFirst()) : line
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]
    }
    func block(_ lines: [String], named name: String) -> [String: Any]? {
        guard let last = lines.last, let blocks = array(last) else { return nil }
        return blocks.first { $0["name"] as? String == name }
    }

    func testAWrappedI3statusShowsItsBlocksInPlaceAndAClickMakesItRedraw() throws {
        let i3statusConfig = dir.url.appendingPathComponent("i3status.conf")
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
        try write("""
            [[block]]
            block = "uptime"

            [[block]]
            block = "i3bar"
            command = "i3status -c \(i3statusConfig.path)"

            [[block]]
            block = "procs"
            """)
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor(timeout: 10) { self.block($0, named: "tztime") != nil }, "\(b.lines.suffix(3))")
        let blocks = try XCTUnwrap(array(try XCTUnwrap(b.lines.last)))
        XCTAssertEqual(blocks.map { $0["name"] as? String }, ["uptime", "tztime", "load", "procs"],
                       "i3status's blocks take the i3bar block's place")
        XCTAssertEqual(blocks[1]["instance"] as? String, "i3bar:1:utc")
        XCTAssertTrue((blocks[2]["full_text"] as? String)?.hasPrefix("L ") == true, "\(blocks[2])")
        let shown = try XCTUnwrap(blocks[1]["full_text"] as? String)

        // A click on i3status's clock: forwarded as i3status understands it (SIGUSR1), it redraws.
        usleep(1_100_000)
        b.send("[\n" + #"{"name":"tztime","instance":"i3bar:1:utc","button":1,"x":900,"y":5}"# + "\n")
        XCTAssertTrue(b.waitFor(timeout: 5) { (self.block($0, named: "tztime")?["full_text"] as? String).map { $0 != shown } ?? false },
                      "the click reached i3status: \(b.lines.suffix(2))")

        // i3status killed: an error block in its place, then it is started again.
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pgrep.arguments = ["-KILL", "-f", "i3status -c \(i3statusConfig.path)"]
        try pgrep.run()
        pgrep.waitUntilExit()
        XCTAssertTrue(b.waitFor(timeout: 5) { ($0.last ?? "").contains("i3bar: failed, starting it again") }, "\(b.lines.suffix(2))")
        XCTAssertTrue(b.waitFor(timeout: 8) { self.block($0, named: "tztime") != nil }, "restarted: \(b.lines.suffix(2))")
        XCTAssertEqual(b.stop(), 0)
        // Stopping the bar stops what it started.
        usleep(200_000)
        let left = Process()
        left.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        left.arguments = ["-f", "i3status -c \(i3statusConfig.path)"]
        try left.run()
        left.waitUntilExit()
        XCTAssertEqual(left.terminationStatus, 1, "no i3status left running")
    }

    func testClicksReachAWrappedProgramThatAsksForThemWithItsOwnNames() throws {
        let script = dir.url.appendingPathComponent("echo-clicks.py")
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
        try write("""
            [[block]]
            block = "i3bar"
            name = "py"
            command = "exec python3 \(script.path)"
            """)
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor(timeout: 10) { self.block($0, named: "echo")?["full_text"] as? String == "waiting" }, "\(b.lines.suffix(3))")
        let instance = try XCTUnwrap(block(b.lines, named: "echo")?["instance"] as? String)
        XCTAssertEqual(instance, "i3bar:0:a\"b")
        b.send("[\n" + #"{"name":"echo","instance":"i3bar:0:a\"b","button":3,"x":1,"y":2}"# + "\n")
        XCTAssertTrue(b.waitFor(timeout: 5) { self.block($0, named: "echo")?["full_text"] as? String == "button 3 echo a\"b" },
                      "the program got its own name and instance back: \(b.lines.suffix(2))")
        b.send(#",{"name":"echo","instance":"i3bar:0:a\"b","button":4,"x":1,"y":2}"# + "\n")
        XCTAssertTrue(b.waitFor(timeout: 5) { self.block($0, named: "echo")?["full_text"] as? String == "button 4 echo a\"b" },
                      "and every click after it: \(b.lines.suffix(2))")
        XCTAssertEqual(b.stop(), 0)
    }

    func testAWrappedProgramThatFloodsOrSpeaksGarbageCostsTheBarNothing() throws {
        // Garbage lines, a 100 KB line, then a good array: only the good one shows, memory holds.
        try write("""
            [[block]]
            block = "time"
            timezone = "UTC"
            format = "%S"

            [[block]]
            block = "i3bar"
            command = "echo '{\\"version\\":1}'; echo '['; head -c 100000 /dev/zero | tr '\\\\0' x; echo; echo '[{\\"full_text\\":\\"\\\\u001b[31m\\"},'; echo '[{\\"full_text\\":\\"ok\\"}],'; exec sleep 60"
            """)
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor(timeout: 10) { self.block($0, named: "")?["full_text"] as? String == "ok" }, "\(b.lines.suffix(3))")
        for line in b.lines.dropFirst(2) { XCTAssertNotNil(array(line), "every line is one well-formed array: \(line.prefix(200))") }
        XCTAssertFalse(b.lines.joined().contains("xxxxxxxx"), "the oversized line was dropped")
        let hwm = try XCTUnwrap(peakResidentKiB(pid: b.pid))
        XCTAssertLessThan(hwm, 2048, "the bar's memory stays within its budget: \(hwm) KiB")
        XCTAssertEqual(b.stop(), 0)
    }
}
