import Foundation
import SnapshotCodec
import XCTest

/// The time block in the built renderer: it ticks on its own, beside "sysstatsd stopped",
/// and shows what `date` shows.
final class BarClockTests: XCTestCase {
    func utcDate(_ format: String) -> String {
        let date = Process()
        date.executableURL = URL(fileURLWithPath: "/bin/date")
        date.arguments = ["-u", "+" + format]
        let out = Pipe()
        date.standardOutput = out
        try? date.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        date.waitUntilExit()
        return text.trimmingCharacters(in: .newlines)
    }

    func testTheClockTicksEverySecondWithoutASamplerBesideTheStoppedMessage() throws {
        let dir = try RuntimeDir()
        let bar = try BarProcess(["--output", "i3bar", "--runtime-dir", dir.path, "--blocks", "cpu,time:UTC",
                                  "--format", "time=%H:%M:%S"])
        // Header, "[", then one array per second.
        XCTAssertTrue(bar.waitFor(timeout: 8) { $0.count >= 6 }, "\(bar.lines)")
        let arrays = bar.lines.dropFirst(2).map { $0.hasPrefix(",") ? String($0.dropFirst()) : $0 }
        var seconds: [String] = []
        for line in arrays {
            let blocks = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]], line)
            XCTAssertEqual(blocks.count, 2, line)
            XCTAssertEqual(blocks[0]["full_text"] as? String, "sysstatsd stopped")
            XCTAssertEqual(blocks[1]["name"] as? String, "time")
            XCTAssertEqual(blocks[1]["instance"] as? String, "UTC")
            seconds.append(try XCTUnwrap(blocks[1]["full_text"] as? String))
        }
        XCTAssertEqual(Set(seconds).count, seconds.count, "one update per second, each a new second: \(seconds)")
        let shown = try XCTUnwrap(seconds.last)
        let now = utcDate("%H:%M:%S")
        // The last update is at most a second old.
        let toSeconds = { (t: String) -> Int in t.split(separator: ":").reduce(0) { $0 * 60 + Int($1)! } }
        let lag = (toSeconds(now) - toSeconds(shown) + 86_400) % 86_400
        XCTAssertLessThanOrEqual(lag, 1, "shown \(shown), date says \(now)")
    }

    func testTheDefaultClockMatchesDateUnderTZUTC() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let bar = Process()
        bar.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        bar.arguments = ["--once", "--runtime-dir", dir.path, "--blocks", "load,time"]
        bar.environment = ["TZ": "UTC", "LC_ALL": "C", "SYSSTATS_NO_START_SAMPLER": "1"]
        let out = Pipe()
        bar.standardOutput = out
        let before = utcDate("%a %Y-%m-%d %H:%M")
        try bar.run()
        let line = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bar.waitUntilExit()
        let after = utcDate("%a %Y-%m-%d %H:%M")
        XCTAssertEqual(bar.terminationStatus, 0)
        XCTAssertTrue(line == "load 0.52 0.48 0.40 | \(before)\n" || line == "load 0.52 0.48 0.40 | \(after)\n", line)
    }

    func testAnUnknownZoneIsABadCommandLine() throws {
        let bar = Process()
        bar.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        bar.arguments = ["--once", "--blocks", "time:Mars/Olympus_Mons"]
        let err = Pipe()
        bar.standardError = err
        bar.standardOutput = FileHandle.nullDevice
        try bar.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bar.waitUntilExit()
        XCTAssertEqual(bar.terminationStatus, 2)
        XCTAssertEqual(message, "sysstats-bar: --blocks time:ZONE: no such time zone in /usr/share/zoneinfo (e.g. UTC, Europe/Paris)\n")
    }
}
