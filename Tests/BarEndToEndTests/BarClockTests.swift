import Foundation
import SnapshotCodec
import XCTest

/// The time block in the built renderer shows what `date` shows under the TZ it was started
/// with (its ticking beside "sysstatsd stopped": LoopTurnTests; an unknown zone: OnceTests,
/// in-process).
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
}
