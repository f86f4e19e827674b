import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// `--once` in-process (what tmux and i3blocks-style callers run): the command line over the
/// config file as the program starts, one line on the sink, the status the program exits with.
final class OnceTests: RuntimeDirectoryHarness {

    override func setUpWithError() throws {
        try super.setUpWithError()
        try publish { $0.fillSample() }
    }

    /// `--once` with `arguments` (and `--config` when the test wrote one): the line shown,
    /// the status, stderr.
    func once(_ arguments: [String]) throws -> (line: String, status: Int32, stderr: String) {
        let file = FileManager.default.fileExists(atPath: configFile.path) ? ["--config", configFile.path] : []
        let ((b, status), stderr) = try capturingStderr { () throws -> (Bar<Sink>, Int32) in
            var b = try program(["--once"] + file + arguments)
            let status = b.runOnce()
            return (b, status)
        }
        XCTAssertEqual(b.sink.lines.count, 1, "one line: \(b.sink.lines)")
        return (b.sink.lines.joined(), status, stderr)
    }

    func testOnceShowsTheCurrentSnapshotAndReturnsZero() throws {
        let result = try once(["--blocks", "load,procs"])
        XCTAssertEqual(result.line, "load 0.52 0.48 0.40 | procs 300 (0 run)\n")
        XCTAssertEqual(result.status, 0)
    }

