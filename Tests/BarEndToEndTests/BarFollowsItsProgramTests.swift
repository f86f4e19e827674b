import Foundation
import SnapshotCodec
import XCTest

/// The release bar, started from a copy of itself, follows that copy (issue 58): renamed over
/// as dpkg upgrades, it starts again from the new file with the same pid, stdin and stdout,
/// and its i3bar stream goes on without a second header or `[`. The look comes each 500 ms
/// here (SYSSTATS_PROGRAM_CHECK_MS, for tests only), at each minute's turn otherwise. (Removed:
/// ProgramFollowTests, in-process.)
final class BarFollowsItsProgramTests: XCTestCase {
    let header = #"{"version":1,"click_events":true,"stop_signal":10,"cont_signal":12}"#

    func exe(_ pid: Int32) -> String { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "" }

    func testAnUpgradedBarStartsAgainFromTheNewFileAndItsI3barStreamGoesOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-bar-follow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = folder.appendingPathComponent("sysstats-bar").path
        try FileManager.default.copyItem(atPath: try BarProcess.binary(), toPath: program)
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        // A clock showing seconds: the wake-ups the looks ride on.
        let bar = try BarProcess(["--output", "i3bar", "--config", "/dev/null", "--runtime-dir", dir.path,
                                  "--blocks", "load,time:UTC", "--format", "time=%H:%M:%S"],
                                 binary: program,
                                 environment: ["SYSSTATS_PROGRAM_CHECK_MS": "500", "SYSSTATS_NO_START_SAMPLER": "1"])
        XCTAssertTrue(bar.waitFor { $0.count >= 3 }, "\(bar.lines)")

        try FileManager.default.copyItem(atPath: try BarProcess.binary(), toPath: program + ".new")
        XCTAssertEqual(rename(program + ".new", program), 0)
        let deadline = Date().addingTimeInterval(20)
        while exe(bar.pid) != program && Date() < deadline {
            try dir.publish(sampleSnapshot(sequence: 2))   // current, so the figures show throughout
            usleep(200_000)
        }
        XCTAssertEqual(exe(bar.pid), program, "the new file runs")
        XCTAssertTrue(bar.process.isRunning, "the same process")
        let before = bar.lineCount
        try dir.publish(sampleSnapshot(sequence: 3))
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.count >= before + 2 }, "the new image writes on: \(bar.lines.suffix(3))")

        let lines = bar.lines
        XCTAssertEqual(lines.filter { $0 == header }.count, 1, "one header: \(lines)")
        XCTAssertEqual(lines.filter { $0 == "[" }.count, 1, "one opening of the endless array: \(lines)")
        XCTAssertEqual(Array(lines.prefix(2)), [header, "["])
        for line in lines.dropFirst(3) {
            XCTAssertTrue(line.hasPrefix(",["), line)
            let array = try JSONSerialization.jsonObject(with: Data(line.dropFirst().utf8)) as? [[String: Any]]
            XCTAssertNotNil(array, line)
        }
        XCTAssertTrue(lines.last?.contains(#""name":"load""#) ?? false, "\(lines.last ?? "")")
        XCTAssertEqual(bar.stop(), 0, "SIGTERM ends the new image cleanly")
    }
}
