import BarCore
@testable import BarRuntime
import Foundation
import XCTest

/// A sink whose peer stopped reading (issue 59: the Wayland panel under an EAGAIN storm,
/// its compositor's socket full, exited 0 saying "the compositor closed the connection").
/// The decision is ``WriteStall``'s, tested pure; the loop around it with a fake flush.
final class WriteStallTests: RuntimeDirectoryHarness {
    func testAFlushThatSendsEverythingEndsTheWait() {
        var stall = WriteStall(limitMs: 1000)
        XCTAssertEqual(stall.note(waiting: false, nowMs: 5), .clear)
        XCTAssertNil(stall.remainingMs(nowMs: 5), "nothing waits: no wake-up")
        XCTAssertEqual(stall.note(waiting: true, nowMs: 10), .waiting)
        XCTAssertTrue(stall.isWaiting)
        XCTAssertEqual(stall.note(waiting: false, nowMs: 900), .clear)
        XCTAssertFalse(stall.isWaiting)
        // A new wait counts from its own first EAGAIN, not from the one before.
        XCTAssertEqual(stall.note(waiting: true, nowMs: 1500), .waiting)
        XCTAssertEqual(stall.remainingMs(nowMs: 2000), 500)
    }

    func testTheWaitIsCountedFromTheFirstEAGAINAndStallsAtTheLimit() {
        var stall = WriteStall()
        XCTAssertEqual(stall.limitMs, 10_000, "ten seconds for a compositor to read again")
        XCTAssertEqual(stall.note(waiting: true, nowMs: 1000), .waiting)
        XCTAssertEqual(stall.note(waiting: true, nowMs: 6000), .waiting)
        XCTAssertEqual(stall.remainingMs(nowMs: 6000), 5000, "from the first EAGAIN, not the latest")
        XCTAssertEqual(stall.note(waiting: true, nowMs: 10_999), .waiting)
        XCTAssertEqual(stall.note(waiting: true, nowMs: 11_000), .stalled)
        XCTAssertEqual(stall.remainingMs(nowMs: 12_000), 0)
        XCTAssertEqual(stall.remainingMs(nowMs: 500), 10_000, "a clock read before the wait began is no wait")
    }

    /// A pipe's write end, full, whose reading end nobody reads: what a compositor that
    /// stopped reading is to the panel.
    func fullPipe() -> [Int32] {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        var filler = [UInt8](repeating: 0x2E, count: 65_536)
        while write(ends[1], &filler, filler.count) > 0 {}
        return ends
    }

    func stalledBar(_ sink: StalledSink) throws -> Bar<StalledSink> {
        try publish { $0.processCount = 1 }
        let arguments = ["--blocks", "procs", "--config", directory.appendingPathComponent("none.toml").path]
        var b = Bar(options: try BarOptions.parse(arguments.map { Array($0.utf8) }), runtimeDir: Array(directory.path.utf8), sink: sink)
        b.watchStdout = false
        _ = b.load()
        return b
    }

    func testTheLoopSleepsUntilTheLimitAndThenEndsTheBarWithStatusOne() throws {
        let ends = fullPipe()
        defer { close(ends[0]); close(ends[1]) }
        var sink = StalledSink(writeEnd: ends[1], stall: WriteStall(limitMs: 300))
        XCTAssertEqual(sink.flush(), .waiting)
        var b = try stalledBar(sink)
        let start = Date()
        var turns = 0
        while b.exitStatus == nil && turns < 50 && Date().timeIntervalSince(start) < 5 {
            b.turn()
            turns += 1
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(b.exitStatus, 1, "a peer that never reads again ends the bar, and not as a clean exit")
        XCTAssertGreaterThanOrEqual(elapsed, 0.2, "not before the limit")
        XCTAssertLessThan(elapsed, 1.5, "woken by the limit, not by the loop's next 2 s look at the directory")
        XCTAssertLessThanOrEqual(turns, 4, "poll() slept: no spinning on EAGAIN")
        XCTAssertLessThanOrEqual(b.sink.handled, 3, "\(b.sink.handled) calls")
    }

    func testAPeerThatReadsAgainWithinTheLimitWakesTheLoopWithPOLLOUTAndTheBarGoesOn() throws {
        let ends = fullPipe()
        defer { close(ends[0]); close(ends[1]) }
        var sink = StalledSink(writeEnd: ends[1], stall: WriteStall(limitMs: 5000))
        XCTAssertEqual(sink.flush(), .waiting)
        XCTAssertEqual(sink.pollEvents & Int16(POLLOUT), Int16(POLLOUT), "POLLOUT asked while writes wait")
        var b = try stalledBar(sink)
        let reader = ends[0]
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            _ = read(reader, &buffer, buffer.count)
        }
        let start = Date()
        var turns = 0
        while b.exitStatus == nil && b.sink.stall.isWaiting && Date().timeIntervalSince(start) < 3 {
            b.turn()
            turns += 1
        }
        XCTAssertNil(b.exitStatus)
        XCTAssertFalse(b.sink.stall.isWaiting, "the rest went once the peer read")
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.5, "woken by POLLOUT, not by a timer")
        XCTAssertLessThanOrEqual(turns, 4, "no spinning while it waited")
        XCTAssertEqual(b.sink.pollEvents, Int16(POLLIN), "POLLOUT no longer asked")
    }
}

/// A sink whose "flush" writes one byte into a pipe: EAGAIN while the pipe is full.
struct StalledSink: BarSink {
    let writeEnd: Int32
    var stall: WriteStall
    /// How many times the loop called ``handleEvents()``.
    var handled = 0

    var pollFD: Int32 { writeEnd }
    var pollEvents: Int16 { stall.isWaiting ? Int16(POLLIN | POLLOUT) : Int16(POLLIN) }
    var writeWaitMs: UInt64? { stall.isWaiting ? stall.remainingMs(nowMs: monotonicMs()) : nil }

    mutating func show(_ line: [UInt8]) -> Int32 { 0 }

    mutating func handleEvents() -> Int {
        handled += 1
        return flush() == .stalled ? sinkDestroyed : 0
    }

    /// The fake flush.
    @discardableResult
    mutating func flush() -> WriteStall.Outcome {
        var byte: UInt8 = 0x2E
        let written = write(writeEnd, &byte, 1)
        return stall.note(waiting: written < 0 && errno == EAGAIN, nowMs: monotonicMs())
    }
}

/// CLOCK_MONOTONIC in milliseconds, as the Wayland sink reads it (cbarsys_monotonic_ms).
func monotonicMs() -> UInt64 { DispatchTime.now().uptimeNanoseconds / 1_000_000 }
