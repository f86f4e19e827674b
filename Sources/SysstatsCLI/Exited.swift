import Glibc
import Bookmarks
import HistoryStore

/// `sysstats exited`: processes that exited and what each freed (formatting only).
public enum Exited {
    static let header = Columns.left("time", 20) + Columns.right("pid", 8) + Columns.right("freed MiB", 11)
        + Columns.right("last MiB", 10) + "  name"

    /// The header and one line per exit, in the order given (a space after the time, which a
    /// damaged row's makes wider than its column: shown raw).
    public static func lines(_ exits: [ExitRecord], zone: TimeZoneChoice) -> [String] {
        [header] + exits.map { e in
            Columns.left(zone.second(e.timeMs / 1000) + " ", 20) + Columns.right("\(e.pid)", 8)
                + Columns.right(Columns.mib(e.freedKiB), 11) + Columns.right(Columns.mib(e.lastPrivateKiB), 10)
                + "  " + displayName(e)
        }
    }

    /// The sanitized name, with the bookmark's friendly name after it when there is one.
    static func displayName(_ e: ExitRecord) -> String {
        let name = TerminalText.escape(e.name)
        guard let friendly = e.friendlyName else { return name }
        return name + " (" + TerminalText.escape(friendly) + ")"
    }

    /// `--json`: an array, in the order given; `name` is the sanitized text, `name_hex` the exact bytes.
    public static func json(_ exits: [ExitRecord]) -> String {
        return JSONText.encode(exits.map(Row.init))
    }

    struct Row: Encodable {
        var timeMs: UInt64, pid: UInt32, name: String, nameHex: String, friendlyName: String?
        var lastPrivateMiB: Double, freedMiB: Double

        enum CodingKeys: String, CodingKey {
            case timeMs = "time_ms", pid, name, nameHex = "name_hex", friendlyName = "friendly_name"
            case lastPrivateMiB = "last_private_mib", freedMiB = "freed_mib"
        }

        init(_ e: ExitRecord) {
            timeMs = e.timeMs; pid = e.pid; name = TerminalText.escape(e.name)
            nameHex = JSONText.hex(e.name)
            friendlyName = e.friendlyName.map { TerminalText.escape($0) }
            lastPrivateMiB = ReportJSON.mib(e.lastPrivateKiB); freedMiB = ReportJSON.mib(e.freedKiB)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(timeMs, forKey: .timeMs); try c.encode(pid, forKey: .pid)
            try c.encode(name, forKey: .name); try c.encode(nameHex, forKey: .nameHex)
            if let friendlyName { try c.encode(friendlyName, forKey: .friendlyName) } else { try c.encodeNil(forKey: .friendlyName) }
            try c.encode(lastPrivateMiB, forKey: .lastPrivateMiB); try c.encode(freedMiB, forKey: .freedMiB)
        }
    }
}
