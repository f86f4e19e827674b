import Glibc
import HistoryStore

/// `sysstats reboots`: each boot, how long it ran, and how it ended (formatting only).
public enum Reboots {
    /// How a boot ended, as the table and JSON say it.
    public enum End: String, Encodable, Sendable {
        case running, clean
        case unclean = "unclean: crash or power loss"
    }

    /// The running boot is `currentBootID`; any other boot without the clean mark ended unclean.
    public static func end(_ boot: BootRecord, currentBootID: String?) -> End {
        if boot.id == currentBootID { return .running }
        return boot.cleanEnd ? .clean : .unclean
    }

    static let header = Columns.left("boot time", 18) + Columns.left("ran for", 16) + "end"

    /// The header and one line per boot, oldest first. "ran for" is the uptime the sampler
    /// last saw (for the running boot: so far, as of its last sample). A space ends each
    /// field, so that one wider than its column (a damaged row's time, shown raw) stays apart.
    public static func lines(_ boots: [BootRecord], currentBootID: String?, zone: TimeZoneChoice) -> [String] {
        [header] + boots.map { b in
            Columns.left(zone.minute(b.bootTime) + " ", 18) + Columns.left(Columns.duration(b.lastSeenUptime) + " ", 16)
                + end(b, currentBootID: currentBootID).rawValue
        }
    }

    /// `--json`: an array, oldest first; `end` is "running", "clean" or "unclean".
    public static func json(_ boots: [BootRecord], currentBootID: String?) -> String {
        let rows = boots.map { b in
            Row(bootID: b.id, bootTime: b.bootTime, lastSeenUptime: b.lastSeenUptime, lastSeenTime: b.lastSeenTime,
                end: end(b, currentBootID: currentBootID) == .unclean ? "unclean" : end(b, currentBootID: currentBootID).rawValue)
        }
        return JSONText.encode(rows)
    }

    struct Row: Encodable {
        var bootID: String, bootTime: UInt64, lastSeenUptime: UInt64, lastSeenTime: UInt64, end: String
        enum CodingKeys: String, CodingKey {
            case bootID = "boot_id", bootTime = "boot_time", lastSeenUptime = "last_seen_uptime_seconds"
            case lastSeenTime = "last_seen_time", end
        }
    }
}
