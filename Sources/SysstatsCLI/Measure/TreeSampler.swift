#if canImport(Glibc)
import Glibc
#endif
import ProcFS

/// Takes one sample of the tree each call, as cheaply as the figures allow.
///
/// smaps_rollup is the costly file: the kernel walks every page table entry of the process
/// to compute PSS and USS (tens of microseconds for a few MiB mapped). So each sample first
/// asks each process's CPU clock whether it ran since its last read (clock_gettime: no file,
/// a fraction of a statm read). A process that did not run made no page fault, so its
/// memory cannot have grown; what the kernel took from it meanwhile (reclaim, swap) shows
/// when it next runs, or at the refresh below. A process that ran has /proc/PID/statm (its
/// size, resident and shared page counts) read through a descriptor kept open. Only when
/// some process's shared pages moved is every smaps_rollup read again (PSS is a split among
/// the mappers: one process's change can move another's share); when one appeared or left,
/// the newcomers' and the parents' are, and every member's only when what that can have
/// moved is over 1 % of the tree; a process whose private pages alone changed has its
/// figures moved by them (TreeSamplerReads.swift). stat (a new address space: an exec) is read for the processes
/// that changed, VmHWM for those every 100 ms. A quiet tree costs a clock read per process.
/// Once a second statm, stat and status are read for every process anyway, for CPU time,
/// threads and a high-water mark that rose and fell between two samples (VmHWM only rises:
/// a later reading still has it), and every five
/// seconds smaps_rollup, for shares moved by processes outside the tree (a program starting
/// elsewhere maps the same libc). The tree is walked again only when a process was created
/// (the last pid in /proc/loadavg moved) or one of it left.
final class TreeSampler {
    struct Live {
        var pid: Int32
        var position: Int
        var statm: FileDescriptor?
        /// The process's CPU clock, and its reading when statm was last read.
        var cpuClock: clockid_t?
        var cpuNs: UInt64 = .max
        /// Whether its CPU clock moved since the sample before (true without a clock).
        var ran = true
        var size: UInt64 = .max
        var resident: UInt64 = .max
        var shared: UInt64 = .max
        var memory = MemoryFigures()
        var changed = false
        /// Private pages (resident − shared) it gained since its figures were last set, KiB.
        var privateGrowthKiB: Int64 = 0
        /// The sample its VmHWM was last read in, and whether it changed since.
        var highWaterSample = Int.min / 2
        var highWaterPending = false
        /// Whether its smaps_rollup was read since it joined, and statm's resident pages then.
        var rolledUp = false
        var rolledUpResident: UInt64 = .max
        var parentPid: Int32 = 0
        /// Its RSS at the sample before, KiB: a high it stopped at is its peak so far.
        var previousRSSKiB: UInt64 = 0
    }

    let procRoot: String
    let walker: ProcessTreeWalker
    let refreshEvery: Int
    /// The five largest breakdowns read (their process's entry and RSS then), largest first.
    var largestBreakdowns: [(position: Int, rssKiB: UInt64)] = []
    /// The tree's RSS when the holder of its last new high had its breakdown read, and this
    /// sample's; the CPU time the breakdowns' reads took so far.
    var treeHighRSSKiB: UInt64 = 0
    var sampleRSSKiB: UInt64 = 0
    var mappingsSpentNs: UInt64 = 0
    /// Samples between two readings of a busy process's VmHWM (about 100 ms).
    let highWaterEvery: Int
    let smapsRefreshEvery: Int
    /// Processes not of the command's tree (a budget's setup left them behind).
    var excluded: Set<Int32> = []
    /// The recording's entry of each pid seen, until it is reaped.
    var positions: [Int32: Int] = [:]
    /// The tree's processes as the last walk found them, in its order; a sample goes through
    /// this array alone (no hashing, no allocation) when nothing changed.
    var entries: [Live] = []
    var walkNeeded = true
    private var lastPid: UInt64?
    /// Whether the last sample's rollups were read while sharing still moved.
    var rollupsUnsettled = false
    /// Whether figures were moved by private growth, or left as they were while members came
    /// and went (``readJoinedMembers(_:)``), since every rollup was last read.
    var figuresEstimated = false
    /// The shares of shared pages (PSS − USS) of the members that ended this sample, KiB: at
    /// most what the others' figures gained by it.
    var endedSharesKiB: UInt64 = 0
    /// The parents of the members that ended this sample: their shares grew the most.
    var endedParents: [Int32] = []
    private let loadavg: ProcFile
    let buffer = ReadBuffer(capacity: 4096)
    /// For /proc/PID/smaps, read at new highs only: a few hundred bytes per mapping, up to 8 MiB.
    let smapsBuffer = ReadBuffer(capacity: 64 * 1024, maximumCapacity: 8 << 20)
    /// Where the walks start: `measure` itself, or the running process it attached to
    /// (`--pid`), which is then a member of the tree itself while its start time is
    /// ``rootStartTime`` (a later process that reuses the pid is not followed).
    private let root: Int32
    private let rootStartTime: UInt64?

