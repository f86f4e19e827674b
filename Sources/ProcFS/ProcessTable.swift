import CLibc

/// Every process under the proc root, scan after scan, with what changed between two scans.
///
/// A scan lists the proc root (`readdir`, on a directory kept open) unless the kernel's
/// task counters say nothing was created or reaped (``scan(_:counters:refresh:idle:)``) and,
/// per numeric entry, reads `PID/stat`, then `PID/statm` when the process has
/// memory and its resident size changed (see ``privateRefreshScans``). On a real
/// procfs a process's `stat` and `statm` are kept open and re-read (``keepsDescriptors``),
/// and a refresh may leave out the processes that did not run (``IdleSkip``). Paths are built in a fixed buffer and
/// opened with `openat(2)` relative to the proc root. Names (`PID/cmdline`, the `PID/exe` link) are read
/// only for a process not seen in the previous scan; a known process reuses its
/// previous ``ProcessSample``, so a steady scan allocates nothing per process.
///
/// A process is identified by its pid *and* start time: a reused pid is the
/// exit of the old process and a new one. A process that vanishes mid-scan or
/// cannot be read is skipped and counted in ``skippedCount``; if it was in the
/// previous scan it is reported in ``exited``.
public final class ProcessTable {
    /// The system's page size in KiB, from `sysconf(_SC_PAGESIZE)` (4 if unknown).
    public static var systemPageSizeKiB: UInt64 {
        let bytes = sysconf(Int32(_SC_PAGESIZE))
        return bytes >= 1024 ? UInt64(bytes) / 1024 : 4
    }

    /// Longest command line kept, in bytes.
    public static let commandLineCapacity = 256

    /// Private memory is re-read from `statm` when resident memory (from `stat`)
    /// changed, and otherwise every this many scans, staggered by pid: a process
    /// whose rss did not move rarely changed its private/shared split, and this
    /// saves most `statm` opens (one file per process per scan, not two).
    public static let privateRefreshScans: UInt32 = 10

    /// At most this many processes are watched for their exit (a pidfd each, ``ExitWatch``).
    public static let defaultWatchLimit = 65_536

    /// At most this many descriptors (`PID/stat` and `PID/statm`, see ``keepsDescriptors``)
    /// are kept open between scans; past it, a process's stat is opened and closed at each read.
    public static let defaultDescriptorLimit = 4096

    /// With an ``IdleSkip``, a process that did not run is still read at one refresh in this
    /// many (staggered by pid): what a sleeping process's memory loses to reclaim and swap,
    /// and CPU use under the skip's threshold, show within this many refreshes.
    public static let idleRereadRefreshes: UInt32 = 16

    /// A process counts as busy when it used at least this many clock ticks since its last
    /// read (20 ms at USER_HZ 100): a busy or new process has its memory re-read every scan
    /// between refreshes (what its exit frees is credited up to it), and is read at every
    /// refresh with an ``IdleSkip``. A daemon that woke for a millisecond is not busy:
    /// /proc/stat's accounting covers it.
    public static let busyTicks: UInt64 = 2

    /// Busy: it ran ``busyTicks`` or more since its last read, or children it reaped meanwhile
    /// ran at all. A parent of short lives is busy however little each child used: only its
    /// reads account for what they used, which /proc/stat's ticks hold.
    static func isBusy(ran: UInt64, childrenRan: UInt64) -> Bool {
        childrenRan > 0 || ran >= busyTicks
    }

    /// At most this many pids are probed in one scan (``scan(_:counters:refresh:idle:)``); more
    /// allocated since the last scan, and the proc root is listed instead.
    public static let probeLimit: UInt32 = 8192

    /// Scans that probe rather than list, between two listings: a listing now and then
    /// finds whatever a probe could not (a process whose pidfd was refused, a pid reused
    /// between a probe and its exit's report).
    public static let scansBetweenListings: UInt32 = 600

    /// With an ``IdleSkip``, a refresh reads at most this many idle processes for their
    /// periodic read (``idleRereadRefreshes``); a large table's idle processes take turns.
    public static let idleRereadLimit = 8

    /// A refresh that reads every idle process because the busy ticks were not accounted for
    /// reads at most this many, taking turns: on a table this large a process that woke up
    /// shows within a few refreshes, not at the one that noticed.
    public static let idleFullPassLimit = 512
    /// ``idleFullPassLimit`` for this table (tests lower it).
    var fullPassLimit = ProcessTable.idleFullPassLimit

    /// A pid allocated this many times over in one interval may have come round again to
    /// any known pid: every known process is then re-read (see ``scan(_:counters:refresh:)``).
    static let reuseForkBound: UInt64 = 30_000

