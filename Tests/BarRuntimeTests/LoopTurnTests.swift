import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// The loop itself in-process: ``Bar/turn()`` as `run()` calls it (poll, then what woke it),
/// over command blocks' real children, the test reaping them as SIGCHLD would.
final class LoopTurnTests: RuntimeDirectoryHarness {
    var config: URL { directory.appendingPathComponent("bar.toml") }

    /// An i3bar bar over `toml`, its commands started as a reload starts them.
    func i3bar(_ toml: String) throws -> Bar<Sink> {
        try toml.write(to: config, atomically: true, encoding: .utf8)
        try publish { $0.processCount = 300 }
        var b = try bar(["--output", "i3bar", "--config", config.path])
        b.watchStdout = false
        _ = b.load()
        b.reloadConfig()
        return b
    }

    func testRunsOfACommandWithTheSameOutputWriteNothingAfterTheFirst() throws {
        var b = try i3bar("[[block]]\nblock = \"command\"\nname = \"same\"\ncommand = \"echo same\"\ninterval = 0.2\n")
        defer { _ = b.stopCommands(returning: 0) }
        turns(&b, seconds: 5, until: { $0.sink.lines.contains { $0.contains(#""full_text":"same""#) } })
        XCTAssertTrue(b.sink.lines.contains { $0.contains(#""full_text":"same""#) }, "\(b.sink.lines)")
        let before = b.sink.lines.count
        turns(&b, seconds: 1.5)
        XCTAssertLessThanOrEqual(b.sink.lines.count - before, 1, "seven runs with the same output: \(b.sink.lines.suffix(3))")
    }

    /// A persistent command printing as fast as it can: at most 20 updates a second, each with
    /// the newest line, not the next one. (With a wrapped i3bar program flooding beside it, in
    /// the release program: BarHardeningTests.)
    func testAFloodOfLinesIsShownAtMostTwentyTimesASecondNewestFirst() throws {
        var b = try i3bar("[[block]]\nblock = \"command\"\nname = \"flood\"\ncommand = \"seq 1 1000000000\"\npersist = true\n")
        defer { _ = b.stopCommands(returning: 0) }
        turns(&b, seconds: 0.3)
        let start = b.sink.lines.count
        turns(&b, seconds: 2)
        let written = b.sink.lines.count - start
        XCTAssertLessThanOrEqual(written, 2 * 20 + 2, "at most 20 updates a second from command output")
        XCTAssertGreaterThanOrEqual(written, 5, "the flood is shown as it goes")
        func shown(_ line: String) -> Int? {
            guard let from = line.range(of: #""full_text":""#) else { return nil }
            return Int(line[from.upperBound...].prefix { $0.isNumber })
        }
        let lines = b.sink.lines
        let first = try XCTUnwrap(shown(lines[lines.count - 5])), last = try XCTUnwrap(shown(lines[lines.count - 1]))
        XCTAssertGreaterThan(last - first, 1000, "each update shows the newest line, not the next one")
    }

    /// No sampler and no snapshot: the loop wakes every second for the clock, and each update
    /// shows a new second beside "sysstatsd not running".
    func testTheClockTicksEverySecondBesideTheNotRunningMessage() throws {
        var b = try bar(["--output", "i3bar", "--blocks", "cpu,time:UTC", "--format", "time=%H:%M:%S"])
        b.watchStdout = false
        turns(&b, seconds: 3.2)
        let lines = b.sink.lines
        XCTAssertGreaterThanOrEqual(lines.count, 3, "\(lines)")
        var seconds: [String] = []
        for line in lines {
            XCTAssertTrue(line.contains(#""full_text":"sysstatsd not running (start it: sysstatsd &)""#), line)
            XCTAssertTrue(line.contains(#""name":"time","instance":"UTC""#), line)
            let time = try XCTUnwrap(line.range(of: #"\d\d:\d\d:\d\d"#, options: .regularExpression), line)
            seconds.append(String(line[time]))
        }
        XCTAssertEqual(Set(seconds).count, seconds.count, "one update per second, each a new second: \(seconds)")
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let toSeconds = { (t: String) -> Int in t.split(separator: ":").reduce(0) { $0 * 60 + Int($1)! } }
        let lag = (toSeconds(formatter.string(from: Date())) - toSeconds(seconds.last!) + 86_400) % 86_400
        XCTAssertLessThanOrEqual(lag, 1, "the last update is at most a second old: \(seconds)")
    }
}
