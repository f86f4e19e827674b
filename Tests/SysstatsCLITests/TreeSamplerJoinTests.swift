#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import SysstatsCLI
import TestSupport
import XCTest

/// A member joining or ending moves the others' shares of the pages it shares, by no more
/// than its own share (issue 60, item 12): the sampler reads the newcomer and its parent, and
/// the rest of the tree only when what it cannot have seen could move the figures by more
/// than 1 % of the tree. On a fixture /proc whose root is this test's pid.
final class TreeSamplerJoinTests: XCTestCase {
    var root: TemporaryDirectory!
    let me = getpid(), parent: Int32 = 92_001
    var siblings: [Int32] { [parent + 1, parent + 2, parent + 3] }
    var newcomer: Int32 { parent + 4 }

    override func setUpWithError() throws {
        root = try TemporaryDirectory("tree-join")
        try process(parent, parentPid: me, rss: 51_200, pss: 40_000, uss: 30_000)
        for s in siblings { try process(s, parentPid: parent, rss: 20_000, pss: 3_000, uss: 100) }
        try put("\(parent) ", "\(me)/task/\(me)/children")
        try put(siblings.map { "\($0) " }.joined(), "\(parent)/task/\(parent)/children")
        try put("0.00 0.00 0.00 1/100 \(siblings.last!)\n", "loadavg")
    }

    func put(_ text: String, _ name: String) throws { try root.rewrite(text, name) }

    /// A process of `rss`, `pss` and `uss` KiB; statm's resident pages from `rss` unless given.
    func process(_ pid: Int32, parentPid: Int32, rss: Int, pss: Int, uss: Int) throws {
        try put("\(pid) (p) S \(parentPid) 0 0 0 0 0 0 0 0 0 3 4 0 0 20 0 1 0 777\n", "\(pid)/stat")
        try put("\(rss / 2) \(rss / 4) 100 0 0 0 0\n", "\(pid)/statm")
        try rollup(pid, rss: rss, pss: pss, uss: uss)
        try put("Name:\tp\nTgid:\t\(pid)\nVmHWM:\t\(rss) kB\n", "\(pid)/status")
    }

    func rollup(_ pid: Int32, rss: Int, pss: Int, uss: Int) throws {
        try put("Rss: \(rss) kB\nPss: \(pss) kB\nPrivate_Clean: 0 kB\nPrivate_Dirty: \(uss) kB\nSwap: 0 kB\n", "\(pid)/smaps_rollup")
    }

    /// The tree at its first sample, then the newcomer forked by the parent: it shares 20 MiB
    /// of the parent's pages, whose share of them halves (`parentPSSAfter`). The siblings'
    /// files say something else now, which a read would show.
    func sampleAfterAFork(parentPSSAfter: Int) throws -> TreeSampler {
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        XCTAssertEqual(sampler.entries.map(\.memory.pssKiB), [40_000, 3_000, 3_000, 3_000])
        try process(newcomer, parentPid: parent, rss: 51_200, pss: 10_100, uss: 100)
        try rollup(parent, rss: 51_200, pss: parentPSSAfter, uss: 10_000)
        for s in siblings { try rollup(s, rss: 20_000, pss: 2_999, uss: 100) }
        try put((siblings + [newcomer]).map { "\($0) " }.joined(), "\(parent)/task/\(parent)/children")
        try put("0.00 0.00 0.00 1/100 \(newcomer)\n", "loadavg")
        sampler.sample(into: &recording, atMs: 10)
        XCTAssertEqual(recording.processes.map(\.pid), [parent] + siblings + [newcomer])
        return sampler
    }

    /// The parent is seen to give the newcomer the share it took: the siblings' 3 MiB each
    /// stand without three page-table walks, until the refresh.
    func testAForkReadsTheNewcomerAndItsParentNotItsSiblings() throws {
        let sampler = try sampleAfterAFork(parentPSSAfter: 30_000)
        XCTAssertEqual(sampler.entries.map(\.memory.pssKiB), [30_000, 3_000, 3_000, 3_000, 10_100])
        XCTAssertTrue(sampler.figuresEstimated, "the next refresh reads every member")
    }

    /// The parent's share did not move: the newcomer's 10 MiB share came from processes
    /// not read, and every member is read.
    func testWhatTheReadsCannotAccountForReadsTheWholeTree() throws {
        let sampler = try sampleAfterAFork(parentPSSAfter: 40_000)
        XCTAssertEqual(sampler.entries.map(\.memory.pssKiB), [40_000, 2_999, 2_999, 2_999, 10_100])
        XCTAssertFalse(sampler.figuresEstimated)
    }

    /// A sibling ends: its 2.9 MiB share goes back to the others; the parent is seen to take
    /// it, and the others stand.
    func testAnEndedChildsShareSeenAtItsParentLeavesTheOthersUnread() throws {
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        try put("0 0 0 0 0 0 0\n", "\(siblings[0])/statm")
        try put(siblings.dropFirst().map { "\($0) " }.joined(), "\(parent)/task/\(parent)/children")
        try rollup(parent, rss: 51_200, pss: 42_900, uss: 30_000)
        for s in siblings.dropFirst() { try rollup(s, rss: 20_000, pss: 3_001, uss: 100) }
        sampler.sample(into: &recording, atMs: 10)
        XCTAssertEqual(sampler.entries.map(\.pid), [parent] + siblings.dropFirst())
        XCTAssertEqual(sampler.entries.map(\.memory.pssKiB), [42_900, 3_000, 3_000])
    }
}
