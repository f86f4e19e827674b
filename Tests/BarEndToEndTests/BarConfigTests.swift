import Foundation
import SnapshotCodec
import XCTest

/// The built renderer with a config file: blocks and theme from it, reloads (good and broken),
/// and command blocks by interval, by signal, persistent, hung, hostile and clicked.
final class BarConfigTests: XCTestCase {
    var dir: RuntimeDir!
    var config: URL { dir.url.appendingPathComponent("config.toml") }

    override func setUpWithError() throws {
        dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
    }

    func write(_ text: String) throws {
        // Replaced by rename, as editors do: the bar's inotify sees IN_MOVED_TO.
        try text.write(to: config, atomically: true, encoding: .utf8)
    }

    func bar(_ extra: [String] = [], output: String = "text") throws -> BarProcess {
        try BarProcess(["--output", output, "--runtime-dir", dir.path, "--config", config.path] + extra)
    }

    func run(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) { try BarProcess.run(args) }

    func testBlocksAndThemeComeFromTheFileAndFlagsWin() throws {
        try write("[theme]\nseparator = \" :: \"\n[[block]]\nblock = \"load\"\n[[block]]\nblock = \"procs\"\nformat = \"P{count}\"\n")
        let once = try run(["--once", "--runtime-dir", dir.path, "--config", config.path])
        XCTAssertEqual(once.stdout, "load 0.52 0.48 0.40 :: P300\n")
        let flags = try run(["--once", "--runtime-dir", dir.path, "--config", config.path, "--blocks", "procs,load"])
        XCTAssertEqual(flags.stdout, "procs 300 (0 run) :: load 0.52 0.48 0.40\n", "--blocks replaces the file's list")
    }

    /// A config mistake at start never takes the bar away (issue 29): the built-in defaults
    /// run with the mistake shown first, the whole message on stderr; fixing the file brings
    /// the configured bar. Only a bad command line exits 2.
    func testABadFileAtStartShowsTheMistakeBesideTheDefaultsUntilItIsFixed() throws {
        try write("[[block]]\nblock = \"cpu\"\nwarning = 300\n")
        let result = try run(["--once", "--runtime-dir", dir.path, "--config", config.path, "--blocks", "load"])
        XCTAssertEqual(result.status, 0, "a mistake in the file is not a bad command line")
        XCTAssertEqual(result.stderr, "sysstats-bar: \(config.path):3:11: out of range: 0 to 100\n")
        XCTAssertEqual(result.stdout, "config.toml:3:11: out of range: 0 to 100 | load 0.52 0.48 0.40\n")
        let missing = try run(["--once", "--runtime-dir", dir.path, "--config", dir.url.appendingPathComponent("none.toml").path, "--blocks", "load"])
        XCTAssertEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.hasSuffix("none.toml: no such file\n"), missing.stderr)
        XCTAssertEqual(missing.stdout, "none.toml: no such file | load 0.52 0.48 0.40\n")
        XCTAssertEqual(try run(["--once", "--bogus"]).status, 2, "a bad flag still is")

