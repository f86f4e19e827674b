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

/// One network interface: its counters, state and addresses, and its Wi-Fi link.
public struct InterfaceFigures: Equatable, Sendable {
    public struct Flags: OptionSet, Equatable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Administratively up (IFF_UP).
        @inlinable public static var up: Flags { Flags(rawValue: 1 << 0) }
        /// A carrier: the cable is in, the radio associated (operstate up).
        @inlinable public static var carrier: Flags { Flags(rawValue: 1 << 1) }
        /// The interface holds the default route.
        @inlinable public static var defaultRoute: Flags { Flags(rawValue: 1 << 2) }
        /// A wireless interface (nl80211 or /proc/net/wireless knows it).
        @inlinable public static var wireless: Flags { Flags(rawValue: 1 << 3) }
        /// ``InterfaceFigures/wifi`` holds a measured link (associated: SSID, signal, bitrate).
        @inlinable public static var wifiLink: Flags { Flags(rawValue: 1 << 4) }
        /// The rates are measured (there was an earlier reading).
        @inlinable public static var rates: Flags { Flags(rawValue: 1 << 5) }
    }
    /// The interface name, at most ``Snapshot/maximumInterfaceNameLength`` raw bytes
    /// (the kernel allows any byte but `/` and NUL: renderers escape it).
    public var name: [UInt8] = []
    public var flags: Flags = []
    public var rxBytesPerSecond: UInt64 = 0
    public var txBytesPerSecond: UInt64 = 0
    /// Bytes received and sent since the interface appeared (for history and counters).
    public var rxBytes: UInt64 = 0
    public var txBytes: UInt64 = 0
    /// The first IPv4 address as text (`192.168.1.20`), empty when none.
    public var ipv4: [UInt8] = []
    /// The first global IPv6 address as text (`2001:db8::1`), empty when none.
    public var ipv6: [UInt8] = []
    public var wifi = WirelessFigures()
    /// The wired link's speed, Mbit/s (`/sys/class/net/NAME/speed`): 0 when the driver does
    /// not know it, ``Snapshot/unreadableLinkSpeed`` when there is none to read (down,
    /// wireless, virtual; as i3status's `?`).
    public var linkSpeedMbps: UInt32 = Snapshot.unreadableLinkSpeed
    public init() {}
}

/// A Wi-Fi link: what nl80211 (or /proc/net/wireless) says.
public struct WirelessFigures: Equatable, Sendable {
    /// The SSID: up to 32 arbitrary bytes (not necessarily UTF-8: renderers escape it).
    public var ssid: [UInt8] = []
    /// Signal, dBm; ``Snapshot/unknownSignal`` when not known.
    public var signalDBm: Int16 = Snapshot.unknownSignal
    /// Link quality 0...100 (from the signal, or /proc/net/wireless); 255 when not known.
    public var qualityPercent: UInt8 = 255
    /// Transmit bitrate, kbit/s; 0 when not known.
    public var bitrateKbps: UInt32 = 0
    public init() {}
}

/// One mounted file system's space, KiB, as `df -k` computes it (reserved blocks are
/// neither used nor available).
public struct DiskFigures: Equatable, Sendable {
    /// The mount point as configured (`/`, `/home`), at most ``Snapshot/maximumPathLength`` bytes.
    public var mount: [UInt8] = []
    public var totalKiB: UInt64 = 0
    public var usedKiB: UInt64 = 0
    public var availableKiB: UInt64 = 0
    public init() {}

    /// Whether nothing is at the mount point's path: the sampler writes a total of 0 and
    /// `usedKiB` all ones (a reader that does not know this sees a zero total: n/a).
    public var isMissing: Bool { totalKiB == 0 && usedKiB == .max }
    public mutating func markMissing() { totalKiB = 0; usedKiB = .max; availableKiB = 0 }

    /// Whether the file system did not answer in time (a hung network server, a stuck FUSE
    /// daemon): a total of 0 and `usedKiB` all ones but the last (an older reader: n/a).
    public var isNotAnswering: Bool { totalKiB == 0 && usedKiB == .max - 1 }
    public mutating func markNotAnswering() { totalKiB = 0; usedKiB = .max - 1; availableKiB = 0 }

    /// `df`'s Use%: used ÷ (used + available), rounded up, hundredths of a percent.
    public var usedPermyriad: UInt64 {
        let (sum, overflow) = usedKiB.addingReportingOverflow(availableKiB)
        guard !overflow else { return usedKiB >= availableKiB ? 5000 : 0 }
        guard sum > 0 else { return 0 }
        let (scaled, over) = usedKiB.multipliedReportingOverflow(by: 10_000)
        if over { return min(10_000, usedKiB / (sum / 10_000 + 1)) }
        // Rounded up without `scaled + sum - 1`, which overflows for a sum near 2^64.
        return min(10_000, scaled / sum + (scaled % sum == 0 ? 0 : 1))
    }
}

