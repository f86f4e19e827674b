#if canImport(Glibc)
import Glibc
#endif
import ProcFS

// TreeSampler's reading of the memory figures: smaps_rollup in consistent rounds, private
// growth from statm between them, and smaps at a process's new high.
extension TreeSampler {
    /// Reads each member's CPU clock: whether it ran since the sample before (``Live/ran``).
    /// True when any did, or a clock could not be read.
    func readClocks() -> Bool {
        var any = false
        for i in entries.indices {
            guard let clock = entries[i].cpuClock else { any = true; continue }
            let ns = cpuNanoseconds(clock) ?? .max
            entries[i].ran = ns == .max || ns != entries[i].cpuNs
            entries[i].cpuNs = ns
            any = any || entries[i].ran
        }
        anyRan = any
        return any
    }

    /// statm's size, resident and shared pages, through the kept descriptor when there is one
    /// (it stays bound to the process it was opened for: a reused pid cannot answer for it).
    func readStatm(_ pid: Int32, _ fd: FileDescriptor?) -> (UInt64, UInt64, UInt64)? {
        let result = fd.map { buffer.fill(from: $0) } ?? buffer.fill(path: "\(procRoot)/\(pid)/statm")
        guard case .success(let bytes) = result else { return nil }
        // Three numbers into locals, not an array: this runs for every process every sample.
        var i = 0
        func next() -> UInt64? {
            while i < bytes.count && bytes[i] == 0x20 { i += 1 }
            var end = i
            while end < bytes.count && bytes[end] >= 0x30 && bytes[end] <= 0x39 { end += 1 }
            defer { i = end }
            return saturatingDecimal(bytes, from: i, to: end)
        }
        guard let size = next(), let resident = next(), let shared = next() else { return nil }
        return (size, resident, shared)
    }

    /// Private pages gained or given back: a page mapped by one process only is a page of
    /// RSS, PSS, USS and anonymous memory alike, so the figures move by it without reading
    /// smaps_rollup, whose page-table walk was most of the measurer's cost on a program
    /// allocating fast. The next refresh (a second) reads the rollups again.
    func addPrivateGrowth() {
        for i in entries.indices where entries[i].privateGrowthKiB != 0 {
            let growth = entries[i].privateGrowthKiB
            entries[i].privateGrowthKiB = 0
            var m = entries[i].memory
            m.rssKiB = entries[i].resident &* UInt64(Self.pageKiB)
            m.pssKiB = Self.moved(m.pssKiB, by: growth)
            m.ussKiB = Self.moved(m.ussKiB, by: growth)
            m.anonKiB = Self.moved(m.anonKiB, by: growth)
            entries[i].memory = m
            figuresEstimated = true
        }
    }

    static func moved(_ kib: UInt64, by growth: Int64) -> UInt64 {
        growth >= 0 ? kib.addingReportingOverflow(UInt64(growth)).partialValue : kib - min(kib, growth.magnitude)
    }

    /// The page size, KiB.
    static let pageKiB = Int64(max(sysconf(Int32(_SC_PAGESIZE)), 1024) / 1024)

