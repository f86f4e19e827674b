import BarCore
@testable import BarRuntimeHosted
import Foundation
import SnapshotCodec
import XCTest

/// Keeps every line shown; reports EPIPE once `closed`.
struct RecordingSink: BarSink {
    var lines: [String] = []
    var closed = false
    var pollFD: Int32 { -1 }
    mutating func show(_ line: [UInt8]) -> Int32 {
        if closed { return EPIPE }
        lines.append(String(decoding: line, as: UTF8.self))
        return 0
    }
    mutating func handleEvents() -> Int { 0 }
}

/// A runtime directory of the test's own (0700, removed at the end), snapshots written into
/// it by rename as the sampler writes them, and bars over it that show on a recording sink.
class RuntimeDirectoryHarness: XCTestCase {
    typealias Sink = RecordingSink
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        setenv("SYSSTATS_NO_START_SAMPLER", "1", 1)
    }

    /// The inotify descriptors ``giveInotify(_:)`` made, closed at the end.
    var inotifyFDs: [Int32] = []

    override func tearDownWithError() throws {
        for fd in inotifyFDs { close(fd) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The inotify descriptor the loop's start gives a bar.
    func giveInotify(_ b: inout Bar<Sink>) {
        b.inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        XCTAssertGreaterThanOrEqual(b.inotifyFD, 0)
        inotifyFDs.append(b.inotifyFD)
    }

    func nowMs() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

    /// A snapshot written now (less `ageMs`) at a 1 s interval, its figures set by `fill`.
    func publish(ageMs: UInt64 = 0, _ fill: (inout Snapshot) -> Void) throws {
        var s = Snapshot()
        s.timestampMs = nowMs() - ageMs
        s.intervalMs = 1000
        fill(&s)
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        try Data(bytes).write(to: directory.appendingPathComponent("snapshot"), options: .atomic)
    }

    /// A bar over the runtime directory for `arguments`, with no config file unless they name one.
    func bar(_ arguments: [String]) throws -> Bar<Sink> {
        let config = arguments.contains("--config") ? [] : ["--config", directory.appendingPathComponent("none.toml").path]
        let options = try BarOptions.parse((arguments + config).map { Array($0.utf8) })
        return Bar(options: options, runtimeDir: Array(directory.path.utf8), sink: Sink())
    }
}
