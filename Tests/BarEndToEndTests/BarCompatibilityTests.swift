import Foundation
import SnapshotCodec
import XCTest

/// The renderer built today against the snapshots of later releases (an extra section it
/// does not know) and against a sampler that could not measure everything.
final class BarCompatibilityTests: XCTestCase {
    /// `bytes` with one more section (tag 4242, 64 bytes) inserted after the meta section.
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

    func testASnapshotWithASectionThisRendererDoesNotKnowRendersExactlyAsWithoutIt() throws {
        let snapshot = sampleSnapshot()
        var bytes: [UInt8] = []
        snapshot.encode(into: &bytes)
        let plain = try RuntimeDir(), extended = try RuntimeDir()
        try Data(bytes).write(to: plain.url.appendingPathComponent("snapshot"))
        try Data(withUnknownSection(bytes)).write(to: extended.url.appendingPathComponent("snapshot"))
        for output in ["text", "i3bar", "waybar"] {
            let expected = try runOnce(plain, output)
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(try runOnce(extended, output), expected, output)
        }
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
