#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import SysstatsCLI
import TestSupport
import XCTest

/// Where a process's memory was (/proc/PID/smaps by kind) read at its high (issue 60, items 4
/// and 11): in its first milliseconds too, at each step of a spike rather than a quarter of a
/// second apart, for a few of a storm's alike children rather than each, and within a share
/// of the run's time, saying so when it was not read. On a fixture /proc whose root is this
/// test's pid.
final class TreeSamplerBreakdownTests: XCTestCase {
    var root: TemporaryDirectory!
    let me = getpid(), first: Int32 = 91_001

    override func setUpWithError() throws { root = try TemporaryDirectory("tree-breakdown") }

    func put(_ text: String, _ name: String) throws { try root.rewrite(text, name) }

    /// `pid`, a child of this test, holding `mib` MiB of anonymous memory (and 512 KiB of libc).
    func process(_ pid: Int32, mib: Int) throws {
        let kib = mib * 1024 + 512
        try put("\(pid) (child) S \(me) 0 0 0 0 0 0 0 0 0 3 4 0 0 20 0 1 0 777\n", "\(pid)/stat")
        try put("\(kib / 2 + 1000) \(kib / 4) 128 0 0 0 0\n", "\(pid)/statm")
        try put("Rss: \(kib) kB\nPss: \(kib - 256) kB\nPrivate_Clean: 0 kB\nPrivate_Dirty: \(mib * 1024) kB\nSwap: 0 kB\n", "\(pid)/smaps_rollup")
        try put("Name:\tchild\nTgid:\t\(pid)\nVmHWM:\t\(kib) kB\n", "\(pid)/status")
        try put(SmapsMappingsTests.mapping("7f0000000000-7f0040000000 rw-p 00000000 00:00 0 ", rss: mib * 1024, pss: mib * 1024,
                                           privateDirty: mib * 1024, anonymous: mib * 1024)
                + SmapsMappingsTests.mapping("7f1000000000-7f1000200000 r-xp 00000000 08:01 1234 /usr/lib/x86_64-linux-gnu/libc.so.6",
                                             rss: 512, pss: 256, privateDirty: 0, anonymous: 0), "\(pid)/smaps")
    }

    /// One sample, with the reads' time spent so far forgotten: these tests pin which reads are
    /// made, and a loaded machine's slow reads must not spend the allowance for them (the share
    /// itself is pinned by the last test).
    func sample(_ sampler: TreeSampler, _ recording: inout Recording, atMs ms: UInt64) {
        sampler.mappingsSpentNs = 0
        sampler.sample(into: &recording, atMs: ms)
    }

    func children(_ pids: [Int32]) throws {
        try put(pids.map { "\($0) " }.joined(), "\(me)/task/\(me)/children")
        try put("0.00 0.00 0.00 1/100 \(pids.max() ?? first)\n", "loadavg")
    }

    /// The 0.6 s program that mallocs 24 MiB at once was read only after its first 100 ms,
    /// and under load not at all: its breakdown is read at the first sample that sees it.
    func testAProcessThatPeaksInItsFirstSampleHasItsBreakdownReadThere() throws {
        try process(first, mib: 24)
        try children([first])
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sample(sampler, &recording, atMs: 3)
        let p = try XCTUnwrap(recording.processes.first)
        XCTAssertEqual(p.peakMappingsRSSKiB, 24 * 1024 + 512)
        XCTAssertEqual(p.peakMappingsAtMs, 3)
        XCTAssertEqual(p.peakMappings.first?.name, Array("anon".utf8))
        XCTAssertNil(p.mappingsMissed)
    }

    /// A spike read 250 ms apart at most was broken down at 228 of its 297 MiB: each sample
    /// that finds it 5 % higher reads it again.
    func testASpikeIsBrokenDownAtItsHighestSampleNotAQuarterSecondBefore() throws {
        try process(first, mib: 1)
        try children([first])
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        for (ms, mib) in [(0, 1), (10, 60), (20, 180), (30, 297), (40, 5)] {
            try process(first, mib: mib)
            sample(sampler, &recording, atMs: UInt64(ms))
        }
        let p = try XCTUnwrap(recording.processes.first)
        XCTAssertEqual(p.peakMappingsRSSKiB, 297 * 1024 + 512)
        XCTAssertEqual(p.peakMappingsAtMs, 30)
    }

