import ProcFS
import SnapshotCodec
import HistoryRecords
import Bookmarks

/// Reads the system once per interval and keeps the snapshot up to date.
///
/// All buffers (the read buffer, previous CPU counters, top-list selections,
/// history rings and the snapshot's own arrays) are allocated in the first
/// samples and reused after; a steady-state sample allocates only when a new
/// process appears (its names) or a process exits (its record).
public final class Sampler {
    public let configuration: SamplerConfiguration
    /// The snapshot as of the last ``sample(realtimeMs:monotonicNs:)``.
    public private(set) var snapshot = Snapshot()

    private let buffer = ReadBuffer()
    private let kernel: KernelRelease?
    private let cpuReader: CPUStatReader
    private let memoryReader: MemInfoReader
    private let uptimeReader: UptimeReader
    private let loadReader: LoadAverageReader
    private let pressureReader: PressureReader
    private let batteryReader: BatteryReader
    private let processTable: ProcessTable
    private var selfUsage = SelfUsage()
    private var exitTracker: ExitTracker
    private var topByCPU = TopSelection(limit: Snapshot.maximumTopEntries)
    private var topByMemory = TopSelection(limit: Snapshot.maximumTopEntries)
    private var cpuHistory = HistoryRing()
    private var iowaitHistory = HistoryRing()
    private var memoryHistory = HistoryRing()

    private var havePreviousCPU = false
    private var previousTotal = CPUTimes()
    private var previousCores: [CPUTimes] = []
    private var previousAvailableKiB: UInt64?
    private var lastBatteryReadMs: UInt64 = 0
    private var battery = BatteryFigures()
    private let rules: RulesWatcher
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
    /// The kernel's name and the friendly name of each exit in ``snapshot``'s `exits`, in
    /// the same order: the snapshot shows one name, history keeps both.
    public private(set) var exitNames: [ExitNames] = []
    /// How many times a process got no friendly name because the rules took more work
    /// than the resolver allows one process (``NameResolver/resolveRule(comm:executable:commandLine:into:outOfBudget:)``):
    /// only a hostile rules file gets there. The first time is said on stderr.
    public private(set) var resolverBudgetHits = 0

    /// Battery state changes slowly; reading a handful of sysfs files every
    /// second would cost more than the rest of the system-wide sample.
    public static let batteryRefreshMs: UInt64 = 5_000

    /// What one scan of the proc root gives (a constant: an array literal per sample would allocate).
    static let processParts: SnapshotSections = [.processes, .top, .exits]

    public init(configuration: SamplerConfiguration) {
        self.configuration = configuration
        let procRoot = configuration.procRoot
        kernel = KernelRelease.read(procRoot: procRoot)
        cpuReader = CPUStatReader(procRoot: procRoot)
        memoryReader = MemInfoReader(procRoot: procRoot)
        uptimeReader = UptimeReader(procRoot: procRoot)
        loadReader = LoadAverageReader(procRoot: procRoot)
        pressureReader = PressureReader(procRoot: procRoot, kernel: kernel)
        batteryReader = BatteryReader(sysRoot: configuration.sysRoot)
        processTable = ProcessTable(procRoot: procRoot)
        exitTracker = ExitTracker(freedThresholdKiB: configuration.freedThresholdKiB)
        rules = RulesWatcher(path: configuration.rulesPath,
                             builtins: configuration.builtinBookmarks)
        nameScratch.reserveCapacity(4 * BookmarkFile.maximumNameLength)
        exitNames.reserveCapacity(Snapshot.maximumExits)
        snapshot.intervalMs = configuration.intervalMs
        snapshot.coreBusy.reserveCapacity(64)
        snapshot.cpuHistory.reserveCapacity(Snapshot.historyLength)
        snapshot.iowaitHistory.reserveCapacity(Snapshot.historyLength)
        snapshot.memoryHistory.reserveCapacity(Snapshot.historyLength)
        snapshot.exits.reserveCapacity(Snapshot.maximumExits)
        previousCores.reserveCapacity(64)
    }

    /// The kernel release the sampler gated its features on, if readable.
    public var kernelRelease: KernelRelease? { kernel }

