// i3status's modules as sysstats blocks (docs/configuration.md, "Moving from i3status").

/// One module of another bar and the block it becomes: the table the import follows and
/// the docs' "Moving from …" tables are written from.
public struct ModuleRule: Sendable {
    public let module: String
    /// The sysstats block, or nil where there is none.
    public let block: String?
    let placeholders: PlaceholderTable
    /// What else is carried over, or why nothing is: the docs' last column.
    public let remark: String

    init(_ module: String, _ block: String?, _ placeholders: [(String, String)] = [], _ remark: String = "") {
        self.module = module; self.block = block; self.placeholders = PlaceholderTable(placeholders); self.remark = remark
    }

    /// `%usage` → `{busy}%`, for the docs, written in `syntax` (`%NAME`, `{NAME}`, `$NAME`, `%NAME%`).
    public func placeholderPairs() -> [(String, String)] { placeholders.pairs }
}

enum I3statusRules {
    static let rules: [ModuleRule] = [
        ModuleRule("cpu_usage", "cpu", [("usage", "{busy}%")], "`max_threshold` → `critical`, `degraded_threshold` → `warning`"),
        ModuleRule("memory", "mem", [("total", "{total}"), ("used", "{used}"), ("free", "{free}"), ("available", "{available}"),
                                    ("percentage_used", "{percent}%")],
                   "`threshold_degraded`/`threshold_critical` in % of memory available → `warning`/`critical` in % used"),
        ModuleRule("load", "load", [("1min", "{1}"), ("5min", "{5}"), ("15min", "{15}")], "`max_threshold` → `critical`"),
        ModuleRule("battery", "battery", [("status", "{state}"), ("percentage", "{percent}%"), ("remaining", "{remaining}"),
                                         ("emptytime", "{until}"), ("consumption", "{power}")],
                   "`format_down`; `%status` → `status_bat`'s word in `format`, `status_chr`'s in `format_charging`, `status_full`'s in `format_full`; `low_threshold` with `threshold_type = \"percentage\"` → `critical`; sysstats shows all batteries together"),
        ModuleRule("cpu_temperature", "temp", [("degrees", "{celsius}")], "`max_threshold` → `critical`; the CPU package's sensor"),
        ModuleRule("disk", "disk", [("free", "{free}"), ("avail", "{free}"), ("used", "{used}"), ("total", "{total}"),
                                   ("percentage_used", "{percent}%"), ("percentage_avail", "{free_percent}%"), ("percentage_free", "{free_percent}%")],
                   "the instance → `mount`; `low_threshold` with a percentage `threshold_type` → `critical` (100 − it)"),
        ModuleRule("wireless", "wifi", [("quality", "{quality}%"), ("essid", "{ssid}"), ("bitrate", "{bitrate} Mb/s"),
                                       ("signal", "{signal} dBm"), ("ip", "{ip}")], "the instance → `interface` (`_first_`: the default); `format_down`"),
        ModuleRule("ethernet", "net", [("ip", "{ip}"), ("interface", "{name}"), ("speed", "{speed}")], "the instance → `interface` (`_first_`: the default); `format_down`"),
        ModuleRule("ipv6", "net", [("ip", "{ipv6}")], "`format_down`"),
        ModuleRule("tztime", "time", [], "`format` as it is (strftime), with `format_time` in place of `%time`; `timezone`"),
        ModuleRule("time", "time", [], "`format` as it is (strftime)"),
        ModuleRule("volume", "volume", [("volume", "{volume}%"), ("devicename", "{device}")],
                   "`format_muted`; the sound server's default sink, else ALSA's `default` mixer's `Master` (`device`, `mixer` choose nothing)"),
        ModuleRule("run_watch", "run_watch", [("title", "{title}"), ("status", "{status}")], "the instance → `title`; `pidfile`, `format_down`"),
        ModuleRule("path_exists", "path_exists", [("title", "{title}"), ("status", "{status}")], "the instance → `title`; `path`, `format_down`"),
        ModuleRule("read_file", "read_file", [("title", "{title}"), ("content", "{content}"), ("errno", "{errno}"), ("error", "{error}")],
                   "the instance → `title`; `path`, `format_bad`"),
        ModuleRule("ddate", nil, [], "a command block would: `command = \"ddate\"`, `interval = 60`"),
    ]

    /// The modules i3status shows in its good colour while up: their blocks take it as `color`.
    static let goodColoured: Set<String> = ["wireless", "ethernet", "ipv6", "run_watch", "path_exists"]

    /// i3status's own defaults where the file sets none (i3status.c, 2.14).
    static let defaultFormats: [String: String] = [
        "cpu_usage": "%usage", "memory": "%used %free %available", "load": "%1min %5min %15min",
        "battery": "%status %percentage %remaining", "cpu_temperature": "%degrees C", "disk": "%free",
        "wireless": "W: (%quality at %essid, %bitrate) %ip", "ethernet": "E: %ip (%speed)", "ipv6": "%ip",
        "tztime": "%Y-%m-%d %H:%M:%S %Z", "time": "%Y-%m-%d %H:%M:%S", "volume": "♪: %volume",
        "run_watch": "%title: %status", "path_exists": "%title: %status", "read_file": "%content",
    ]

    /// Every placeholder i3status knows per module, so that an unknown one is named, not read as text.
    static let knownNames: [String: [String]] = [
        "cpu_usage": ["usage", "cpu0", "cpu1", "cpu2", "cpu3", "cpu4", "cpu5", "cpu6", "cpu7", "cpu8", "cpu9", "cpu"],
        "memory": ["total", "used", "free", "available", "shared", "percentage_free", "percentage_available", "percentage_used", "percentage_shared"],
        "battery": ["status", "percentage", "remaining", "emptytime", "consumption"],
        "disk": ["free", "used", "total", "avail", "percentage_free", "percentage_used_of_avail", "percentage_used", "percentage_avail"],
        "wireless": ["quality", "signal", "noise", "essid", "frequency", "ip", "bitrate"],
        "ethernet": ["ip", "speed", "interface"],
        "volume": ["volume", "devicename"],
    ]
}
