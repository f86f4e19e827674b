// The snapshot: everything a renderer shows, display-ready, in fixed point.
// This module has no dependencies (not even Glibc) so that an Embedded Swift
// renderer can compile the same sources. See docs/snapshot-format.md.

/// Hundredths of a percent: 0...10000 is 0.00 %...100.00 %.
public typealias Permyriad = UInt16

/// One process shown in a top list.
public struct ProcessEntry: Equatable, Sendable {
    public var pid: UInt32
    /// CPU use over the last interval, hundredths of a percent of one core
    /// (a process using two cores fully shows 20000, clamped at 65535).
    public var cpu: UInt16
    /// Private resident memory, KiB.
    public var privateKiB: UInt64
    /// Display-ready name: valid UTF-8, no control characters, at most
    /// ``Snapshot/maximumNameLength`` bytes. Escaping for a bar is the renderer's job.
    public var name: [UInt8]
    public init(pid: UInt32 = 0, cpu: UInt16 = 0, privateKiB: UInt64 = 0, name: [UInt8] = []) {
        self.pid = pid; self.cpu = cpu; self.privateKiB = privateKiB; self.name = name
    }
}

/// A process that was in the previous scan and is gone now.
public struct ExitEntry: Equatable, Sendable {
    public var pid: UInt32
    /// When the exit was noticed, milliseconds since the epoch.
    public var timeMs: UInt64
    /// The process's private memory in its last scan, KiB.
    public var lastPrivateKiB: UInt64
    /// Rise of MemAvailable across the interval, KiB; 0 when below the threshold.
    public var freedKiB: UInt64
    public var name: [UInt8]
    public init(pid: UInt32 = 0, timeMs: UInt64 = 0, lastPrivateKiB: UInt64 = 0, freedKiB: UInt64 = 0, name: [UInt8] = []) {
        self.pid = pid; self.timeMs = timeMs; self.lastPrivateKiB = lastPrivateKiB; self.freedKiB = freedKiB; self.name = name
    }
}

/// Memory figures, KiB. `free + active + inactive + wired + other == total`.
public struct MemoryFigures: Equatable, Sendable {
    public var total: UInt64 = 0
    public var free: UInt64 = 0
    public var active: UInt64 = 0
    public var inactive: UInt64 = 0
    public var wired: UInt64 = 0
    public var other: UInt64 = 0
    public var available: UInt64 = 0
    /// total − available, as `free(1)` reports "used".
    public var used: UInt64 = 0
    public var swapTotal: UInt64 = 0
    public var swapUsed: UInt64 = 0
    public init() {}
}

/// Battery aggregate. `state` values match ProcFS's `BatteryStatus.State`.
public struct BatteryFigures: Equatable, Sendable {
    public enum State: UInt8, Sendable {
        case unknown = 0, charging, discharging, notCharging, full
    }
    /// Number of batteries; 0 means none (a desktop), not an error.
    public var count: UInt8 = 0
    public var state: State = .unknown
    public var percent: Permyriad = 0
    /// Power flow, mW (0 when unknown).
    public var powerMilliwatts: UInt32 = 0
    /// Minutes until empty (discharging) or full (charging); `UInt32.max` when unknown.
    public var minutesRemaining: UInt32 = .max
    public init() {}
}

/// Conditions a bar should flag as urgent.
public struct UrgentFlags: OptionSet, Equatable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Battery discharging at or below the low threshold (default 10 %).
    public static let batteryLow = UrgentFlags(rawValue: 1 << 0)
    /// MemAvailable at or below the low threshold (default 5 % of total).
    public static let memoryLow = UrgentFlags(rawValue: 1 << 1)
    /// Memory pressure (PSI some avg10) above the threshold.
    public static let memoryPressure = UrgentFlags(rawValue: 1 << 2)
}

