/// What a measured run recorded: the sample times, and for each process every sample it was
/// seen in. Pure data: ``MeasureSummary`` turns it into peaks, steady state and growth, and
/// tests build one by hand.
public struct Recording: Sendable {
    /// Milliseconds after the command started, one per sample.
    public var sampleTimesMs: [UInt64] = []
    public var processes: [RecordedProcess] = []
    /// The interval asked for, ms.
    public var intervalMs: UInt64 = 10
    /// The command's own end: its exit status, or the signal that ended it; nil when it was
    /// still running when `measure` stopped it.
    public var commandExit: ExitStatus?
    /// True when `--duration` ran out and `measure` ended the tree.
    public var stoppedAtDuration = false
    /// The termination signal (SIGTERM, SIGHUP, SIGINT) that made `measure` stop the tree
    /// before its end; it exits 128 + that number after its report.
    public var stoppedBySignal: Int32?
    public var wallMs: UInt64 = 0
    /// CPU time of every descendant `measure` or its descendants waited for (getrusage
    /// RUSAGE_CHILDREN): the whole tree's, exactly, once everything was reaped.
    public var treeCPUMs: UInt64 = 0
    /// The measuring process's own CPU time.
    public var measurerCPUMs: UInt64 = 0
    /// Whether samples waited to hold that to its share (``OverheadGovernor``); nil: none did.
    public var governed: GovernedSampling?
    /// Processes `measure` reaped without having seen them in a sample (they lived less
    /// than an interval).
    public var unseenProcesses = 0
    /// Of those, the one with the largest peak RSS by wait4 (read from its zombie's stat
    /// before it was reaped).
    public var largestUnseen: UnseenProcess?
    /// The command's pid; nil until it started.
    public var commandPid: Int32?
    /// Whether the exact peak may only be a process's own figure (a budget's `process`
    /// filter: a figure that may be a reaped child's may be a process the filter left out).
    public var ownExactFiguresOnly = false
    /// The running process followed instead of a command (`--pid`), and whether it ended
    /// while followed.
    public var attachedPid: Int32?
    public var attachedEnded = false
    /// Whether the command was forked from the spawn helper (sysstats-spawn), so that its
    /// wait4 peak is its own; when not (the helper was missing), that figure includes the
    /// RSS of `measure` itself and is not used as a peak.
    public var commandFromHelper = false
    public var cgroup: CgroupPeak = .unavailable(reason: "not tried")
    /// The largest anonymous memory memory.stat showed in the cgroup at a sample, and the page
    /// cache still charged to it at the end (what the tree read or mapped of files), bytes.
    public var cgroupPeakAnon: UInt64?
    public var cgroupFileAtEnd: UInt64?

    public init() {}
}

/// A process `measure` reaped without having seen it in a sample.
public struct UnseenProcess: Equatable, Sendable {
    public var pid: Int32
    public var name: [UInt8]
    /// wait4's ru_maxrss.
    public var maxRSSKiB: UInt64
    /// Whether that is its own (``RecordedProcess/exactIsOwn``).
    public var isOwn: Bool

    public init(pid: Int32, name: [UInt8], maxRSSKiB: UInt64, isOwn: Bool = true) {
        self.pid = pid; self.name = name; self.maxRSSKiB = maxRSSKiB; self.isOwn = isOwn
    }
}

/// How a process ended, as wait(2) said.
public enum ExitStatus: Equatable, Sendable, Codable {
    case exited(Int32)
    case signalled(Int32)

    /// The status a shell would give: the code, or 128 + the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 &+ signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signalled(let signal): "signal \(signal)"
        }
    }
}

