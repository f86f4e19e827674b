import Bookmarks
import ProcFS
import SnapshotCodec
import HistoryRecords
import CLibc

/// Processes: the scan of the proc root, friendly names from the bookmark rules, the top
/// lists by CPU and by memory, and the processes that exited with the memory they freed.
/// A proc root that cannot be listed leaves the three parts unavailable.
final class ProcessProbe {
    private let table: ProcessTable
    let rules: RulesWatcher
    private var exitTracker: ExitTracker
    private var topByCPU = TopSelection(limit: Snapshot.maximumTopEntries)
    private var topByMemory = TopSelection(limit: Snapshot.maximumTopEntries)
    /// The last list by memory (pid, private KiB), and the indices a list is chosen from.
    private var memoryTop: [TopMember] = []
    private struct TopMember {
        var pid: Int32
        var privateKiB: UInt64
    }
    private var candidates: [Int] = []
    /// Where the resolver writes a friendly name before it is copied into the process.
    private var nameScratch: [UInt8] = []
    /// One copy of each rule's friendly name, shared by every process the rule names
    /// (hundreds of `kworker/*` threads are all "Kernel worker"): one array per rule, not
    /// per process; empty until the rule first matches. Indexed by rule, not keyed by name:
    /// a dictionary keyed by `[UInt8]` would bring hashing and the runtime's conformance
    /// lookup into the sampler's code pages.
    private var namesByRule: [[UInt8]] = []
    /// The rules version `namesByRule` belongs to.
    private var namesGeneration: UInt32 = 0
    /// The kernel's name and the friendly name of each exit in the snapshot's `exits`, in
    /// the same order: the snapshot shows one name, history keeps both.
    private(set) var exitNames: [ExitNames] = []
    /// Processes whose name resolution ran out of its work budget (a hostile rules file).
    private(set) var resolverBudgetHits = 0
    /// Processes (not kernel threads) that left the table since the first scan, and the
    /// memory their exits freed (KiB, as the exits part reports it): the Prometheus
    /// export's counters. Saturating. `scanned`: a scan has succeeded.
    private(set) var exitsTotal: UInt64 = 0
    private(set) var freedKiBTotal: UInt64 = 0
    private(set) var scanned = false

    /// Samples between two reads of every process (1: each sample), from ``SamplerConfiguration/processRefreshMs``.
    private let refreshSamples: UInt32
    private var samplesSinceRefresh: UInt32 = 0
    /// Ticks per core since the last refresh, and over the span the processes' `cpuDelta`
    /// covers (between the last two refreshes): the CPU shares' scale. 0: no shares yet.
    private var spanTicks: UInt64 = 0
    private var shareTicks: UInt64 = 0
    /// Ticks all CPUs spent in processes since the last refresh (``ProcessTable/IdleSkip``).
    private var spanProcessTicks: UInt64 = 0

    /// A refresh reads every process that did not run at its last read only when the
    /// processes that did run fall short of the machine's busy ticks by more than this
    /// share of one core over the refresh span (hundredths of a percent): a process that
    /// wakes up and uses more shows in the top list at that refresh, one that uses less within
    /// ``ProcessTable/idleRereadRefreshes`` refreshes. /proc/stat's tick accounting and the
    /// processes' own counters agree to about a tick per CPU over a few seconds.
    static let idleThresholdPermyriad: UInt64 = 200

    /// The table's ``ProcessTable/revision``, the CPU shares' scale and the rules version the
    /// snapshot's top lists and names were made from: while all three stand, a sample leaves
    /// them as they are (no pass over every process: on this machine's ~80 processes, two
    /// thirds of a quiet sample's data lines).
    private var listedRevision: UInt32?
    private var listedShareTicks: UInt64 = 0
    private var resolvedGeneration: UInt32?
    /// Tests: on a sample that leaves the lists be, make them anyway and count the times they
    /// differ from those left (there must be none).
    var checksUnchangedLists = false
    private(set) var unchangedListsKept = 0
    private(set) var unchangedListsThatChanged = 0
    /// Lists made from the touched processes only, and (tests, with the check on) how many of
    /// them differed from the lists a pass over every process makes (there must be none).
    private(set) var listsFromTouched = 0
    private(set) var listsFromTouchedThatDiffered = 0

    /// The process table as the last scan left it (the GPU clients' pids and names).
    var processTable: ProcessTable { table }

    /// What one scan gives (a constant: an array literal per sample would allocate).
    static let parts: SnapshotSections = [.processes, .top, .exits]

