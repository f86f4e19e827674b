// The values the readers produce. Each reader lives in its own file
// (CPUStatReader.swift, MemInfoReader.swift, ...) and fills one of these.
// Units are the kernel's own where it has one (jiffies, KiB); fixed point
// elsewhere, so no Double crosses a module boundary in the hot path.

/// Cumulative CPU time of one line of /proc/stat, in clock ticks (USER_HZ).
public struct CPUTimes: Equatable, Sendable {
    public var user: UInt64 = 0, nice: UInt64 = 0, system: UInt64 = 0, idle: UInt64 = 0
    public var iowait: UInt64 = 0, irq: UInt64 = 0, softirq: UInt64 = 0, steal: UInt64 = 0
    public init() {}
    public init(user: UInt64, nice: UInt64, system: UInt64, idle: UInt64,
                iowait: UInt64, irq: UInt64, softirq: UInt64, steal: UInt64) {
        self.user = user; self.nice = nice; self.system = system; self.idle = idle
        self.iowait = iowait; self.irq = irq; self.softirq = softirq; self.steal = steal
    }
    /// Ticks spent not idle and not waiting for I/O. Guest time is already in user/nice.
    public var busy: UInt64 { user &+ nice &+ system &+ irq &+ softirq &+ steal }
    /// All ticks, idle and iowait included.
    public var total: UInt64 { busy &+ idle &+ iowait }
}

/// What /proc/stat says.
public struct CPUStat: Equatable, Sendable {
    /// The aggregate `cpu` line.
    public var total = CPUTimes()
    /// One entry per `cpuN` line, in file order (N may have gaps when CPUs are offline).
    public var cores: [CPUTimes] = []
    /// `btime`: boot time, seconds since the epoch.
    public var bootTime: UInt64 = 0
    /// `procs_running`.
    public var procsRunning: UInt32 = 0
    /// `procs_blocked`.
    public var procsBlocked: UInt32 = 0
    /// `processes`: tasks created (every fork and clone, threads too) since boot; nil when
    /// the file has no such line.
    public var forks: UInt64?
    public init() {}
}

/// What /proc/meminfo says, in KiB. A field the kernel does not have stays nil.
public struct MemInfo: Equatable, Sendable {
    public var memTotal: UInt64 = 0
    public var memFree: UInt64 = 0
    /// MemAvailable (Linux ≥ 3.14); nil when absent.
    public var memAvailable: UInt64? {
        get { availableKiB == .max ? nil : availableKiB }
        set { availableKiB = newValue.map { Swift.min($0, .max - 1) } ?? .max }
    }
    /// MemAvailable, `.max` when absent: an optional's tag byte made the reading 136 bytes,
    /// and every copy of one over 128 bytes was a call into glibc's memmove (its own pages).
    private var availableKiB: UInt64 = .max
    public var buffers: UInt64 = 0
    public var cached: UInt64 = 0
    public var swapCached: UInt64 = 0
    public var active: UInt64 = 0
    public var inactive: UInt64 = 0
    public var unevictable: UInt64 = 0
    public var shmem: UInt64 = 0
    public var sReclaimable: UInt64 = 0
    public var sUnreclaim: UInt64 = 0
    public var kernelStack: UInt64 = 0
    public var pageTables: UInt64 = 0
    public var swapTotal: UInt64 = 0
    public var swapFree: UInt64 = 0
    public init() {}
}

/// /proc/uptime, in hundredths of a second.
public struct Uptime: Equatable, Sendable {
    public var uptimeCentiseconds: UInt64 = 0
    public var idleCentiseconds: UInt64 = 0
    public init() {}
}

/// /proc/loadavg: load averages times 100, and the runnable/total entity counts.
public struct LoadAverage: Equatable, Sendable {
    public var load1: UInt32 = 0, load5: UInt32 = 0, load15: UInt32 = 0
    public var runnable: UInt32 = 0
    public var entities: UInt32 = 0
    /// The last pid the kernel allocated (in the reader's pid namespace); nil when absent.
    public var lastPid: UInt32?
    public init() {}
}

/// /proc/pressure/memory: averages times 100 (so 12.34 % is 1234).
public struct MemoryPressure: Equatable, Sendable {
    public var someAvg10: UInt32 = 0, someAvg60: UInt32 = 0, someAvg300: UInt32 = 0
    public var fullAvg10: UInt32 = 0, fullAvg60: UInt32 = 0, fullAvg300: UInt32 = 0
    public init() {}
}

