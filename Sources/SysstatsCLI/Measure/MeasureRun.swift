#if canImport(Glibc)
import Glibc
#endif
import CMeasureSys
import ProcFS

/// What `measure` is asked to do.
public struct MeasureOptions: Sendable {
    public var arguments: [String]
    public var intervalMs: UInt64 = 10
    /// The share of one core `measure`'s own CPU is held to (``OverheadGovernor``); 0: none.
    public var maxOverhead = OverheadGovernor.defaultShare
    /// The CPU time this process spent before the run, ns, which the share does not count (a
    /// budgets file's earlier budgets); 0: its own start counts, as `measure`'s does.
    public var cpuBeforeNs: UInt64 = 0
    /// Stop the tree after this long; nil: follow it until every process has ended.
    public var durationMs: UInt64?
    /// Whether to try a cgroup for the kernel's exact peak.
    public var useCgroup = true
    /// The command's stdin and stdout from /dev/null (budget checks keep their output clean).
    public var quiet = false
    public var procRoot = "/proc"
    /// Where the command starts (nil: here).
    public var workingDirectory: String?
    /// Follow this running process and its descendants instead of starting a command
    /// (`--pid`): it is not `measure`'s child, so nothing of it is reaped, stopped or put in
    /// a cgroup; the measurement ends when it ends, at `durationMs`, or at a signal.
    public var attachPid: Int32?
    /// The spawn helper the command is forked from (``Recording/commandFromHelper``):
    /// `sysstats-spawn` beside this program; nil when it is not there.
    public var spawnHelper: String? = MeasureOptions.helperBesideThisProgram()

    public init(arguments: [String]) { self.arguments = arguments }

    static func helperBesideThisProgram() -> String? {
        guard let path = programBesideThisOne("sysstats-spawn"), access(cPath(path), X_OK) == 0 else { return nil }
        return path
    }
}

/// Why a command could not be measured.
public struct MeasureError: Error, Equatable {
    public var message: String
}

/// Runs a command and samples its whole process tree until it ends (``MeasureOptions``).
///
/// The measuring process becomes a child subreaper first, so that a descendant whose parent
/// exits (a daemon's double fork) is reparented to it: the walk from itself finds it, and it
/// reaps it (with wait4's rusage: its exact maximum RSS and CPU time). Each interval: walk the
/// tree, read each process's stat and smaps_rollup, reap what ended; sleep to an absolute
/// monotonic deadline, so a slow sample does not shift the next ones.
public final class MeasureRun {
    let options: MeasureOptions
    let walker: ProcessTreeWalker
    let sampler: TreeSampler
    private var recording = Recording()

    public init(_ options: MeasureOptions) {
        self.options = options
        walker = ProcessTreeWalker(procRoot: options.procRoot)
        // The attached process's start time: with its pid, the process, not a later one.
        let attached = options.attachPid.flatMap { pid -> (pid: Int32, startTime: UInt64)? in
            let buffer = ReadBuffer(capacity: 1024)
            let stat = withExtendedLifetime(buffer) { () -> StatFigures? in
                guard case .success(let bytes) = buffer.fill(path: "\(options.procRoot)/\(pid)/stat") else { return nil }
                return StatFigures.parse(bytes)
            }
            return stat.map { (pid, $0.startTime) }
        }
        sampler = TreeSampler(procRoot: options.procRoot, intervalMs: options.intervalMs, attachedTo: attached)
        attachedFound = attached != nil
        recording.intervalMs = options.intervalMs
    }

    private let attachedFound: Bool