    init(configuration: SamplerConfiguration) {
        table = ProcessTable(procRoot: configuration.procRoot)
        let interval = max(1, configuration.intervalMs)
        refreshSamples = max(1, configuration.processRefreshMs / interval + (configuration.processRefreshMs % interval == 0 ? 0 : 1))
        let hz = sysconf(Int32(_SC_CLK_TCK))
        exitTracker = ExitTracker(freedThresholdKiB: configuration.freedThresholdKiB, ticksPerSecond: hz > 0 ? UInt64(hz) : 100)
        rules = RulesWatcher(path: configuration.rulesPath, builtins: configuration.builtinBookmarks)
        nameScratch.reserveCapacity(4 * BookmarkFile.maximumNameLength)
        memoryTop.reserveCapacity(Snapshot.maximumTopEntries)
        candidates.reserveCapacity(64)
        exitNames.reserveCapacity(Snapshot.maximumExits)
    }

    /// Fills the processes, top and exits parts. `ticksPerCore` scales CPU shares (0: none
    /// yet); `availableRiseKiB` is what the memory probe saw MemAvailable rise by.
    /// `counters`: the kernel's task counters of this sample (nil: unknown), read before the
    /// scan; while they stand still the proc root is not listed (``ProcessTable/scan(_:counters:refresh:)``).
    func sample(into s: inout Snapshot, buffer: ReadBuffer, ticksPerCore: UInt64, availableRiseKiB: UInt64,
                realtimeMs: UInt64, counters: TaskCounters? = nil, processTicks: UInt64? = nil) {
        // Every process is read when the refresh period is up, or while there are no CPU
        // shares yet (the first two samples: one to prime, one to measure).
        spanTicks = saturatingSum(spanTicks, ticksPerCore)
        spanProcessTicks = saturatingSum(spanProcessTicks, processTicks ?? 0)
        samplesSinceRefresh &+= 1
        let refresh = samplesSinceRefresh >= refreshSamples || shareTicks == 0 || ticksPerCore == 0
        // Idle processes may be left out only with the busy ticks to check against, and CPU
        // shares from a previous refresh to keep.
        var idle: ProcessTable.IdleSkip?
        if refresh, processTicks != nil, shareTicks > 0, ticksPerCore > 0 {
            let threshold = max(3, saturatingProduct(spanTicks, ProcessProbe.idleThresholdPermyriad) / 10_000)
            idle = ProcessTable.IdleSkip(busyTicks: spanProcessTicks, thresholdTicks: threshold)
        }
        guard table.scan(buffer, counters: counters, refresh: refresh, idle: idle) else { return }
        if refresh {
            shareTicks = ticksPerCore == 0 ? 0 : spanTicks
            spanTicks = 0
            spanProcessTicks = 0
            samplesSinceRefresh = 0
        }
        scanned = true
        s.available.formUnion(ProcessProbe.parts)
        s.processCount = UInt32(clamping: table.processes.count)
        s.threadCount = counters?.tasks ?? 0
        rules.refresh()
        let generation = rules.generation
        if table.revision == listedRevision && shareTicks == listedShareTicks && generation == resolvedGeneration {
            unchangedListsKept &+= 1
            if checksUnchangedLists { checkUnchangedLists(s) }
        } else {
            if generation != resolvedGeneration || table.revision != listedRevision {
                resolveNames(generation, all: generation != resolvedGeneration)
            }
            resolvedGeneration = generation
            makeLists(&s.topCPU, &s.topMemory)
            if checksUnchangedLists {
                var topCPU: [ProcessEntry] = [], topMemory: [ProcessEntry] = []
                makeLists(&topCPU, &topMemory, everyProcess: true)
                if topCPU != s.topCPU || topMemory != s.topMemory { listsFromTouchedThatDiffered += 1 }
            }
            listedRevision = table.revision
            listedShareTicks = shareTicks
        }
        if !table.exited.isEmpty {
            let freed = exitTracker.record(table.exited, availableRiseKiB: availableRiseKiB, timeMs: realtimeMs,
                                           uptimeCentiseconds: s.uptimeCentiseconds, into: &s.exits, names: &exitNames)
            freedKiBTotal = saturatingSum(freedKiBTotal, freed)
            for p in table.exited where !p.isKernelThread { exitsTotal = saturatingSum(exitsTotal, 1) }
        }
    }