    /// Issue 58: with no sampler ever started, `--once` said "sysstatsd stopped" and not how
    /// to start one (`sysstats report` says). A snapshot that is there but old: "stopped".
    func testOnceWithoutASnapshotSaysNoSamplerRunsAndHowToStartOneBesideTheClock() throws {
        try FileManager.default.removeItem(at: directory.appendingPathComponent("snapshot"))
        let result = try once(["--output", "i3bar"])
        XCTAssertEqual(result.status, 1)
        // The message, and the default bar's clock, which needs no sampler.
        XCTAssertTrue(result.line.hasPrefix(##"[{"name":"sysstats","full_text":"sysstatsd not running (start it: sysstatsd &)","color":"#E06C75"},{"name":"time","##),
                      result.line)
        try publish { $0.fillSample(); $0.timestampMs = 1_000 }
        let old = try once(["--output", "i3bar", "--blocks", "load"])
        XCTAssertEqual(old.status, 1)
        XCTAssertTrue(old.line.hasPrefix(##"[{"name":"sysstats","full_text":"sysstatsd stopped""##), "a stale snapshot: \(old.line)")
    }

    func testFormatOptionsShapeTheBlocksAndABadFormatEndsTheProgramWithOneLine() throws {
        let result = try once(["--blocks", "load,procs", "--format", "load=L {1}/{15}", "--format=procs={{{count}}}"])
        XCTAssertEqual(result.line, "L 0.52/0.40 | {300}\n")
        let (status, stderr) = startExit(["--once", "--format", "cpu={nope}"])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(stderr, "sysstats-bar: --format cpu: unknown placeholder {nope}; cpu has {busy} {iowait} {spark} {bars} {frequency}\n")
    }

    func testBlocksAndThemeComeFromTheFileAndFlagsWin() throws {
        try writeConfig("[theme]\nseparator = \" :: \"\n[[block]]\nblock = \"load\"\n[[block]]\nblock = \"procs\"\nformat = \"P{count}\"\n")
        XCTAssertEqual(try once([]).line, "load 0.52 0.48 0.40 :: P300\n")
        XCTAssertEqual(try once(["--blocks", "procs,load"]).line, "procs 300 (0 run) :: load 0.52 0.48 0.40\n",
                       "--blocks replaces the file's list")
    }

    /// `--blocks` replaces the file's `[[block]]` list: a running bar says so (issue 29: the
    /// README's own example made edits to the file change nothing, silently); a `--once` line
    /// says nothing (issue 58: every `--once --blocks` run warned).
    func testBlocksOnTheCommandLineSayThatTheyReplaceTheFilesListInARunningBar() throws {
        try writeConfig("[[block]]\nblock = \"load\"\n")
        let flags = try once(["--blocks", "procs"])
        XCTAssertEqual(flags.line, "procs 300 (0 run)\n")
        XCTAssertEqual(flags.stderr, "", "--once: this line's blocks, nothing to warn of")
        let running = try capturingStderr { try program(["--config", configFile.path, "--blocks", "procs"]) }.1
        XCTAssertEqual(running, "sysstats-bar: --blocks replaces the [[block]] list of \(configFile.path): edits to it change nothing while the flag is given\n")
        try writeConfig("[theme]\nseparator = \" :: \"\n")
        XCTAssertEqual(try capturingStderr { try program(["--config", configFile.path, "--blocks", "procs"]) }.1, "",
                       "a file without a block list: nothing replaced, nothing said")
    }

    /// A config mistake at start never takes the bar away (issue 29): the built-in defaults
    /// run with the mistake shown first, the whole message on stderr. Only a bad command
    /// line ends the program (status 2).
    func testABadOrMissingFileAtStartShowsTheMistakeBesideTheDefaults() throws {
        try writeConfig("[[block]]\nblock = \"cpu\"\nwarning = 300\n")
        let bad = try once(["--blocks", "load"])
        XCTAssertEqual(bad.status, 0, "a mistake in the file is not a bad command line")
        XCTAssertEqual(bad.stderr, "sysstats-bar: \(configFile.path):3:11: out of range: 0 to 100\n")
        XCTAssertEqual(bad.line, "config.toml:3:11: out of range: 0 to 100 | load 0.52 0.48 0.40\n")
        try FileManager.default.removeItem(at: configFile)
        let missing = try once(["--config", configFile.path, "--blocks", "load"])
        XCTAssertEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.hasSuffix("config.toml: no such file\n"), missing.stderr)
        XCTAssertEqual(missing.line, "config.toml: no such file | load 0.52 0.48 0.40\n")
        XCTAssertEqual(startExit(["--once", "--bogus"]).status, 2, "a bad flag still ends it")
    }

    /// `--config /dev/null` is "no config at all", as `i3status -c /dev/null` is (issue 58: it
    /// showed `null: not a regular file`): the built-in defaults, no mistake said or shown.
    /// Told by fstat, not by the name: a link to it is the same, and every other device is
    /// still refused.
    func testTheNullDeviceAsTheConfigIsNoConfigAndOtherDevicesAreStillRefused() throws {
        let defaults = try runOptions([])
        let null = try runOptions(["--config", "/dev/null"])
        XCTAssertEqual(null.options.blocks, defaults.options.blocks, "the built-in blocks")
        XCTAssertEqual(null.options.theme, defaults.options.theme)
        XCTAssertEqual(null.notice, [], "no notice block")
        let run = try once(["--config", "/dev/null", "--blocks", "load"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.line, "load 0.52 0.48 0.40\n")
        let link = directory.appendingPathComponent("linked.toml").path
        XCTAssertEqual(symlink("/dev/null", link), 0)
        XCTAssertEqual(try once(["--config", link, "--blocks", "load"]).line, "load 0.52 0.48 0.40\n",
                       "a link to it, as a dotfiles manager makes")
        let zero = try once(["--config", "/dev/zero", "--blocks", "load"])
        XCTAssertEqual(zero.stderr, "sysstats-bar: /dev/zero: not a regular file\n")
        XCTAssertEqual(zero.line, "zero: not a regular file | load 0.52 0.48 0.40\n")
    }

    /// Issue 58: a missing i3blocks file took the user's other blocks away (the defaults and
    /// `config: no such file`). Its place shows what is wrong with it; their blocks stay.
    func testAMissingI3blocksFileIsOneBlockInItsPlaceAndTheOthersStay() throws {
        let missing = configFile.deletingLastPathComponent().appendingPathComponent("blocks.conf").path
        try writeConfig("[[block]]\nblock = \"load\"\n[[block]]\nblock = \"i3blocks\"\nfile = \"blocks.conf\"\n[[block]]\nblock = \"procs\"\n")
        let run = try once([])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "sysstats-bar: \(missing): no such file\n")
        XCTAssertEqual(run.line, "load 0.52 0.48 0.40 | i3blocks blocks.conf: no such file | procs 300 (0 run)\n")
        try "[a]\nfull_text=A\n[b\n".write(toFile: missing, atomically: true, encoding: .utf8)
        let broken = try once([])
        XCTAssertEqual(broken.line, "load 0.52 0.48 0.40 | i3blocks blocks.conf:3:1: a section header needs its closing ] | procs 300 (0 run)\n")
        try "[a]\nfull_text=A\n".write(toFile: missing, atomically: true, encoding: .utf8)
        XCTAssertEqual(try once([]).line, "load 0.52 0.48 0.40 | A | procs 300 (0 run)\n")
    }

    /// A file others could have written is refused: its commands do not run, the bar says why.
    func testAConfigFileOthersCouldHaveWrittenIsRefusedAndItsCommandsDoNotRun() throws {
        try writeConfig("[[block]]\nblock = \"load\"\n[[block]]\nblock = \"command\"\nname = \"c\"\ncommand = \"echo ran\"\ninterval = \"once\"\n")
        XCTAssertEqual(chmod(configFile.path, 0o666), 0)
        let refused = try once([])
        XCTAssertEqual(refused.stderr, "sysstats-bar: \(configFile.path): writable by group or others: refused (chmod go-w it)\n")
        XCTAssertTrue(refused.line.hasPrefix("config.toml: writable by group or others: refused (chmod go-w… | "), refused.line)
        XCTAssertFalse(refused.line.contains("ran"), "its command did not run: \(refused.line)")
        XCTAssertEqual(chmod(configFile.path, 0o644), 0)
        XCTAssertEqual(try once([]).line, "load 0.52 0.48 0.40 | ran\n")
    }

    func testOnceRunsEachCommandOnceAndWaitsForItWithinItsTimeout() throws {
        try writeConfig("""
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
        let result = try once([])
        XCTAssertEqual(result.line, "load 0.52 0.48 0.40 | hello | first | command timed out\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the hung command is given its timeout, not more; the persistent one its first line")
    }

    func testOnceLeavesNoCommandRunning() throws {
        let file = directory.appendingPathComponent("once").path
        try writeConfig("""
            [[block]]
            block = "command"
            name = "stubborn"
            command = "trap '' TERM; echo $$ > \(file); echo up; while :; do sleep 0.1; done"
            persist = true
            """)
        XCTAssertEqual(try once([]).line, "up\n")
        let child = try XCTUnwrap(pid_t((try String(contentsOfFile: file, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertNotEqual(kill(child, 0), 0, "--once (tmux runs one each status-interval) leaves nothing behind, not even a zombie")
    }

    func testOnceRefusesAFIFOAtTheSnapshotWithoutWaitingAndReturnsOne() throws {
        let snapshot = directory.appendingPathComponent("snapshot")
        try FileManager.default.removeItem(at: snapshot)
        XCTAssertEqual(mkfifo(snapshot.path, 0o600), 0)
        let result = try once(["--blocks", "uptime"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.line, "snapshot is not a regular file: refused\n")
    }

    func testOnceRefusesARuntimeDirectoryOpenToOthersAndReturnsOne() throws {
        XCTAssertEqual(chmod(directory.path, 0o777), 0)
        let result = try once(["--blocks", "uptime"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.line, "runtime directory is open to others: chmod 700 it\n")
    }

    func testFiguresAtTheTopOfTheirRangeRenderInEveryTextOutput() throws {
        try publish { s in
            s.memory.total = 2_000_000_000_000_000
            s.memory.used = 1_800_000_000_000_000
            s.memory.available = .max
            s.memory.swapUsed = .max
            s.cpuBusy = .max
            s.samplerCPU = .max
            s.battery.count = 1; s.battery.percent = .max; s.battery.state = .discharging
            s.exits = [ExitEntry(pid: .max, timeMs: .max, lastPrivateKiB: .max, freedKiB: .max, name: Array(repeating: 0xFF, count: 64))]
        }
        for output in ["text", "i3bar", "waybar", "tmux", "lemonbar", "polybar"] {
            let result = try once(["--output", output, "--blocks", "cpu,mem,load,uptime,battery,procs,exited,self,top"])
            XCTAssertEqual(result.status, 0, output)
            XCTAssertTrue(result.line.contains("bat"), "\(output): \(result.line)")
        }
    }
}

extension OnceTests {
    func testAnUnknownTimeZoneEndsTheProgramAsABadCommandLine() {
        let (status, stderr) = startExit(["--once", "--blocks", "time:Mars/Olympus_Mons"])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(stderr, "sysstats-bar: --blocks time:ZONE: no such time zone in /usr/share/zoneinfo (e.g. UTC, Europe/Paris)\n")
    }

    /// A later release's sampler may add a section: this renderer shows what it knows of the
    /// snapshot exactly as it would without it.
    func testASnapshotWithASectionThisRendererDoesNotKnowRendersExactlyAsWithoutIt() throws {
        var s = Snapshot()
        s.timestampMs = nowMs()
        s.intervalMs = 1000
        s.fillSample()
        s.cpuBusy = 1234
        s.coreBusy = [1000, 2000]
        s.uptimeCentiseconds = 360_000
        s.exits = [ExitEntry(pid: 7, timeMs: s.timestampMs, lastPrivateKiB: 1000, freedKiB: 204_800, name: Array("job".utf8))]
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        let file = directory.appendingPathComponent("snapshot")
        let blocks = "cpu,mem,load,uptime,battery,procs,exited,top"
        for output in ["text", "i3bar", "waybar"] {
            try Data(bytes).write(to: file)
            let plain = try once(["--output", output, "--blocks", blocks])
            XCTAssertEqual(plain.status, 0, output)
            try Data(withUnknownSection(bytes)).write(to: file)
            XCTAssertEqual(try once(["--output", output, "--blocks", blocks]).line, plain.line, output)
        }
    }

    /// `bytes` with one more section (tag 4242, 64 bytes) inserted after the meta section,
    /// the header's length and checksum made good.
    func withUnknownSection(_ bytes: [UInt8]) -> [UInt8] {
        let metaLength = Int(bytes[36]) | Int(bytes[37]) << 8
        let at = 32 + 8 + metaLength
        var section: [UInt8] = [0x92, 0x10, 0x01, 0x00, 64, 0, 0, 0]
        section += (0..<64).map { UInt8($0 * 7 & 0xFF) }
        var out = Array(bytes[..<at]) + section + Array(bytes[at...])
        let total = UInt32(out.count)
        for i in 0..<4 { out[12 + i] = UInt8(truncatingIfNeeded: total >> (8 * UInt32(i))) }
        let crc = out.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[32...])) }
        for i in 0..<4 { out[24 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return out
    }
}

extension OnceTests {
    func testARuntimeDirectoryOwnedBySomeoneElseIsRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a directory to another user") }
        XCTAssertEqual(chown(directory.path, 65534, 65534), 0)
        let result = try once(["--output", "i3bar"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.line.contains("runtime directory belongs to another user: refused"), result.line)
    }

    func testABadPictureSizeEndsTheProgramAsABadCommandLine() {
        let (status, stderr) = startExit(["--output", "png:/tmp/x.png", "--size", "10x10"])
        XCTAssertEqual(status, 2)
        XCTAssertTrue(stderr.hasPrefix("sysstats-bar: --size"), stderr)
    }
}