    /// Measures the command; the recording, or why it could not be started.
    public func run() -> Result<Recording, MeasureError> {
        if let pid = options.attachPid { return runAttached(to: pid) }
        guard !options.arguments.isEmpty else { return .failure(MeasureError(message: "no command to measure")) }
        guard measure_set_child_subreaper() == 0 else {
            return .failure(MeasureError(message: "cannot become a child subreaper: \(Errno.current)"))
        }
        var cgroup: MeasureCgroup?
        if options.useCgroup {
            switch MeasureCgroup.create() {
            case .success(let c): cgroup = c
            case .failure(let why): recording.cgroup = .unavailable(reason: why.reason)
            }
        }
        let entered = cgroup?.enter() ?? false
        if let c = cgroup, !entered {
            recording.cgroup = .unavailable(reason: "cannot move into \(c.directory): \(Errno.current)")
            c.remove(); cgroup = nil
        }
        // A child's end wakes the loop; SIGTERM, SIGHUP and SIGINT (Ctrl-C reaches the command
        // too, in the same process group) stop the tree, and `measure` stays to clean up and report.
        measure_signals_install()
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer { signal(SIGQUIT, previousQuit) }
        // Processes already reparented to us (a budget's setup left them) are not the command's,
        // nor are the ones they start later.
        sampler.excluded = Set(walker.descendants(of: getpid()))
        let usageBefore = childrenCPUMs()
        let start = monotonicMs()
        let pid = spawn()
        if entered { cgroup?.leave() }
        guard pid > 0 else {
            cgroup?.remove()
            return .failure(MeasureError(message: "cannot run \(options.arguments[0]): \(Errno(rawValue: -pid))"))
        }
        loop(commandPid: pid, start: start, cgroup: cgroup)
        recording.wallMs = monotonicMs() &- start
        recording.treeCPUMs = childrenCPUMs() &- usageBefore
        recording.measurerCPUMs = cpuMs(RUSAGE_SELF)
        if let c = cgroup {
            if let peak = c.peakBytes() { recording.cgroup = .measured(bytes: peak, source: c.source) }
            else { recording.cgroup = .unavailable(reason: "\(c.peakFile) could not be read") }
            recording.cgroupFileAtEnd = c.memoryStat()?.file
            c.remove()
        }
        return .success(recording)
    }

    private func spawn() -> Int32 {
        // Each word and path as its bytes (cPath): one that is not UTF-8 is carried in its
        // String (ProcFS's pathString), and a String handed to C would pass the carriers.
        var cStrings: [UnsafeMutablePointer<CChar>?] = options.arguments.map { word in
            cPath(word).withUnsafeBufferPointer { strdup($0.baseAddress!) }
        }
        defer { cStrings.forEach { free($0) } }
        cStrings.append(nil)
        recording.commandFromHelper = options.spawnHelper != nil
        let quiet: Int32 = options.quiet ? 1 : 0
        let pid = withOptionalPath(options.workingDirectory) { directory in
            withOptionalPath(options.spawnHelper) { helper in measure_spawn(cStrings, quiet, quiet, directory, helper) }
        }
        if pid > 0 { recording.commandPid = pid }
        return pid
    }