        try dir.publish(sampleSnapshot())  // fresh: the runs above took part of its life
        let b = try bar()
        XCTAssertTrue(b.waitFor { $0.last?.hasPrefix("config.toml:3:11: out of range: 0 to 100 | load ") == true },
                      "the built-in blocks run, the mistake first: \(b.lines)")
        try dir.publish(sampleSnapshot())
        try write("[[block]]\nblock = \"load\"\n")
        XCTAssertTrue(b.waitFor(timeout: 2) { $0.last == "load 0.52 0.48 0.40" }, "the fixed file at once: \(b.lines.suffix(2))")
        XCTAssertEqual(b.stop(), 0)
    }

    func testTheBarReloadsAChangedFileKeepsTheLastGoodOneAndSaysWhy() throws {
        try write("[[block]]\nblock = \"load\"\n")
        let b = try bar()
        XCTAssertTrue(b.waitFor { $0.last == "load 0.52 0.48 0.40" }, "\(b.lines)")
        // Which events are a change and what a good or bad file does: ConfigWatchTests, in-process.
        try write("[[block]]\nblock = \"procs\"\ncolour = 1\n")
        XCTAssertTrue(b.waitFor { $0.last == "config.toml:3:1: unknown key \"colour\" in this block (man syss… | load 0.52 0.48 0.40" },
                      "a broken file: the last good configuration and the reason: \(b.lines)")
        // SIGHUP reads it again too (an edit in place some watchers miss).
        let fh = try FileHandle(forWritingTo: config)
        fh.truncateFile(atOffset: 0)
        fh.write(Data("[[block]]\nblock = \"load\"\n".utf8))
        try fh.close()
        kill(b.pid, SIGHUP)
        XCTAssertTrue(b.waitFor { $0.last == "load 0.52 0.48 0.40" }, "\(b.lines)")
        XCTAssertEqual(b.stop(), 0)
    }

    func testI3barStreamStaysOneArrayAcrossAReload() throws {
        try write("[[block]]\nblock = \"load\"\n")
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor { $0.count >= 3 }, "\(b.lines)")
        try write("[[block]]\nblock = \"procs\"\n")
        XCTAssertTrue(b.waitFor { $0.last?.contains("procs 300") == true }, "\(b.lines)")
        let lines = b.lines
        XCTAssertEqual(lines.filter { $0 == "[" }.count, 1, "one stream, one opening bracket: \(lines)")
        for line in lines.dropFirst(2) {
            let array = line.hasPrefix(",") ? String(line.dropFirst()) : line
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(array.utf8)), line)
        }
    }

    func testACommandBlockByIntervalBySignalAndPersistent() throws {
        let counter = dir.url.appendingPathComponent("n").path
        try write("""
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
        let b = try bar()
        XCTAssertTrue(b.waitFor(timeout: 10) { lines in
            guard let last = lines.last?.split(separator: "|").map({ $0.trimmingCharacters(in: .whitespaces) }),
                  last.count == 3, let n = Int(last[0]) else { return false }
            return n >= 3 && last[2] == "two"
        }, "the interval reruns it; each persistent line shows: \(b.lines)")
        let before = try XCTUnwrap(b.lines.last?.split(separator: "|")[1])
        kill(b.pid, __libc_current_sigrtmin() + 5)
        XCTAssertTrue(b.waitFor { ($0.last?.split(separator: "|")[1]).map { $0 != before } ?? false }, "SIGRTMIN+5 reruns it: \(b.lines)")
        XCTAssertEqual(b.stop(), 0)
    }

    func testAHungCommandIsKilledWhileTheOtherBlocksUpdate() throws {
        try write("""
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
        let b = try bar()
        XCTAssertTrue(b.waitFor(timeout: 5) { $0.last?.hasSuffix("| command timed out") == true }, "\(b.lines)")
        let seconds = Set(b.lines.map { String($0.prefix(2)) })
        XCTAssertGreaterThanOrEqual(seconds.count, 1)
        XCTAssertTrue(b.waitFor(timeout: 3) { Set($0.map { String($0.prefix(2)) }).count > seconds.count }, "the clock goes on")
        XCTAssertEqual(b.stop(), 0)
    }

    func testHostileCommandOutputIsEscapedAndAClickReachesTheCommand() throws {
        let clicked = dir.url.appendingPathComponent("clicked").path
        try write("""
            [[block]]
            block = "command"
            name = "evil"
            instance = "one"
            command = "[ -n \\"$BLOCK_BUTTON\\" ] && echo \\"$BLOCK_BUTTON $BLOCK_NAME $BLOCK_INSTANCE $BLOCK_X\\" > \(clicked); printf '\\\\033[31m\\"},{\\"full_text\\":\\"x\\\\n#nope\\\\n'"
            interval = "once"
            """)
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor { $0.count >= 3 && $0.last?.contains("evil") == true }, "\(b.lines)")
        let last = try XCTUnwrap(b.lines.last)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((last.hasPrefix(",") ? String(last.dropFirst()) : last).utf8)) as? [[String: Any]])
        XCTAssertEqual(array.count, 1, "no block injected: \(last)")
        XCTAssertEqual(array[0]["full_text"] as? String, " [31m\"},{\"full_text\":\"x")
        XCTAssertNil(array[0]["color"], "not a colour: ignored")
        XCTAssertFalse(last.utf8.contains(0x1B), "the escape is escaped")
        b.send("[\n" + #"{"name":"evil","instance":"one","button":1,"x":1210,"y":4}"# + "\n")
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: clicked) && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try String(contentsOfFile: clicked, encoding: .utf8), "1 evil one 1210\n")
        XCTAssertEqual(b.stop(), 0)
    }

    func testAFloodOfOutputNeitherGrowsTheBarNorStarvesTheClock() throws {
        try write("""
            [[block]]
            block = "time"
            timezone = "UTC"
            format = "%S"

            [[block]]
            block = "command"
            name = "yes"
            command = "yes flood"
            persist = true

            [[block]]
            block = "command"
            name = "long"
            command = "head -c 50000000 /dev/zero | tr '\\\\0' a; echo"
            interval = 1
            timeout = 20
            """)
        let b = try bar()
        XCTAssertTrue(b.waitFor(timeout: 10) { lines in
            Set(lines.map { String($0.prefix(2)) }).count >= 3 && lines.last?.contains("| flood |") == true
        }, "the clock ticks beside a command writing without pause: \(b.lines.suffix(3))")
        XCTAssertTrue(b.waitFor(timeout: 20) { $0.last?.hasSuffix(String(repeating: "a", count: 1024)) == true },
                      "a 50 MB line is cut at 1 KiB")
        let hwm = try XCTUnwrap(peakResidentKiB(pid: b.pid))
        XCTAssertLessThan(hwm, 2048, "the bar's memory stays within its budget: \(hwm) KiB")
        XCTAssertEqual(b.stop(), 0)
    }
}