    /// Where proc is mounted (`/proc`, or a fixture tree).
    public let procRoot: String
    /// KiB per page, for the page counts in `stat` and `statm`.
    public let pageSizeKiB: UInt64

    /// The processes of the last scan, in directory order.
    public internal(set) var processes: [ProcessSample] = []
    /// Processes of the previous scan that are gone in the last one, with their last values.
    public internal(set) var exited: [ProcessSample] = []
    /// Processes in state `R` in the last scan.
    public internal(set) var runningCount = 0
    /// Numeric entries of the last scan that vanished or could not be read.
    public internal(set) var skippedCount = 0
    /// Whether the last scan listed the proc root (false: the task counters had not moved
    /// and the known processes stood for the listing).
    public internal(set) var listedLastScan = false
    /// Scans that listed the proc root, and per-process reads of `PID/stat` (through a
    /// kept descriptor or not), since the table was made
    /// (wrapping): what the change counters and the refresh cadence save.
    public internal(set) var listings = 0
    public internal(set) var statReads = 0
    /// Whether the last scan found new processes by probing the pids allocated since the
    /// scan before (``ExitWatch``), and how many scans and pids were probed so far (wrapping).
    public internal(set) var probedLastScan = false
    public internal(set) var probeScans = 0
    public internal(set) var probedPids = 0
    /// Whether exits are reported by the kernel (pidfds on a real procfs), and how many
    /// of ``processes`` are watched so: with every one of them, a scan may probe instead of list.
    public var watchesExits: Bool { exitWatch != nil }
    public internal(set) var watchedCount = 0
    /// The pids of the processes read or found since the last refresh began: only these may
    /// have new CPU use (a refresh sets every process's), memory or names; the rest stand as
    /// they were. `touchedAll`: the list was given up (longer than ``touchedLimit``), and any
    /// process may have changed. Exits are in ``exited``, not here.
    public internal(set) var touchedPids: [Int32] = []
    public internal(set) var touchedAll = true
    public static let touchedLimit = 4096

    /// ``touchedPids`` of the period the last refresh ended.
    var previousTouchedPids: [Int32] = []
    var previousTouchedAll = true

    /// The index in ``processes`` of the process with this pid.
    public func index(ofPid pid: Int32) -> Int? { indexByPid[pid] }

    /// Reads of a kept process's `statm` after its first (it is skipped when the process did
    /// not run since its last read, but for every tenth scan).
    public internal(set) var memoryRereads = 0
    /// Whether each process's `PID/stat` and `PID/statm` are kept open from scan to scan and
    /// read again with `pread` at offset 0 (no path lookup, no open and close): only on a real
    /// procfs, where a read through the descriptor of a process that has exited fails with
    /// `ESRCH` — a fixture tree's files would still read. `stat`, not `schedstat`: its utime +
    /// stime count every thread of the process, schedstat only the main thread's.
    public internal(set) var keepsDescriptors = false
    /// Descriptors held open now.
    public internal(set) var keptDescriptors = 0
    /// At the last refresh with an ``IdleSkip``: the ticks the processes that had run used
    /// (what the busy ticks were checked against), and whether every process was read
    /// because the rest of the busy ticks were over the threshold.
    public internal(set) var accountedTicks: UInt64 = 0
    public internal(set) var readEveryIdleProcess = false
    /// The disagreement between the busy ticks and the processes' own clocks this machine
    /// showed lately: what full passes left unexplained beyond the margin they passed once
    /// they had read every idle process (no idle process had used it), less a sixteenth (at
    /// least a tick) at each refresh since. A full pass needs a shortfall beyond it too, or a
    /// machine whose accounting disagrees that much (short lives by the hundred a second: their parents' reads and
    /// /proc/stat's tick sampling part by tens of ticks over a refresh, either way) would read
    /// every idle process at every other refresh and find nothing.
    public internal(set) var unexplainedTicks: UInt64 = 0
    /// Idle processes full passes have read since ``unexplainedTicks`` was last learned.
    var idleSweepReads = 0
    /// The parent of the last new process ``visit(_:known:read:update:_:)`` found.
    var newParentPid: Int32 = 0