    init(procRoot: String, intervalMs: UInt64, attachedTo attached: (pid: Int32, startTime: UInt64)? = nil) {
        self.procRoot = procRoot
        root = attached?.pid ?? getpid()
        rootStartTime = attached?.startTime
        walker = ProcessTreeWalker(procRoot: procRoot)
        loadavg = ProcFile(procRoot + "/loadavg")
        refreshEvery = Int(max(1, 1000 / max(intervalMs, 1)))
        highWaterEvery = Int(max(1, 100 / max(intervalMs, 1)))
        smapsRefreshEvery = Int(max(1, 5000 / max(intervalMs, 1)))
    }

    deinit { for e in entries { e.statm?.close() } }

    /// How many processes of the tree the last sample found alive.
    var liveCount: Int { entries.count }

    /// Whether the last sample found a member's memory changed (or a new member).
    var memoryChanged: Bool { entries.contains { $0.changed } }

    /// Whether a member ran between the last two samples (its CPU clock moved; true without clocks).
    var anyRan = true

    /// Samples the tree at `time` (ms after the start) into `recording`.
    func sample(into recording: inout Recording, atMs time: UInt64) {
        let index = recording.sampleTimesMs.count
        let refresh = index % refreshEvery == 0
        var rollupsDue = index % smapsRefreshEvery == 0 || rollupsUnsettled || (refresh && figuresEstimated)
        var membersChanged = false
        endedSharesKiB = 0
        endedParents.removeAll(keepingCapacity: true)
        // A process is created by a member that runs: when none ran since the last sample's
        // clocks were read (before its pid counter was), no member can have been created since.
        let newest = readClocks() || walkNeeded || refresh || lastPid == nil ? newestPid() : lastPid
        if walkNeeded || refresh || newest == nil || lastPid == nil {
            membersChanged = walk(into: &recording, index: index)
            walkNeeded = false
        } else if let newest, let last = lastPid, newest != last {
            // Only the pids handed out since the last sample can be new members: a few on a busy
            // machine, where a walk of the whole tree would cost a read per member. After the
            // pid counter wrapped, or when many were handed out, walk.
            if newest > last && newest - last <= 64 {
                membersChanged = admit(pids: (last + 1)...newest, into: &recording, index: index)
            } else {
                membersChanged = walk(into: &recording, index: index)
            }
        }
        lastPid = newest
        let moved = readStatms(refresh: refresh)
        rollupsDue = rollupsDue || moved.sharing
        if !rollupsDue && (membersChanged || moved.membership) && !readJoinedMembers(recording) { rollupsDue = true }
        if rollupsDue {
            readRollups()
            figuresEstimated = false
        } else {
            addPrivateGrowth()
        }
        guard !entries.isEmpty else { return }
        recording.sampleTimesMs.append(time)
        var largest = 0
        sampleRSSKiB = 0
        for i in entries.indices {
            sampleRSSKiB &+= entries[i].memory.rssKiB
            if entries[i].memory.rssKiB > entries[largest].memory.rssKiB { largest = i }
        }
        let treeHigh = sampleRSSKiB > treeHighRSSKiB &+ max(256, treeHighRSSKiB / 10)
        for i in entries.indices {
            if entries[i].changed || refresh || (entries[i].highWaterPending && index - entries[i].highWaterSample >= highWaterEvery) {
                readStatAndHighWater(&entries[i], index: index, into: &recording, refresh: refresh,
                                     statRead: recording.processes[entries[i].position].firstSample == index)
            }
            let e = entries[i]
            // A sample it was missed in (a failed read) repeats its last values.
            while recording.processes[e.position].lastSample < index - 1, let last = recording.processes[e.position].values.last {
                recording.processes[e.position].values.append(last)
            }
            recording.processes[e.position].values.append(ProcessValues(e.memory))
            readMappingsAtNewHigh(e, isLargest: i == largest, treeHigh: treeHigh, atMs: time, into: &recording)
            entries[i].previousRSSKiB = e.memory.rssKiB
        }
    }

