import BarCore
@testable import BarRuntime
import CBarSys
import Foundation
import SnapshotCodec
import XCTest

/// Command blocks in the running loop, in-process: by interval, by signal, persistent, hung,
/// hostile, clicked, stopped by a reload and at the bar's end, in every JSON output; the
/// loop's turns as `run()` makes them, the children real.
final class CommandBlockLoopTests: RuntimeDirectoryHarness {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try publish { $0.fillSample() }
    }

    /// A running bar over the config file, begun as the loop's start begins it; its clicks
    /// come from a pipe (``click(_:_:button:x:)``).
    func running(_ toml: String, output: String = "text") throws -> Bar<Sink> {
        try writeConfig(toml)
        var b = try program(["--output", output, "--config", configFile.path])
        giveClickPipe(&b)
        begin(&b)
        return b
    }

    /// i3bar's click event on `name`/`instance` (the stream's opening bracket first), written
    /// where the bar reads clicks.
    func click(_ name: String, _ instance: String, button: Int, x: Int = 1) {
        sendClicks("[\n" + #"{"name":"\#(name)","instance":"\#(instance)","button":\#(button),"x":\#(x),"y":4}"# + "\n")
    }

    /// The last line shown, split at the separator.
    func fields(_ b: Bar<Sink>) -> [String] {
        (b.sink.lines.last ?? "").split(separator: "|").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The JSON value of an i3bar line (`,` of the stream dropped) or a waybar line.
    func json(_ line: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data((line.hasPrefix(",") ? String(line.dropFirst()) : line).utf8))
    }

    /// The line a command writes to `path`, once written whole (the loop turning meanwhile).
    func fileText(_ path: String, within seconds: Double, _ b: inout Bar<Sink>) -> String? {
        let text = { try? String(contentsOfFile: path, encoding: .utf8) }
        turns(&b, seconds: seconds, until: { _ in text()?.hasSuffix("\n") == true })
        return text()
    }

    func testACommandBlockByIntervalBySignalAndPersistent() throws {
        let counter = directory.appendingPathComponent("n").path
        var b = try running("""
            [[block]]
            block = "command"
            name = "ticks"
            command = "echo x >> \(counter); wc -l < \(counter)"
            interval = 0.2

            [[block]]
            block = "command"
            name = "signalled"
            command = "date +%N"
            interval = "once"
            signal = 5

            [[block]]
            block = "command"
            name = "stream"
            command = "echo one; sleep 0.3; echo two; sleep 30"
            persist = true
            """)
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertTrue(turns(&b, seconds: 10, until: { bar in
            let f = self.fields(bar)
            return f.count == 3 && (Int(f[0]) ?? 0) >= 3 && f[2] == "two"
        }), "the interval reruns it; each persistent line shows: \(b.sink.lines.suffix(3))")
        let before = fields(b)[1]
        b.handleSignal(cbarsys_sigrtmin() + 5)
        XCTAssertTrue(turns(&b, seconds: 5, until: { self.fields($0)[1] != before }), "SIGRTMIN+5 reruns it: \(b.sink.lines.suffix(3))")
    }

    func testAHungCommandIsKilledWhileTheClockGoesOn() throws {
        var b = try running("""
            [[block]]
            block = "time"
            timezone = "UTC"
            format = "%S"

            [[block]]
            block = "command"
            name = "hang"
            command = "sleep 60"
            interval = "once"
            timeout = 0.5
            """)
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last?.hasSuffix("| command timed out\n") == true }), "\(b.sink.lines)")
        let seconds = Set(b.sink.lines.map { $0.prefix(2) })
        XCTAssertTrue(turns(&b, seconds: 3, until: { Set($0.sink.lines.map { $0.prefix(2) }).count > seconds.count }), "the clock goes on")
    }

    func testHostileCommandOutputIsEscapedAndAClickReachesTheCommand() throws {
        let clicked = directory.appendingPathComponent("clicked").path
        var b = try running("""
            [[block]]
            block = "command"
            name = "evil"
            instance = "one"
            command = "[ -n \\"$BLOCK_BUTTON\\" ] && echo \\"$BLOCK_BUTTON $BLOCK_NAME $BLOCK_INSTANCE $BLOCK_X\\" > \(clicked); printf '\\\\033[31m\\"},{\\"full_text\\":\\"x\\\\n#nope\\\\n'"
            interval = "once"
            """, output: "i3bar")
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last?.contains("evil") == true }), "\(b.sink.lines)")
        let last = try XCTUnwrap(b.sink.lines.last)
        let array = try XCTUnwrap(try json(last) as? [[String: Any]])
        XCTAssertEqual(array.count, 1, "no block injected: \(last)")
        XCTAssertEqual(array[0]["full_text"] as? String, " [31m\"},{\"full_text\":\"x")
        XCTAssertNil(array[0]["color"], "not a colour: ignored")
        XCTAssertFalse(last.utf8.contains(0x1B), "the escape is escaped")
        click("evil", "one", button: 1, x: 1210)
        XCTAssertEqual(fileText(clicked, within: 5, &b), "1 evil one 1210\n")
    }

    func testAClickActionRunsItsCommandDetachedWithTheBlocksVariables() throws {
        let ran = directory.appendingPathComponent("ran").path
        var b = try running("""
            [[block]]
            block = "load"
            [[block.click]]
            button = "right"
            cmd = "echo $BLOCK_BUTTON $BLOCK_NAME $BLOCK_INSTANCE > \(ran)"
            """, output: "i3bar")
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertEqual(b.sink.lines.count, 1)
        click("load", "load", button: 3, x: 5)
        XCTAssertEqual(fileText(ran, within: 5, &b), "3 load load\n")
    }

    func testWaybarShowsTheSameBlocksAndCommandBlocks() throws {
        var b = try running("""
            [[block]]
            block = "load"

            [[block]]
            block = "command"
            name = "hello"
            command = "echo 'hello <b>'"
            interval = "once"
            """, output: "waybar")
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last?.contains("hello &lt;b&gt;") == true }), "\(b.sink.lines)")
        let object = try XCTUnwrap(try json(try XCTUnwrap(b.sink.lines.last)) as? [String: Any])
        XCTAssertEqual(object["text"] as? String, "load 0.52 0.48 0.40 | hello &lt;b&gt;")
    }

    /// i3bar reads one endless array: a reload continues it (`,[…]`), never opens another.
    func testTheI3barStreamStaysOneArrayAcrossAReload() throws {
        var b = try running("[[block]]\nblock = \"load\"\n", output: "i3bar")
        defer { _ = b.stopCommands(returning: 0) }
        try writeConfig("[[block]]\nblock = \"procs\"\n")
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last?.contains("procs 300") == true }), "\(b.sink.lines)")
        let lines = b.sink.lines
        XCTAssertTrue(lines[0].hasPrefix("[\n[{"), "the endless array opened once, with the first: \(lines[0])")
        for line in lines.dropFirst() {
            XCTAssertTrue(line.hasPrefix(",[{"), "the stream goes on: \(line)")
            XCTAssertNotNil(try? json(line), line)
        }
    }

    /// The command's exit ends its run (SIGCHLD), though a process it left in the background
    /// holds its output open.
    func testACommandsExitEndsItsRunThoughABackgroundProcessHoldsItsOutput() throws {
        let runs = directory.appendingPathComponent("runs").path
        let marker = "31.\(getpid())"
        defer { _ = system("pkill -f 'sleep \(marker)'") }
        var b = try running("""
            [[block]]
            block = "command"
            name = "bg"
            command = "echo run >> \(runs); echo printed $(wc -l < \(runs)); setsid sleep \(marker) & exit 0"
            interval = 1
            timeout = 3
            """)
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertTrue(turns(&b, seconds: 2, until: { $0.sink.lines.last == "printed 1\n" }), "shown at the command's exit: \(b.sink.lines)")
        XCTAssertTrue(turns(&b, seconds: 4, until: { $0.sink.lines.last == "printed 3\n" }), "run again on its interval: \(b.sink.lines)")
        XCTAssertFalse(b.sink.lines.contains { $0.contains("timed out") }, "\(b.sink.lines)")
    }

    func testControlCharactersFromEverySourceBecomeSpacesInI3barAndWaybar() throws {
        let toml = #"""
            [theme]
            separator = "\u0000|"

            [[block]]
            block = "command"
            name = "raw"
            command = "printf 'a\\000b\\033[31mc\\302\\233d\\n'"
            interval = "once"

            [[block]]
            block = "command"
            name = "json"
            command = "printf '%s\\n' '{\"full_text\":\"x\\u0000y\\u001bz\"}'"
            format = "json"
            interval = "once"

            [[block]]
            block = "i3bar"
            command = "echo '{\"version\":1}'; echo '['; echo '[{\"full_text\":\"w\\u0000v\",\"name\":\"n\\u0007\"}],'; exec sleep 60"

            [[block]]
            block = "load"
            """#
        for output in ["i3bar", "waybar"] {
            var b = try running(toml, output: output)
            defer { _ = b.stopCommands(returning: 0) }
            XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last.map { $0.contains("load") && $0.contains("w v") && $0.contains("x y z") } ?? false }),
                          "\(output): \(b.sink.lines.suffix(2))")
            let last = try XCTUnwrap(b.sink.lines.last)
            XCTAssertFalse(last.contains("\\u00"), "no control character as an escape: \(last)")
            XCTAssertFalse(last.dropLast().unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }, last)
            let parsed = try json(last)
            let texts: [String] = output == "i3bar"
                ? try XCTUnwrap(parsed as? [[String: Any]]).compactMap { $0["full_text"] as? String }
                : [try XCTUnwrap((parsed as? [String: Any])?["text"] as? String)]
            XCTAssertTrue(texts.contains { $0.contains("a b [31mc d") }, "\(output): \(texts)")
            for t in texts { XCTAssertFalse(t.unicodeScalars.contains { $0.value < 0x20 }, "\(output): \(t)") }
            if output == "waybar" { XCTAssertTrue(texts[0].contains(" |"), "the separator's NUL is a space: \(texts[0])") }
        }
    }

    func testACommandThatIgnoresSIGTERMIsKilledAfterAReloadAndAtTheBarsEnd() throws {
        func stubborn(_ n: Int) -> String {
            """
            [[block]]
            block = "command"
            name = "stubborn"
            command = "trap '' TERM; echo $$ > \(directory.appendingPathComponent("stubborn\(n)").path); echo up \(n); while :; do sleep 0.1; done"
            persist = true
            """
        }
        func pid(_ n: Int) throws -> pid_t {
            let text = try String(contentsOf: directory.appendingPathComponent("stubborn\(n)"), encoding: .utf8)
            return try XCTUnwrap(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        var b = try running(stubborn(0))
        var pids: [pid_t] = []
        for n in 0..<3 {
            XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last == "up \(n)\n" }), "\(b.sink.lines.suffix(2))")
            pids.append(try pid(n))
            try writeConfig(stubborn(n + 1))   // a reload replaces the command
        }
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last == "up 3\n" }), "\(b.sink.lines.suffix(2))")
        // The grace of the last group stopped, with the loop turning and reaping meanwhile.
        XCTAssertTrue(turns(&b, seconds: 6, until: { _ in pids.allSatisfy { kill($0, 0) != 0 } }),
                      "the commands a reload stopped are killed after their grace: \(pids)")
        let last = try pid(3)
        XCTAssertEqual(kill(last, 0), 0)
        XCTAssertEqual(b.stopCommands(returning: 0), 0)
        XCTAssertNotEqual(kill(last, 0), 0, "the bar's end kills and reaps its commands before it returns")
    }
}
