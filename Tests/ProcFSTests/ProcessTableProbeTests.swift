import Foundation
import XCTest
@testable import ProcFS

/// Cost proportional to change, on the real /proc: with every process watched by a pidfd, a
/// scan after forks probes the pids allocated since the last scan instead of listing the proc
/// root, and exits come from the kernel. What a user sees stays as a listing would show it.
final class ProcessTableProbeTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 4096)

    /// The kernel's task counters now, as the sampler reads them.
    private func counters() throws -> TaskCounters {
        let stat = try String(contentsOfFile: "/proc/stat", encoding: .utf8)
        let forks = try XCTUnwrap(stat.split(separator: "\n").first { $0.hasPrefix("processes ") }
            .flatMap { UInt64($0.split(separator: " ")[1]) })
        let load = try String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ")
        let tasks = try XCTUnwrap(UInt32(load[3].split(separator: "/")[1]))
        let lastPid = try XCTUnwrap(UInt32(load[4].trimmingCharacters(in: .whitespacesAndNewlines)))
        return TaskCounters(forks: forks, tasks: tasks, lastPid: lastPid)
    }

    private func scan(_ table: ProcessTable, refresh: Bool = true) throws {
        XCTAssertTrue(table.scan(buffer, counters: try counters(), refresh: refresh))
    }

    private func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        var pid: pid_t = 0
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&pid, path, nil, nil, argv, environ), 0)
        return pid
    }

    private func reap(_ pid: pid_t) {
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    func testANewProcessIsFoundByProbingItsPidNotByAListing() throws {
        let table = ProcessTable(procRoot: "/proc")
        try scan(table)
        XCTAssertTrue(table.listedLastScan, "the first scan lists")
        XCTAssertTrue(table.watchesExits)
        XCTAssertEqual(table.watchedCount, table.processes.count, "every process is watched")
        let child = try spawn("/bin/sleep", ["1000"])
        defer { kill(child, SIGKILL); reap(child) }
        try scan(table)
        XCTAssertFalse(table.listedLastScan)
        XCTAssertTrue(table.probedLastScan)
        XCTAssertEqual(table.listings, 1)
        XCTAssertTrue(table.processes.contains { $0.pid == child })
        XCTAssertEqual(table.watchedCount, table.processes.count)
        // The count is the listing's: every numeric entry of /proc, no more, no less.
        let listed = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { Int($0) != nil }.count
        XCTAssertEqual(abs(table.processes.count - listed), 0, "table \(table.processes.count), /proc \(listed)")
    }

    /// A parent idle at its last read that starts children is read at the refresh whose probe
    /// finds one of them, with no full pass: what its children use is accounted for only
    /// through its reads.
    func testAnIdleParentIsReadAtTheRefreshThatFindsItsNewChild() throws {
        let fifo = NSTemporaryDirectory() + "sysstats-parent-\(getpid())"
        unlink(fifo)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let parent = try spawn("/bin/sh", ["-c", "read x < \(fifo); while :; do sleep 1; done"])
        defer { kill(parent, SIGKILL); reap(parent) }
        usleep(300_000)   // waiting on the FIFO
        let table = ProcessTable(procRoot: "/proc")
        let none = ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 1_000_000)
        XCTAssertTrue(table.scan(buffer, counters: try counters()))
        XCTAssertTrue(table.scan(buffer, counters: try counters(), idle: none))
        XCTAssertTrue(table.scan(buffer, counters: try counters(), idle: none))
        let idle = try XCTUnwrap(table.index(ofPid: parent))
        XCTAssertFalse(table.descriptors[idle].memoryWatched, "idle while it waits")
        XCTAssertNotEqual(table.descriptors[idle].readAtScan, table.scanCount, "not read: idle")
        let writer = open(fifo, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        _ = write(writer, "go\n", 3)
        close(writer)
        usleep(300_000)   // its first `sleep 1` runs
        XCTAssertTrue(table.scan(buffer, counters: try counters(), idle: none))
        XCTAssertTrue(table.probedLastScan)
        XCTAssertFalse(table.readEveryIdleProcess)
        let now = try XCTUnwrap(table.index(ofPid: parent))
        XCTAssertEqual(table.descriptors[now].readAtScan, table.scanCount, "read at the refresh that found its child")
    }

    /// A process found younger than the name delay is named by its `comm` until its next
    /// read, which reads its command line (a read of a process still in `exec` waits for it).
    func testAYoungProcessHasItsCommandLineReadAtItsNextRead() throws {
        let table = ProcessTable(procRoot: "/proc")
        try scan(table)
        let child = try spawn("/bin/sleep", ["1000.25"])
        defer { kill(child, SIGKILL); reap(child) }
        try scan(table, refresh: false)   // within the delay of its start
        let found = try XCTUnwrap(table.processes.first { $0.pid == child })
        XCTAssertEqual(found.name, found.comm, "its comm")
        XCTAssertTrue(found.commandLine.isEmpty, "not read yet")
        usleep(300_000)
        try scan(table, refresh: false)
        let read = try XCTUnwrap(table.processes.first { $0.pid == child })
        XCTAssertTrue(String(decoding: read.commandLine, as: UTF8.self).contains("1000.25"), "read at its next read")
    }

    func testAnExitIsReportedByTheKernelWithoutReadingEveryProcess() throws {
        let table = ProcessTable(procRoot: "/proc")
        let child = try spawn("/bin/sleep", ["1000"])
        try scan(table)
        XCTAssertTrue(table.processes.contains { $0.pid == child })
        kill(child, SIGKILL)
        reap(child)
        let reads = table.statReads
        try scan(table, refresh: false)
        XCTAssertFalse(table.listedLastScan)
        XCTAssertTrue(table.probedLastScan)
        XCTAssertTrue(table.exited.contains { $0.pid == child })
        XCTAssertFalse(table.processes.contains { $0.pid == child })
        XCTAssertLessThan(table.statReads - reads, 5, "the exit came from its pidfd, not from a read of every process")
        XCTAssertEqual(table.watchedCount, table.processes.count)
    }

    func testAZombieStaysListedUntilItIsReapedThenExits() throws {
        let table = ProcessTable(procRoot: "/proc")
        let child = try spawn("/bin/sleep", ["1000"])
        try scan(table)
        kill(child, SIGKILL)
        // Not reaped yet: a zombie, still in the proc root.
        var state = ""
        for _ in 0..<100 where state != "Z" {
            usleep(10_000)
            let stat = try String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)
            state = String(stat[stat.index(stat.lastIndex(of: ")")!, offsetBy: 2)])
        }
        XCTAssertEqual(state, "Z")
        let other = try spawn("/bin/true", [])   // moves the counters
        reap(other)
        try scan(table)
        XCTAssertTrue(table.probedLastScan)
        XCTAssertTrue(table.processes.contains { $0.pid == child }, "a zombie is still a process of /proc")
        XCTAssertFalse(table.exited.contains { $0.pid == child })
        reap(child)
        try scan(table)
        XCTAssertTrue(table.exited.contains { $0.pid == child }, "reaped: exited")
        XCTAssertFalse(table.processes.contains { $0.pid == child })
    }

    func testAThreadIsNotAProcessAndAShortLivedProcessCostsOnlyItsProbe() throws {
        let table = ProcessTable(procRoot: "/proc")
        try scan(table)
        final class Box: @unchecked Sendable { var threadID: Int32 = 0 }   // written before `started` signals
        let box = Box()
        let started = DispatchSemaphore(value: 0), stop = DispatchSemaphore(value: 0)
        let thread = Thread {
            // "PID/task/TID"
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            box.threadID = Int32(link.split(separator: "/").last ?? "") ?? 0
            started.signal()
            stop.wait()
        }
        thread.start()
        started.wait()
        defer { stop.signal() }
        let threadID = box.threadID
        XCTAssertGreaterThan(threadID, 0)
        XCTAssertNotEqual(threadID, getpid())
        let gone = try spawn("/bin/true", [])
        reap(gone)
        let reads = table.statReads, probed = table.probedPids
        try scan(table, refresh: false)
        XCTAssertTrue(table.probedLastScan)
        XCTAssertGreaterThanOrEqual(table.probedPids - probed, 2, "the thread's pid and the short-lived process's were probed")
        XCTAssertFalse(table.processes.contains { $0.pid == threadID }, "a thread is not a process")
        XCTAssertFalse(table.processes.contains { $0.pid == gone })
        XCTAssertFalse(table.exited.contains { $0.pid == gone }, "never seen, so not an exit")
        XCTAssertEqual(table.statReads, reads, "no file was read for either")
    }

    func testWithoutPidfdsEveryScanAfterAForkLists() throws {
        let table = ProcessTable(procRoot: "/proc", watchLimit: 0)
        try scan(table)
        XCTAssertFalse(table.watchesExits)
        let child = try spawn("/bin/sleep", ["1000"])
        defer { kill(child, SIGKILL); reap(child) }
        try scan(table)
        XCTAssertTrue(table.listedLastScan)
        XCTAssertFalse(table.probedLastScan)
        XCTAssertTrue(table.processes.contains { $0.pid == child })
    }

    func testTooFewPidfdsForEveryProcessMeansAListing() throws {
        let table = ProcessTable(procRoot: "/proc", watchLimit: 3)
        try scan(table)
        XCTAssertTrue(table.watchesExits)
        XCTAssertEqual(table.watchedCount, 3)
        let child = try spawn("/bin/sleep", ["1000"])
        defer { kill(child, SIGKILL); reap(child) }
        try scan(table)
        XCTAssertTrue(table.listedLastScan, "an unwatched process's exit would be missed: list")
        XCTAssertTrue(table.processes.contains { $0.pid == child })
    }

    func testAWrappedPidAllocatorMeansAListing() throws {
        let table = ProcessTable(procRoot: "/proc")
        var now = try counters()
        table.scan(buffer, counters: now)
        // The last pid allocated went down: the allocator came round past pid_max.
        now.forks += 1
        now.lastPid = 2
        table.scan(buffer, counters: now)
        XCTAssertTrue(table.listedLastScan)
    }
}
