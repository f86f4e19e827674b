import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// The running bar over a sampler that publishes by exchanging its two files, in-process:
/// every publication shown, the newest after the loop did not turn for a while (the bar
/// stopped, busy, swapped out), a restarted sampler's run, a runtime directory made again.
/// The bar keeps both files open and reads the new one without opening it (BarSyscallTests
/// counts the calls).
final class SnapshotStreamTests: RuntimeDirectoryHarness {
    /// Snapshot `sequence` of a run, its `procs` block showing `processes`: which snapshot a
    /// line shows.
    func exchange(_ sequence: Int, processes: Int) throws {
        try publishByExchange { s in
            s.fillSample()
            s.sequence = UInt64(sequence)
            s.processCount = UInt32(processes)
        }
    }

    func procsBar() throws -> Bar<Sink> {
        var b = try bar(["--output", "text", "--blocks", "procs"])
        begin(&b)
        return b
    }

    func shows(_ b: inout Bar<Sink>, _ processes: Int) -> Bool {
        turns(&b, seconds: 3, until: { $0.sink.lines.last == "procs \(processes) (0 run)\n" })
    }

    func testEachExchangedSnapshotIsShownAndTheNewestAfterTheLoopWasAway() throws {
        try exchange(1, processes: 1)
        var b = try procsBar()
        XCTAssertEqual(b.sink.lines.last, "procs 1 (0 run)\n")
        for n in 2...12 {
            try exchange(n, processes: n)
            XCTAssertTrue(shows(&b, n), "publication \(n): \(b.sink.lines.suffix(3))")
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let targets = Set(open.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") })
        XCTAssertTrue(targets.contains(directory.path + "/snapshot") && targets.contains(directory.path + "/.snapshot.tmp"),
                      "both files kept open: \(targets.sorted())")
        // The loop away while an odd, then an even number of snapshots came: the newest is shown.
        for (first, last) in [(13, 17), (18, 21)] {
            for n in first...last { try exchange(n, processes: n) }
            XCTAssertTrue(shows(&b, last), "after \(first)...\(last): \(b.sink.lines.suffix(3))")
        }
        // A restarted sampler: a new file renamed into place, its sequence from 1 again; then
        // it exchanges, counting on.
        try publish { $0.fillSample(); $0.sequence = 1; $0.processCount = 500 }
        XCTAssertTrue(shows(&b, 500), "\(b.sink.lines.suffix(3))")
        for n in 2...6 {
            try exchange(n, processes: 500 + n)
            XCTAssertTrue(shows(&b, 500 + n), "\(b.sink.lines.suffix(3))")
        }
        // Restarted again, keeping the same two files.
        for n in 1...4 {
            try exchange(n, processes: 900 + n)
            XCTAssertTrue(shows(&b, 900 + n), "\(b.sink.lines.suffix(3))")
        }
    }

    /// Away while the sampler was restarted: the old run's two files hold sequences just
    /// ahead of the last shown, and as many events came as could make one of them look
    /// next. A rename among the events (the new run's first file) says the count means
    /// nothing: the bar reads by path and shows the new run.
    func testALoopAwayOverASamplerRestartShowsTheNewRunNotAnOldFile() throws {
        try exchange(12, processes: 12)
        var b = try procsBar()
        for n in 13...16 {
            try exchange(n, processes: n)
            XCTAssertTrue(shows(&b, n), "\(b.sink.lines.suffix(3))")
        }
        for n in 17...19 { try exchange(n, processes: n) }
        // The restart: the spare removed, a new file renamed over `snapshot`, then exchanges.
        XCTAssertEqual(unlink(directory.appendingPathComponent(".snapshot.tmp").path), 0)
        try publish { $0.fillSample(); $0.sequence = 1; $0.processCount = 701 }
        for n in 2...3 { try exchange(n, processes: 700 + n) }
        XCTAssertTrue(shows(&b, 703), "\(b.sink.lines.suffix(3))")
        let afterAway = b.sink.lines.drop { $0 != "procs 16 (0 run)\n" }.dropFirst()
        XCTAssertTrue(afterAway.allSatisfy { $0.hasPrefix("procs 70") }, "no file of the old run shown: \(Array(afterAway))")
    }

    /// `rm -rf` of the runtime directory while the sampler exchanges its files, twice: each
    /// new directory's snapshot is shown.
    func testARuntimeDirectoryRemovedAndMadeAgainIsFoundWithItsExchangedFiles() throws {
        try exchange(1, processes: 111)
        try exchange(2, processes: 111)
        var b = try procsBar()
        XCTAssertEqual(b.sink.lines.last, "procs 111 (0 run)\n")
        for round in 1...2 {
            try FileManager.default.removeItem(at: directory)
            turns(&b, seconds: 0.2)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try exchange(3, processes: 200 + round)
            XCTAssertTrue(turns(&b, seconds: 6, until: { $0.sink.lines.last == "procs \(200 + round) (0 run)\n" }),
                          "round \(round): the new directory's snapshot is shown: \(b.sink.lines.suffix(2))")
        }
    }
}
