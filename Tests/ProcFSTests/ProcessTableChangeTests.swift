import Foundation
import XCTest
import TestSupport
@testable import ProcFS

/// The scan's shortcuts: no listing while the kernel's task counters stand still, known
/// processes carried over unread between refreshes (but a pid that may have been reused is
/// read), and `PID/stat` descriptors kept open on a real procfs.
final class ProcessTableChangeTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 256)
    private let quiet = TaskCounters(forks: 4321, tasks: 345, lastPid: 30)

    private func pids(_ list: [ProcessSample]) -> [Int32] { list.map(\.pid).sorted() }

    private func liveTable(_ fixture: String = "procs-exit/scan1/proc") throws -> (ProcessTable, LiveTree) {
        let tree = try LiveTree()
        try tree.mirror(fixture)
        return (ProcessTable(procRoot: tree.path, pageSizeKiB: 4), tree)
    }

    func testFixtureTreeKeepsNoDescriptors() throws {
        let (table, tree) = try liveTable()
        defer { withExtendedLifetime(tree) {} }
        table.scan(buffer, counters: quiet)
        XCTAssertFalse(table.keepsDescriptors)
        XCTAssertEqual(table.keptDescriptors, 0)
    }

    func testUnchangedCountersSkipTheListing() throws {
        let (table, tree) = try liveTable()
        table.scan(buffer, counters: quiet)
        XCTAssertTrue(table.listedLastScan)
        XCTAssertEqual(pids(table.processes), [10, 20, 30])
        // A directory appears but the counters say no task was created: not listed, not seen.
        try FileManager.default.copyItem(atPath: tree.path + "/10", toPath: tree.path + "/11")
        table.scan(buffer, counters: quiet)
        XCTAssertFalse(table.listedLastScan)
        XCTAssertEqual(table.listings, 1)
        XCTAssertEqual(pids(table.processes), [10, 20, 30])
        XCTAssertTrue(table.exited.isEmpty)
        // The known processes were still read: their CPU moved.
        let stat = try String(contentsOfFile: tree.path + "/10/stat", encoding: .utf8)
        try writeFile(tree.path + "/10/stat", stat.replacingOccurrences(of: " 100 20 ", with: " 110 20 "))
        table.scan(buffer, counters: quiet)
        XCTAssertFalse(table.listedLastScan)
        XCTAssertEqual(table.processes.first { $0.pid == 10 }?.cpuDelta, 10)
    }

    func testMovedCountersList() throws {
        let (table, tree) = try liveTable()
        table.scan(buffer, counters: quiet)
        try FileManager.default.copyItem(atPath: tree.path + "/10", toPath: tree.path + "/11")
        var forked = quiet
        forked.forks += 1
        forked.tasks += 1
        forked.lastPid = 11
        table.scan(buffer, counters: forked)
        XCTAssertTrue(table.listedLastScan)
        XCTAssertEqual(pids(table.processes), [10, 11, 20, 30])
        // A task reaped: the total fell, the fork count did not move. Listed; the exit shows now.
        try FileManager.default.removeItem(atPath: tree.path + "/20")
        var reaped = forked
        reaped.tasks -= 1
        table.scan(buffer, counters: reaped)
        XCTAssertTrue(table.listedLastScan)
        XCTAssertEqual(pids(table.processes), [10, 11, 30])
        XCTAssertEqual(pids(table.exited), [20])
        XCTAssertEqual(table.listings, 3)
    }

    func testNoCountersAlwaysList() throws {
        let (table, tree) = try liveTable()
        defer { withExtendedLifetime(tree) {} }
        table.scan(buffer)
        table.scan(buffer)
        XCTAssertTrue(table.listedLastScan)
        XCTAssertEqual(table.listings, 2)
    }

    func testAnUnreadableKnownProcessHasExitedEvenWithoutAListing() throws {
        let (table, tree) = try liveTable()
        table.scan(buffer, counters: quiet)
        try FileManager.default.removeItem(atPath: tree.path + "/20")
        table.scan(buffer, counters: quiet)
        XCTAssertFalse(table.listedLastScan)
        XCTAssertEqual(pids(table.processes), [10, 30])
        XCTAssertEqual(pids(table.exited), [20])
    }

    func testWithoutRefreshKnownProcessesAreCarriedUnreadButNewAndPossiblyReusedPidsAreRead() throws {
        let (table, tree) = try liveTable()
        table.scan(buffer, counters: quiet)                    // lastPid 30
        let readsBefore = table.statReads
        // scan2: 20 exited, 30 is a new process on a reused pid, 40 is new.
        try tree.mirror("procs-exit/scan2/proc")
        let moved = TaskCounters(forks: 4323, tasks: 346, lastPid: 40)
        table.scan(buffer, counters: moved, refresh: false)
        XCTAssertTrue(table.listedLastScan)
        // 10 (≤ 30, not allocated since) is carried over unread: its old ticks stay.
        XCTAssertEqual(table.processes.first { $0.pid == 10 }?.cpuTicks, 120)
        // Only (30, 40] was allocated since: 30 itself cannot be new, so it is carried too
        // (this fixture's new 30 could not happen on a real kernel); only 40 is read.
        XCTAssertEqual(table.statReads - readsBefore, 1)
        XCTAssertEqual(pids(table.processes), [10, 30, 40])
        XCTAssertEqual(pids(table.exited), [20])
    }

    func testAPidInTheAllocatedRangeIsReadAgainAndItsReuseIsAnExit() throws {
        let (table, tree) = try liveTable()
        table.scan(buffer, counters: TaskCounters(forks: 4321, tasks: 345, lastPid: 25))
        try tree.mirror("procs-exit/scan2/proc")
        // Pids 26 … 40 were allocated since: 30 may be a new process, and is.
        table.scan(buffer, counters: TaskCounters(forks: 4330, tasks: 346, lastPid: 40), refresh: false)
        XCTAssertEqual(table.processes.first { $0.pid == 30 }?.name.text, "newthirty")
        XCTAssertEqual(pids(table.exited), [20, 30])
        XCTAssertEqual(table.processes.first { $0.pid == 10 }?.cpuTicks, 120)   // unread
        // The allocator wrapped (40 → pid_max, then from the bottom through 12): 10 may be new,
        // and is read to check; the same process, it keeps the values of the last refresh.
        let reads = table.statReads
        table.scan(buffer, counters: TaskCounters(forks: 4340, tasks: 346, lastPid: 12), refresh: false)
        XCTAssertEqual(table.statReads - reads, 1)
        XCTAssertEqual(table.processes.first { $0.pid == 10 }?.cpuTicks, 120)
        XCTAssertTrue(table.exited.isEmpty)
    }

    func testSoManyForksThatPidsMayHaveComeRoundReadEveryKnownProcess() throws {
        let (table, tree) = try liveTable()
        table.scan(buffer, counters: TaskCounters(forks: 4321, tasks: 345, lastPid: 30))
        try writeFile(tree.path + "/10/stat", try String(contentsOfFile: tree.path + "/10/stat", encoding: .utf8)
            .replacingOccurrences(of: " 100 20 ", with: " 110 20 "))
        let reads = table.statReads
        table.scan(buffer, counters: TaskCounters(forks: 4321 + ProcessTable.reuseForkBound, tasks: 345, lastPid: 31),
                   refresh: false)
        XCTAssertEqual(table.statReads - reads, 3)   // 10, 20 and 30 checked
        XCTAssertEqual(table.processes.first { $0.pid == 10 }?.cpuTicks, 120)   // values kept until the refresh
        table.scan(buffer, counters: TaskCounters(forks: 4321 + ProcessTable.reuseForkBound, tasks: 345, lastPid: 31))
        XCTAssertEqual(table.processes.first { $0.pid == 10 }?.cpuTicks, 130)
        XCTAssertEqual(table.processes.first { $0.pid == 10 }?.cpuDelta, 10)
    }

    func testUnchangedCountersWithoutRefreshReadNothing() throws {
        let (table, tree) = try liveTable()
        defer { withExtendedLifetime(tree) {} }
        table.scan(buffer, counters: quiet)
        let reads = table.statReads
        table.scan(buffer, counters: quiet, refresh: false)
        XCTAssertEqual(table.statReads, reads)
        XCTAssertEqual(pids(table.processes), [10, 20, 30])
        XCTAssertTrue(table.exited.isEmpty)
    }

    // MARK: the real /proc

    private func spawnSleeper() throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sleep")
        p.arguments = ["1000"]
        try p.run()
        return p
    }

    func testRealProcKeepsDescriptorsAndAnExitedProcessFailsItsRead() throws {
        let child = try spawnSleeper()
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)   // made up: never listed again
        table.scan(buffer, counters: counters)
        XCTAssertTrue(table.keepsDescriptors)
        XCTAssertGreaterThan(table.keptDescriptors, 0)
        XCTAssertTrue(table.processes.allSatisfy(\.readThroughKeptFiles))
        XCTAssertEqual(table.keptDescriptors, keptFiles(table))
        XCTAssertTrue(table.processes.contains { $0.pid == child.processIdentifier })
        child.terminate()
        child.waitUntilExit()
        // Not listed: the kept descriptor's read fails (ESRCH), which is the exit.
        table.scan(buffer, counters: counters)
        XCTAssertFalse(table.listedLastScan)
        XCTAssertTrue(table.exited.contains { $0.pid == child.processIdentifier })
        XCTAssertFalse(table.processes.contains { $0.pid == child.processIdentifier })
        XCTAssertEqual(table.keptDescriptors, keptFiles(table))
    }

    /// stat for every kept process, statm too unless it is a kernel thread.
    private func keptFiles(_ table: ProcessTable) -> Int {
        table.processes.reduce(0) { $0 + ($1.readThroughKeptFiles ? ($1.isKernelThread ? 1 : 2) : 0) }
    }

    func testRealProcDescriptorsAreBoundedAndTheRestAreOpenedEachTime() throws {
        let table = ProcessTable(procRoot: "/proc", descriptorLimit: 3)
        table.scan(buffer)
        XCTAssertGreaterThan(table.processes.count, 3)
        let kept = table.keptDescriptors
        XCTAssertLessThanOrEqual(kept, 3)
        XCTAssertGreaterThan(kept, 0)
        XCTAssertEqual(kept, keptFiles(table))
        let child = try spawnSleeper()
        table.scan(buffer)
        XCTAssertTrue(table.processes.contains { $0.pid == child.processIdentifier })
        child.terminate()
        child.waitUntilExit()
        table.scan(buffer)
        XCTAssertTrue(table.exited.contains { $0.pid == child.processIdentifier })
        XCTAssertEqual(table.keptDescriptors, kept)
    }

    func testRealProcCPUTimeOfAKeptProcessIsReadAgainWithoutAListing() throws {
        let busy = try spawnShell("while :; do :; done")
        defer { busy.terminate(); busy.waitUntilExit() }
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        table.scan(buffer, counters: counters)
        let first = try XCTUnwrap(table.processes.first { $0.pid == busy.processIdentifier })
        XCTAssertTrue(first.readThroughKeptFiles)
        usleep(300_000)
        table.scan(buffer, counters: counters)
        XCTAssertFalse(table.listedLastScan)
        let second = try XCTUnwrap(table.processes.first { $0.pid == busy.processIdentifier })
        XCTAssertGreaterThan(second.cpuDelta, 0)          // it spun for 0.3 s (clock ticks, not ns)
        XCTAssertLessThan(second.cpuDelta, 200)
        XCTAssertGreaterThan(second.privateKiB, 0)
        XCTAssertEqual(second.state, UInt8(ascii: "R"), "the state is read again too")
    }

    /// A process's CPU time is every thread's: a browser's work is in its other threads.
    /// (`PID/schedstat`, read here before, counts the main thread only.)
    func testRealProcCPUTimeOfAKeptProcessCountsEveryThreadNotOnlyTheMainOne() throws {
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        let me = getpid()
        table.scan(buffer, counters: counters)
        XCTAssertTrue(try XCTUnwrap(table.processes.first { $0.pid == me }).readThroughKeptFiles)
        let spinner = Thread {
            let end = Date().addingTimeInterval(0.4)
            var x = 0
            while Date() < end { x &+= 1 }
            _ = x
        }
        spinner.start()
        while !spinner.isFinished { usleep(20_000) }   // the main thread mostly sleeps
        table.scan(buffer, counters: counters)
        let mine = try XCTUnwrap(table.processes.first { $0.pid == me })
        XCTAssertGreaterThanOrEqual(mine.cpuDelta, 20, "0.4 s spun in another thread: about 40 ticks")
    }

    private func spawnSpinnerAfter(_ seconds: Double) throws -> Process {
        try spawnShell("sleep \(seconds); while :; do :; done")
    }

    /// `/bin/sh -c script`, started.
    private func spawnShell(_ script: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        try p.run()
        return p
    }

    /// On a real procfs a refresh with an idle skip reads the processes that ran and leaves
    /// the sleeping ones (but the few due their periodic read) while the machine's busy ticks
    /// are accounted for; they stay listed, with no CPU use.
    func testAnIdleSkipLeavesSleepingProcessesUnreadWhileTheBusyTicksAreAccountedFor() throws {
        try idleSkipLeavesSleepersUnread(descriptorLimit: ProcessTable.defaultDescriptorLimit)
    }

    /// Past the descriptor bound (3,000 processes at the default) processes are read by path,
    /// and an idle one is left unread all the same.
    func testAnIdleSkipLeavesSleepingProcessesUnreadPastTheDescriptorBoundToo() throws {
        try idleSkipLeavesSleepersUnread(descriptorLimit: 3)
    }

    private func idleSkipLeavesSleepersUnread(descriptorLimit: Int) throws {
        var sleepers: [Process] = []
        defer { for p in sleepers { p.terminate(); p.waitUntilExit() } }
        for _ in 0..<40 { sleepers.append(try spawnSleeper()) }
        let busy = try spawnSpinnerAfter(0)
        defer { busy.terminate(); busy.waitUntilExit() }
        usleep(300_000)
        let table = ProcessTable(procRoot: "/proc", descriptorLimit: descriptorLimit)
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        let none = ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 3)
        table.scan(buffer, counters: counters)
        usleep(200_000)   // the spinner's ticks move
        table.scan(buffer, counters: counters, idle: none)   // every process is new: all read
        let known = table.processes.count
        let reads = table.statReads
        usleep(200_000)
        table.scan(buffer, counters: counters, idle: none)
        XCTAssertFalse(table.readEveryIdleProcess)
        XCTAssertEqual(table.processes.count, known, "the idle ones are still there")
        XCTAssertLessThan(table.statReads - reads, known - 30, "the 40 sleepers were not all read")
        for s in sleepers {
            XCTAssertEqual(try XCTUnwrap(table.processes.first { $0.pid == s.processIdentifier }).cpuDelta, 0)
        }
        XCTAssertGreaterThan(try XCTUnwrap(table.processes.first { $0.pid == busy.processIdentifier }).cpuDelta, 0)
        XCTAssertGreaterThan(table.accountedTicks, 0, "the spinner's ticks")
    }

    /// A sleeping process that starts to work shows at the next refresh: the machine was busier
    /// than the processes that ran account for, so every idle process is read, each credited
    /// at most the shortfall.
    func testAnIdleProcessThatWakesUpIsReadWhenTheBusyTicksAreNotAccountedFor() throws {
        let waker = try spawnSpinnerAfter(0.5)
        defer { waker.terminate(); waker.waitUntilExit() }
        usleep(100_000)
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        table.scan(buffer, counters: counters)
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 3))
        XCTAssertEqual(try XCTUnwrap(table.processes.first { $0.pid == waker.processIdentifier }).cpuDelta, 0, "asleep")
        usleep(900_000)   // it has spun for about 0.4 s
        // The machine says it was busy 1,000 ticks more than the running processes account for.
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 1_000, thresholdTicks: 3))
        XCTAssertTrue(table.readEveryIdleProcess)
        let woken = try XCTUnwrap(table.processes.first { $0.pid == waker.processIdentifier })
        XCTAssertGreaterThan(woken.cpuDelta, 10)
        XCTAssertLessThanOrEqual(woken.cpuDelta, 1_000)
        // From now on it counts among those that ran: read at every refresh.
        usleep(200_000)
        let reads = table.statReads
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 1_000_000))
        XCTAssertGreaterThan(try XCTUnwrap(table.processes.first { $0.pid == waker.processIdentifier }).cpuDelta, 0)
        XCTAssertGreaterThan(table.statReads, reads)
    }

    /// A parent of short lives is busy however little each child, or all of them, used: one
    /// tick its children used is one its reads must account for (else every refresh would
    /// find the machine busier than the processes say, and read every idle process).
    func testAParentWhoseReapedChildrenUsedOneTickIsBusy() {
        XCTAssertTrue(ProcessTable.isBusy(ran: 0, childrenRan: 1))
        XCTAssertTrue(ProcessTable.isBusy(ran: ProcessTable.busyTicks, childrenRan: 0))
        XCTAssertFalse(ProcessTable.isBusy(ran: ProcessTable.busyTicks - 1, childrenRan: 0))
    }

    /// On a real procfs: a shell running short commands one after another, itself using
    /// almost nothing, is read at every refresh while its children run, never left idle.
    func testRealProcAParentOfShortLivesIsReadAtEveryRefresh() throws {
        let parent = try spawnShell("while :; do /bin/true; done")
        defer { parent.terminate(); parent.waitUntilExit() }
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        let none = ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 1_000_000)
        table.scan(buffer, counters: counters)
        var childTicks: [UInt64] = []
        for _ in 0..<4 {
            usleep(300_000)
            table.scan(buffer, counters: counters, idle: none)
            let index = try XCTUnwrap(table.index(ofPid: parent.processIdentifier))
            XCTAssertEqual(table.descriptors[index].readAtScan, table.scanCount, "read at this refresh")
            childTicks.append(table.descriptors[index].childTicks)
        }
        XCTAssertGreaterThan(childTicks.last ?? 0, childTicks.first ?? 0, "its children's ticks were read as they grew")
    }

    /// A parent that reaped children before, was idle at its last read and now starts short
    /// lives again is read first by a full pass, however far the turns are from it: its
    /// children's CPU is then accounted for from the next refresh on, and full passes stop.
    func testAFullPassReadsIdleParentsOfChildrenBeforeTakingTurns() throws {
        let work = try TemporaryDirectory("full-pass")
        let fifo = work.url.appendingPathComponent("go").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Children first (its reaped CPU time is then above zero), then idle on the FIFO
        // (no child), then short lives all the time.
        let parent = try spawnShell("i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done; read x < \(fifo); while :; do /bin/true; done")
        defer { parent.terminate(); parent.waitUntilExit() }
        let statPath = "/proc/\(parent.processIdentifier)/stat"
        func childTicks() -> Int {
            guard let text = try? String(contentsOfFile: statPath, encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return 0 }
            let fields = text[text.index(after: close)...].split(separator: " ")
            return fields.count > 14 ? (Int(fields[13]) ?? 0) + (Int(fields[14]) ?? 0) : 0
        }
        // Past its last child, blocked opening the FIFO (a busy machine can keep it in its
        // loop of children for longer than any fixed pause).
        func waitsOnTheFIFO() -> Bool {
            let wchan = (try? String(contentsOfFile: "/proc/\(parent.processIdentifier)/wchan", encoding: .utf8)) ?? ""
            return wchan == "wait_for_partner" || wchan == "fifo_open"
        }
        var waited = 0
        while childTicks() == 0 || !waitsOnTheFIFO() {
            usleep(50_000); waited += 1
            guard waited < 400 else { throw XCTSkip("the parent's first children used no tick, or it never waited on the FIFO, in 20 s") }
        }
        usleep(100_000)
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        let none = ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 1_000_000)
        table.scan(buffer, counters: counters)
        usleep(200_000)
        table.scan(buffer, counters: counters, idle: none)   // read: no tick since, idle from now on
        let index = try XCTUnwrap(table.index(ofPid: parent.processIdentifier))
        XCTAssertFalse(table.descriptors[index].memoryWatched, "idle while it waits")
        // Its children start; a full pass may read only as many as there are idle parents.
        let writer = open(fifo, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        _ = write(writer, "go\n", 3)
        close(writer)
        usleep(500_000)
        table.fullPassLimit = table.descriptors.indices.filter {
            table.descriptors[$0].childTicks > 0 && !table.descriptors[$0].memoryWatched
        }.count
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 100_000, thresholdTicks: 3))
        XCTAssertTrue(table.readEveryIdleProcess)
        let now = try XCTUnwrap(table.index(ofPid: parent.processIdentifier))
        XCTAssertEqual(table.descriptors[now].readAtScan, table.scanCount, "read by the full pass, before the turns")
        XCTAssertTrue(table.descriptors[now].memoryWatched, "busy from now on: its children ran")
    }

    /// A full pass that finds no idle process to account for the shortfall learns that this
    /// machine's accounting disagrees by that much: the same shortfall at the next refresh
    /// reads no idle process, one beyond it does, and what was learned wears off refresh
    /// by refresh.
    func testAFullPassThatFindsNothingRaisesTheMarginUntilItWearsOff() throws {
        var sleepers: [Process] = []
        defer { for p in sleepers { p.terminate(); p.waitUntilExit() } }
        for _ in 0..<10 { sleepers.append(try spawnSleeper()) }
        usleep(300_000)
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        table.scan(buffer, counters: counters)
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 3))
        XCTAssertEqual(table.unexplainedTicks, 0)
        // 10,000 ticks no process used (the sleepers sleep).
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: table.accountedTicks + 10_000, thresholdTicks: 3))
        XCTAssertTrue(table.readEveryIdleProcess)
        XCTAssertGreaterThan(table.unexplainedTicks, 9_000, "next to nothing of it was found")
        let learned = table.unexplainedTicks
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: table.accountedTicks + 8_000, thresholdTicks: 3))
        XCTAssertFalse(table.readEveryIdleProcess, "within what the last pass left unexplained")
        XCTAssertEqual(table.unexplainedTicks, learned - learned / 16, "less a sixteenth")
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: table.accountedTicks + 20_000, thresholdTicks: 3))
        XCTAssertTrue(table.readEveryIdleProcess, "beyond it")
        for _ in 0..<300 { table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 3)) }
        XCTAssertEqual(table.unexplainedTicks, 0, "worn off: at least a tick a refresh")
    }

    /// A full pass bounded by its limit learns nothing until passes in turn have read every
    /// idle process: the one that woke may be among those not read yet.
    func testWhatIsUnexplainedIsLearnedOnlyOnceFullPassesHaveReadEveryIdleProcess() throws {
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        table.scan(buffer, counters: counters)
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 3))
        table.fullPassLimit = 10
        let passes = (table.processes.count + 9) / 10
        XCTAssertGreaterThan(passes, 2, "more processes than two passes read")
        for pass in 1...passes {
            table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: table.accountedTicks + 10_000, thresholdTicks: 3))
            XCTAssertTrue(table.readEveryIdleProcess)
            if pass < passes - 1 { XCTAssertEqual(table.unexplainedTicks, 0, "pass \(pass) of \(passes): not every idle process read yet") }
        }
        XCTAssertGreaterThan(table.unexplainedTicks, 9_000, "every idle process read, next to nothing found")
    }

    /// Credited at most what the machine's busy ticks leave: one idle process's ticks since its
    /// last read may go back many refreshes.
    func testAnIdleProcessReadInAFullPassIsCreditedAtMostTheShortfall() throws {
        let waker = try spawnSpinnerAfter(0.3)
        defer { waker.terminate(); waker.waitUntilExit() }
        usleep(100_000)
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        table.scan(buffer, counters: counters)
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 0, thresholdTicks: 3))
        usleep(800_000)
        // Busy 5 ticks over the threshold of 3 beyond what was accounted: at most 5 (+ accounted) each.
        table.scan(buffer, counters: counters, idle: ProcessTable.IdleSkip(busyTicks: 5, thresholdTicks: 3))
        // What the running processes accounted for may already be over 5: then no full pass.
        if table.readEveryIdleProcess {
            XCTAssertLessThanOrEqual(try XCTUnwrap(table.processes.first { $0.pid == waker.processIdentifier }).cpuDelta, 5)
        }
        XCTAssertTrue(table.processes.allSatisfy { $0.cpuDelta <= 5 || $0.pid != waker.processIdentifier })
    }

    func testRealProcMemoryOfAProcessThatDidNotRunIsNotReadAgain() throws {
        var sleepers: [Process] = []
        defer { for p in sleepers { p.terminate(); p.waitUntilExit() } }
        for _ in 0..<40 { sleepers.append(try spawnSleeper()) }
        usleep(300_000)   // started and asleep
        let table = ProcessTable(procRoot: "/proc")
        let counters = TaskCounters(forks: 1, tasks: 1, lastPid: 1)
        table.scan(buffer, counters: counters)
        let user = table.processes.filter { $0.readThroughKeptFiles && !$0.isKernelThread }.count
        XCTAssertGreaterThanOrEqual(user, 40)
        let before = table.memoryRereads
        table.scan(buffer, counters: counters)
        // The sleepers did not run: at most the tenth of them due this scan has statm read.
        XCTAssertLessThan(table.memoryRereads - before, user - 30)
    }

    func testTheMemoryOfANewProcessIsReadOnceInTheScanThatFindsIt() throws {
        let (table, tree) = try liveTable()
        defer { withExtendedLifetime(tree) {} }
        // Two refreshes: nothing is new or ran since, so no memory is watched.
        table.scan(buffer, counters: quiet)
        table.scan(buffer, counters: quiet)
        try FileManager.default.copyItem(atPath: tree.path + "/10", toPath: tree.path + "/11")
        var forked = quiet
        forked.forks += 1
        forked.tasks += 1
        forked.lastPid = 11
        let before = table.memoryRereads
        table.scan(buffer, counters: forked, refresh: false)
        XCTAssertEqual(pids(table.processes), [10, 11, 20, 30])
        XCTAssertEqual(table.memoryRereads - before, 0, "the new process's statm is not read a second time in the scan that read it")
        // New since the last refresh: the next scans re-read its memory.
        table.scan(buffer, counters: forked, refresh: false)
        XCTAssertEqual(table.memoryRereads - before, 1)
    }

    func testNoDescriptorsKeptWithALimitOfZero() {
        let table = ProcessTable(procRoot: "/proc", descriptorLimit: 0)
        table.scan(buffer)
        XCTAssertFalse(table.keepsDescriptors)
        XCTAssertEqual(table.keptDescriptors, 0)
    }

    func testForksAndLastPidAreParsed() {
        var stat = CPUStat()
        var text = Array("cpu  1 2 3 4\nprocesses 4321\nprocs_running 3\n".utf8)
        text.withUnsafeBytes { XCTAssertTrue(CPUStatReader.parse($0, into: &stat)) }
        XCTAssertEqual(stat.forks, 4321)
        text = Array("cpu  1 2 3 4\n".utf8)
        text.withUnsafeBytes { XCTAssertTrue(CPUStatReader.parse($0, into: &stat)) }
        XCTAssertNil(stat.forks)
        var load = LoadAverage()
        text = Array("0.52 0.58 0.59 3/345 12345\n".utf8)
        text.withUnsafeBytes { XCTAssertTrue(LoadAverageReader.parse($0, into: &load)) }
        XCTAssertEqual(load.lastPid, 12345)
        XCTAssertEqual(load.entities, 345)
    }

    func testCountersComeFromStatAndLoadavg() {
        var load = LoadAverage()
        load.entities = 345
        XCTAssertNil(TaskCounters(forks: 1, loadAverage: load))   // no last pid
        load.lastPid = 12345
        XCTAssertEqual(TaskCounters(forks: 4321, loadAverage: load), TaskCounters(forks: 4321, tasks: 345, lastPid: 12345))
        XCTAssertNil(TaskCounters(forks: nil, loadAverage: load))
        XCTAssertNil(TaskCounters(forks: 1, loadAverage: nil))
    }
}
