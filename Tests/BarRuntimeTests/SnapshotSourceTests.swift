import BarCore
@testable import BarRuntimeHosted
import Foundation
import SnapshotCodec
import XCTest

/// The snapshot source in-process: what the bar shows of a stale snapshot, a FIFO where the
/// snapshot should be, a runtime directory open to others or removed and made again, and
/// the deadlines the loop sleeps until meanwhile.
final class SnapshotSourceTests: XCTestCase {
    typealias Sink = BarUpdateTests.RecordingSink
    var directory: URL!
    var descriptors: [Int32] = []

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        setenv("SYSSTATS_NO_START_SAMPLER", "1", 1)
    }

    override func tearDownWithError() throws {
        for fd in descriptors { close(fd) }
        try? FileManager.default.removeItem(at: directory)
    }

    func now() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

    /// Up an hour (`up 1h 0m`) plus `minutes`, written `ageMs` ago at a 1 s interval.
    func publish(minutes: UInt64 = 0, ageMs: UInt64 = 0) throws {
        var s = Snapshot()
        s.timestampMs = now() - ageMs
        s.intervalMs = 1000
        s.uptimeCentiseconds = 360_000 + minutes * 6_000
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        try Data(bytes).write(to: directory.appendingPathComponent("snapshot"), options: .atomic)
    }

    func uptimeBar() throws -> Bar<Sink> {
        let arguments = ["--output", "text", "--blocks", "uptime", "--config", directory.appendingPathComponent("none.toml").path]
        return Bar(options: try BarOptions.parse(arguments.map { Array($0.utf8) }), runtimeDir: Array(directory.path.utf8), sink: Sink())
    }

    /// The runtime directory's inotify watch, as the loop's start sets it up.
    func watch(_ b: inout Bar<Sink>) {
        b.inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        descriptors.append(b.inotifyFD)
        XCTAssertGreaterThanOrEqual(b.inotifyFD, 0)
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
        let sleep = b.nextTimeout(now: now())
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
        XCTAssertLessThanOrEqual(b.nextTimeout(now: now()), 2000, "looked at again every 2 s")
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
        XCTAssertLessThanOrEqual(b.nextTimeout(now: now()), 2000, "the directory is looked for every 2 s")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try publish(minutes: 2)
        // The loop's timeout: no watch, so add one and read what is there.
        XCTAssertTrue(b.addWatch())
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "up 1h 2m\n")
    }
}