    /// The top lists by CPU and by memory, from the table as it is. Only the processes the
    /// table touched since its last refresh can have CPU use, or memory other than at the last
    /// list; so the lists are made from those (and the last list's members by memory), unless
    /// the table gave up counting them or a member by memory shrank or left: then from every process.
    private func makeLists(_ topCPU: inout [ProcessEntry], _ topMemory: inout [ProcessEntry], everyProcess: Bool = false) {
        let processes = table.processes
        let fromTouched = !table.touchedAll && !everyProcess
        if fromTouched { listsFromTouched &+= 1 }
        candidates.removeAll(keepingCapacity: true)
        if fromTouched {
            let touched = table.touchedPids
            var k = 0   // index loops: an array's iterator allocates in unoptimized builds
            while k < touched.count {
                if let i = table.index(ofPid: touched[k]) { candidates.append(i) }
                k += 1
            }
        }
        if shareTicks == 0 {
            topByCPU.select([]) { $0.cpuDelta }
        } else if fromTouched {
            topByCPU.select(processes, among: candidates) { $0.cpuDelta }
        } else {
            topByCPU.select(processes) { $0.cpuDelta }
        }
        if fromTouched && memoryListStands(processes) {
            var k = 0
            while k < memoryTop.count {
                candidates.append(table.index(ofPid: memoryTop[k].pid)!)
                k += 1
            }
            topByMemory.select(processes, among: candidates) { $0.privateKiB }
        } else {
            topByMemory.select(processes) { $0.privateKiB }
        }
        memoryTop.removeAll(keepingCapacity: true)
        var slot = 0
        while slot < topByMemory.indices.count {
            let i = topByMemory.indices[slot]
            memoryTop.append(TopMember(pid: processes[i].pid, privateKiB: processes[i].privateKiB))
            slot += 1
        }
        ProcessProbe.fill(&topCPU, from: processes, indices: topByCPU.indices, ticksPerCore: shareTicks)
        ProcessProbe.fill(&topMemory, from: processes, indices: topByMemory.indices, ticksPerCore: shareTicks)
    }

    /// Whether every member of the last list by memory is still there with at least the
    /// memory it had: then no process outside the touched ones can have overtaken the list.
    private func memoryListStands(_ processes: [ProcessSample]) -> Bool {
        var k = 0
        while k < memoryTop.count {
            guard let i = table.index(ofPid: memoryTop[k].pid), processes[i].privateKiB >= memoryTop[k].privateKiB else { return false }
            k += 1
        }
        return true
    }

    private func checkUnchangedLists(_ s: Snapshot) {
        var topCPU: [ProcessEntry] = [], topMemory: [ProcessEntry] = []
        makeLists(&topCPU, &topMemory, everyProcess: true)
        if topCPU != s.topCPU || topMemory != s.topMemory { unchangedListsThatChanged += 1 }
    }

    /// Gives each process its friendly name: a new process once, every process again when
    /// the rules changed (`all`; the caller looked at the rules cache). A new process is one
    /// the table touched since its last refresh (unless it gave up counting them); no allocation.
    private func resolveNames(_ generation: UInt32, all: Bool) {
        if all || table.touchedAll {
            for i in 0..<table.processes.count where table.processes[i].namesGeneration != generation {
                resolveName(at: i, generation: generation)
            }
            return
        }
        let touched = table.touchedPids
        var k = 0
        while k < touched.count {
            if let i = table.index(ofPid: touched[k]), table.processes[i].namesGeneration != generation {
                resolveName(at: i, generation: generation)
            }
            k += 1
        }
    }

    private func resolveName(at index: Int, generation: UInt32) {
        let p = table.processes[index]
        var outOfBudget = false
        let found = p.comm.withUnsafeBytes { comm in
            p.commandLine.withUnsafeBytes { line in
                p.withRuleExecutable { executable in
                    rules.resolver.resolveRule(comm: comm, executable: executable, commandLine: line, into: &nameScratch,
                                               outOfBudget: &outOfBudget)
                }
            }
        }
        if outOfBudget {
            if resolverBudgetHits == 0 {
                printError("sysstatsd: the bookmarks take too much work to match (a hostile rules file?); some processes keep their own names")
            }
            resolverBudgetHits &+= 1
        }
        let name: [UInt8]
        if let found, !nameScratch.isEmpty {
            name = found.fixedName ? shared(rule: found.index, generation: generation) : Array(nameScratch)
        } else {
            name = []
        }
        table.setFriendlyName(at: index, name, generation: generation)
    }

    /// `nameScratch`, a rule's own friendly name, as the one array shared by every process
    /// the rule names (allocated the first time the rule matches).
    private func shared(rule: Int, generation: UInt32) -> [UInt8] {
        if namesGeneration != generation {   // new rules: new indices
            namesByRule = Array(repeating: [], count: rules.resolver.ruleCount)
            namesGeneration = generation
        }
        if namesByRule[rule].isEmpty { namesByRule[rule] = Array(nameScratch) }
        return namesByRule[rule]
    }

    /// Fills a top list in place, reusing the entries' name storage.
    static func fill(_ entries: inout [ProcessEntry], from processes: [ProcessSample], indices: [Int], ticksPerCore: UInt64) {
        while entries.count > indices.count { entries.removeLast() }
        // Index loops, not enumerated(): its iterator allocates in unoptimized builds.
        for slot in 0..<indices.count {
            let p = processes[indices[slot]]
            if slot == entries.count { entries.append(ProcessEntry()) }
            entries[slot].pid = UInt32(clamping: p.pid)
            entries[slot].cpu = UInt16(clamping: p.cpuPermyriad(ticksPerCore: ticksPerCore))
            entries[slot].privateKiB = p.privateKiB
            p.displayName.withUnsafeBytes { NameSanitizer.sanitize($0, into: &entries[slot].name) }
        }
    }

}

/// `a + b`, or `UInt64.max` when that overflows.
@inline(__always)
func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
}
