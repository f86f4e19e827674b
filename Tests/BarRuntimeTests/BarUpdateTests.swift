import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// The loop's updates in-process: a bar over a recording sink and a runtime directory the
/// test writes, its snapshot source and output writer called as the loop calls them.
final class BarUpdateTests: RuntimeDirectoryHarness {
    func publish(processes: UInt32) throws { try publish { $0.processCount = processes } }

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
