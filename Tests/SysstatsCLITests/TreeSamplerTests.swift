#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import SysstatsCLI
import TestSupport
import XCTest

/// One entry per process for its whole life (issue 49, item 3), on a fixture /proc whose
/// root is this test's own pid (the sampler follows the descendants of the measuring process).
final class TreeSamplerTests: XCTestCase {
    var root: TemporaryDirectory!
    let me = getpid(), child: Int32 = 90_001

    override func setUpWithError() throws {
        root = try TemporaryDirectory("tree-sampler")
        try put("\(child) ", "\(me)/task/\(me)/children")
        try write(child, stat: "S", statm: "2048 512 128 0 0 0 0")
        try put("Rss: 2048 kB\nPss: 1024 kB\nPrivate_Clean: 0 kB\nPrivate_Dirty: 512 kB\nSwap: 0 kB\n", "\(child)/smaps_rollup")
        try put("Name:\tchild\nTgid:\t\(child)\nVmHWM:\t2048 kB\n", "\(child)/status")
        try loadavg(newest: child)
    }

    func put(_ text: String, _ name: String) throws { try root.rewrite(text, name) }

    func write(_ pid: Int32, stat state: String, statm: String) throws {
        // Fields 4 (ppid) to 22 (start time): ppid, nine zeros, utime 3, stime 4, …, 20 threads 1, 22 start time 777.
        let fields = "\(me) 0 0 0 0 0 0 0 0 0 3 4 0 0 20 0 1 0 777"
        try put("\(pid) (child) \(state) \(fields)\n", "\(pid)/stat")
        try put("\(statm)\n", "\(pid)/statm")
    }

    func loadavg(newest: Int32) throws { try put("0.00 0.00 0.00 1/100 \(newest)\n", "loadavg") }

    /// stat to field 28 (vsize, rss, rsslim, then startcode, endcode, startstack: where exec
    /// laid out the program; the kernel shows 1, 1, 0 to a reader it hides them from), statm
    /// and VmHWM.
    func write(_ pid: Int32, name: String = "child", layout: (UInt64, UInt64, UInt64), statm: String, hwmKiB: Int) throws {
        let fields = "\(me) 0 0 0 0 0 0 0 0 0 3 4 0 0 20 0 1 0 777 8388608 512 18446744073709551615 \(layout.0) \(layout.1) \(layout.2)"
        try put("\(pid) (\(name)) S \(fields)\n", "\(pid)/stat")
        try put("\(statm)\n", "\(pid)/statm")
        try put("Name:\t\(name)\nTgid:\t\(pid)\nVmHWM:\t\(hwmKiB) kB\n", "\(pid)/status")
    }

    static let image = (UInt64(0x5555_5555_4000), UInt64(0x5555_5555_9000), UInt64(0x7ffc_1234_5670))
    static let execdImage = (UInt64(0x5611_0000_4000), UInt64(0x5611_0000_9000), UInt64(0x7ffd_9876_5430))

