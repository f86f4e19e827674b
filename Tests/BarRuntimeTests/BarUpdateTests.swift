import BarCore
@testable import BarRuntimeHosted
import Foundation
import SnapshotCodec
import XCTest

/// The loop's updates in-process: a bar over a recording sink and a runtime directory the
/// test writes, its snapshot source and output writer called as the loop calls them.
final class BarUpdateTests: XCTestCase {
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

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        setenv("SYSSTATS_NO_START_SAMPLER", "1", 1)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func publish(processes: UInt32) throws {
        var s = Snapshot()
        s.timestampMs = UInt64(Date().timeIntervalSince1970 * 1000)
        s.intervalMs = 1000
        s.processCount = processes
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        try Data(bytes).write(to: directory.appendingPathComponent("snapshot"), options: .atomic)
    }

    func bar(_ arguments: [String]) throws -> Bar<RecordingSink> {
        let options = try BarOptions.parse(arguments.map { Array($0.utf8) } + [Array("--config".utf8), Array(directory.appendingPathComponent("none.toml").path.utf8)])
        return Bar(options: options, runtimeDir: Array(directory.path.utf8), sink: RecordingSink())
    }

    func testAnUpdateThatWouldWriteTheSameLineWritesNothing() throws {
        try publish(processes: 300)
        var b = try bar(["--output", "text", "--blocks", "procs"])
        XCTAssertEqual(b.load(), .fresh)
        b.emit(); b.emit()
        XCTAssertEqual(b.sink.lines, ["procs 300 (0 run)\n"], "the second update is the same line")
        try publish(processes: 301)
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "procs 301 (0 run)\n")
        XCTAssertEqual(b.sink.lines.count, 2)
    }

    func testCommandOutputUpdatesAreSpacedAtMostTwentyASecond() throws {
        try publish(processes: 300)
        var b = try bar(["--output", "text", "--blocks", "procs"])
        _ = b.load()
        b.emitSoon()
        XCTAssertEqual(b.sink.lines.count, 1, "the first at once")
        XCTAssertNil(b.emitDueMs)
        b.emitSoon()
        let due = try XCTUnwrap(b.emitDueMs, "the next waits")
        XCTAssertEqual(due, b.lastEmitMs + Bar<RecordingSink>.commandUpdateGapMs)
        XCTAssertEqual(Bar<RecordingSink>.commandUpdateGapMs, 50)
        XCTAssertLessThanOrEqual(b.nextTimeout(now: b.lastEmitMs), 50, "the loop wakes for it")
    }

    func testAClosedOutputEndsTheLoopWithStatusZeroInsteadOfExiting() throws {
        try publish(processes: 300)
        var b = try bar(["--output", "text", "--blocks", "procs"])
        _ = b.load()
        b.sink.closed = true
        b.emit()
        XCTAssertEqual(b.exitStatus, 0, "EPIPE: the reader went away")
        b.end(1)
        XCTAssertEqual(b.exitStatus, 0, "the first reason wins")
        XCTAssertEqual(b.stopCommands(returning: b.exitStatus ?? 9), 0)
    }
}

extension LoadResult: Equatable {}
