import Foundation
import SnapshotCodec
import SysstatsCLI
import XCTest

/// Another local user may own or plant the runtime directory (`/tmp/sysstats-$UID` when
/// XDG_RUNTIME_DIR is unset) or put a FIFO where the snapshot should be. `report` and
/// `doctor` refuse in one line, at once; they never hang and never show what they found.
final class HostileRuntimeDirectoryTests: XCTestCase {
    let now = Samples.timestampMs + 1500

    func testAFIFOAtTheSnapshotIsRefusedAtOnceInsteadOfBlocking() throws {
        let dir = try TemporaryDirectory()
        XCTAssertEqual(mkfifo(dir.file("snapshot"), 0o600), 0)
        let out = Report.run(path: dir.file("snapshot"), json: false, nowMs: now)
        XCTAssertEqual(out, CommandOutput(stderr: [
            "sysstats: cannot read snapshot at \(dir.file("snapshot")): is a FIFO, not a regular file"], status: 1))
        let doctor = Doctor.checkSnapshot(path: dir.file("snapshot"), nowMs: now)
        XCTAssertEqual(doctor.status, .fail)
    }

    func testASymlinkAtTheSnapshotIsNotFollowed() throws {
        let dir = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        try elsewhere.write(Samples.laptop)
        XCTAssertEqual(symlink(elsewhere.file("snapshot"), dir.file("snapshot")), 0)
        let out = Report.run(path: dir.file("snapshot"), json: false, nowMs: now)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stderr, ["sysstats: cannot read snapshot at \(dir.file("snapshot")): is a symbolic link, not a regular file"])
    }

    func testARuntimeDirectoryOpenToOthersIsRefusedWithTheReason() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Samples.laptop)
        XCTAssertEqual(chmod(dir.path, 0o777), 0)
        let out = Report.run(path: dir.file("snapshot"), json: false, nowMs: now)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stdout, [], "nothing from a directory others can write is shown")
        XCTAssertEqual(out.stderr, ["sysstats: not reading the snapshot: runtime directory \(dir.path) has mode 0777; "
                                    + "it must be 0700 (chmod 700 \(dir.path))"])
    }

    func testARuntimeDirectoryThatIsASymlinkIsRefused() throws {
        let real = try TemporaryDirectory()
        try real.write(Samples.laptop)
        let parent = try TemporaryDirectory()
        let link = parent.file("run")
        XCTAssertEqual(symlink(real.path, link), 0)
        let out = Report.run(path: link + "/snapshot", json: false, nowMs: now)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stderr, ["sysstats: not reading the snapshot: runtime directory \(link) is a symbolic link; refusing to use it"])
    }

    func testARuntimeDirectoryOwnedBySomeoneElseIsRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a directory to another user") }
        let dir = try TemporaryDirectory()
        try dir.write(Samples.laptop)
        XCTAssertEqual(chown(dir.path, 65534, 65534), 0)
        let out = Report.run(path: dir.file("snapshot"), json: true, nowMs: now)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stdout, [])
        XCTAssertEqual(out.stderr, ["sysstats: not reading the snapshot: runtime directory \(dir.path) is owned by uid 65534, not by you (uid 0)"])
    }

    func testAnOversizedSnapshotIsRefusedWithoutReadingItAll() throws {
        let dir = try TemporaryDirectory()
        try dir.write([UInt8](repeating: 0x41, count: 1 << 20), to: "snapshot")
        let out = Report.run(path: dir.file("snapshot"), json: false, nowMs: now)
        XCTAssertEqual(out.status, 1)
        XCTAssertTrue(out.stderr.first?.contains("or more") == true, "\(out.stderr)")
    }
}
