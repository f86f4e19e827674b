import Foundation
import SnapshotCodec
import XCTest

/// Hardening, round two, against the built renderer, where only the program can tell: signals
/// sent to it that no block listens to, a flood beside a wrapped program in the release build,
/// and stdin's flags. (Commands that ignore SIGTERM or leave a background process holding
/// their output, control characters: CommandBlockLoopTests; a runtime directory made again:
/// SnapshotStreamTests; a config file others could write: OnceTests, in-process.)
final class BarHardeningTests: XCTestCase {
    var dir: RuntimeDir!
    var config: URL { dir.url.appendingPathComponent("config.toml") }

    override func setUpWithError() throws {
        dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
    }

    func write(_ text: String) throws {
        try text.write(to: config, atomically: true, encoding: .utf8)
    }

    func bar(_ extra: [String] = [], output: String = "text") throws -> BarProcess {
        try BarProcess(["--output", output, "--runtime-dir", dir.path, "--config", config.path] + extra)
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
        // And the signals the bar reads (what each does: SignalTests, in-process).
        for signal in [SIGUSR1, SIGUSR2, SIGHUP, SIGCHLD] { kill(b.pid, signal) }
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