    /// Reads every member's smaps_rollup as one consistent round. PSS splits each shared page
    /// among the processes that map it when each file is read, so a round during which
    /// sharing changed does not add up: children faulting in a parent's shared pages after the
    /// parent was read leave the parent's whole share and theirs both counted (64.3-78.8 MiB
    /// for 64 MiB shared by four), a sharer that ends leaves those read after it with larger
    /// shares while its own still counts. So statm is read again after the round: when a
    /// member ended, it is dropped and the round read again; when a member's
    /// shared pages moved, the round is read again, until one is read while nothing moves;
    /// while it keeps moving (``maximumRounds``), each process keeps the PSS, USS and anon of the
    /// sample before (once), or they are the mean of its last two readings, taken in
    /// opposite orders — on average every process is then read at the same moment — and the
    /// next sample reads again. A tree whose sharing is quiet costs one statm read per member
    /// more.
    func readRollups() {
        var reversed = false, previous: [MemoryFigures] = []
        // The shares of the sample before, when it held still: a sample whose rounds never do
        // keeps them (once: if sharing keeps moving, the mean of the last two rounds it is).
        // The anonymous figure is among them: shared anonymous memory is divided as PSS is.
        var settled: [Int32: (pss: UInt64, uss: UInt64, anon: UInt64)] = [:]
        if !rollupsUnsettled {
            for e in entries where e.memory.rssKiB > 0 { settled[e.pid] = (e.memory.pssKiB, e.memory.ussKiB, e.memory.anonKiB) }
        }
        rollupsUnsettled = false
        for round in 0..<Self.maximumRounds {
            readRound(reversed: reversed)
            reversed.toggle()
            var kept = 0, moved = false
            for var e in entries {
                guard let (size, resident, shared) = readStatm(e.pid, e.statm), size > 0 else { e.statm?.close(); continue }
                // Only shared (file and shmem) pages coming or going move other members' shares.
                if shared != e.shared { moved = true }
                (e.resident, e.shared) = (resident, shared)
                entries[kept] = e
                kept += 1
            }
            if kept < entries.count {
                // A member ended: the next round, without it, starts afresh.
                entries.removeSubrange(kept...)
                walkNeeded = true
                previous = []
                continue
            }
            if !moved { return }   // nothing moved while this round was read: it holds
            if round == Self.maximumRounds - 1 && !previous.isEmpty {
                // The shares of the sample before add up only among the same members: kept for
                // some and read afresh for others (a child that joined since) they count a
                // parent's whole shared map and its children's new shares of it both.
                let keep = settled.count == entries.count && entries.allSatisfy { settled[$0.pid] != nil }
                for i in entries.indices {
                    if keep, let kept = settled[entries[i].pid] {
                        (entries[i].memory.pssKiB, entries[i].memory.ussKiB, entries[i].memory.anonKiB) = kept
                    } else {
                        entries[i].memory.pssKiB = previous[i].pssKiB / 2 + entries[i].memory.pssKiB / 2
                        entries[i].memory.ussKiB = previous[i].ussKiB / 2 + entries[i].memory.ussKiB / 2
                        entries[i].memory.anonKiB = previous[i].anonKiB / 2 + entries[i].memory.anonKiB / 2
                    }
                }
            }
            previous = entries.map(\.memory)
        }
        // Still moving: the next sample reads every member again, even if none of them ran.
        rollupsUnsettled = true
    }

    /// After members came or went while no member's shared pages moved: reads the rollups of
    /// the members that joined and of the parents of those that joined or ended (a fork
    /// shares its parent's private pages; a child's end gives them back), and leaves the
    /// others' figures as they were when what the change can have moved them by is small. A
    /// process that joins takes its share of each page it shares from the others, one that
    /// ends gives its shares back: together the others' PSS moves by at most the joined and
    /// ended members' shares of shared pages (PSS − USS) less what the parents read now are
    /// seen to have lost or gained (counted only for a parent whose own pages did not change),
    /// their USS by at most twice that (a page two shared becomes one's own). Within 1 % of
    /// the tree's PSS (at least 256 KiB) those figures stand until the next refresh
    /// (``figuresEstimated``, a second at most); false when over it, or when a read failed:
    /// every rollup is read then. A storm of alike short children reads each newcomer and
    /// its parent, not the whole tree at each.
    func readJoinedMembers(_ recording: Recording) -> Bool {
        var parents = endedParents
        for e in entries where !e.rolledUp { parents.append(e.parentPid) }
        // Every member to be read anyway (a first sample, a tree of a parent and its newcomers): one full round.
        guard entries.contains(where: { $0.rolledUp && !parents.contains($0.pid) }) else { return false }
        var moved = endedSharesKiB, seen: UInt64 = 0, treePSS: UInt64 = 0, readNow = 0
        for i in entries.indices {
            let joined = !entries[i].rolledUp
            if joined || parents.contains(entries[i].pid) {
                readNow += 1
                let before = entries[i].memory.pssKiB
                let unchanged = !joined && entries[i].rolledUpResident == entries[i].resident
                guard case .success(let bytes) = buffer.fill(path: "\(procRoot)/\(entries[i].pid)/smaps_rollup"),
                      let m = MemoryFigures.parseSmapsRollup(bytes) else { return false }
                entries[i].memory = m
                entries[i].rolledUp = true
                entries[i].rolledUpResident = entries[i].resident
                entries[i].privateGrowthKiB = 0
                if joined { moved &+= m.pssKiB &- min(m.ussKiB, m.pssKiB) }
                if unchanged { seen &+= before > m.pssKiB ? before - m.pssKiB : m.pssKiB - before }
            }
            treePSS &+= entries[i].memory.pssKiB
        }
        // As after a full round: sharing that moved while these were read (newcomers faulting
        // in a shared map) leaves them inconsistent, and every member is read in rounds.
        if readNow > 0 {
            for e in entries {
                guard let (_, _, shared) = readStatm(e.pid, e.statm), shared == e.shared else { return false }
            }
        }
        let unseen = moved &- min(seen, moved)
        guard unseen &* 2 <= max(Self.joinToleranceFloorKiB, treePSS / 100) else { return false }
        if moved > 0 { figuresEstimated = true }
        return true
    }

    /// The least that members joining or ending may move the others' figures by without a read.
    static let joinToleranceFloorKiB: UInt64 = 256

    /// Rounds of smaps_rollup reads a sample takes at most while sharing moves.
    static let maximumRounds = 6