    /// A new process younger than this many clock ticks has its command line read at its next
    /// read, not now: a process a few milliseconds old is usually still in `exec` or its
    /// loader, whose memory-map lock a read of `cmdline` waits for (docs/metrics.md, names);
    /// and most such processes are gone by the next sample, their `comm` all that is needed.
    static let nameDelayTicks: UInt64 = 25
    /// ``nameDelayTicks`` for this table (tests raise it).
    var nameDelay = ProcessTable.nameDelayTicks
    /// Clock ticks a second (`sysconf(_SC_CLK_TCK)`): the unit of a stat's start time.
    let ticksPerSecond = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
    /// Clock ticks since boot at the start of this scan (CLOCK_BOOTTIME, a start time's clock).
    var scanBootTicks: UInt64 = 0
    /// Moves whenever a process's figures or name, or the set of processes, may have changed:
    /// a new or exited process, a process read again, a friendly name set. While it stands
    /// still the top lists made from ``processes`` stand too (the sampler then leaves them be).
    public internal(set) var revision: UInt32 = 0

    let directory: DirectoryStream
    let path = PathBuffer()
    var previous: [ProcessSample] = []
    /// The kept descriptors of each entry of ``processes`` (and of `previous`).
    var descriptors: [KeptFiles] = []
    var previousDescriptors: [KeptFiles] = []
    var indexByPid = PidIndex()
    var previousIndexByPid = PidIndex()
    var matched: [Bool] = []
    var scanCount: UInt32 = 0
    var refreshCount: UInt32 = 0
    let descriptorLimit: Int
    var descriptorBound = 0
    let watchLimit: Int
    var watchBound = 0
    var exitWatch: ExitWatch?
    /// A pidfd the probe opened for the process ``visit`` is about to add (-1: none).
    var pendingPidfd: Int32 = -1
    var scansSinceListing: UInt32 = 0
    /// A probe met a pid it could not judge: the next scan lists.
    var listingNeeded = false
    /// Where the next idle processes to read in turn start (``readIdle(_:)``).
    var idleCursor = 0
    /// Indices of ``processes`` found gone during an in-place scan, removed at its end.
    var goneIndices: [Int] = []
    var checkedFileSystem = false
    /// The counters of the last scan that listed or stood for a listing; nil when unknown.
    var lastCounters: TaskCounters?
    /// The pids that may have been allocated since the last scan: (after, through], cyclic.
    var reuseAfter: UInt32 = 0, reuseThrough: UInt32 = 0, reuseAll = true
    /// Scratch for a new process's cmdline (first part) and exe link target (rest).
    let scratch = UnsafeMutableRawBufferPointer.allocate(
        byteCount: ProcessTable.commandLineCapacity + Int(PATH_MAX), alignment: 8)

    /// - Parameters:
    ///   - procRoot: where proc is mounted (`--proc-root`; a fixture tree in tests).
    ///   - pageSizeKiB: the page size that `stat` and `statm` count in.
    ///   - descriptorLimit: how many descriptors may stay open between scans
    ///     (0: none; a real procfs only). The soft `RLIMIT_NOFILE` is raised within the
    ///     hard one to make room; past the room, stat is opened and closed at each read.
    ///   - watchLimit: how many processes may be watched for their exit by a pidfd each
    ///     (0: none; a real procfs only, and with descriptors kept). With more processes than
    ///     that, every scan after a fork lists the proc root.
    public init(procRoot: String = "/proc", pageSizeKiB: UInt64 = ProcessTable.systemPageSizeKiB,
                descriptorLimit: Int = ProcessTable.defaultDescriptorLimit,
                watchLimit: Int = ProcessTable.defaultWatchLimit) {
        self.procRoot = procRoot
        self.pageSizeKiB = pageSizeKiB
        self.descriptorLimit = max(0, descriptorLimit)
        self.watchLimit = max(0, watchLimit)
        goneIndices.reserveCapacity(16)
        directory = DirectoryStream(procRoot)
        // Storage of its own from the start: an empty array is the runtime's shared empty
        // storage, a page of its own that each scan's look at its count would touch.
        exited.reserveCapacity(16)
    }

    deinit {
        for files in descriptors + previousDescriptors {
            if files.stat >= 0 { _ = clibc_close(files.stat) }
            if files.memory >= 0 { _ = clibc_close(files.memory) }
            if files.pidfd >= 0 { _ = clibc_close(files.pidfd) }
        }
        scratch.deallocate()
    }

    /// What a refresh may leave out on a real procfs: the processes that did not run at their
    /// last read ("idle": most of them, most of the time) are not read again, unless the
    /// machine was busier than the processes that did run account for. Every process's
    /// CPU time is counted in the busy ticks of /proc/stat: when the running ones' ticks fall
    /// short of them by more than `thresholdTicks`, an idle process may have woken up, and
    /// every idle process is read; each is credited at most that shortfall (its ticks since
    /// its last read may go back further). An idle process is also read at one refresh in
    /// ``ProcessTable/idleRereadRefreshes``.
    public struct IdleSkip: Equatable, Sendable {
        /// Clock ticks the machine's CPUs were busy (user + nice + system, all CPUs) since the
        /// last refresh.
        public var busyTicks: UInt64
        /// Unaccounted ticks above which every idle process is read.
        public var thresholdTicks: UInt64
        public init(busyTicks: UInt64, thresholdTicks: UInt64) {
            self.busyTicks = busyTicks
            self.thresholdTicks = thresholdTicks
        }
    }