    private func loop(commandPid: Int32, start: UInt64, cgroup: MeasureCgroup?) {
        var deadline = start, stopping: UInt64?, ranSinceMemoryStat = true
        var governor = OverheadGovernor(share: options.maxOverhead, intervalMs: options.intervalMs)
        defer { recording.governed = governor.record(sampleTimesMs: recording.sampleTimesMs) }
        let me = getpid()
        while true {
            let now = monotonicMs()
            sampler.sample(into: &recording, atMs: now &- start)
            // memory.stat costs more than the statm reads of a quiet tree: read when the tree's
            // memory moved, and each tenth sample if a member ran since it was last read (one
            // that did not cannot have grown; a child too short to be seen was started by one
            // that ran).
            ranSinceMemoryStat = ranSinceMemoryStat || sampler.anyRan
            if let c = cgroup, sampler.memoryChanged || (recording.sampleTimesMs.count % 10 == 1 && ranSinceMemoryStat),
               let anon = c.memoryStat()?.anon {
                recording.cgroupPeakAnon = max(recording.cgroupPeakAnon ?? 0, anon)
                ranSinceMemoryStat = false
            }
            reap(commandPid: commandPid)
            // Every orphan of the tree was reparented to us before its parent could be reaped:
            // once the command is reaped and nothing of the tree is left, it has ended.
            if recording.commandExit != nil || recording.stoppedAtDuration || recording.stoppedBySignal != nil,
               sampler.liveCount == 0, walker.descendants(of: me, excluding: sampler.excluded).isEmpty {
                reap(commandPid: commandPid)
                break
            }
            let received = measure_termination_signal()
            if received != 0 && recording.stoppedBySignal == nil { recording.stoppedBySignal = received }
            let overTime = options.durationMs.map { now &- start >= $0 } ?? false
            if overTime || recording.stoppedBySignal != nil {
                // SIGTERM first, as a service manager would; what ignores it gets SIGKILL a second later.
                if stopping == nil {
                    stopping = now
                    if recording.stoppedBySignal == nil { recording.stoppedAtDuration = true }
                }
                let signal = now &- stopping! >= 1_000 ? SIGKILL : SIGTERM
                for pid in walker.descendants(of: me, excluding: sampler.excluded) { kill(pid, signal) }
            }
            if now >= deadline { deadline &+= options.intervalMs }
            if deadline < monotonicMs() { deadline = monotonicMs() }
            let sampled = monotonicMs()
            deadline = governor.nextSample(deadline: deadline, now: sampled, elapsedMs: sampled &- start, cpuNs: ownCPUNs())
            // A sample that waits does not hold back the stop at --duration.
            if let d = options.durationMs, sampled < start &+ d { deadline = min(deadline, start &+ d) }
            if let s = stopping { deadline = min(deadline, max(s &+ 1_000, monotonicMs())) }
            // A child's end wakes the sleep: the command's end is noticed at once, not at the
            // next sample; other children (a storm of them) are only reaped meanwhile.
            while measure_sleep_until(deadline) == 1 {
                reap(commandPid: commandPid)
                if recording.commandExit != nil || measure_termination_signal() != 0 { break }
            }
        }
    }