    func readRound(reversed: Bool) {
        for n in entries.indices {
            let i = reversed ? entries.count - 1 - n : n
            entries[i].privateGrowthKiB = 0
            if case .success(let bytes) = buffer.fill(path: "\(procRoot)/\(entries[i].pid)/smaps_rollup"),
               let m = MemoryFigures.parseSmapsRollup(bytes) {
                entries[i].memory = m
                entries[i].rolledUp = true
                entries[i].rolledUpResident = entries[i].resident
            }
        }
    }

    /// Reads where the process's memory is (/proc/PID/smaps, by kind of mapping) when its RSS
    /// reached a new high: 10 % (at least 256 KiB) over its last reading, or 1 % (64 KiB) over it
    /// at the sample it stopped rising (the high it holds is its peak so far), when it is among the
    /// five largest so read (the report's breakdowns; 2 MiB at least) or the largest process of a sample whose
    /// tree RSS is itself at a new high (the holder of a tree's peak). A storm of alike short
    /// children reads a few, not each; a process that peaks in its first milliseconds, or
    /// spikes between two readings, is read at its high. The reads' cost (a page-table walk
    /// each, as for smaps_rollup; the CPU time they took) is held to 1/``mappingsShareDivisor`` of the run's time after an
    /// allowance of ``mappingsAllowanceNs``: a read it defers is made at the next sample that
    /// finds the process still at its high, and a process never read says so.
    func readMappingsAtNewHigh(_ e: Live, isLargest: Bool, treeHigh: Bool, atMs time: UInt64, into recording: inout Recording) {
        let p = recording.processes[e.position]
        let rss = e.memory.rssKiB
        let step = rss > p.peakMappingsRSSKiB &+ max(256, p.peakMappingsRSSKiB / 10)
        let plateau = rss > p.peakMappingsRSSKiB &+ max(64, p.peakMappingsRSSKiB / 100) && rss <= e.previousRSSKiB
        guard step || plateau else { return }
        // Among the five largest: above the fifth by a step, so that alike processes (a shell's
        // forks, a storm's children) do not each take a read for a few pages more.
        let fifth = largestBreakdowns.last?.rssKiB ?? 0
        let ranked = largestBreakdowns.count < MeasureReport.maximumBreakdowns || rss > fifth &+ max(256, fifth / 10)
            || largestBreakdowns.contains { $0.position == e.position }
        // A process under 2 MiB is its C library and little else: worth a read only as the holder of a tree's high.
        guard (ranked && rss >= Self.smallestBrokenDownKiB) || (isLargest && treeHigh) else { return }
        let allowed = Self.mappingsAllowanceNs &+ time &* 1_000_000 / Self.mappingsShareDivisor
        guard mappingsSpentNs <= allowed else {
            recording.processes[e.position].mappingsMissed = .costAllowance
            return
        }
        let start = OverheadGovernor.threadCPUNs()
        defer { mappingsSpentNs &+= OverheadGovernor.threadCPUNs() &- start }
        guard case .success(let bytes) = smapsBuffer.fill(path: "\(procRoot)/\(e.pid)/smaps"), case let kinds = SmapsMappings.parse(bytes),
              !kinds.isEmpty else {
            recording.processes[e.position].mappingsMissed = .unreadable
            return
        }
        // The process may have grown between statm's read and this one: the breakdown is said
        // to be at what it adds up to, never at less.
        let read = max(rss, kinds.reduce(0) { saturatingSum($0, $1.rssKiB) })
        recording.processes[e.position].peakMappings = SmapsMappings.largest(kinds, 32, by: \.rssKiB)
        recording.processes[e.position].peakMappingsRSSKiB = read
        recording.processes[e.position].peakMappingsAtMs = time
        recording.processes[e.position].mappingsMissed = nil
        largestBreakdowns.removeAll { $0.position == e.position }
        let at = largestBreakdowns.firstIndex { $0.rssKiB < read } ?? largestBreakdowns.endIndex
        largestBreakdowns.insert((e.position, read), at: at)
        if largestBreakdowns.count > MeasureReport.maximumBreakdowns { largestBreakdowns.removeLast() }
        if isLargest { treeHighRSSKiB = max(treeHighRSSKiB, sampleRSSKiB) }
    }

    /// The least RSS broken down unless it holds a new high of the tree: a shell's forks, `true`.
    static let smallestBrokenDownKiB: UInt64 = 2048

    /// The breakdowns' reads take at most 1/400 (0.25 %) of the run's time, after the allowance.
    static let mappingsShareDivisor: UInt64 = 400
    /// What the breakdowns may take before the share counts: a short command's few reads.
    static let mappingsAllowanceNs: UInt64 = 5_000_000
}