extension BarConfigTests {
    func testAClickActionRunsItsCommandDetachedWithTheBlocksVariables() throws {
        let ran = dir.url.appendingPathComponent("ran").path
        try write("""
            [[block]]
            block = "load"
            [[block.click]]
            button = "right"
            cmd = "echo $BLOCK_BUTTON $BLOCK_NAME $BLOCK_INSTANCE > \(ran)"
            """)
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor { $0.count >= 3 }, "\(b.lines)")
        b.send("[\n" + #"{"name":"load","instance":"load","button":3,"x":5,"y":6}"# + "\n")
        let deadline = Date().addingTimeInterval(5)
        while (try? String(contentsOfFile: ran, encoding: .utf8)) == nil && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try String(contentsOfFile: ran, encoding: .utf8), "3 load load\n")
        XCTAssertEqual(b.stop(), 0)
    }
}

extension BarConfigTests {
    func testWaybarShowsTheSameBlocksAndCommandBlocks() throws {
        try write("""
            [[block]]
            block = "load"

            [[block]]
            block = "command"
            name = "hello"
            command = "echo 'hello <b>'"
            interval = "once"
            """)
        let b = try bar(output: "waybar")
        XCTAssertTrue(b.waitFor { $0.last?.contains("hello &lt;b&gt;") == true }, "\(b.lines)")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(b.lines.last).utf8)) as? [String: Any])
        XCTAssertEqual(object["text"] as? String, "load 0.52 0.48 0.40 | hello &lt;b&gt;")
        XCTAssertEqual(b.stop(), 0)
    }
}

extension BarConfigTests {
    func testOnceRunsEachCommandOnceAndWaitsForItWithinItsTimeout() throws {
        try write("""
            [[block]]
            block = "load"

            [[block]]
            block = "command"
            name = "hello"
            command = "sleep 0.2; echo hello"
            interval = 5

            [[block]]
            block = "command"
            name = "stream"
            command = "echo first; sleep 30"
            persist = true

            [[block]]
            block = "command"
            name = "hang"
            command = "sleep 30"
            interval = "once"
            timeout = 0.5
            """)
        let started = Date()
        let once = try run(["--once", "--runtime-dir", dir.path, "--config", config.path])
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(once.stdout, "load 0.52 0.48 0.40 | hello | first | command timed out\n", once.stderr)
        XCTAssertEqual(once.status, 0)
        XCTAssertLessThan(took, 5, "the hung command is given its timeout, not more; the persistent one its first line")
    }
}

extension BarConfigTests {
    /// `--blocks` replaces the file's `[[block]]` list: the bar says so (issue 29: the README's
    /// own example made edits to the file change nothing, silently).
    func testBlocksOnTheCommandLineSayThatTheyReplaceTheFilesList() throws {
        try write("[[block]]\nblock = \"load\"\n")
        let flags = try run(["--once", "--runtime-dir", dir.path, "--config", config.path, "--blocks", "procs"])
        XCTAssertEqual(flags.stdout, "procs 300 (0 run)\n")
        XCTAssertEqual(flags.stderr, "sysstats-bar: --blocks replaces the [[block]] list of \(config.path): edits to it change nothing while the flag is given\n")
        try write("[theme]\nseparator = \" :: \"\n")
        XCTAssertEqual(try run(["--once", "--runtime-dir", dir.path, "--config", config.path, "--blocks", "procs"]).stderr, "",
                       "a file without a block list: nothing replaced, nothing said")
    }
}
