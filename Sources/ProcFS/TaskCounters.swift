import CLibc

// The small types a process table's scan keeps and compares: the pid of a name, the
// kernel's task counters, one process's kept descriptors.

/// The pid a file name says (an entry of the proc root, a renderer's wants file): one to
/// ten digits of a positive Int32; nil otherwise.
public func processID(_ name: UnsafeRawBufferPointer) -> Int32? {
    guard !name.isEmpty, name.count <= 10 else { return nil }
    var value: Int64 = 0
    for b in name {
        guard b >= 0x30, b <= 0x39 else { return nil }
        value = value * 10 + Int64(b - 0x30)
    }
    return value > 0 && value <= Int64(Int32.max) ? Int32(value) : nil
}

/// What the kernel counts of tasks: /proc/stat's `processes` (every fork and clone since
/// boot) and /proc/loadavg's scheduling-entity total and last pid allocated. Equal in two
/// samples, no task was created between them (the fork count would have moved) and none
/// was reaped (the total would have fallen): the list of processes is the same.
public struct TaskCounters: Equatable, Sendable {
    public var forks: UInt64
    public var tasks: UInt32
    public var lastPid: UInt32

    public init(forks: UInt64, tasks: UInt32, lastPid: UInt32) {
        self.forks = forks
        self.tasks = tasks
        self.lastPid = lastPid
    }

    /// The counters of one sample's readings; nil unless both have what is needed.
    public init?(forks: UInt64?, loadAverage: LoadAverage?) {
        guard let forks, let loadAverage, let lastPid = loadAverage.lastPid else { return nil }
        self.init(forks: forks, tasks: loadAverage.entities, lastPid: lastPid)
    }
}

/// The descriptors kept open for one process on a real procfs: `PID/stat` (its CPU time,
/// state and resident size; a read failing with `ESRCH` means the task is gone) and
/// `PID/statm` (its memory; none for a kernel thread). -1: not open.
struct KeptFiles {
    var stat: Int32 = -1
    var memory: Int32 = -1
    /// Its pidfd in the table's ``ExitWatch`` (-1: not watched).
    var pidfd: Int32 = -1
    /// Its children's CPU time (``ProcessStat/childTicks``) at its last read: what the ones
    /// it reaped since used counts as accounted for in an ``ProcessTable/IdleSkip``.
    var childTicks: UInt64 = 0
    /// New since the last refresh, or busy before its last read (``ProcessTable/busyTicks``):
    /// its memory is re-read every scan, not only at the refresh (``ProcessTable/rereadActiveMemory(_:)``). Kept
    /// here, beside the descriptors, not in the sample: it is the table's bookkeeping.
    var memoryWatched = false
    /// Found younger than ``ProcessTable/nameDelayTicks``: its command line and executable
    /// are read at its next read, its name till then its `comm`.
    var namesPending = false
    /// The last scan that read it (``ProcessTable/scanCount``): a refresh's idle processes
    /// are those it did not read and that were not busy (``ProcessTable/readIdle(_:)``).
    var readAtScan: UInt32 = 0
    /// The scan that found it and read its memory (``ProcessTable/scanCount``): that scan's
    /// ``ProcessTable/rereadActiveMemory(_:)`` does not read it again.
    var memoryReadAtScan: UInt32 = 0
}

extension UInt64 {
    /// `self + other`, or `UInt64.max` when that overflows.
    @inline(__always)
    func addingSaturating(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
