import Foundation
import SnapshotCodec
import XCTest
@testable import Sampler

final class SnapshotWriterTests: XCTestCase {
    func testWriteReplacesTheSnapshotAtomicallyAndLeavesNoTemporaryFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-w-\(UUID().uuidString)")
        try RuntimeDirectory.prepare(dir.path).get()
        defer { try? FileManager.default.removeItem(at: dir) }
        let writer = SnapshotWriter(directory: dir.path)
        var s = Snapshot()
        for sequence in 1...3 as ClosedRange<UInt64> {
            s.sequence = sequence
            try writer.write(s).get()
        }
        let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent("snapshot")))
        XCTAssertEqual(try bytes.withUnsafeBytes { try Snapshot.decode($0) }.sequence, 3)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["snapshot"])
        let mode = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("snapshot").path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testWriteIntoAMissingDirectoryFailsWithoutCrashing() {
        let writer = SnapshotWriter(directory: "/nonexistent/sysstats")
        guard case .failure(let e) = writer.write(Snapshot()) else { return XCTFail("write succeeded") }
        XCTAssertEqual(e, .noSuchFile)
    }
}
