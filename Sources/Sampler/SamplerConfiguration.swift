import ProcFS
import SystemDirs

/// Everything the sampler can be told, with the defaults a user gets.
public struct SamplerConfiguration: Equatable {
    public var procRoot = "/proc"
    public var sysRoot = "/sys"
    /// Interval between samples, milliseconds (`--interval 0.25` is 250).
    public var intervalMs: UInt32 = 1000
    /// Explicit runtime directory; nil means ``RuntimeDirectory/defaultPath(environment:uid:)``.
    public var runtimeDirectory: String?
    /// Take two samples one interval apart, write one snapshot, exit.
    public var once = false
    /// Every process's CPU time and memory (the top lists) are re-read at least this often,
    /// milliseconds (top's default delay is 3 s); in between, only processes that are new,
    /// may have been given a reused pid, or exited are read (docs/performance-history.md). 0: every sample.
    public var processRefreshMs: UInt32 = 3000
    /// MemAvailable rises below this are not reported as memory freed by an exit.
    public var freedThresholdKiB: UInt64 = 4 * 1024
    /// Battery discharging at or below this percent is urgent.
    public var batteryLowPercent: UInt32 = 10
    /// MemAvailable at or below this percent of total is urgent.
    public var memoryLowPercent: UInt32 = 5
    /// PSI memory "some" avg10 above this (hundredths of a percent) is urgent.
    public var pressureThreshold: UInt32 = 1000
    /// Write history (through the `sysstatsd-history` writer); `--no-history` turns it off.
    /// `once` never writes history.
    public var history = true
    /// Explicit data directory (`--data-dir`); nil means `HistoryRecords.DataDirectory`'s rule.
    public var dataDirectory: String?
    /// At a clean stop, how long to wait for the last history write before giving up on it.
    public var shutdownDeadlineMs: UInt32 = 2000
    /// The bookmark rules cache (`<data-dir>/bookmarks.rules`, written by the CLI and
    /// sysstatsd-history); nil: the built-in rules only.
    public var rulesPath: String?
    /// Whether the built-in bookmarks apply while there is no rules cache (off for tests
    /// that pin the kernel's names).
    public var builtinBookmarks = true
    /// Whether to measure the sampler's own CPU and memory (off for golden tests).
    public var measureSelf = true
    /// Mount points whose space is measured (`--disk PATH`, repeatable), at most eight; nil:
    /// ``measuredDisks``' default.
    public var disks: [String]? = nil
    /// Temperature sensors by `chip/label`, `chip` or label (`--sensor NAME`, repeatable);
    /// empty: the CPU package's.
    public var sensors: [String] = []
    /// `--config FILE`; nil: the default place (`SamplerSettings.defaultPath`).
    public var configPath: String?
    /// Interfaces measured even when they look virtual (`--net NAME`, repeatable); the
    /// physical ones are always measured.
    public var interfaces: [String] = []
    /// Units of the cgroup v2 tree (`[sampler] units`, by the name the units part gives them
    /// or their own): the units part is measured whether or not a bar shows it, and keeps
    /// them first (the Prometheus export of a machine without a bar).
    public var units: [String] = []
    /// `[sampler] unit_history`: the units part measured every sample, bar or no bar, so
    /// that history keeps the busiest units of each minute (`sysstats history --units`).
    public var unitHistory = false
    /// `--textfile-dir DIR`: where to write `sysstats.prom` for node_exporter's textfile
    /// collector; nil: no Prometheus export (and no buffer for it).
    public var textfileDirectory: String?
    /// Seconds between two writes of `sysstats.prom` (`--textfile-interval`).
    public var textfileIntervalSeconds: UInt32 = 15
    /// `--exit-when-unwatched SEC`: stop once no renderer has been seen alive for this long
    /// (a sampler a bar started ends with the session that ran the bar); nil: run until
    /// stopped (the systemd unit, a sampler started by hand).
    public var exitWhenUnwatchedSeconds: UInt32?

    /// The NVIDIA helper's path; nil: `sysstatsd-gpu` beside this program (tests name theirs).
    public var gpuHelperPath: String?
    /// The sound helper's path; nil: `sysstatsd-audio` beside this program (tests name theirs).
    public var soundHelperPath: String?
    /// The media helper's path; nil: `sysstatsd-media` beside this program (tests name theirs).
    public var mediaHelperPath: String?

    public init() {}

    /// Takes what the config file's `[sampler]` sets.
    public mutating func apply(_ settings: SamplerSettings) {
        if let v = settings.intervalMs { intervalMs = v }
        if let v = settings.history { history = v }
        if let v = settings.freedThresholdKiB { freedThresholdKiB = v }
        if let v = settings.disks { disks = v }
        if let v = settings.sensors { sensors = v }
        if let v = settings.interfaces { interfaces = v }
        if let v = settings.units { units = v }
        if let v = settings.unitHistory { unitHistory = v }
        if let v = settings.textfileDirectory { textfileDirectory = v }
        if let v = settings.textfileIntervalSeconds { textfileIntervalSeconds = v }
    }

    /// The mount points measured: ``disks``, else `/` — but none when /proc comes from
    /// elsewhere (`--proc-root`): statvfs measures this machine, not the fixture's.
    public var measuredDisks: [String] { disks ?? (readsThisMachine ? ["/"] : []) }

    /// Whether ``procRoot`` is this machine's `/proc` (not a fixture tree). Compared as
    /// bytes: String `==` would be the sampler's only use of the standard library's string
    /// comparison, whose code pages then stay resident (docs/performance-history.md).
    public var readsThisMachine: Bool {
        var root = procRoot
        return root.withUTF8 { bytesEqual(UnsafeRawBufferPointer($0), "/proc") }
    }
}