    /// Takes one sample. The first one primes the counters: its CPU shares are not
    /// available yet. A part whose source could not be read this time is marked not
    /// available (shown as `n/a`), never left at its last or a zero value.
    public func sample(realtimeMs: UInt64, monotonicNs: UInt64) {
        snapshot.sequence &+= 1
        snapshot.timestampMs = realtimeMs
        snapshot.available = []
        let ticksPerCore = sampleCPU()
        let risenKiB = sampleMemory()
        sampleSystem(realtimeMs: realtimeMs)
        sampleProcesses(ticksPerCore: ticksPerCore, availableRiseKiB: risenKiB, realtimeMs: realtimeMs)
        if configuration.measureSelf {
            let own = selfUsage.measure(monotonicNs: monotonicNs, buffer: buffer)
            snapshot.samplerCPU = own.cpu
            snapshot.samplerResidentKiB = own.residentKiB
            snapshot.available.insert(.sampler)
        }
        snapshot.urgent = urgentConditions()
    }

    /// CPU shares; returns the ticks one core had in the interval (0 on the first sample).
    private func sampleCPU() -> UInt64 {
        guard let stat = cpuReader.update(buffer) else {
            snapshot.cpuBusy = 0; snapshot.cpuIOWait = 0
            havePreviousCPU = false
            return 0
        }
        snapshot.bootTime = stat.bootTime
        snapshot.runningCount = stat.procsRunning
        var ticksPerCore: UInt64 = 0
        snapshot.coreBusy.removeAll(keepingCapacity: true)
        if havePreviousCPU {
            snapshot.available.insert(.cpu)
            snapshot.cpuBusy = CPUUsage.busy(from: previousTotal, to: stat.total)
            snapshot.cpuIOWait = CPUUsage.iowait(from: previousTotal, to: stat.total)
            for i in 0..<min(stat.cores.count, Snapshot.maximumCores) {
                let core = stat.cores[i]
                let before = i < previousCores.count ? previousCores[i] : core
                snapshot.coreBusy.append(CPUUsage.busy(from: before, to: core))
            }
            if stat.total.total > previousTotal.total {
                ticksPerCore = (stat.total.total - previousTotal.total) / UInt64(max(stat.cores.count, 1))
            }
        } else {
            for _ in 0..<min(stat.cores.count, Snapshot.maximumCores) { snapshot.coreBusy.append(0) }
        }
        previousTotal = stat.total
        previousCores.removeAll(keepingCapacity: true)
        previousCores.append(contentsOf: stat.cores)
        havePreviousCPU = true
        cpuHistory.append(snapshot.cpuBusy)
        cpuHistory.copy(into: &snapshot.cpuHistory)
        iowaitHistory.append(snapshot.cpuIOWait)
        iowaitHistory.copy(into: &snapshot.iowaitHistory)
        return ticksPerCore
    }

    /// Memory figures; returns how much MemAvailable rose since the last sample (KiB).
    private func sampleMemory() -> UInt64 {
        guard let info = memoryReader.update(buffer) else { return 0 }
        snapshot.available.insert(.memory)
        snapshot.memory = MemoryBreakdown.figures(info, useMemAvailable: kernel?.supportsMemAvailable ?? true)
        let available = snapshot.memory.available
        var rise: UInt64 = 0
        if let before = previousAvailableKiB, available > before { rise = available - before }
        previousAvailableKiB = available
        memoryHistory.append(MemoryBreakdown.share(snapshot.memory.used, of: snapshot.memory.total))
        memoryHistory.copy(into: &snapshot.memoryHistory)
        return rise
    }

    private func sampleSystem(realtimeMs: UInt64) {
        if let up = uptimeReader.update(buffer) {
            snapshot.uptimeCentiseconds = up.uptimeCentiseconds
            snapshot.available.insert(.uptime)
        }
        if let load = loadReader.update(buffer) {
            snapshot.load1 = load.load1; snapshot.load5 = load.load5; snapshot.load15 = load.load15
            snapshot.available.insert(.load)
        }
        if let pressure = pressureReader.update(buffer) {
            snapshot.memoryPressure = Permyriad(clamping: pressure.someAvg10)
        } else {
            snapshot.memoryPressure = nil
        }
        if lastBatteryReadMs == 0 || realtimeMs &- lastBatteryReadMs >= Sampler.batteryRefreshMs || realtimeMs < lastBatteryReadMs {
            battery = Sampler.figures(batteryReader.update(buffer))
            lastBatteryReadMs = realtimeMs == 0 ? 1 : realtimeMs
        }
        snapshot.battery = battery
        snapshot.available.insert(.battery)
    }

