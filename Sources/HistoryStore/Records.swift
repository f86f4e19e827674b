/// One boot of the machine as the sampler saw it.
public struct BootRecord: Equatable, Sendable {
    /// The kernel's boot id (UUID text from /proc/sys/kernel/random/boot_id).
    public var id: String
    /// When the machine booted, unix seconds.
    public var bootTime: UInt64
    /// Uptime when the sampler last wrote for this boot, seconds.
    public var lastSeenUptime: UInt64
    /// When the sampler last wrote for this boot, unix seconds.
    public var lastSeenTime: UInt64
    /// True when the sampler stopped cleanly (SIGTERM) and nothing ran after; false
    /// for the running boot and for a boot that ended in a crash or power loss.
    public var cleanEnd: Bool

    /// A boot as stored.
    public init(id: String, bootTime: UInt64, lastSeenUptime: UInt64, lastSeenTime: UInt64, cleanEnd: Bool) {
        self.id = id
        self.bootTime = bootTime
        self.lastSeenUptime = lastSeenUptime
        self.lastSeenTime = lastSeenTime
        self.cleanEnd = cleanEnd
    }
}

/// What ``HistoryDatabase/recordBoot(id:bootTime:uptimeSeconds:nowSeconds:)`` found.
public enum BootOutcome: Equatable, Sendable {
    /// The boot id was known: the sampler restarted within the same boot.
    case sameBoot
    /// A boot id not seen before: the machine rebooted. `previous` is the latest boot
    /// recorded before it (nil on the first run); `previous.cleanEnd == false` means it
    /// ended without the sampler's clean mark (crash, power loss).
    case newBoot(previous: BootRecord?)
}

/// How long history is kept.
public struct RetentionPolicy: Equatable, Sendable {
    /// Minute samples older than this are rolled up into hourly rows, then deleted.
    public var minuteSamplesSeconds: UInt64
    /// Hourly rows (and boots last seen) older than this are deleted.
    public var hourlySamplesSeconds: UInt64
    /// Exits older than this are deleted.
    public var exitsSeconds: UInt64
    /// Unit minutes (`history --units`) older than this are rolled up into hours.
    public var unitMinutesSeconds: UInt64 = 7 * 86_400
    /// Unit hours older than this are deleted.
    public var unitHoursSeconds: UInt64 = 90 * 86_400

    /// A policy with each period in seconds.
    public init(minuteSamplesSeconds: UInt64, hourlySamplesSeconds: UInt64, exitsSeconds: UInt64) {
        self.minuteSamplesSeconds = minuteSamplesSeconds
        self.hourlySamplesSeconds = hourlySamplesSeconds
        self.exitsSeconds = exitsSeconds
    }

    /// 90 days of minutes, then hourly rollups for two years (730 days); exits for 90 days;
    /// the busiest units' minutes for 7 days, then their hours for 90.
    public static let `default` = RetentionPolicy(minuteSamplesSeconds: 90 * 86_400,
                                                  hourlySamplesSeconds: 730 * 86_400,
                                                  exitsSeconds: 90 * 86_400)
}
