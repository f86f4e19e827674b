import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// The snapshot source in-process: what the bar shows of a stale snapshot, a FIFO where the
/// snapshot should be, a runtime directory open to others or removed and made again, and
/// the deadlines the loop sleeps until meanwhile.
final class SnapshotSourceTests: RuntimeDirectoryHarness {
    /// Up an hour (`up 1h 0m`) plus `minutes`, written `ageMs` ago.
    func publish(minutes: UInt64 = 0, ageMs: UInt64 = 0) throws {
        try publish(ageMs: ageMs) { $0.uptimeCentiseconds = 360_000 + minutes * 6_000 }
    }

    func uptimeBar() throws -> Bar<Sink> { try bar(["--output", "text", "--blocks", "uptime"]) }

    /// The runtime directory's inotify watch, as the loop's start sets it up.
    func watch(_ b: inout Bar<Sink>) {
        giveInotify(&b)
        _ = b.addWatch()
    }

    func testAStaleSnapshotSaysTheSamplerStoppedAndTheNextOneIsShown() throws {
        // 4.5 s old at a 1 s interval: stale in half a second (the limit is 5 s).
        try publish(ageMs: 4_500)
        var b = try uptimeBar()
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "up 1h 0m\n")
        watch(&b)
        XCTAssertGreaterThanOrEqual(b.watch, 0)
        let sleep = b.nextTimeout(now: nowMs())
        XCTAssertLessThanOrEqual(sleep, 500, "the loop wakes when the snapshot goes stale")
        usleep(UInt32(max(sleep, 0) + 20) * 1000)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "sysstatsd stopped\n")
        try publish(minutes: 1)
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "up 1h 1m\n")
    }

    /// A FIFO at the snapshot's name (another local user, a mistake) is refused without
    /// blocking the bar, and a real snapshot renamed over it is shown.
    func testAFIFOAtTheSnapshotIsRefusedAtOnceAndASnapshotReplacingItIsShown() throws {
        XCTAssertEqual(mkfifo(directory.appendingPathComponent("snapshot").path, 0o600), 0)
        var b = try uptimeBar()
        XCTAssertEqual(b.load(), .refused)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "snapshot is not a regular file: refused\n")
        try publish()
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "up 1h 0m\n")
    }

    func testARuntimeDirectoryOpenToOthersIsRefusedShownAndTakenOnceFixed() throws {
        try publish()
        XCTAssertEqual(chmod(directory.path, 0o777), 0)
        var b = try uptimeBar()
        XCTAssertEqual(b.load(), .refused)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "runtime directory is open to others: chmod 700 it\n")
        watch(&b)
        XCTAssertLessThanOrEqual(b.nextTimeout(now: nowMs()), 2000, "looked at again every 2 s")
        XCTAssertEqual(chmod(directory.path, 0o700), 0)
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "up 1h 0m\n")
    }

    /// `rm -rf` of the runtime directory drops its watch; the loop's timer looks for it again
    /// and shows the snapshot of the directory made again.
    func testARuntimeDirectoryRemovedAndMadeAgainIsFoundByTheTimer() throws {
        try publish()
        var b = try uptimeBar()
        watch(&b)
        XCTAssertGreaterThanOrEqual(b.watch, 0)
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        try FileManager.default.removeItem(at: directory)
        _ = b.readInotify()
        XCTAssertEqual(b.watch, -1, "the watch went with the directory")
        XCTAssertLessThanOrEqual(b.nextTimeout(now: nowMs()), 2000, "the directory is looked for every 2 s")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try publish(minutes: 2)
        // The loop's timeout: no watch, so add one and read what is there.
        XCTAssertTrue(b.addWatch())
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "up 1h 2m\n")
    }
}