/// The parts of a snapshot, each a section of the file (format v3): a part that is not
/// available was not measured (its /proc or /sys file missing, unreadable or unparsable,
/// or its section dropped or damaged) and is shown as `n/a`, never as 0.
public struct SnapshotSections: OptionSet, Equatable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// ``Snapshot/bootTime``, ``Snapshot/uptimeCentiseconds``.
    public static let uptime = SnapshotSections(rawValue: 1 << 0)
    /// ``Snapshot/cpuBusy``, ``Snapshot/cpuIOWait``, ``Snapshot/coreBusy``, the CPU histories.
    public static let cpu = SnapshotSections(rawValue: 1 << 1)
    /// ``Snapshot/memory``, ``Snapshot/memoryHistory``.
    public static let memory = SnapshotSections(rawValue: 1 << 2)
    /// ``Snapshot/load1``, ``Snapshot/load5``, ``Snapshot/load15``.
    public static let load = SnapshotSections(rawValue: 1 << 3)
    /// ``Snapshot/processCount``, ``Snapshot/runningCount``.
    public static let processes = SnapshotSections(rawValue: 1 << 4)
    /// ``Snapshot/battery`` (a count of 0 is a measured "no battery").
    public static let battery = SnapshotSections(rawValue: 1 << 5)
    /// ``Snapshot/topCPU``, ``Snapshot/topMemory``.
    public static let top = SnapshotSections(rawValue: 1 << 6)
    /// ``Snapshot/exits``.
    public static let exits = SnapshotSections(rawValue: 1 << 7)
    /// ``Snapshot/samplerCPU``, ``Snapshot/samplerResidentKiB``.
    public static let sampler = SnapshotSections(rawValue: 1 << 8)
    /// Every part this version knows.
    public static let all: SnapshotSections = [.uptime, .cpu, .memory, .load, .processes, .battery, .top, .exits, .sampler]
}

/// One snapshot, as the sampler writes it and a renderer reads it.
public struct Snapshot: Equatable, Sendable {
    public static let maximumNameLength = 48
    public static let maximumCores = 512
    public static let maximumTopEntries = 5
    public static let maximumExits = 8
    public static let historyLength = 60

    /// Increases by one with each snapshot the sampler writes.
    public var sequence: UInt64 = 0
    /// When the sample was taken, milliseconds since the epoch (CLOCK_REALTIME).
    public var timestampMs: UInt64 = 0
    /// The sampler's interval, ms: a snapshot older than a few intervals is stale.
    public var intervalMs: UInt32 = 0
    /// The parts that were measured; the others' fields are not to be shown (`n/a`).
    /// Every part by default (and for a v1 or v2 file, which has no notion of a missing part).
    public var available: SnapshotSections = .all
    /// Boot time, seconds since the epoch.
    public var bootTime: UInt64 = 0
    /// Uptime, hundredths of a second.
    public var uptimeCentiseconds: UInt64 = 0

    public var cpuBusy: Permyriad = 0
    public var cpuIOWait: Permyriad = 0
    /// Busy share of each core.
    public var coreBusy: [Permyriad] = []

    /// The sampler's own CPU use (share of one core) and resident memory.
    public var samplerCPU: Permyriad = 0
    public var samplerResidentKiB: UInt32 = 0

    public var memory = MemoryFigures()
    /// PSI memory "some" avg10 in hundredths of a percent; nil when the kernel has no PSI
    /// (or it could not be read).
    public var memoryPressure: Permyriad?

    /// Load averages times 100.
    public var load1: UInt32 = 0, load5: UInt32 = 0, load15: UInt32 = 0
    public var processCount: UInt32 = 0
    public var runningCount: UInt32 = 0

    public var battery = BatteryFigures()
    public var urgent: UrgentFlags = []

    /// CPU busy share (as ``cpuBusy``), oldest first, at most ``historyLength`` points.
    /// The histories have equal lengths, except ``iowaitHistory`` from a v1 file.
    public var cpuHistory: [Permyriad] = []
    /// CPU iowait share (as ``cpuIOWait``) of the same samples as ``cpuHistory``, oldest
    /// first. Busy excludes iowait, so a graph stacks the two. Empty when decoded from a
    /// v1 file (which has no iowait history); the encoder writes missing points as 0.
    public var iowaitHistory: [Permyriad] = []
    /// Memory used (total − available) as a share of total, oldest first.
    public var memoryHistory: [Permyriad] = []

    /// Highest CPU first, at most ``maximumTopEntries``.
    public var topCPU: [ProcessEntry] = []
    /// Highest private memory first, at most ``maximumTopEntries``.
    public var topMemory: [ProcessEntry] = []
    /// Most recent first, at most ``maximumExits``.
    public var exits: [ExitEntry] = []

    public init() {}
}
