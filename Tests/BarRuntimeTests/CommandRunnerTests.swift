import BarCore
@testable import BarRuntime
import CBarSys
import Foundation
import SnapshotCodec
import XCTest

/// The command runner in-process: real `/bin/sh` children, driven by the test as the event
/// loop drives them (poll their pipes, read, reap), the renderer's text read back.
class CommandRunnerHarness: XCTestCase {
    var runner: CommandRunner!
    var renderer: Renderer!
    var stopping = StoppingGroups()

    override func tearDown() {
        if runner != nil {
            runner.stopAll(into: &stopping, nowMs: nowMs())
            stopping.finish(nowMs: nowMs)
            runner.deallocate()
        }
        super.tearDown()
    }

    func nowMs() -> UInt64 { UInt64(cbarsys_realtime_ms()) }

    /// The runner and renderer for a config file's blocks.
    func start(_ toml: String) throws {
        let config = try Array(toml.utf8).withUnsafeBytes { try BarConfig.parse($0).get() }
        let blocks = try XCTUnwrap(config.blocks)
        renderer = Renderer(output: .text, blocks: blocks)
        runner = CommandRunner(blocks: renderer.blocks)
        runner.startAll(nowMs: nowMs(), renderer: &renderer)
    }

    /// The text line the renderer draws now (its command blocks; no snapshot part).
    func shown() -> String {
        var s = Snapshot()
        s.timestampMs = nowMs()
        s.intervalMs = 1000
        renderer.render(s, nowMs: s.timestampMs)
        return String(decoding: renderer.line.bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// One turn of the loop for the commands: poll their pipes (20 ms), read, reap.
    func turn() {
        let fds = UnsafeMutablePointer<pollfd>.allocate(capacity: max(8, runner.pollSlots))
        defer { fds.deallocate() }
        let n = runner.pollFDs(into: fds, from: 0)
        _ = poll(fds, nfds_t(n), 20)
        for k in 0..<n where fds[k].revents != 0 { _ = runner.readOutput(fd: fds[k].fd, nowMs: nowMs(), renderer: &renderer) }
        var status: Int32 = 0
        while true {
            let pid = cbarsys_reap(&status)
            if pid <= 0 { break }
            _ = runner.reaped(pid: pid, status: status, nowMs: nowMs(), renderer: &renderer)
        }
    }

    /// Turns until `condition` holds (true) or `seconds` pass (false).
    func turn(until condition: () -> Bool, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline { turn() }
        return condition()
    }

}

final class CommandRunnerTests: CommandRunnerHarness {
    func testAPersistentFloodKeepsTheNewestLineAndIsNotReadWhileItWaits() throws {
        try start("[[block]]\nblock = \"command\"\nname = \"flood\"\ncommand = \"seq 1 1000000000\"\npersist = true\n")
        XCTAssertTrue(turn(until: { runner.children[0].hasPending }), "a line waits")
        let fds = UnsafeMutablePointer<pollfd>.allocate(capacity: max(8, runner.pollSlots))
        defer { fds.deallocate() }
        XCTAssertEqual(runner.pollFDs(into: fds, from: 0), 0, "its pipe is not polled while its line waits")
        XCTAssertTrue(runner.flushPending(renderer: &renderer))
        let first = try XCTUnwrap(Int(shown()), shown())
        XCTAssertTrue(turn(until: { runner.children[0].hasPending }))
        usleep(50_000)   // the command fills its pipe meanwhile
        XCTAssertTrue(runner.flushPending(renderer: &renderer))
        let second = try XCTUnwrap(Int(shown()), shown())
        XCTAssertGreaterThan(second - first, 1000, "the flush read the pipe and showed the newest line, not the next")
    }

    func testARunEndsAtItsCommandsExitThoughABackgroundProcessHoldsThePipe() throws {
        let marker = "32.\(getpid())"
        defer { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-f", "sleep \(marker)"]) }
        try start("[[block]]\nblock = \"command\"\nname = \"bg\"\ncommand = \"echo printed; setsid sleep \(marker) & exit 0\"\ninterval = 5\n")
        XCTAssertTrue(turn(until: { runner.children[0].pid == 0 }), "reaped")
        XCTAssertEqual(runner.children[0].fd, -1, "the pipe is closed at the exit, not at its end of file")
        XCTAssertEqual(shown(), "printed")
        XCTAssertGreaterThan(runner.children[0].nextRunMs, nowMs(), "the next run is scheduled on the interval")
    }

    func testStoppingAllHandsEachRunningGroupToStoppingGroups() throws {
        try start("[[block]]\nblock = \"command\"\nname = \"stubborn\"\ncommand = \"trap '' TERM; echo up; while :; do sleep 0.1; done\"\npersist = true\n")
        XCTAssertTrue(turn(until: { runner.children[0].hasPending }))
        let pid = runner.children[0].pid
        runner.stopAll(into: &stopping, nowMs: nowMs())
        XCTAssertEqual(runner.children[0].pid, 0)
        XCTAssertFalse(stopping.isEmpty)
        XCTAssertEqual(cbarsys_group_alive(pid), 1, "SIGTERM is ignored")
        XCTAssertTrue(runner.flushPending(renderer: &renderer), "the line read before the stop is still shown (--once)")
        XCTAssertEqual(shown(), "up")
    }

    /// An i3blocks `[cpu]` with `instance=cpu` beside the built-in cpu block went out with
    /// the same name and instance, so the command took the cpu block's clicks. Its instance
    /// now goes out tagged: each click reaches its own block, and the command still sees
    /// `BLOCK_INSTANCE=cpu`.
    func testACommandBlockNamedLikeABuiltInBlockTakesOnlyItsOwnClicks() throws {
        let marker = NSTemporaryDirectory() + "sysstats-clicked-\(UUID().uuidString)"
        defer { unlink(marker) }
        let config = try Array("""
            [[block]]
            block = "cpu"

            [[block]]
            block = "command"
            name = "cpu"
            instance = "cpu"
            interval = "once"
            command = "echo \\"$BLOCK_BUTTON $BLOCK_INSTANCE\\" >> \(marker); echo mine"

            [[block]]
            block = "command"
            name = "cpu"
            instance = "other"
            interval = "once"
            command = "echo other"
            """.utf8).withUnsafeBytes { try BarConfig.parse($0).get() }
        renderer = Renderer(output: .i3bar, blocks: try XCTUnwrap(config.blocks))
        runner = CommandRunner(blocks: renderer.blocks)
        XCTAssertEqual(renderer.blocks.map { $0.command?.clickTagged }, [nil, true, false], "only the one that collides")

        runner.startAll(nowMs: nowMs(), renderer: &renderer)
        var line = ""
        XCTAssertTrue(turn(until: {
            var s = Snapshot()
            s.timestampMs = nowMs()
            s.intervalMs = 1000
            renderer.render(s, nowMs: s.timestampMs)
            line = String(decoding: renderer.line.bytes, as: UTF8.self)
            return line.contains("mine") && line.contains("other")
        }), line)
        unlink(marker)
        XCTAssertTrue(line.contains(#"{"name":"cpu","instance":"cpu","#), line)
        XCTAssertTrue(line.contains(#"{"name":"cpu","instance":"command:cpu","#), line)
        XCTAssertTrue(line.contains(#"{"name":"cpu","instance":"other","#), line)

        func click(_ json: String) -> ClickEvent {
            var scanner = ClickScanner(), events: [ClickEvent] = []
            Array((json + "\n").utf8).withUnsafeBytes { scanner.feed($0) { events.append($0) } }
            return events[0]
        }
        // The built-in block's click: not the command's.
        XCTAssertFalse(runner.click(click(#"{"name":"cpu","instance":"cpu","button":1}"#), nowMs: nowMs(), renderer: &renderer))
        // The command's own, tagged: its run, with its own instance.
        XCTAssertTrue(runner.click(click(#"{"name":"cpu","instance":"command:cpu","button":3}"#), nowMs: nowMs(), renderer: &renderer))
        XCTAssertTrue(turn(until: { (try? String(contentsOfFile: marker, encoding: .utf8)) == "3 cpu\n" }),
                      (try? String(contentsOfFile: marker, encoding: .utf8)) ?? "not run")
    }
}
