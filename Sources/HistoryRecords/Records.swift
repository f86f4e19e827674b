import SnapshotCodec

/// One minute of system history, or (``isHourly``) one hour rolled up from minutes.
///
/// Percentages are in hundredths (8512 is 85.12 %), load is ×100, memory in KiB,
/// temperatures in millidegrees Celsius. An optional figure is nil when it was not measured
/// (the machine has no battery, no sensor; the part was unreadable; a row from an older
/// sampler or database that did not keep it).
public struct MinuteSample: Equatable, Sendable {
    /// The most a KiB figure of a row holds: 2^50 KiB (1 EiB), a thousand times the memory of
    /// the largest machines; more is damage. The rollup clamps its samples' memory to it, and a
    /// carried minute (``MinuteRollup/init(carried:)``) and `restore` refuse a figure above it.
    public static let maximumKiB: UInt64 = 1 << 50

    /// Start of the minute (or of the hour, when ``isHourly``), unix seconds.
    public var minute: UInt64
    /// Average CPU use over the minute, hundredths of a percent.
    public var cpuAverage: UInt32
    /// Highest CPU use seen in the minute, hundredths of a percent.
    public var cpuMaximum: UInt32
    /// Memory in use, KiB (the sampler writes the minute's average).
    public var memoryUsedKiB: UInt64
    /// Available memory (MemAvailable), KiB (the minute's average).
    public var memoryAvailableKiB: UInt64
    /// Swap in use, KiB.
    public var swapUsedKiB: UInt64
    /// One-minute load average ×100.
    public var load1: UInt32
    /// Number of processes.
    public var processCount: UInt32
    /// Battery charge, hundredths of a percent; nil without a battery.
    public var batteryPercent: UInt32?
    /// Battery state as `ProcFS.BatteryStatus.State.rawValue`; nil without a battery.
    public var batteryState: UInt8?
    /// Bytes received during the minute, summed over the snapshot's interfaces (the rise of
    /// their counters from sample to sample); nil when the network part was never measured in it.
    public var rxBytes: UInt64?
    /// Bytes sent during the minute, as ``rxBytes``.
    public var txBytes: UInt64?
    /// The hottest CPU package sensor reading of the minute (the hottest sensor of any kind when
    /// none is a CPU package), millidegrees Celsius; nil without a sensor reading.
    public var cpuTemperatureMilliCelsius: Int32?
    /// The used share of the file system mounted at `/` (as `df`'s Use%), hundredths of a
    /// percent, at the minute's last sample that measured it; nil when none did.
    public var rootUsedPermyriad: UInt32?
    /// The busiest GPU's busy share, hundredths of a percent, averaged over the minute's
    /// samples that measured it; nil when none did (no GPU, or no block showing it).
    public var gpuBusyPermyriad: UInt32?
    /// The most video memory in use at one of the minute's samples, all GPUs together, bytes;
    /// nil when no sample measured it.
    public var vramUsedBytes: UInt64?
    /// The listed parts' history figures (fans, power), one per ``ListedHistory/columns`` in
    /// its order, each given or not: nil where not measured, and in rows from before the part.
    public var listed: FigureValues
    /// True for a row rolled up from the minutes of one hour (older than the minute retention):
    /// averages are averages of the minute averages, ``cpuMaximum`` the largest minute maximum,
    /// ``rxBytes`` and ``txBytes`` the hour's totals, ``cpuTemperatureMilliCelsius`` its hottest
    /// minute, ``rootUsedPermyriad`` and ``gpuBusyPermyriad`` the average of the minutes that
    /// measured them, ``vramUsedBytes`` the hour's largest.
    public var isHourly: Bool

    /// A sample; battery fields nil on a machine without a battery, the network, temperature,
    /// root file system and GPU figures nil when not measured.
    public init(minute: UInt64, cpuAverage: UInt32, cpuMaximum: UInt32, memoryUsedKiB: UInt64,
                memoryAvailableKiB: UInt64, swapUsedKiB: UInt64, load1: UInt32, processCount: UInt32,
                batteryPercent: UInt32? = nil, batteryState: UInt8? = nil,
                rxBytes: UInt64? = nil, txBytes: UInt64? = nil, cpuTemperatureMilliCelsius: Int32? = nil,
                rootUsedPermyriad: UInt32? = nil, gpuBusyPermyriad: UInt32? = nil, vramUsedBytes: UInt64? = nil,
                listed: FigureValues = FigureValues(), isHourly: Bool = false) {
        self.minute = minute
        self.cpuAverage = cpuAverage
        self.cpuMaximum = cpuMaximum
        self.memoryUsedKiB = memoryUsedKiB
        self.memoryAvailableKiB = memoryAvailableKiB
        self.swapUsedKiB = swapUsedKiB
        self.load1 = load1
        self.processCount = processCount
        self.batteryPercent = batteryPercent
        self.batteryState = batteryState
        self.rxBytes = rxBytes
        self.txBytes = txBytes
        self.cpuTemperatureMilliCelsius = cpuTemperatureMilliCelsius
        self.rootUsedPermyriad = rootUsedPermyriad
        self.gpuBusyPermyriad = gpuBusyPermyriad
        self.vramUsedBytes = vramUsedBytes
        self.listed = listed
        self.isHourly = isHourly
    }
}

/// A process that exited and the memory its exit gave back.
public struct ExitRecord: Equatable, Sendable {
    /// When the exit was seen, unix milliseconds.
    public var timeMs: UInt64
    /// Its process id.
    public var pid: UInt32
    /// The process name as the kernel gave it: arbitrary bytes, stored as a BLOB.
    public var name: [UInt8]
    /// A name a bookmark gave it (issue 5); nil until then.
    public var friendlyName: String?
    /// Its private memory at the last sample before it exited, KiB.
    public var lastPrivateKiB: UInt64
    /// How much available memory rose when it exited, KiB.
    public var freedKiB: UInt64

    /// An exit record; `friendlyName` is the name a bookmark gave the process, nil when none did.
    public init(timeMs: UInt64, pid: UInt32, name: [UInt8], friendlyName: String? = nil,
                lastPrivateKiB: UInt64, freedKiB: UInt64) {
        self.timeMs = timeMs
        self.pid = pid
        self.name = name
        self.friendlyName = friendlyName
        self.lastPrivateKiB = lastPrivateKiB
        self.freedKiB = freedKiB
    }
}
