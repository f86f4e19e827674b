import Foundation
import SnapshotCodec
import XCTest

/// The built renderer with a config file, where only the program itself can tell: its memory
/// beside commands that flood it. (The file's blocks, theme, mistakes and reloads: OnceTests,
/// ConfigWatchTests and SignalTests; command blocks by interval, by signal, persistent, hung,
/// hostile and clicked: CommandBlockLoopTests, in-process.)
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
