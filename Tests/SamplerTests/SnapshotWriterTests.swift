import Foundation
import SnapshotCodec
import XCTest
@testable import Sampler

final class SnapshotWriterTests: XCTestCase {
    func testWriteReplacesTheSnapshotAtomicallyAndLeavesNoTemporaryFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-w-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir.path).get())
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

    func testARemovedDirectoryIsRecreatedPrivateAndWrittenAgain() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        try writer.write(Snapshot()).get()
        try FileManager.default.removeItem(atPath: dir)
        try writer.write(Snapshot()).get()
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snapshot"))
        XCTAssertNoThrow(try RuntimeDirectory.check(dir).get(), "re-created 0700 and ours")
        XCTAssertTrue(RuntimeDirectory.isLockedBySampler(dir), "the writer locked the new directory")
    }

    func testADirectoryReplacedByASymlinkIsNeverWrittenThrough() throws {
        let dir = temporaryRuntimeDirectory()
        let elsewhere = temporaryRuntimeDirectory()
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir); try? FileManager.default.removeItem(atPath: elsewhere) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        try FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createSymbolicLink(atPath: dir, withDestinationPath: elsewhere)
        guard case .failure(.directory(let e)) = writer.write(Snapshot()) else { return XCTFail("wrote through a symlink") }
        XCTAssertTrue(e.reason.contains("symbolic link"), e.description)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
        // Fixed: the next write goes through again.
        try FileManager.default.removeItem(atPath: dir)
        try writer.write(Snapshot()).get()
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snapshot"))
    }

    func testALeftoverFIFOAtTheTemporaryNameNeitherBlocksNorIsWrittenInto() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        XCTAssertEqual(mkfifo(dir + "/.snapshot.tmp", 0o600), 0)
        try writer.write(Snapshot()).get()   // would block forever in open(2) without O_EXCL/O_NONBLOCK
        var info = stat()
        XCTAssertEqual(lstat(dir + "/snapshot", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["snapshot"])
    }

    func testTheLockSurvivesTheLockFileBeingDeletedBecauseItIsOnTheDirectory() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try RuntimeDirectory.openForSampler(dir).get()
        defer { first.close() }
        // Whatever files are removed from it, a second sampler is refused.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            try FileManager.default.removeItem(atPath: dir + "/" + name)
        }
        guard case .failure(let e) = RuntimeDirectory.openForSampler(dir) else { return XCTFail("second sampler allowed") }
        XCTAssertTrue(e.reason.contains("in use by another sysstatsd"), e.description)
    }

    private func temporaryRuntimeDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-w-\(UUID().uuidString)").path
    }
}