    /// A rise under the 10 % step is read where it stops: the high it holds is its peak so far.
    func testARiseSmallerThanAStepIsBrokenDownWhereItStops() throws {
        try process(first, mib: 100)
        try children([first])
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        for (ms, mib) in [(0, 100), (10, 103), (20, 106), (30, 106), (40, 106)] {
            try process(first, mib: mib)
            sample(sampler, &recording, atMs: UInt64(ms))
        }
        let p = try XCTUnwrap(recording.processes.first)
        XCTAssertEqual(p.peakMappingsRSSKiB, 106 * 1024 + 512)
        XCTAssertEqual(p.peakMappingsAtMs, 30)
    }

    /// A process that grows between statm's read and smaps' is broken down at what its
    /// mappings add up to: a line said "at 21.5 MiB of RSS: anon 23.5 MiB".
    func testABreakdownReadAfterTheProcessGrewIsSaidToBeAtWhatItAddsUpTo() throws {
        try process(first, mib: 24)
        try put("7000 \((10 * 1024 + 512) / 4) 128 0 0 0 0\n", "\(first)/statm")
        try children([first])
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sample(sampler, &recording, atMs: 0)
        let p = try XCTUnwrap(recording.processes.first)
        XCTAssertEqual(p.peakMappingsRSSKiB, 24 * 1024 + 512)
        let row = try XCTUnwrap(MeasureSummary(recording, warmupMs: 0).processes.first)
        XCTAssertEqual(BudgetResult.whereItWas(row, rssKiB: 25 * 1024, .rss), ": anon 24.0 MiB, libc.so.6 512 KiB")
    }

    /// Twenty alike children one after another: five breakdowns (the report shows five), not
    /// twenty page-table walks.
    func testAStormOfAlikeChildrenReadsFiveBreakdownsNotOneEach() throws {
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        for k in 0..<20 {
            let pid = first + Int32(k)
            if k > 0 { try put("0 0 0 0 0 0 0\n", "\(pid - 1)/statm") }
            try process(pid, mib: 4)
            try children([pid])
            sample(sampler, &recording, atMs: UInt64(k * 10))
            sample(sampler, &recording, atMs: UInt64(k * 10 + 5))
        }
        XCTAssertEqual(recording.processes.count, 20)
        XCTAssertEqual(recording.processes.filter { !$0.peakMappings.isEmpty }.count, 5)
        // A larger one later is read: it is among the five largest.
        try put("0 0 0 0 0 0 0\n", "\(first + 19)/statm")
        try process(first + 20, mib: 6)
        try children([first + 20])
        sample(sampler, &recording, atMs: 300)
        XCTAssertFalse(try XCTUnwrap(recording.processes.last).peakMappings.isEmpty)
    }

    /// Past the reads' share of the run's time, a high is not broken down, and the line that
    /// names the process says why instead of nothing.
    func testOverTheReadsShareAProcessSaysWhyItsBreakdownIsMissing() throws {
        try process(first, mib: 24)
        try children([first])
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        sampler.mappingsSpentNs = 60_000_000_000
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        sampler.sample(into: &recording, atMs: 10)
        sampler.sample(into: &recording, atMs: 20)
        let p = try XCTUnwrap(recording.processes.first)
        XCTAssertTrue(p.peakMappings.isEmpty)
        XCTAssertEqual(p.mappingsMissed, .costAllowance)
        let summary = MeasureSummary(recording, warmupMs: 0)
        let row = try XCTUnwrap(summary.processes.first)
        XCTAssertEqual(BudgetResult.whereItWas(row, rssKiB: row.peakRSSKiB, .rss),
                       "; where its memory was: not read (the breakdown reads had spent their share of the run's time)")
        // Read later, well below the figure: the words say at what RSS.
        sampler.mappingsSpentNs = 0
        try process(first, mib: 25)
        sampler.sample(into: &recording, atMs: 30)
        let again = try XCTUnwrap(MeasureSummary(recording, warmupMs: 0).processes.first)
        XCTAssertEqual(BudgetResult.whereItWas(again, rssKiB: 100 * 1024, .rss), ": at 25.5 MiB of RSS: anon 25.0 MiB, libc.so.6 512 KiB")
        XCTAssertEqual(BudgetResult.whereItWas(again, rssKiB: again.peakRSSKiB, .rss), ": anon 25.0 MiB, libc.so.6 512 KiB")
    }
}