    /// Reaps every child that ended (ours, and the orphans reparented to us). A child no
    /// sample saw is looked at while still a zombie, for its name.
    private func reap(commandPid: Int32) {
        while true {
            let ended = measure_ended_child()
            if ended <= 0 { return }
            // Its zombie's stat: its name, and whether wait4's figure is its own.
            let zombie = sampler.readStat(ended)
            let isOwn = zombie.map { figureIsOwn(ended, $0, commandPid: commandPid) } ?? false
            var status: Int32 = 0
            var usage = rusage()
            let pid = wait4(ended, &status, WNOHANG, &usage)
            if pid < 0 && errno == EINTR { continue }
            if pid <= 0 { return }
            let wasExcluded = sampler.excluded.remove(pid) != nil
            let exit: ExitStatus = (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
            if pid == commandPid { recording.commandExit = exit }
            let maxRSSKiB = UInt64(max(usage.ru_maxrss, 0))
            guard let position = sampler.positions.removeValue(forKey: pid) else {
                if wasExcluded { continue }
                recording.unseenProcesses &+= 1
                if maxRSSKiB > recording.largestUnseen?.maxRSSKiB ?? 0, pid != commandPid || recording.commandFromHelper {
                    recording.largestUnseen = UnseenProcess(pid: pid, name: zombie?.name ?? [], maxRSSKiB: maxRSSKiB, isOwn: isOwn)
                }
                continue
            }
            recording.processes[position].exit = exit
            recording.processes[position].exactMaxRSSKiB = maxRSSKiB
            recording.processes[position].exactIsOwn = isOwn
            recording.processes[position].exactCPUMs = ms(usage.ru_utime) &+ ms(usage.ru_stime)
        }
    }

    private func childrenCPUMs() -> UInt64 { cpuMs(RUSAGE_CHILDREN) }

    /// This run's own CPU time so far (``MeasureOptions/cpuBeforeNs`` left out), ns.
    private func ownCPUNs() -> UInt64 {
        let now = OverheadGovernor.processCPUNs()
        return now &- min(options.cpuBeforeNs, now)
    }

    /// Whether the kernel's peak at `pid`'s end (wait4) is its own program's. It is the
    /// largest of every image the process had and of the children it waited for: not its own
    /// when it reaped a child that ran (its zombie counts their page faults), nor when it
    /// exec'd over an image that was not small — the command past the first exec the spawn
    /// helper made (`sh -c "exec prog"`: the shell's), another process at all (a forked
    /// copy of its parent, unless it kept its parent's program, its name).
    private func figureIsOwn(_ pid: Int32, _ zombie: StatFigures, commandPid: Int32) -> Bool {
        guard zombie.childrenFaults == 0 else { return false }
        if pid == commandPid {
            let program = options.arguments.first.map { Array($0.utf8.split(separator: 0x2F).last ?? []) } ?? []
            return recording.commandFromHelper && zombie.name == Array(program.prefix(15))
        }
        guard let position = sampler.positions[pid] else { return false }
        let parent = recording.processes[position].parentPid
        return recording.processes.last(where: { $0.pid == parent })?.name == zombie.name
    }

    /// Follows a running process (``MeasureOptions/attachPid``) until it ends, `durationMs`
    /// passes or a termination signal comes; stops nothing.
    private func runAttached(to pid: Int32) -> Result<Recording, MeasureError> {
        guard pid > 0, attachedFound else {
            return .failure(MeasureError(message: "no process \(pid) (\(options.procRoot)/\(pid)/stat cannot be read)"))
        }
        if case .failure(let e) = FileDescriptor.open("\(options.procRoot)/\(pid)/smaps_rollup").map({ $0.close() }) {
            return .failure(MeasureError(message: "cannot read \(options.procRoot)/\(pid)/smaps_rollup: \(e)"
                                         + (e.rawValue == EACCES ? " (another user's process: run sysstats as that user or as root)" : "")))
        }
        recording.attachedPid = pid
        recording.cgroup = .unavailable(reason: "attached to a running process (--pid): its cgroup is not measure's to make")
        measure_signals_install()
        let start = monotonicMs()
        var deadline = start
        var governor = OverheadGovernor(share: options.maxOverhead, intervalMs: options.intervalMs)
        defer { recording.governed = governor.record(sampleTimesMs: recording.sampleTimesMs) }
        while true {
            let now = monotonicMs()
            sampler.sample(into: &recording, atMs: now &- start)
            if sampler.liveCount == 0 { recording.attachedEnded = true; break }
            let received = measure_termination_signal()
            if received != 0 { recording.stoppedBySignal = received; break }
            if let d = options.durationMs, now &- start >= d { recording.stoppedAtDuration = true; break }
            deadline &+= options.intervalMs
            if deadline < monotonicMs() { deadline = monotonicMs() }
            let sampled = monotonicMs()
            deadline = governor.nextSample(deadline: deadline, now: sampled, elapsedMs: sampled &- start, cpuNs: ownCPUNs())
            if let d = options.durationMs { deadline = min(deadline, start &+ d) }
            _ = measure_sleep_until(deadline)
        }
        recording.wallMs = monotonicMs() &- start
        recording.measurerCPUMs = cpuMs(RUSAGE_SELF)
        let hz = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        let ticks = recording.processes.reduce(UInt64(0)) { $0 &+ ($1.cpuTicks &- min($1.firstCPUTicks, $1.cpuTicks)) }
        recording.treeCPUMs = ticks.multipliedReportingOverflow(by: 1000).partialValue / hz
        return .success(recording)
    }
}

func cpuMs(_ who: __rusage_who) -> UInt64 {
    var usage = rusage()
    getrusage(__rusage_who_t(who.rawValue), &usage)
    return ms(usage.ru_utime) &+ ms(usage.ru_stime)
}

func ms(_ t: timeval) -> UInt64 {
    UInt64(max(t.tv_sec, 0)) &* 1000 &+ UInt64(max(t.tv_usec, 0)) / 1000
}

/// The directory for temporary files: $TMPDIR, else /tmp.
func temporaryDirectory() -> String {
    guard let dir = getenv("TMPDIR"), dir.pointee != 0 else { return "/tmp" }
    return pathString(UnsafeRawBufferPointer(start: dir, count: strlen(dir)))
}

func monotonicNs() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}

func monotonicMs() -> UInt64 { monotonicNs() / 1_000_000 }

/// `body` with `path`'s bytes as a C string (``cPath(_:)``), or with nil when there is no path.
func withOptionalPath<R>(_ path: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let path else { return body(nil) }
    return cPath(path).withUnsafeBufferPointer { body($0.baseAddress) }
}
