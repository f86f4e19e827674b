import ProcFS
import SnapshotCodec

/// CPU: busy and iowait shares (total and per core) from two readings of /proc/stat, and
/// their histories. The first reading primes the counters: the part is not available yet.
/// Also gives the process probe the ticks one core had (its CPU shares' scale).
struct CPUProbe {
    private let reader: CPUStatReader
    private var havePrevious = false
    /// This sample's reading and the last one: the two take turns (the reader parses into the
    /// older), so neither is copied.
    private var stat = CPUStat()
    private var previousStat = CPUStat()
    /// The aggregate line of the last reading (ticks since boot), for the Prometheus
    /// export's counters; nil when the last reading failed.
    private(set) var lastTotal: CPUTimes?
    /// /proc/stat's `processes` (tasks created since boot) in this sample's reading; nil
    /// when the reading failed or had none. The process probe lists /proc only when it moved.
    private(set) var forks: UInt64?
    /// Clock ticks all CPUs spent in processes (user + nice + system) since the last
    /// reading: what the process probe checks its running processes' ticks against. 0
    /// without a previous reading.
    private(set) var processTicks: UInt64 = 0

    init(procRoot: String) {
        reader = CPUStatReader(procRoot: procRoot)
        // No reserveCapacity(64) for the cores: 4 KiB each, whose first lines would sit on
        // pages of their own; the first readings size them, and they keep that capacity.
    }

    /// Fills the cpu part (and boot time, running count, read from the same file); returns
    /// the ticks one core had in the interval (0 when there are no shares yet).
    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer) -> UInt64 {
        swap(&stat, &previousStat)
        guard reader.read(buffer, into: &stat) else {
            havePrevious = false
            lastTotal = nil
            forks = nil
            processTicks = 0
            return 0
        }
        forks = stat.forks
        s.bootTime = stat.bootTime
        s.runningCount = stat.procsRunning
        var ticksPerCore: UInt64 = 0
        // Written over in place and cut only when there are fewer cores: removeAll(keepingCapacity:)
        // was a call into glibc's memmove (of nothing) each sample.
        let cores = min(stat.cores.count, Snapshot.maximumCores)
        if s.coreBusy.count != cores {
            s.coreBusy.removeAll(keepingCapacity: true)
            s.coreBusy.append(contentsOf: repeatElement(0, count: cores))
        }
        if havePrevious {
            s.available.insert(.cpu)
            s.cpuBusy = CPUUsage.busy(from: previousStat.total, to: stat.total)
            s.cpuIOWait = CPUUsage.iowait(from: previousStat.total, to: stat.total)
            for i in 0..<cores {
                let core = stat.cores[i]
                let before = i < previousStat.cores.count ? previousStat.cores[i] : core
                s.coreBusy[i] = CPUUsage.busy(from: before, to: core)
            }
            ticksPerCore = stat.ticksPerCore(since: previousStat)
            let now = stat.total.user &+ stat.total.nice &+ stat.total.system
            let before = previousStat.total.user &+ previousStat.total.nice &+ previousStat.total.system
            processTicks = now > before ? now - before : 0
            s.cpuHistory.appendPoint(s.cpuBusy)
            s.iowaitHistory.appendPoint(s.cpuIOWait)
        } else {
            processTicks = 0
            s.cpuBusy = 0; s.cpuIOWait = 0
            for i in 0..<cores { s.coreBusy[i] = 0 }
        }
        lastTotal = stat.total
        havePrevious = true
        return ticksPerCore
    }
}