/// One process of the tree.
public struct RecordedProcess: Sendable {
    public var pid: Int32
    public var parentPid: Int32
    /// Its comm, as it named itself (escape before showing).
    public var name: [UInt8]
    /// The first sample it was in; `values[i]` is sample `firstSample + i`.
    public var firstSample: Int
    /// Its start time (ticks after boot): with the pid, the process, not a later one that
    /// reuses the pid.
    public var startTime: UInt64 = 0
    public var values: [ProcessValues] = []
    public var threadsPeak: UInt64 = 0
    public var cpuTicks: UInt64 = 0
    /// utime + stime when it was first seen (with `--pid`, CPU time is counted from there).
    public var firstCPUTicks: UInt64 = 0
    /// The highest VmHWM read (the kernel's own peak RSS since its exec); nil when never read.
    public var highWaterKiB: UInt64?
    /// Its maximum RSS by wait4's rusage, when `measure` reaped it: GNU time's figure, the
    /// kernel's own at the process's end. It is the larger of the process's and its reaped
    /// children's, and exec records the RSS of the address space it replaced (the command
    /// is forked from the small spawn helper for that reason: see ``Recording/commandFromHelper``).
    public var exactMaxRSSKiB: UInt64?
    /// Whether ``exactMaxRSSKiB`` is its own: it reaped no child that ran (its zombie's stat
    /// counts no page fault of a waited-for child). When not, the figure may be a child's.
    public var exactIsOwn = false
    /// Its CPU time by wait4's rusage, when `measure` reaped it.
    public var exactCPUMs: UInt64?
    /// Its mappings by kind (``SmapsMappings``) when its RSS was last read at a new high,
    /// the RSS then, and when (ms after the start); empty when never read.
    public var peakMappings: [MappingFigures] = []
    public var peakMappingsRSSKiB: UInt64 = 0
    public var peakMappingsAtMs: UInt64 = 0
    /// Why its mappings were not read at a new high it reached (nil: they were, or it
    /// reached none that called for them).
    public var mappingsMissed: MappingsMissed?
    public var exit: ExitStatus?
    /// True when the process exec'd another program: its next image is the next entry
    /// with its pid.
    public var execd = false
    /// Its address space's layout as last read where the kernel showed it: a new one is an
    /// exec (``StatFigures/isExec(since:)``).
    public var image: ImageLayout?

    public init(pid: Int32, parentPid: Int32, name: [UInt8], firstSample: Int) {
        self.pid = pid; self.parentPid = parentPid; self.name = name; self.firstSample = firstSample
    }

    /// The last sample it was seen in.
    public var lastSample: Int { firstSample + values.count - 1 }
}

/// A process's memory in one sample, KiB.
public struct ProcessValues: Equatable, Sendable {
    public var rssKiB: UInt32
    public var pssKiB: UInt32
    public var ussKiB: UInt32
    public var swapKiB: UInt32
    public var anonKiB: UInt32

    public init(rssKiB: UInt32, pssKiB: UInt32, ussKiB: UInt32, swapKiB: UInt32, anonKiB: UInt32 = 0) {
        self.rssKiB = rssKiB; self.pssKiB = pssKiB; self.ussKiB = ussKiB; self.swapKiB = swapKiB; self.anonKiB = anonKiB
    }

    public init(_ m: MemoryFigures) {
        self.init(rssKiB: UInt32(clamping: m.rssKiB), pssKiB: UInt32(clamping: m.pssKiB),
                  ussKiB: UInt32(clamping: m.ussKiB), swapKiB: UInt32(clamping: m.swapKiB), anonKiB: UInt32(clamping: m.anonKiB))
    }

    subscript(figure: MemoryFigure) -> UInt64 {
        switch figure {
        case .rss: UInt64(rssKiB)
        case .pss: UInt64(pssKiB)
        case .uss: UInt64(ussKiB)
        case .swap: UInt64(swapKiB)
        case .anon: UInt64(anonKiB)
        }
    }
}

/// The four figures, for tables and loops.
public enum MemoryFigure: String, CaseIterable, Sendable, Codable {
    case rss, pss, uss, swap, anon

    public var label: String {
        switch self {
        case .rss: "RSS"
        case .pss: "PSS"
        case .uss: "USS"
        case .swap: "swap"
        case .anon: "anon"
        }
    }
}

extension MappingFigures {
    /// The figure a budget key is about (swap: the anonymous part, swapped out or not).
    public func kib(_ figure: MemoryFigure) -> UInt64 {
        switch figure {
        case .rss: rssKiB
        case .pss: pssKiB
        case .uss: ussKiB
        case .swap, .anon: anonKiB
        }
    }
}

/// The kernel's own peak of the tree's memory, where a cgroup could be made for it.
public enum CgroupPeak: Equatable, Sendable {
    /// Bytes, and the file it came from (e.g. "cgroup v2 memory.peak").
    case measured(bytes: UInt64, source: String)
    case unavailable(reason: String)
}

/// Why a process's /proc/PID/smaps was not read at a new high (``TreeSampler``'s breakdowns).
public enum MappingsMissed: String, Sendable, Equatable {
    /// The reads had spent their share of the run's time; it ended or fell before the next.
    case costAllowance = "the breakdown reads had spent their share of the run's time"
    /// The kernel refused the file, or it ended while it was read.
    case unreadable = "its /proc/PID/smaps could not be read"
}