    private func sampleProcesses(ticksPerCore: UInt64, availableRiseKiB: UInt64, realtimeMs: UInt64) {
        guard processTable.scan(buffer) else { return }
        snapshot.available.formUnion(Sampler.processParts)
        resolveNames()
        // Taken after resolveNames: a second reference to the array would make its
        // in-place updates copy the whole table.
        let processes = processTable.processes
        snapshot.processCount = UInt32(clamping: processes.count)
        if ticksPerCore > 0 {
            topByCPU.select(processes) { $0.cpuDelta }
        } else {
            topByCPU.select([]) { $0.cpuDelta }
        }
        topByMemory.select(processes) { $0.privateKiB }
        Sampler.fill(&snapshot.topCPU, from: processes, indices: topByCPU.indices, ticksPerCore: ticksPerCore)
        Sampler.fill(&snapshot.topMemory, from: processes, indices: topByMemory.indices, ticksPerCore: ticksPerCore)
        if !processTable.exited.isEmpty {
            exitTracker.record(processTable.exited, availableRiseKiB: availableRiseKiB,
                               timeMs: realtimeMs, into: &snapshot.exits, names: &exitNames)
        }
    }

    /// Gives each process its friendly name: a new process once, every process again when
    /// the rules changed (one stat of the rules cache per sample). In steady state this is
    /// one comparison per process, no allocation.
    private func resolveNames() {
        rules.refresh()
        let generation = rules.generation
        for i in 0..<processTable.processes.count where processTable.processes[i].namesGeneration != generation {
            resolveName(at: i, generation: generation)
        }
    }

    private func resolveName(at index: Int, generation: UInt32) {
        let p = processTable.processes[index]
        var outOfBudget = false
        let found = p.comm.withUnsafeBytes { comm in
            p.commandLine.withUnsafeBytes { line in
                // The executable's basename; argv[0]'s when /proc/PID/exe is unreadable.
                let run = p.exeName.isEmpty ? Sampler.firstArgumentBase(line) : nil
                return p.exeName.withUnsafeBytes { exe in
                    rules.resolver.resolveRule(comm: comm, executable: run ?? exe, commandLine: line, into: &nameScratch,
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
        processTable.setFriendlyName(at: index, name, generation: generation)
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

    /// The basename of the first word of a command line (arguments joined by spaces).
    static func firstArgumentBase(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = 0
        while end < line.count && line[end] != 0x20 { end += 1 }
        var start = end
        while start > 0 && line[start - 1] != 0x2F { start -= 1 }
        return UnsafeRawBufferPointer(rebasing: line[start..<end])
    }

    /// Fills a top list in place, reusing the entries' name storage.
    static func fill(_ entries: inout [ProcessEntry], from processes: [ProcessSample], indices: [Int], ticksPerCore: UInt64) {
        while entries.count > indices.count { entries.removeLast() }
        // Index loops, not enumerated(): its iterator allocates in unoptimized builds.
        for slot in 0..<indices.count {
            let p = processes[indices[slot]]
            if slot == entries.count { entries.append(ProcessEntry()) }
            entries[slot].pid = UInt32(clamping: p.pid)
            entries[slot].cpu = ticksPerCore > 0 ? UInt16(clamping: p.cpuDelta &* 10_000 / ticksPerCore) : 0
            entries[slot].privateKiB = p.privateKiB
            p.displayName.withUnsafeBytes { NameSanitizer.sanitize($0, into: &entries[slot].name) }
        }
    }

    /// The snapshot's battery figures from the reader's aggregate.
    public static func figures(_ status: BatteryStatus) -> BatteryFigures {
        var b = BatteryFigures()
        b.count = UInt8(clamping: status.count)
        guard status.count > 0 else { return b }
        b.state = BatteryFigures.State(rawValue: status.state.rawValue) ?? .unknown
        b.percent = Permyriad(clamping: min(status.percentHundredths, 10_000))
        b.powerMilliwatts = UInt32(clamping: status.powerNow / 1000)
        if status.powerNow > 0 {
            let energy: UInt64
            switch b.state {
            case .discharging: energy = status.energyNow
            case .charging: energy = status.energyFull > status.energyNow ? status.energyFull - status.energyNow : 0
            default: return b
            }
            b.minutesRemaining = UInt32(clamping: energy * 60 / status.powerNow)
        }
        return b
    }

    private func urgentConditions() -> UrgentFlags {
        var flags: UrgentFlags = []
        let b = snapshot.battery
        if b.count > 0, b.state == .discharging, UInt32(b.percent) <= configuration.batteryLowPercent * 100 {
            flags.insert(.batteryLow)
        }
        let m = snapshot.memory
        if m.total > 0, m.available.multipliedReportingOverflow(by: 100).partialValue <= m.total &* UInt64(configuration.memoryLowPercent) {
            flags.insert(.memoryLow)
        }
        if let pressure = snapshot.memoryPressure, UInt32(pressure) > configuration.pressureThreshold {
            flags.insert(.memoryPressure)
        }
        return flags
    }
}