/// The aggregate of every battery under /sys/class/power_supply.
public struct BatteryStatus: Equatable, Sendable {
    public enum State: UInt8, Sendable {
        case unknown = 0, charging, discharging, notCharging, full
    }
    /// Number of batteries found (0 is a normal case: a desktop).
    public var count: Int = 0
    public var state: State = .unknown
    /// Charge in hundredths of a percent (8512 is 85.12 %), from summed energy
    /// when the batteries report it, never an average of percentages.
    public var percentHundredths: UInt32 = 0
    /// Summed energy now and when full, in µWh (charge is converted with voltage).
    public var energyNow: UInt64 = 0
    public var energyFull: UInt64 = 0
    /// Summed power flow, µW (0 when unknown).
    public var powerNow: UInt64 = 0
    /// Whether an AC adapter (type Mains) reports online.
    public var acOnline: Bool = false
    public init() {}
}

/// One process as the last scan of /proc saw it.
public struct ProcessSample: Equatable, Sendable {
    // The small fields first and together: a sample is 96 bytes, not 112 with padding
    // after each of them, and the sampler keeps two tables of these (this scan's and
    // the last), ~3 KiB per 100 processes.
    public var pid: Int32 = 0
    /// Field 3 of /proc/PID/stat (`R`, `S`, `D`, `Z`, ...), as a byte.
    public var state: UInt8 = 0
    /// Kernel threads have no memory map and an empty cmdline.
    public var isKernelThread: Bool = false
    /// Read through descriptors kept open from scan to scan (a real procfs): a failed read
    /// through them is the process's end, and a process read by path at its pid is another.
    public var readThroughKeptFiles: Bool = false
    /// Field 22 of /proc/PID/stat (ticks after boot): with `pid`, the process's identity,
    /// so a reused pid is seen as a new process.
    public var startTime: UInt64 = 0
    /// utime + stime of all its threads, clock ticks.
    public var cpuTicks: UInt64 = 0
    /// Ticks used since the previous scan; 0 for a process first seen in this scan.
    public var cpuDelta: UInt64 = 0
    /// Resident set size, KiB.
    public var residentKiB: UInt64 = 0
    /// Private resident memory (resident − shared from statm), KiB.
    public var privateKiB: UInt64 = 0
    /// The name from /proc/PID/comm (≤ 15 bytes, as the kernel has it: unsanitized).
    public var comm: [UInt8] = []
    /// Basename of the /proc/PID/exe link when readable, else empty.
    public var exeName: [UInt8] = []
    /// /proc/PID/cmdline with NULs turned into spaces, capped; empty for kernel threads.
    public var commandLine: [UInt8] = []
    /// The best name for a person: `comm`, or the exe/argv[0] basename when `comm`
    /// is its 15-byte truncation. Unsanitized bytes; the snapshot sanitizes.
    public var name: [UInt8] = []
    /// The name a bookmark gives the process; empty when none does. ProcFS never sets
    /// it (it knows nothing of bookmarks): the sampler resolves it once per process and
    /// once per rule change (``namesGeneration``), and a known process keeps it from scan to scan.
    public var friendlyName: [UInt8] = []
    /// Which version of the rules ``friendlyName`` was resolved with; 0 for a process
    /// no one has resolved yet (a new one).
    public var namesGeneration: UInt32 = 0
    /// ``friendlyName`` when there is one, else ``name``: what a person should see.
    public var displayName: [UInt8] { friendlyName.isEmpty ? name : friendlyName }
    public init() {}
}

extension CPUStat {
    /// The clock ticks one core had between `before` and this reading: the scale of a
    /// process's CPU share (``ProcessSample/cpuPermyriad(ticksPerCore:)``). 0 when the
    /// counters did not move forward. The sampler and `sysstats top` both use it.
    public func ticksPerCore(since before: CPUStat) -> UInt64 {
        guard total.total > before.total.total else { return 0 }
        return (total.total - before.total.total) / UInt64(max(cores.count, 1))
    }
}

extension ProcessSample {
    /// Its CPU use over the last interval as a share of one core, hundredths of a percent
    /// (two busy cores: 20000), saturating; 0 when `ticksPerCore` is 0.
    public func cpuPermyriad(ticksPerCore: UInt64) -> UInt64 {
        guard ticksPerCore > 0 else { return 0 }
        return saturatingProduct(cpuDelta, 10_000) / ticksPerCore
    }

    /// The executable name bookmark rules match against: the /proc/PID/exe basename, else
    /// (exe unreadable: another user's process, a kernel thread) argv[0]'s basename.
    /// Inlinable so that callers in other modules specialize it: run unspecialized, it
    /// called the standard library's unspecialized `Array.withUnsafeBytes` (two 64 KiB
    /// windows of code pages) and instantiated `Optional` metadata by mangled name.
    @inlinable
    public func withRuleExecutable<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if !exeName.isEmpty { return exeName.withUnsafeBytes(body) }
        return commandLine.withUnsafeBytes { line in
            var end = 0
            while end < line.count && line[end] != 0x20 { end += 1 }
            var start = end
            while start > 0 && line[start - 1] != 0x2F { start -= 1 }
            return body(UnsafeRawBufferPointer(rebasing: line[start..<end]))
        }
    }
}