    /// Scans the proc root: every numeric directory is a process.
    ///
    /// Replaces ``processes``, ``exited``, ``runningCount`` and ``skippedCount``.
    ///
    /// With `counters` equal to the last scan's (no task was created and none was reaped
    /// since), the proc root is not listed: the known processes are the list, and a
    /// process whose stat can no longer be read has exited. Otherwise the proc root is
    /// listed; a known pid is read again only when `refresh` is true or the pid may have
    /// been allocated anew since the last scan (it lies between the last pids allocated
    /// then and now), so an exit and a reused pid are seen in this scan either way.
    ///
    /// - Parameters:
    ///   - buffer: the shared buffer each file is read into.
    ///   - counters: the kernel's task counters, read before this scan; nil: list.
    ///   - refresh: read every known process's stat (CPU ticks, memory); false keeps
    ///     their last values (their ``ProcessSample/cpuDelta`` then spans the scans since).
    ///   - idle: with `refresh`, on a real procfs: leave out the processes that did not run,
    ///     as ``IdleSkip`` says. Nil reads every process.
    /// Returns false when the proc root could not be listed (nothing is known: the
    /// table is unchanged and no process is reported as exited).
    @discardableResult
    public func scan(_ buffer: ReadBuffer, counters: TaskCounters? = nil, refresh: Bool = true, idle: IdleSkip? = nil) -> Bool {
        scanCount &+= 1
        checkFileSystem()
        var now = timespec()
        if clock_gettime(CLOCK_BOOTTIME, &now) == 0 {
            scanBootTicks = UInt64(max(now.tv_sec, 0)) &* ticksPerSecond &+ UInt64(max(now.tv_nsec, 0)) &* ticksPerSecond / 1_000_000_000
        }
        if !exited.isEmpty { exited.removeAll(keepingCapacity: true) }   // empty: no memmove call
        if refresh {
            refreshCount &+= 1
            // What the last period touched is what this refresh must look at (refreshInPlace).
            swap(&touchedPids, &previousTouchedPids)
            previousTouchedAll = touchedAll
            if !touchedPids.isEmpty { touchedPids.removeAll(keepingCapacity: true) }
            touchedAll = false
        }
        skipIdle = refresh && keepsDescriptors ? idle : nil
        accountedThisScan = 0
        childrenAccountedThisScan = 0
        defer { skipIdle = nil }
        probedLastScan = false
        if let counters, let lastCounters, counters == lastCounters {
            listedLastScan = false
            if refresh {
                if watchesEveryProcess { refreshInPlace(buffer) } else { rereadKnown(buffer) }
                readIdle(buffer)
            } else {
                rereadActiveMemory(buffer)
            }
            return true
        }
        setReuseRange(counters)
        if let counters, mayProbe() {
            probe(buffer, refresh: refresh)
            lastCounters = counters
            return true
        }
        scansSinceListing = 0
        listingNeeded = false
        begin()

        let listed = directory.forEachEntry { name, type in
            guard type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN),
                  let pid = processID(name), path.setDirectory(name) else { return }
            let known = previousIndexByPid[pid]
            let read = known == nil || (refresh && !leftIdle(known!)) || mayBeReused(pid)
            if !visit(pid, known: known, read: read, update: refresh, buffer) { skippedCount += 1 }
        }

        guard listed else {
            // Not listed is not "every process exited": keep the last table for next time.
            swap(&previous, &processes)
            swap(&previousDescriptors, &descriptors)
            swap(&previousIndexByPid, &indexByPid)
            lastCounters = nil
            listedLastScan = false
            return false
        }
        listings &+= 1
        listedLastScan = true
        lastCounters = counters
        finish()
        if refresh { readIdle(buffer) } else { rereadActiveMemory(buffer) }
        return true
    }

    /// The refresh's skip, while a scan runs; and the ticks of the processes it read that had run.
    var skipIdle: IdleSkip?
    var accountedThisScan: UInt64 = 0
    /// The part of it that children a read process reaped used (see ``readIdle(_:)``).
    var childrenAccountedThisScan: UInt64 = 0
}
