import BarCore
@testable import BarRuntime
import CBarSys
import Foundation
import SnapshotCodec
import XCTest

/// Command blocks as i3blocks 1.5 runs them (issue 30), in-process: a section's keys,
/// instance, names, i3bar keys, `format = "json"`, persistent clicks, scheduling, exit
/// codes and click fields.
final class I3blocksCompatibilityTests: CommandRunnerHarness {
    /// The runner and renderer for `sections` (TOML) with `output`.
    func start(_ toml: String, output: OutputKind) throws {
        let config = try Array(toml.utf8).withUnsafeBytes { try BarConfig.parse($0).get() }
        renderer = Renderer(output: output, blocks: try XCTUnwrap(config.blocks))
        runner = CommandRunner(blocks: renderer.blocks)
        runner.startAll(nowMs: nowMs(), renderer: &renderer)
    }

    func block(_ keys: String) -> String { "[[block]]\nblock = \"command\"\n" + keys }

    /// The i3bar object of the first block, as JSON.
    func i3barBlock() throws -> [String: Any] {
        let line = shown()
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]], line)
        return try XCTUnwrap(array.first, line)
    }

    func configError(_ toml: String) -> String? {
        guard case .failure(let e) = Array(toml.utf8).withUnsafeBytes({ BarConfig.parse($0) }) else { return nil }
        return String(decoding: e.reason, as: UTF8.self)
    }

    func click(_ name: String, instance: String = "", button: Int = 1) -> ClickEvent {
        let builtIn = BlockKind(name: Array(name.utf8)[...])
        var c = ClickEvent(block: builtIn ?? .command, button: button)
        if builtIn == nil { c.name = Array(name.utf8) }
        c.instance = Array(instance.utf8)
        c.x = 100; c.y = 710; c.relativeX = 7; c.relativeY = 9; c.width = 60; c.height = 20
        c.modifiers = Array(#"["Shift"]"#.utf8)
        return c
    }

    // 1. Instance

    func testAnUnsetInstanceIsNoInstanceKeyAndAnEmptyBlockInstance() throws {
        try start(block("name = \"time\"\ncommand = 'echo \"inst=[$BLOCK_INSTANCE]\"'\ninterval = \"once\"\n"), output: .i3bar)
        XCTAssertTrue(turn(until: { shown().contains("inst=[]") }), shown())
        let object = try i3barBlock()
        XCTAssertNil(object["instance"], "i3blocks writes no instance when the section has none")
        XCTAssertEqual(object["name"] as? String, "time", "a command block may take a built-in block's name")
    }

    // 2. Names

    func testACommandBlockNamedLikeABuiltInBlockGetsItsClicks() throws {
        try start(block("name = \"disk\"\ncommand = 'echo \"b=$BLOCK_BUTTON\"'\n"), output: .text)
        XCTAssertEqual(shown(), "", "no interval: it waits for a click")
        XCTAssertTrue(runner.click(click("disk", button: 3), nowMs: nowMs(), renderer: &renderer))
        XCTAssertTrue(turn(until: { shown() == "b=3" }), shown())
        XCTAssertFalse(runner.click(click("disk", instance: "/home"), nowMs: nowMs(), renderer: &renderer),
                       "a built-in disk block's click (its instance is its mount) is not the command's")
    }

    // 3. Custom keys

    func testEverySectionKeyReachesTheCommandAsAnEnvironmentVariable() throws {
        try start(block("""
            name = "disk"
            instance = "/home"
            command = 'echo "$DIR|$WARN_PERCENT|$SHOW|$name|$instance|$BLOCK_INSTANCE|$interval|$BLOCK_INTERVAL"'
            interval = "once"
            DIR = "/home"
            WARN_PERCENT = 80
            SHOW = true
            """), output: .text)
        XCTAssertTrue(turn(until: { !shown().isEmpty }), shown())
        XCTAssertEqual(shown(), "/home|80|true|disk|/home|/home|once|once")
        XCTAssertNotNil(configError(block("command = \"x\"\n\"a-b\" = 1\n")), "a key no variable can be named")
        XCTAssertNotNil(configError(block("command = \"x\"\nRATIO = 1.5\n")), "a float: write it as text")
        XCTAssertNil(configError(block("command = \"x\"\ninterval = 0.5\n")), "seconds as a float are fine for interval")
    }

    // 4. i3bar keys from the config

    func testTheSectionsI3barKeysAreTheBlocksOwnAndTheLabelComesFirst() throws {
        try start(block("""
            name = "vol"
            command = "printf '50%%\\n'"
            interval = "once"
            label = "VOL "
            color = "#00FF00"
            background = "#101010"
            border = "#FF0000"
            border_top = 2
            min_width = 100
            align = "center"
            separator = false
            separator_block_width = 15
            urgent = false
            markup = "pango"
            """), output: .i3bar)
        XCTAssertTrue(turn(until: { shown().contains("50%") }), shown())
        let o = try i3barBlock()
        XCTAssertEqual(o["full_text"] as? String, "VOL 50%")
        XCTAssertEqual(o["color"] as? String, "#00FF00")
        XCTAssertEqual(o["background"] as? String, "#101010")
        XCTAssertEqual(o["border"] as? String, "#FF0000")
        XCTAssertEqual(o["border_top"] as? Int, 2)
        XCTAssertEqual(o["min_width"] as? Int, 100)
        XCTAssertEqual(o["align"] as? String, "center")
        XCTAssertEqual(o["separator"] as? Bool, false)
        XCTAssertEqual(o["separator_block_width"] as? Int, 15)
        XCTAssertEqual(o["urgent"] as? Bool, false)
        XCTAssertEqual(o["markup"] as? String, "pango")
    }

    func testAStaticFullTextShowsUntilTheCommandPrints() throws {
        try start(block("name = \"t\"\nfull_text = \"click me\"\ncommand = \"echo clicked\"\n"), output: .text)
        XCTAssertEqual(shown(), "click me")
        XCTAssertTrue(runner.click(click("t"), nowMs: nowMs(), renderer: &renderer))
        XCTAssertTrue(turn(until: { shown() == "clicked" }), shown())
    }

    // 5. format = json

    func testJSONKeysComeBackAsTheNextRunsEnvironment() throws {
        try start(block(#"""
            name = "timer"
            format = "json"
            interval = 0.2
            command = 'n=${count:-0}; echo "{\"full_text\":\"n=$((n+1))\",\"count\":$((n+1))}"'
            """#), output: .text)
        XCTAssertTrue(turn(until: { _ = runner.runDue(nowMs: nowMs(), renderer: &renderer); return shown() == "n=3" }),
                      "each run counts on from the last: \(shown())")
    }

    func testWithoutFormatJSONALineThatStartsWithABraceIsText() throws {
        try start(block("name = \"b\"\ncommand = \"echo '{not json'\"\ninterval = \"once\"\n"), output: .text)
        XCTAssertTrue(turn(until: { shown() == "{not json" }), shown())
    }

    // 6. Persistent blocks and clicks

    func testAClickIsWrittenToAPersistentCommandsStdin() throws {
        try start(block(#"""
            name = "p"
            interval = "persist"
            command = 'echo "start[$BLOCK_BUTTON]"; while read b; do echo "got $b"; done'
            """#), output: .text)
        XCTAssertTrue(turn(until: { _ = runner.flushPending(renderer: &renderer); return shown() == "start[]" }), shown())
        XCTAssertTrue(runner.click(click("p", button: 2), nowMs: nowMs(), renderer: &renderer))
        XCTAssertTrue(turn(until: { _ = runner.flushPending(renderer: &renderer); return shown() == "got 2" }), shown())
        XCTAssertTrue(runner.children[0].clickEnvironment.isEmpty, "no click fields wait for its next start")
    }

    // 7. Scheduling

    func testAnIntervalCountsFromEachStartAndRepeatRunsAgainAtOnce() throws {
        try start(block("name = \"s\"\ncommand = \"sleep 0.3; echo done\"\ninterval = 1\n"), output: .text)
        let started = runner.children[0].startedMs
        XCTAssertTrue(turn(until: { shown() == "done" }), shown())
        XCTAssertEqual(runner.children[0].nextRunMs, started + 1000, "every second from the start, not from the end")
        runner.stopAll(into: &stopping, nowMs: nowMs())
        runner.deallocate()

        try start(block("name = \"r\"\ncommand = \"echo $$\"\ninterval = \"repeat\"\n"), output: .text)
        XCTAssertTrue(turn(until: { !shown().isEmpty }))
        let first = shown()
        XCTAssertTrue(turn(until: { _ = runner.runDue(nowMs: nowMs(), renderer: &renderer); return shown() != first }),
                      "a new run after the last ended: \(shown())")
    }

    /// i3blocks 1.5 moves a block's schedule only for its timed (and signalled) runs: a
    /// click's run ends with the next timed run where it was, and a click while the command
    /// runs is dropped, not kept for the next run.
    func testAClicksRunLeavesTheIntervalsScheduleAsItWas() throws {
        try start(block("name = \"k\"\ncommand = 'echo \"b=$BLOCK_BUTTON\"; sleep 0.2'\ninterval = 30\n"), output: .text)
        XCTAssertTrue(runner.click(click("k", button: 1), nowMs: nowMs(), renderer: &renderer))
        XCTAssertTrue(runner.children[0].clickEnvironment.isEmpty, "a click while it runs is dropped")
        XCTAssertTrue(turn(until: { shown() == "b=" && runner.children[0].pid == 0 }), shown())
        let due = runner.children[0].nextRunMs
        XCTAssertEqual(due, runner.children[0].startedMs + 30_000)
        XCTAssertTrue(runner.click(click("k", button: 3), nowMs: nowMs(), renderer: &renderer))
        XCTAssertTrue(turn(until: { shown() == "b=3" && runner.children[0].pid == 0 }), shown())
        XCTAssertEqual(runner.children[0].nextRunMs, due, "the click's run did not move the next timed run")
    }

    /// A persistent command that ends is started again after 1 s, then 2, 4 … up to a minute,
    /// whether or not it printed (one that printed was restarted every second for ever).
    func testAPersistentCommandThatEndsIsStartedAgainLaterEachTime() throws {
        try start(block("name = \"p\"\ncommand = 'echo once'\ninterval = \"persist\"\n"), output: .text)
        var waits: [UInt64] = []
        for _ in 0..<2 {
            XCTAssertTrue(turn(until: { runner.children[0].pid == 0 }))
            waits.append(runner.children[0].nextRunMs - runner.children[0].startedMs)
            XCTAssertTrue(turn(until: { _ = runner.runDue(nowMs: nowMs(), renderer: &renderer); return runner.children[0].pid != 0 }, seconds: 3))
        }
        XCTAssertTrue(turn(until: { runner.children[0].pid == 0 }))
        waits.append(runner.children[0].nextRunMs - runner.children[0].startedMs)
        XCTAssertEqual(waits.map { ($0 + 500) / 1000 }, [1, 2, 4], "\(waits) ms after each start")
        _ = runner.flushPending(renderer: &renderer)
        XCTAssertEqual(shown(), "once", "its last line stays shown meanwhile")
    }

    /// Exit 127 and nothing printed: the command the shell did not find is named — a script's
    /// missing tool, not the script, which exists.
    func testTheCommandTheShellDidNotFindIsNamed() throws {
        let script = NSTemporaryDirectory() + "sysstats-cpu-script-\(UUID().uuidString)"
        defer { unlink(script) }
        try Data("#!/bin/sh\nnosuchtool-sysstats --json\n".utf8).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o755)
        try start(block("name = \"s\"\ncommand = '\(script)'\ninterval = \"once\"\n")
                  + block("name = \"m\"\ncommand = 'nosuchcommand-sysstats 1'\ninterval = \"once\"\n")
                  + block("name = \"q\"\ncommand = 'exit 127'\ninterval = \"once\"\n"), output: .text)
        XCTAssertTrue(turn(until: { runner.allSettled && runner.children.allSatisfy { $0.pid == 0 } }))
        XCTAssertEqual(shown(), "nosuchtool-sysstats: command not found | nosuchcommand-sysstats: command not found | command not found")
    }

    /// Keys the section did not set are unset for the command, BLOCK_INSTANCE too.
    func testWithoutAnInstanceBlockInstanceIsUnset() throws {
        try start(block("name = \"u\"\ncommand = 'echo \"[${BLOCK_INSTANCE-unset}] [${instance-unset}]\"'\ninterval = \"once\"\n"), output: .text)
        XCTAssertTrue(turn(until: { !shown().isEmpty }))
        XCTAssertEqual(shown(), "[unset] [unset]")
    }

    func testWithoutAnIntervalACommandRunsOnlyOnAClickOrItsSignal() throws {
        try start(block("name = \"c\"\ncommand = \"echo ran\"\nsignal = 3\n"), output: .text)
        XCTAssertEqual(runner.children[0].pid, 0, "not started with the bar")
        XCTAssertTrue(runner.allSettled, "--once does not wait for it")
        runner.signal(3, nowMs: nowMs(), renderer: &renderer)
        XCTAssertTrue(turn(until: { shown() == "ran" }), shown())
    }

    // 8. Exit codes and time limits

    func testAFailedRunThatPrintedIsShownAsItPrintedAndNothingTimesOutByDefault() throws {
        try start(block("name = \"f\"\ncommand = \"echo oops; exit 1\"\ninterval = \"once\"\n"), output: .i3bar)
        XCTAssertTrue(turn(until: { shown().contains("oops") }), shown())
        XCTAssertNil(try i3barBlock()["color"], "i3blocks shows it as printed")
        XCTAssertEqual(runner.children[0].spec.timeoutMs, 0, "no time limit unless timeout is given")
        let limited = try Array(block("command = \"x\"\ntimeout = 2\n").utf8).withUnsafeBytes { try BarConfig.parse($0).get() }
        XCTAssertEqual(limited.blocks?.first?.command?.timeoutMs, 2000, "timeout is an opt-in key")
    }

    // 9. Click fields

    func testAClickGivesTheCommandEveryFieldI3barSent() throws {
        try start(block(#"""
            name = "k"
            command = 'echo "$button $x $y $relative_x $relative_y $width $height $modifiers $BLOCK_BUTTON $BLOCK_X"'
            """#), output: .text)
        XCTAssertTrue(runner.click(click("k", button: 1), nowMs: nowMs(), renderer: &renderer))
        XCTAssertTrue(turn(until: { !shown().isEmpty }))
        XCTAssertEqual(shown(), #"1 100 710 7 9 60 20 ["Shift"] 1 100"#)
    }
}
