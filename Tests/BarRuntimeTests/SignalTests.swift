import BarCore
@testable import BarRuntime
import CBarSys
import Foundation
import SnapshotCodec
import XCTest

/// What each signal does to the running bar, in-process (``Bar/handleSignal(_:)``, as the
/// signalfd hands them over): i3bar's stop and continue, SIGHUP's reload, the real-time
/// signals of command blocks, the end. That none of them kills the program: BarHardeningTests.
final class SignalTests: RuntimeDirectoryHarness {

    func procsBar() throws -> Bar<Sink> {
        try publishByExchange { $0.fillSample(); $0.sequence = 1 }
        var b = try bar(["--output", "i3bar", "--blocks", "procs"])
        begin(&b)
        XCTAssertEqual(b.sink.lines.count, 1)
        return b
    }

    func testTheStopSignalPausesOutputAndTheContSignalResumesItWithOneUpdate() throws {
        var b = try procsBar()
        b.handleSignal(SIGUSR1)
        for n in 2...4 {
            try publishByExchange { $0.fillSample(); $0.sequence = UInt64(n); $0.processCount = UInt32(n) }
            turns(&b, seconds: 0.2)
        }
        XCTAssertEqual(b.sink.lines.count, 1, "no output while the bar is hidden: \(b.sink.lines)")
        b.handleSignal(SIGUSR2)
        XCTAssertEqual(b.sink.lines.count, 2, "one update on continue")
        XCTAssertTrue(b.sink.lines.last?.contains(#""full_text":"procs 4 (0 run)""#) == true, b.sink.lines.last ?? "")
        b.handleSignal(SIGUSR2)
        XCTAssertEqual(b.sink.lines.count, 2, "a continue while not stopped writes nothing")
    }

    func testTermAndIntEndTheBarWithStatusZeroAndNothingMoreIsWritten() throws {
        for signal in [SIGTERM, SIGINT] {
            var b = try procsBar()
            b.handleSignal(signal)
            XCTAssertEqual(b.exitStatus, 0)
            try publishByExchange { $0.fillSample(); $0.sequence = 2; $0.processCount = 2 }
            b.emit()
            XCTAssertEqual(b.sink.lines.count, 1, "signal \(signal)")
        }
    }

    /// SIGHUP reads the file again: an edit in place that a watcher could miss.
    func testHangupReadsTheConfigFileAgain() throws {
        try publish { $0.fillSample() }
        try writeConfig("[[block]]\nblock = \"procs\"\n")
        var b = try program(["--output", "text", "--config", configFile.path])
        _ = b.load()
        b.emit()
        XCTAssertEqual(b.sink.lines.last, "procs 300 (0 run)\n")
        let file = try FileHandle(forWritingTo: configFile)
        file.truncateFile(atOffset: 0)
        file.write(Data("[[block]]\nblock = \"load\"\n".utf8))
        try file.close()
        b.handleSignal(SIGHUP)
        XCTAssertEqual(b.sink.lines.last, "load 0.52 0.48 0.40\n")
    }

    /// A real-time signal reruns the blocks that listen to it and no other; one no block
    /// listens to (any more, after a reload) does nothing, as in i3blocks.
    func testARealTimeSignalRerunsItsBlocksAndOneNoBlockListensToDoesNothing() throws {
        try publish { $0.fillSample() }
        let runs = directory.appendingPathComponent("runs").path
        try writeConfig("""
            [[block]]
            block = "command"
            name = "listens"
            command = "echo run >> \(runs); wc -l < \(runs)"
            interval = "once"
            signal = 10
            """)
        var b = try program(["--output", "text", "--config", configFile.path])
        begin(&b)
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last == "1\n" }), "\(b.sink.lines)")
        for signal in [1, 20, 30] { b.handleSignal(cbarsys_sigrtmin() + Int32(signal)) }
        turns(&b, seconds: 0.5)
        XCTAssertEqual(b.sink.lines.last, "1\n", "no block listens to those")
        b.handleSignal(cbarsys_sigrtmin() + 10)
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last == "2\n" }), "SIGRTMIN+10 reruns it: \(b.sink.lines)")
        try writeConfig("[[block]]\nblock = \"procs\"\n")
        XCTAssertTrue(turns(&b, seconds: 5, until: { $0.sink.lines.last == "procs 300 (0 run)\n" }), "\(b.sink.lines)")
        b.handleSignal(cbarsys_sigrtmin() + 10)
        turns(&b, seconds: 0.5)
        XCTAssertEqual(b.sink.lines.last, "procs 300 (0 run)\n")
        XCTAssertNil(b.exitStatus)
        XCTAssertEqual(try String(contentsOfFile: runs, encoding: .utf8), "run\nrun\n", "the dropped block never ran again")
    }
}