/// One whole disk's I/O.
public struct DiskIOFigures: Equatable, Sendable {
    /// The kernel's name (`nvme0n1`, `sda`), at most ``Snapshot/maximumInterfaceNameLength`` bytes.
    public var device: [UInt8] = []
    public var readBytesPerSecond: UInt64 = 0
    public var writeBytesPerSecond: UInt64 = 0
    /// Since boot.
    public var readBytes: UInt64 = 0
    public var writeBytes: UInt64 = 0
    public init() {}
}

/// One temperature sensor.
public struct TemperatureFigures: Equatable, Sendable {
    /// The hwmon chip (`coretemp`, `k10temp`) or the thermal zone's type.
    public var chip: [UInt8] = []
    /// The sensor's label (`Package id 0`, `Tctl`), or `tempN`.
    public var label: [UInt8] = []
    /// Millidegrees Celsius.
    public var milliCelsius: Int32 = 0
    /// The sensor's own critical and high limits, millidegrees; ``Snapshot/unknownLimit`` when it has none.
    public var criticalMilliCelsius: Int32 = Snapshot.unknownLimit
    public var highMilliCelsius: Int32 = Snapshot.unknownLimit
    /// The CPU package sensor (the temp block's default).
    public var isCPUPackage = false
    public init() {}
}

/// Conditions a bar should flag as urgent.
public struct UrgentFlags: OptionSet, Equatable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Battery discharging at or below the low threshold (default 10 %).
    @inlinable public static var batteryLow: UrgentFlags { UrgentFlags(rawValue: 1 << 0) }
    /// MemAvailable at or below the low threshold (default 5 % of total).
    @inlinable public static var memoryLow: UrgentFlags { UrgentFlags(rawValue: 1 << 1) }
    /// Memory pressure (PSI some avg10) above the threshold.
    @inlinable public static var memoryPressure: UrgentFlags { UrgentFlags(rawValue: 1 << 2) }
}

/// The parts of a snapshot, each a section of the file (format v3): a part that is not
/// available was not measured (its /proc or /sys file missing, unreadable or unparsable,
/// or its section dropped or damaged) and is shown as `n/a`, never as 0.
public struct SnapshotSections: OptionSet, Equatable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// ``Snapshot/bootTime``, ``Snapshot/uptimeCentiseconds``.
    @inlinable public static var uptime: SnapshotSections { SnapshotSections(rawValue: 1 << 0) }
    /// ``Snapshot/cpuBusy``, ``Snapshot/cpuIOWait``, ``Snapshot/coreBusy``, the CPU histories.
    @inlinable public static var cpu: SnapshotSections { SnapshotSections(rawValue: 1 << 1) }
    /// ``Snapshot/memory``, ``Snapshot/memoryHistory``.
    @inlinable public static var memory: SnapshotSections { SnapshotSections(rawValue: 1 << 2) }
    /// ``Snapshot/load1``, ``Snapshot/load5``, ``Snapshot/load15``.
    @inlinable public static var load: SnapshotSections { SnapshotSections(rawValue: 1 << 3) }
    /// ``Snapshot/processCount``, ``Snapshot/runningCount``.
    @inlinable public static var processes: SnapshotSections { SnapshotSections(rawValue: 1 << 4) }
    /// ``Snapshot/battery`` (a count of 0 is a measured "no battery").
    @inlinable public static var battery: SnapshotSections { SnapshotSections(rawValue: 1 << 5) }
    /// ``Snapshot/topCPU``, ``Snapshot/topMemory``, ``Snapshot/topGPU``.
    @inlinable public static var top: SnapshotSections { SnapshotSections(rawValue: 1 << 6) }
    /// ``Snapshot/exits``.
    @inlinable public static var exits: SnapshotSections { SnapshotSections(rawValue: 1 << 7) }
    /// ``Snapshot/samplerCPU``, ``Snapshot/samplerResidentKiB``.
    @inlinable public static var sampler: SnapshotSections { SnapshotSections(rawValue: 1 << 8) }
    /// ``Snapshot/interfaces``.
    @inlinable public static var network: SnapshotSections { SnapshotSections(rawValue: 1 << 9) }
    /// ``Snapshot/disks``.
    @inlinable public static var disks: SnapshotSections { SnapshotSections(rawValue: 1 << 10) }
    /// ``Snapshot/diskIO``.
    @inlinable public static var diskIO: SnapshotSections { SnapshotSections(rawValue: 1 << 11) }
    /// ``Snapshot/temperatures``.
    @inlinable public static var temperature: SnapshotSections { SnapshotSections(rawValue: 1 << 12) }
    /// ``Snapshot/cpuMHzAverage``, ``Snapshot/cpuMHzMaximum``.
    @inlinable public static var frequency: SnapshotSections { SnapshotSections(rawValue: 1 << 13) }
    /// ``Snapshot/gpus`` (an empty list is a measured "no GPU").
    @inlinable public static var gpu: SnapshotSections { SnapshotSections(rawValue: 1 << 14) }
    /// The parts of format v1 and v2, which have no notion of a missing part: all of them
    /// are available in such a file.
    @inlinable public static var fixedLayout: SnapshotSections { [.uptime, .cpu, .memory, .load, .processes, .battery, .top, .exits, .sampler] }
    // A listed part has no name here: its bit is `SnapshotSections(tag:)` of its tag
    // (``ListedPart/part``).
    /// Every part this version knows: one per tag of ``SectionTag`` but meta and pressure.
    public static var all: SnapshotSections { SectionTag.allParts }
}

