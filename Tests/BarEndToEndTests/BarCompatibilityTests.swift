import Foundation
import SnapshotCodec
import XCTest

/// The renderer against a sampler that could not measure everything, both programs as
/// built. (Snapshots of later releases, with a section this renderer does not know:
/// OnceTests, in-process.)
final class BarCompatibilityTests: XCTestCase {
    /// Every block but self, whose renderer RSS differs from run to run.
    let blocks = "cpu,mem,load,uptime,battery,procs,exited,top"

    func runOnce(_ dir: RuntimeDir, _ output: String) throws -> [String] {
        let bar = try BarProcess(["--once", "--output", output, "--runtime-dir", dir.path,
                                  "--blocks", blocks], stdin: false)
        bar.process.waitUntilExit()
        XCTAssertEqual(bar.process.terminationStatus, 0, output)
        _ = bar.waitFor { !$0.isEmpty }
        return bar.lines
    }

    func testAFigureWhoseFileIsMissingFromTheFixtureTreeIsShownAsNAAndTheJSONStaysValid() throws {
        let sampler = BarProcess.packageRoot.appendingPathComponent(".build/release/sysstatsd").path
        let fixture = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/sampler-desktop/2")
        let tree = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-na-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: tree)
        defer { try? FileManager.default.removeItem(at: tree) }
        try FileManager.default.removeItem(at: tree.appendingPathComponent("proc/meminfo"))
        let dir = try RuntimeDir()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sampler)
        process.arguments = ["--once", "--interval", "0.05", "--runtime-dir", dir.path,
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = try runOnce(dir, "i3bar")
        let line = try XCTUnwrap(lines.last)
        let blocks = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        let texts = blocks.compactMap { $0["full_text"] as? String }
        XCTAssertTrue(texts.contains("mem n/a"), "\(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("cpu ") && $0 != "cpu n/a" }, "\(texts)")
    }
}