    /// A process that frees a large block sees the kernel's VmHWM fall by a few hundred KiB:
    /// that split it into two rows ("exec", then one with no exit, no wait4 figure). It is
    /// one row; an exec (a new address space) is two, even with the same name and a VmHWM
    /// that rose.
    func testAFallingVmHWMIsNoExecAndANewAddressSpaceIs() throws {
        try write(child, layout: Self.image, statm: "2048 512 128 0 0 0 0", hwmKiB: 2048)
        // 100 ms: VmHWM is read at every sample that finds the process changed.
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 100)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        try write(child, layout: Self.image, statm: "2048 437 128 0 0 0 0", hwmKiB: 2048 - 300)
        sampler.sample(into: &recording, atMs: 100)
        XCTAssertEqual(recording.processes.count, 1, "VmHWM fell by 300 KiB, the address space is the one it had")
        XCTAssertEqual(recording.processes.first?.execd, false)
        XCTAssertEqual(recording.processes.first?.highWaterKiB, 2048, "the highest reading")
        try write(child, layout: Self.execdImage, statm: "4096 1024 256 0 0 0 0", hwmKiB: 4096)
        sampler.sample(into: &recording, atMs: 200)
        XCTAssertEqual(recording.processes.map(\.pid), [child, child], "sh -c \"exec sh …\": the same name, a new program")
        XCTAssertEqual(recording.processes.map(\.execd), [true, false])
        XCTAssertEqual(recording.processes.last?.firstSample, 2)
        XCTAssertEqual(recording.processes.last?.highWaterKiB, 4096, "the new image's own high-water mark")
        XCTAssertEqual(recording.processes.first?.values.count, 2)
    }

    /// A program that renames itself (prctl PR_SET_NAME, node's process.title) keeps its
    /// address space: one row, under its new name. Where the kernel hides the layout (a
    /// setuid program's), a new name is all there is to go by: an exec.
    func testARenameIsNoExecUnlessTheLayoutIsHidden() throws {
        try write(child, layout: Self.image, statm: "2048 512 128 0 0 0 0", hwmKiB: 2048)
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 100)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        try write(child, name: "worker", layout: Self.image, statm: "2048 520 128 0 0 0 0", hwmKiB: 2080)
        sampler.sample(into: &recording, atMs: 100)
        XCTAssertEqual(recording.processes.count, 1)
        XCTAssertEqual(recording.processes.first.map { String(decoding: $0.name, as: UTF8.self) }, "worker")

        let other: Int32 = child + 1
        try put("\(child) \(other) ", "\(me)/task/\(me)/children")
        try loadavg(newest: other)
        try write(other, name: "helper", layout: (1, 1, 0), statm: "1024 256 64 0 0 0 0", hwmKiB: 1024)
        sampler.sample(into: &recording, atMs: 200)
        try write(other, name: "helper", layout: (1, 1, 0), statm: "1024 200 64 0 0 0 0", hwmKiB: 900)
        sampler.sample(into: &recording, atMs: 300)
        XCTAssertEqual(recording.processes.filter { $0.pid == other }.count, 1, "hidden layout, same name, VmHWM fell: one row")
        try write(other, name: "prog", layout: (1, 1, 0), statm: "4096 1024 64 0 0 0 0", hwmKiB: 4096)
        sampler.sample(into: &recording, atMs: 400)
        XCTAssertEqual(recording.processes.filter { $0.pid == other }.map(\.execd), [true, false], "hidden layout, a new name: exec")
    }

    /// A process whose statm read zeros while it exited, then was read again, was dropped and
    /// added as a second process (2 to 8 reported for one).
    func testAProcessReadAsGoneThenSeenAgainKeepsItsOneEntry() throws {
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        XCTAssertEqual(recording.processes.map(\.pid), [child])
        try write(child, stat: "S", statm: "0 0 0 0 0 0 0")
        sampler.sample(into: &recording, atMs: 10)
        try write(child, stat: "S", statm: "2048 512 128 0 0 0 0")
        sampler.sample(into: &recording, atMs: 20)
        XCTAssertEqual(recording.processes.map(\.pid), [child], "one entry for its whole life")
        XCTAssertEqual(recording.processes.first?.values.count, 2, "its samples: \(recording.sampleTimesMs)")
    }

    /// `sh -c "exec prog"` read as gone in the middle of its exec (the new image's statm
    /// empty for a moment), then found again: it came back renamed under the shell's entry,
    /// then split at the next read, two entries named "prog" for one pid; the budget line
    /// looked up the one without the peak (a CI run: "not read (its high came and went …)").
    func testAProcessReadAsGoneMidExecComesBackAsANewProgram() throws {
        try write(child, name: "sh", layout: Self.image, statm: "2048 512 128 0 0 0 0", hwmKiB: 2048)
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 100)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        try put("0 0 0 0 0 0 0\n", "\(child)/statm")
        sampler.sample(into: &recording, atMs: 100)
        try write(child, name: "prog", layout: Self.execdImage, statm: "8192 6144 128 0 0 0 0", hwmKiB: 24576)
        sampler.sample(into: &recording, atMs: 200)
        sampler.sample(into: &recording, atMs: 300)
        XCTAssertEqual(recording.processes.map { String(decoding: $0.name, as: UTF8.self) }, ["sh", "prog"])
        XCTAssertEqual(recording.processes.map(\.execd), [true, false])
        XCTAssertEqual(recording.processes.last?.firstSample, 1)
    }

    /// A child created between the loadavg read and the walk was found by the walk and then
    /// admitted again at the next sample (its pid is in the new range): counted twice.
    func testAChildFoundByAWalkIsNotAdmittedAgain() throws {
        try loadavg(newest: child - 1)
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        try loadavg(newest: child)
        sampler.sample(into: &recording, atMs: 10)
        XCTAssertEqual(recording.processes.map(\.pid), [child])
        XCTAssertEqual(sampler.liveCount, 1)
    }

    /// A pre-fork server (Tests/Fixtures/measure/prefork-arena): the parent's 64 MiB
    /// MAP_SHARED|MAP_ANONYMOUS arena, which its three workers use, is shmem. smaps_rollup's
    /// `Anonymous` leaves it out: the tree's anonymous memory read 0.4 MiB and a 16 MiB
    /// peak_anon budget passed. It is the program's own memory, counted once (Pss_Shmem).
    func testAPreforkServersSharedArenaIsItsAnonymousMemoryOnce() throws {
        let fixture = Fixtures.path("measure/prefork-arena")
        let workers: [Int32] = [child + 1, child + 2, child + 3]
        // The Anonymous line's number: what the figure was before shmem counted.
        func anonymousLine(_ rollup: String) -> UInt64 {
            rollup.split(separator: "\n").first { $0.hasPrefix("Anonymous:") }.flatMap { UInt64($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        }
        let parentRollup = try String(contentsOfFile: fixture + "/parent.smaps_rollup", encoding: .utf8)
        try put(parentRollup, "\(child)/smaps_rollup")
        try write(child, stat: "S", statm: "72000 16820 16794 0 0 0 0")
        try put(workers.map { "\($0) " }.joined(), "\(child)/task/\(child)/children")
        var anonymousLines = anonymousLine(parentRollup)
        for (i, worker) in workers.enumerated() {
            let rollup = try String(contentsOfFile: fixture + "/worker-\(i + 1).smaps_rollup", encoding: .utf8)
            try put(rollup, "\(worker)/smaps_rollup")
            try put("\(worker) (worker) S \(child) 0 0 0 0 0 0 0 0 0 3 4 0 0 20 0 1 0 777\n", "\(worker)/stat")
            try put("71900 16808 16784 0 0 0 0\n", "\(worker)/statm")
            try put("Name:\tworker\nTgid:\t\(worker)\nVmHWM:\t67232 kB\n", "\(worker)/status")
            anonymousLines += anonymousLine(rollup)
        }
        try loadavg(newest: workers.last!)
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        for ms in [0, 10, 20] as [UInt64] { sampler.sample(into: &recording, atMs: ms) }
        XCTAssertEqual(recording.processes.map(\.pid).sorted(), [child] + workers)
        XCTAssertEqual(anonymousLines, 392, "what Anonymous summed to over the tree: 0.4 MiB")
        let summary = MeasureSummary(recording, warmupMs: 0)
        XCTAssertEqual(summary.treePeaks[.anon]?.kib, 16443 + 3 * 16435, "the arena once (4 × 16384 KiB) and four heaps and stacks")
        XCTAssertGreaterThan(summary.treePeaks[.rss]?.kib ?? 0, 4 * 65536, "RSS counts the arena four times")
        var budget = Budget(name: "prefork", command: "x")
        budget.peakAnon = 16 << 20
        let result = BudgetResult(budget: budget, summary: summary)
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.line.hasPrefix("FAIL prefork: peak_anon 64.2 MiB of 16.0 MiB ("), result.line)
    }
}