/// One snapshot, as the sampler writes it and a renderer reads it.
public struct Snapshot: Equatable, Sendable {
    public static let maximumNameLength = 48
    public static let maximumCores = 512
    public static let maximumTopEntries = 5
    public static let maximumExits = 8
    public static let historyLength = 60
    /// 100 % in ‱: the decoder clamps every share to it.
    public static let wholeShare: Permyriad = 10_000
    public static let maximumInterfaces = 8
    public static let maximumDisks = 8
    public static let maximumDiskDevices = 8
    public static let maximumSensors = 8
    public static let maximumGPUs = 4
    /// Interface, disk device and sensor chip names (IFNAMSIZ − 1).
    public static let maximumInterfaceNameLength = 15
    /// Mount points and sensor labels.
    public static let maximumPathLength = 64
    public static let maximumSSIDLength = 32
    public static let maximumAddressLength = 39
    public static let unknownSignal: Int16 = .min
    public static let unreadableLinkSpeed: UInt32 = .max
    public static let unknownLimit: Int32 = .min

    /// Increases by one with each snapshot the sampler writes.
    public var sequence: UInt64 = 0
    /// When the sample was taken, milliseconds since the epoch (CLOCK_REALTIME).
    public var timestampMs: UInt64 = 0
    /// The sampler's interval, ms: a snapshot older than a few intervals is stale.
    public var intervalMs: UInt32 = 0
    /// The parts that were measured; the others' fields are not to be shown (`n/a`).
    /// A fresh snapshot has the parts of the fixed layout (formats v1 and v2); whoever fills a
    /// newer part (network, disks, …) inserts it, so that an empty list is never mistaken for
    /// a measured "none".
    public var available: SnapshotSections = .fixedLayout
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
    /// Threads (scheduling entities) on the machine: /proc/loadavg's total. 0 from a
    /// sampler that did not write it (its processes section is version 1).
    public var threadCount: UInt32 = 0

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
    /// The processes using the GPUs most, busiest first (then by GPU memory), at most
    /// ``maximumTopEntries``; measured only while a renderer asks (`top:gpu`), else empty.
    /// In these entries `cpu` is the GPU share (the busiest kind of engine, permyriad) and
    /// `privateKiB` the GPU memory.
    public var topGPU: [ProcessEntry] = []
    /// Most recent first, at most ``maximumExits``.
    public var exits: [ExitEntry] = []

    /// Network interfaces, the default route's first, at most ``maximumInterfaces``.
    public var interfaces: [InterfaceFigures] = []
    /// Bytes received and sent per second over the interfaces shown, summed, oldest first,
    /// at most ``historyLength`` points each (equal lengths; saturated at `UInt32.max`).
    public var rxHistory: [UInt32] = []
    public var txHistory: [UInt32] = []
    /// Mounted file systems in the order the sampler was told, at most ``maximumDisks``.
    public var disks: [DiskFigures] = []
    /// Whole disks, at most ``maximumDiskDevices``.
    public var diskIO: [DiskIOFigures] = []
    /// Temperature sensors, the CPU package's first, at most ``maximumSensors``.
    public var temperatures: [TemperatureFigures] = []
    /// Current CPU frequency over the CPUs, MHz: the average and the highest.
    public var cpuMHzAverage: UInt32 = 0
    public var cpuMHzMaximum: UInt32 = 0
    /// The GPUs, by driver and index, at most ``maximumGPUs``.
    public var gpus: [GPUFigures] = []
    /// The listed parts' readings (fans, power sources, …), one list per ``ListedPart/all``.
    public var listed = ListedReadings()

    public init() {}
}
