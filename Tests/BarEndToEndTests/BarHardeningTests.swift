import Foundation
import SnapshotCodec
import XCTest

/// Hardening, round two, against the built renderer: signals no block listens to, commands that
/// ignore SIGTERM or leave a background process holding their output, floods of lines, control
/// characters from any source, a runtime directory removed and re-created, and stdin's flags.
final class BarHardeningTests: XCTestCase {
    var dir: RuntimeDir!
    /// The config file's own folder: the runtime directory is removed in one test.
    var configDir: RuntimeDir!
    var config: URL { configDir.url.appendingPathComponent("config.toml") }

    override func setUpWithError() throws {
        dir = try RuntimeDir()
        configDir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
    }

    func write(_ text: String) throws {
        try text.write(to: config, atomically: true, encoding: .utf8)
    }

    func bar(_ extra: [String] = [], output: String = "text") throws -> BarProcess {
        try BarProcess(["--output", output, "--runtime-dir", dir.path, "--config", config.path] + extra)
    }

    /// The pid written to `file` by a command, once it is there.
    func pid(in file: String, timeout: TimeInterval = 5) -> pid_t? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            usleep(20_000)
        }
        return nil
    }

    /// True while `pid` names a live process (a zombie counts as gone).
    func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    func waitUntilGone(_ pid: pid_t, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isAlive(pid) && Date() < deadline { usleep(20_000) }
        return !isAlive(pid)
    }

    // MARK: 1. Real-time signals

    func testARealTimeSignalNoBlockListensToLeavesTheBarRunning() throws {
        let mask = dir.url.appendingPathComponent("mask").path
        try write("""
            [[block]]
            block = "load"

            [[block]]
            block = "command"
            name = "listens"
            command = "grep SigBlk /proc/self/status > \(mask); echo ran"
            interval = "once"
            signal = 10
            """)
        let b = try bar()
        XCTAssertTrue(b.waitFor { $0.last?.contains("ran") == true }, "\(b.lines)")
        let rtmin = 34   // glibc's SIGRTMIN, what `pkill -RTMIN+n` means
        for signal in [rtmin + 1, rtmin + 20, 32, 33, 64] {
            kill(b.pid, Int32(signal))
        }
        usleep(300_000)
        XCTAssertTrue(b.process.isRunning, "a real-time signal no block listens to is ignored, as i3blocks does")
        // A reload that drops the block's signal: that signal now reaches nobody either.
        try write("[[block]]\nblock = \"load\"\n[[block]]\nblock = \"procs\"\n")
        XCTAssertTrue(b.waitFor { $0.last?.contains("procs") == true }, "\(b.lines.suffix(2))")
        kill(b.pid, Int32(rtmin + 10))
        usleep(300_000)
        XCTAssertTrue(b.process.isRunning, "SIGRTMIN+10 after the reload that dropped its block")
        // The commands the bar starts get the default signal mask, not the bar's.
        let blocked = try String(contentsOfFile: mask, encoding: .utf8)
        XCTAssertEqual(blocked.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).last, "0000000000000000", blocked)
        XCTAssertEqual(b.stop(), 0)
    }

    // MARK: 2. Stopped commands are ended, not orphaned

    func testACommandThatIgnoresSIGTERMIsKilledAfterAReloadAndAtTheBarsExit() throws {
        var pids: [pid_t] = []
        func stubborn(_ n: Int) -> String {
            let file = dir.url.appendingPathComponent("stubborn\(n)").path
            return """
                [[block]]
                block = "command"
                name = "stubborn"
                command = "trap '' TERM; echo $$ > \(file); echo up \(n); while :; do sleep 0.1; done"
                persist = true
                """
        }
        try write(stubborn(0))
        let b = try bar()
        for n in 0..<3 {
            XCTAssertTrue(b.waitFor { $0.last?.contains("up \(n)") == true }, "\(b.lines.suffix(2))")
            pids.append(try XCTUnwrap(pid(in: dir.url.appendingPathComponent("stubborn\(n)").path)))
            try write(stubborn(n + 1))   // a reload replaces the command
        }
        XCTAssertTrue(b.waitFor { $0.last?.contains("up 3") == true }, "\(b.lines.suffix(2))")
        let last = try XCTUnwrap(pid(in: dir.url.appendingPathComponent("stubborn3").path))
        for p in pids {
            XCTAssertTrue(waitUntilGone(p, timeout: 5), "the command a reload stopped is killed after its grace: \(p)")
        }
        XCTAssertTrue(isAlive(last))
        XCTAssertEqual(b.stop(), 0)
        XCTAssertFalse(isAlive(last), "the bar's exit ends its commands before it returns")
    }

    func testOnceLeavesNoCommandRunning() throws {
        let file = dir.url.appendingPathComponent("once").path
        try write("""
            [[block]]
            block = "command"
            name = "stubborn"
            command = "trap '' TERM; echo $$ > \(file); echo up; while :; do sleep 0.1; done"
            persist = true
            """)
        _ = try BarProcess.run(["--once", "--runtime-dir", dir.path, "--config", config.path])
        let child = try XCTUnwrap(pid(in: file, timeout: 1))
        XCTAssertFalse(isAlive(child), "--once (tmux runs one each status-interval) leaves nothing behind")
    }

    // MARK: 3. The command's exit ends its run

    func testACommandsExitEndsItsRunThoughABackgroundProcessHoldsItsOutput() throws {
        let runs = dir.url.appendingPathComponent("runs").path
        let marker = "31.\(getpid())"
        addTeardownBlock { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-f", "sleep \(marker)"]) }
        try write("""
            [[block]]
            block = "command"
            name = "bg"
            command = "echo run >> \(runs); echo printed $(wc -l < \(runs)); setsid sleep \(marker) & exit 0"
            interval = 1
            timeout = 3
            """)
        let b = try bar()
        XCTAssertTrue(b.waitFor(timeout: 2) { $0.last == "printed 1" }, "shown at the command's exit: \(b.lines)")
        XCTAssertTrue(b.waitFor(timeout: 4) { $0.last == "printed 3" }, "run again on its interval: \(b.lines)")
        XCTAssertFalse(b.lines.contains { $0.contains("timed out") }, "\(b.lines)")
        XCTAssertEqual(b.stop(), 0)
    }

    // MARK: 4. Control characters

    func testControlCharactersFromEverySourceBecomeSpacesInI3barAndWaybar() throws {
        try write(#"""
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
            """#)
        for output in ["i3bar", "waybar"] {
            let b = try bar(output: output)
            XCTAssertTrue(b.waitFor { $0.last.map { $0.contains("load") && $0.contains("w v") && $0.contains("x y z") } ?? false },
                          "\(output): \(b.lines.suffix(2))")
            let last = try XCTUnwrap(b.lines.last)
            XCTAssertFalse(last.contains("\\u00"), "no control character as an escape: \(last)")
            XCTAssertFalse(last.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }, last)
            let text = last.hasPrefix(",") ? String(last.dropFirst()) : last
            let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
            let texts: [String] = output == "i3bar"
                ? try XCTUnwrap(parsed as? [[String: Any]]).compactMap { $0["full_text"] as? String }
                : [try XCTUnwrap((parsed as? [String: Any])?["text"] as? String)]
            XCTAssertTrue(texts.contains { $0.contains("a b [31mc d") }, "\(output): \(texts)")
            for t in texts { XCTAssertFalse(t.unicodeScalars.contains { $0.value < 0x20 }, "\(output): \(t)") }
            if output == "waybar" { XCTAssertTrue(texts[0].contains(" |"), "the separator's NUL is a space: \(texts[0])") }
            XCTAssertEqual(b.stop(), 0)
        }
    }

    // MARK: 7. The runtime directory removed and made again

    func testTheBarFindsARuntimeDirectoryRemovedAndMadeAgain() throws {
        try write("[[block]]\nblock = \"procs\"\n")
        var s = sampleSnapshot()
        s.processCount = 111
        try dir.publishByExchange(s)
        s.sequence += 1
        try dir.publishByExchange(s)
        let b = try bar()
        XCTAssertTrue(b.waitFor { $0.last?.contains("procs 111") == true }, "\(b.lines)")
        for round in 1...2 {
            // As `rm -rf` and a sampler that makes it again.
            try FileManager.default.removeItem(at: dir.url)
            usleep(300_000)
            try FileManager.default.createDirectory(at: dir.url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            s.processCount = UInt32(200 + round)
            s.timestampMs = realtimeMs()
            try dir.publishByExchange(s)
            XCTAssertTrue(b.waitFor(timeout: 6) { $0.last?.contains("procs \(200 + round)") == true },
                          "round \(round): the new directory's snapshot is shown: \(b.lines.suffix(2))")
        }
        XCTAssertEqual(b.stop(), 0)
    }

    // MARK: 9. Floods and repeated lines (an unchanged line: LoopTurnTests, in-process)

    func testAFloodOfLinesIsCoalescedToTheNewestAtMostTwentyTimesASecond() throws {
        try write("""
            [[block]]
            block = "command"
            name = "flood"
            command = "seq 1 1000000000"
            persist = true

            [[block]]
            block = "i3bar"
            command = "echo '{\\"version\\":1}'; echo '['; yes '[{\\"full_text\\":\\"wrapped\\"}],'"
            """)
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor { $0.count >= 3 }, "\(b.lines)")
        let start = b.lineCount
        usleep(3_000_000)
        let written = b.lineCount - start
        XCTAssertLessThanOrEqual(written, 3 * 20 + 3, "at most 20 updates a second from command output")
        XCTAssertGreaterThanOrEqual(written, 10, "the flood is shown as it goes")
        func shown(_ line: String) -> Int? {
            (try? JSONSerialization.jsonObject(with: Data((line.hasPrefix(",") ? String(line.dropFirst()) : line).utf8)) as? [[String: Any]])?
                .first { $0["name"] as? String == "flood" }.flatMap { ($0["full_text"] as? String).flatMap { Int($0) } }
        }
        let lines = b.lines
        let first = try XCTUnwrap(shown(lines[lines.count - 10])), last = try XCTUnwrap(shown(lines[lines.count - 1]))
        XCTAssertGreaterThan(last - first, 1000, "each update shows the newest line, not the next one")
        XCTAssertTrue(lines.last?.contains("wrapped") == true, "\(lines.last ?? "")")
        XCTAssertEqual(b.stop(), 0)
    }

    // MARK: 11. Stdin's flags

    func testTheI3barOutputLeavesTheStdinItSharesBlocking() throws {
        try write("[[block]]\nblock = \"load\"\n[[block.click]]\nbutton = \"left\"\ncmd = \"touch \(dir.path)/clicked\"\n")
        // A plain pipe (Foundation's Pipe makes its ends non-blocking itself): the test keeps
        // the read end, the same open file description as the bar's stdin.
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]); close(ends[1]) }
        XCTAssertEqual(fcntl(ends[0], F_GETFL) & O_NONBLOCK, 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        p.arguments = ["--output", "i3bar", "--runtime-dir", dir.path, "--config", config.path]
        p.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let click = "[\n" + #"{"name":"load","instance":"load","button":1,"x":1,"y":1}"# + "\n"
        _ = click.withCString { Glibc.write(ends[1], $0, strlen($0)) }
        let clicked = dir.url.appendingPathComponent("clicked").path
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: clicked) && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: clicked), "the click was read")
        XCTAssertEqual(fcntl(ends[0], F_GETFL) & O_NONBLOCK, 0, "the bar does not change a description it shares")
        p.terminate()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(fcntl(ends[0], F_GETFL) & O_NONBLOCK, 0, "nor does its exit")
    }
}

extension BarHardeningTests {
    // MARK: 5. A config file others could have written

    func testTheBarRefusesAConfigFileOthersCouldHaveWritten() throws {
        try write("[[block]]\nblock = \"load\"\n[[block]]\nblock = \"command\"\nname = \"c\"\ncommand = \"echo ran\"\ninterval = \"once\"\n")
        XCTAssertEqual(chmod(config.path, 0o666), 0)
        let once = try BarProcess.run(["--once", "--runtime-dir", dir.path, "--config", config.path])
        XCTAssertEqual(once.stderr, "sysstats-bar: \(config.path): writable by group or others: refused (chmod go-w it)\n")
        XCTAssertTrue(once.stdout.hasPrefix("config.toml: writable by group or others: refused (chmod go-w… | "), once.stdout)
        XCTAssertFalse(once.stdout.contains("ran"), "its command did not run: \(once.stdout)")

        // A running bar keeps its configuration and says why.
        XCTAssertEqual(chmod(config.path, 0o644), 0)
        let b = try bar()
        XCTAssertTrue(b.waitFor { $0.last == "load 0.52 0.48 0.40 | ran" }, "\(b.lines)")
        let hostile = dir.url.appendingPathComponent("hostile.toml")
        try "[[block]]\nblock = \"command\"\nname = \"h\"\ncommand = \"echo hostile\"\n".write(to: hostile, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(hostile.path, 0o666), 0)
        XCTAssertEqual(rename(hostile.path, config.path), 0)
        XCTAssertTrue(b.waitFor { $0.last?.contains("writable by group or others") == true }, "\(b.lines.suffix(2))")
        XCTAssertFalse(b.lines.contains { $0.contains("hostile") && !$0.contains("config.toml") }, "\(b.lines.suffix(3))")
        XCTAssertEqual(b.stop(), 0)
    }
}