    /// Reads statm, the cheap file, of each member that ran (of each, on a refresh): which
    /// changed, which are gone. `membership`: a member ended or is new; `sharing`: a member's
    /// shared pages moved (which moves other members' shares): every smaps_rollup must be
    /// read. A member whose private pages alone changed keeps the change in
    /// ``Live/privateGrowthKiB``.
    func readStatms(refresh: Bool) -> (membership: Bool, sharing: Bool) {
        var kept = 0, membership = false, sharing = false
        for i in entries.indices {
            var e = entries[i]
            if e.cpuNs == .max, let clock = e.cpuClock {
                // Joined at this sample, after the clocks were read.
                e.cpuNs = cpuNanoseconds(clock) ?? .max
                e.ran = true
            }
            guard e.ran || refresh else {
                e.changed = false
                entries[kept] = e
                kept += 1
                continue
            }
            guard let (size, resident, shared) = readStatm(e.pid, e.statm), size > 0 else {
                // Ended (a zombie's statm is all zeros) or reaped: walk again next time.
                e.statm?.close()
                walkNeeded = true
                membership = true
                endedSharesKiB &+= e.memory.pssKiB &- min(e.memory.ussKiB, e.memory.pssKiB)
                endedParents.append(e.parentPid)
                continue
            }
            e.changed = resident != e.resident || shared != e.shared || size != e.size
            if e.resident == .max {
                membership = true
            } else if shared != e.shared {
                sharing = true
            } else if resident != e.resident {
                let pages = (Int64(clamping: resident) &- Int64(clamping: shared)) &- (Int64(clamping: e.resident) &- Int64(clamping: e.shared))
                e.privateGrowthKiB &+= pages &* Self.pageKiB
            }
            (e.size, e.resident, e.shared) = (size, resident, shared)
            entries[kept] = e
            kept += 1
        }
        entries.removeSubrange(kept...)
        return (membership, sharing)
    }

    /// Reads stat and VmHWM. A process that exec'd (a new address space: ``StatFigures/isExec(since:)``)
    /// is a new program: its samples from here on go to an entry of their own, so that
    /// neither the image before (`sh -c "exec prog"`: the shell) nor its high-water mark is
    /// counted as the new program's.
    /// `statRead`: it joined at this sample, its stat just read.
    private func readStatAndHighWater(_ e: inout Live, index: Int, into recording: inout Recording, refresh: Bool, statRead: Bool) {
        if statRead {
            if case .success(let bytes) = buffer.fill(path: "\(procRoot)/\(e.pid)/status"), let hwm = parseStatusHWM(bytes) {
                recording.processes[e.position].highWaterKiB = max(recording.processes[e.position].highWaterKiB ?? 0, hwm)
            }
            e.highWaterSample = index
            return
        }
        guard let stat = readStat(e.pid) else { return }
        let execd = stat.isExec(since: recording.processes[e.position])
        var hwm: UInt64?
        // VmHWM only rises: a later reading still has a peak between samples, so a busy
        // process's status (the longest file) is read every 100 ms, not every sample.
        // A process that changed since is read once it is due, even if it then sleeps.
        if refresh || index - e.highWaterSample >= highWaterEvery || execd {
            if case .success(let bytes) = buffer.fill(path: "\(procRoot)/\(e.pid)/status") { hwm = parseStatusHWM(bytes) }
            e.highWaterSample = index
            e.highWaterPending = false
        } else {
            e.highWaterPending = true
        }
        if execd {
            let known = recording.processes[e.position]
            recording.processes[e.position].execd = true
            var next = RecordedProcess(pid: e.pid, parentPid: known.parentPid, name: stat.name, firstSample: index)
            next.startTime = stat.startTime
            next.firstCPUTicks = known.cpuTicks
            e.position = recording.processes.count
            recording.processes.append(next)
            positions[e.pid] = e.position
        }
        record(stat, into: &recording.processes[e.position])
        if let hwm { recording.processes[e.position].highWaterKiB = max(recording.processes[e.position].highWaterKiB ?? 0, hwm) }
    }

    /// Adds the processes among `pids` whose parent is in the tree (in pid order, so a new
    /// process's new child follows it); threads, whose ids come from the same counter, are
    /// left out. True when one was added.
    private func admit(pids: ClosedRange<UInt64>, into recording: inout Recording, index: Int) -> Bool {
        var members = Set(entries.map(\.pid))
        members.insert(root)
        var added = false
        for candidate in pids {
            let pid = Int32(truncatingIfNeeded: candidate)
            // A walk since the last loadavg read may have found it already: once only.
            guard pid > 0, !members.contains(pid), !excluded.contains(pid), let stat = readStat(pid), members.contains(stat.parentPid),
                  stat.state != UInt8(ascii: "Z"), stat.threads == 1 || isProcess(pid) else { continue }
            members.insert(pid)
            add(pid, stat, into: &recording, index: index)
            added = true
        }
        return added
    }

    /// Whether `pid` is a process (thread-group leader), not another thread of one.
    private func isProcess(_ pid: Int32) -> Bool { threadGroup(pid) == pid }

    /// The Tgid line of /proc/PID/status.
    private func threadGroup(_ pid: Int32) -> Int32? {
        guard case .success(let bytes) = buffer.fill(path: "\(procRoot)/\(pid)/status") else { return nil }
        return statusNumber(bytes, key: "Tgid:").map { Int32(clamping: $0) }
    }

    /// Follows `pid` from this sample on: under its own entry when it is the process seen
    /// before (same start time; one whose statm read zeros while it exited, then read again),
    /// else under a new one. One read as gone mid-exec (the new image's statm empty for a
    /// moment) comes back as a new program: a new entry, not the old one renamed.
    private func add(_ pid: Int32, _ stat: StatFigures, into recording: inout Recording, index: Int) {
        let position: Int
        if let known = positions[pid], recording.processes[known].startTime == stat.startTime,
           !stat.isExec(since: recording.processes[known]) {
            position = known
        } else {
            position = recording.processes.count
            let known = positions[pid].flatMap { recording.processes[$0].startTime == stat.startTime ? $0 : nil }
            if let known { recording.processes[known].execd = true }
            recording.processes.append(RecordedProcess(pid: pid, parentPid: stat.parentPid, name: stat.name, firstSample: index))
            recording.processes[position].startTime = stat.startTime
            recording.processes[position].firstCPUTicks = known.map { recording.processes[$0].cpuTicks } ?? stat.cpuTicks
        }
        record(stat, into: &recording.processes[position])
        positions[pid] = position
        entries.append(Live(pid: pid, position: position, statm: open("\(procRoot)/\(pid)/statm"),
                            cpuClock: procRoot == "/proc" ? cpuClock(of: pid) : nil, parentPid: stat.parentPid))
    }

    /// Walks the tree again: keeps the entries of the processes still in it, adds the new
    /// ones (recorded from this sample on), closes the others. True when the set changed.
    private func walk(into recording: inout Recording, index: Int) -> Bool {
        var pids = walker.descendants(of: root, excluding: excluded)
        if let start = rootStartTime {
            guard readStat(root)?.startTime == start else { pids = []; return walkDropping(into: &recording) }
            pids.insert(root, at: 0)
        }
        var previous: [Int32: Live] = [:]
        for e in entries { previous[e.pid] = e }
        var next: [Live] = []
        next.reserveCapacity(pids.count)
        var added: [(Int32, StatFigures)] = []
        for pid in pids {
            if let known = previous.removeValue(forKey: pid) { next.append(known); continue }
            guard let stat = readStat(pid), stat.state != UInt8(ascii: "Z") else { continue }
            added.append((pid, stat))
        }
        for e in previous.values {
            e.statm?.close()
            endedSharesKiB &+= e.memory.pssKiB &- min(e.memory.ussKiB, e.memory.pssKiB)
            endedParents.append(e.parentPid)
        }
        entries = next
        for (pid, stat) in added { add(pid, stat, into: &recording, index: index) }
        return !added.isEmpty || !previous.isEmpty
    }

    /// The attached process ended: its tree can no longer be walked (its children went to
    /// their subreaper or init), so every entry is closed. True when there were any.
    private func walkDropping(into recording: inout Recording) -> Bool {
        for e in entries { e.statm?.close() }
        defer { entries = [] }
        return !entries.isEmpty
    }

    private func record(_ stat: StatFigures, into process: inout RecordedProcess) {
        process.name = stat.name
        if let image = stat.image { process.image = image }
        process.threadsPeak = max(process.threadsPeak, stat.threads)
        process.cpuTicks = stat.cpuTicks
    }

    func readStat(_ pid: Int32) -> StatFigures? {
        guard case .success(let bytes) = buffer.fill(path: "\(procRoot)/\(pid)/stat") else { return nil }
        return StatFigures.parse(bytes)
    }

    /// The last pid the kernel handed out (/proc/loadavg's last field): unchanged, no process
    /// (nor thread) was created since.
    private func newestPid() -> UInt64? {
        guard case .success(let bytes) = loadavg.read(into: buffer) else { return nil }
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x20) { end -= 1 }
        var start = end
        while start > 0 && bytes[start - 1] != 0x20 { start -= 1 }
        return saturatingDecimal(bytes, from: start, to: end)
    }

    /// The CPU clock of process `pid`; nil where the kernel refuses it.
    private func cpuClock(of pid: Int32) -> clockid_t? {
        var clock = clockid_t()
        return clock_getcpuclockid(pid, &clock) == 0 ? clock : nil
    }

    /// The CPU time `clock` reads, ns; nil when it cannot be read (the process was reaped).
    func cpuNanoseconds(_ clock: clockid_t) -> UInt64? {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return UInt64(max(time.tv_sec, 0)) &* 1_000_000_000 &+ UInt64(max(time.tv_nsec, 0))
    }

    /// A descriptor kept open on `path`, or nil (out of descriptors: read by path then).
    private func open(_ path: String) -> FileDescriptor? {
        if case .success(let fd) = FileDescriptor.open(path, flags: O_CLOEXEC) { return fd }
        return nil
    }
}
