// i3status-rust's blocks as sysstats blocks (docs/configuration.md, "Moving from
// i3status-rust"), for both of its format languages: `{name}` before 0.30, `$name` after.

enum I3statusRustRules {
    static let rules: [ModuleRule] = [
        ModuleRule("cpu", "cpu", [("utilization", "{busy}%"), ("barchart", "{bars}"), ("frequency", "{frequency}GHz"), ("icon", "")], "`info_cpu`/`warning_cpu`/`critical_cpu` → `warning`/`critical`"),
        ModuleRule("memory", "mem", [("mem_used", "{used}"), ("mem_total", "{total}"), ("mem_used_percents", "{percent}%"),
                                    ("mem_avail", "{available}"), ("mem_free", "{free}"), ("swap_used", "{swap}"), ("swap_total", "{swap_total}"),
                                    ("mem_total_used", "{used}"), ("mem_total_used_percents", "{percent}%"), ("swap_used_percents", "{swap_percent}%"), ("swap_free", "{swap_free}"),
                                    // Before 0.20: M (memory) or S (swap), then T/U/F/A (total, used, free, available), then g/m (GiB, MiB) or p (percent).
                                    ("MTg", "{total}"), ("MTm", "{total}"), ("MUg", "{used}"), ("MUm", "{used}"), ("Mug", "{used}"), ("Mum", "{used}"),
                                    ("MFg", "{free}"), ("MFm", "{free}"), ("MAg", "{available}"), ("MAm", "{available}"), ("MUp", "{percent}%"),
                                    ("Mup", "{percent}%"), ("MUpi", "{percent}%"), ("Mupi", "{percent}%"), ("STg", "{swap_total}"), ("STm", "{swap_total}"),
                                    ("SUg", "{swap}"), ("SUm", "{swap}"), ("SUp", "{swap_percent}%"), ("SUpi", "{swap_percent}%"), ("icon", ""), ("icon_swap", "")],
                   "`format_mem` (before 0.30) → `format`; `warning_mem`/`critical_mem` → `warning`/`critical`"),
        ModuleRule("load", "load", [("1m", "{1}"), ("5m", "{5}"), ("15m", "{15}"), ("icon", "")], "thresholds per core are not carried over"),
        ModuleRule("disk_space", "disk", [("available", "{free}"), ("free", "{free}"), ("used", "{used}"), ("total", "{total}"),
                                         ("path", "{mount}"), ("icon", "")],
                   "`path` → `mount`; `warning`/`alert` in % available → `warning`/`critical` in % used"),
        ModuleRule("net", "net", [("speed_down", "{down}"), ("speed_up", "{up}"), ("ip", "{ip}"), ("ipv6", "{ipv6}"), ("device", "{name}"),
                                 ("icon", "")],
                   "`device` → `interface`; `inactive_format` → `format_down`; with `{ssid}` or `{signal_strength}` a `wifi` block"),
        ModuleRule("battery", "battery", [("percentage", "{percent}%"), ("time", "{remaining}"), ("time_remaining", "{remaining}"), ("power", "{power}"), ("icon", "")],
                   "`warning`/`critical` (at or below); `charging_format` → `format_charging`, `full_format` → `format_full`"),
        ModuleRule("temperature", "temp", [("average", "{celsius}°"), ("max", "{max}°"), ("icon", "")], "`warning` → `warning`"),
        ModuleRule("time", "time", [], "`$timestamp.datetime(f:'…')` (or the older plain strftime) → `format`; `timezone`"),
        ModuleRule("sound", "volume", [("volume", "{volume}%"), ("output_description", "{device}"), ("output_name", "{device}"),
                                      ("active_port", "{port}"), ("icon", "")],
                   "`device_kind = \"source\"` → `microphone`; `step_width` → `step`; `max_vol` → `max`"),
        ModuleRule("backlight", "backlight", [("brightness", "{percent}%"), ("icon", "")], "`device`; `step_width` → `step`"),
        ModuleRule("music", "media", [("title", "{title}"), ("artist", "{artist}"), ("combo", "{artist} - {title}"), ("player", "{player}"),
                                     ("play", ""), ("next", ""), ("prev", ""), ("icon", "")], "`player`"),
        ModuleRule("uptime", "uptime", [("text", "{uptime}"), ("icon", "")]),
        ModuleRule("nvidia_gpu", "gpu", [("utilization", "{busy}%"), ("memory", "{vram_used}"), ("temperature", "{celsius}°"),
                                        ("clocks", "{clock}"), ("power", "{watts}W"), ("name", "{name}"), ("icon", "")]),
        ModuleRule("amd_gpu", "gpu", [("utilization", "{busy}%"), ("vram_used", "{vram_used}"), ("vram_total", "{vram_total}"),
                                     ("vram_used_percents", "{vram_percent}%"), ("icon", "")]),
        ModuleRule("custom", "command", [], "`command` (`cycle`: the first), `interval` (`\"once\"`), `persistent` → `persist`, `signal`"),
    ]

    static let wifiPlaceholders: [(String, String)] = [
        ("ssid", "{ssid}"), ("signal_strength", "{quality}%"), ("bitrate", "{bitrate}"), ("device", "{name}"), ("ip", "{ip}"),
        ("speed_down", "{down}"), ("speed_up", "{up}"), ("icon", ""),
    ]

    /// The format each block shows without one (0.30's; the older ones name the same figures).
    static let defaultFormats: [String: String] = [
        "cpu": " $icon $utilization ", "memory": " $icon $mem_used.eng(prefix:Mi)/$mem_total.eng(prefix:Mi)($mem_used_percents.eng(w:2)) ",
        "load": " $icon $1m.eng(w:4) ", "disk_space": " $icon $available ", "net": " $icon ^icon_net_down $speed_down.eng(prefix:K) ^icon_net_up $speed_up.eng(prefix:K) ",
        "battery": " $icon $percentage ", "temperature": " $icon $average avg, $max max ", "sound": " $icon {$volume.eng(w:2) |}",
        "backlight": " $icon $brightness ", "music": " $icon {$combo.str(max_w:25,rot_interval:0.5) $play |}", "uptime": " $icon $text ",
        "nvidia_gpu": " $icon $utilization $memory $temperature ", "amd_gpu": " $icon $utilization ",
    ]

    static let barOwn: Set<String> = ["focused_window", "scratchpad"]

    static let suggestions: [String: String] = [
        "keyboard_layout": "`command = \"xkb-switch -W\"`, `persist = true`",
        "bluetooth": "`command = \"bluetoothctl show | grep -q 'Powered: yes' && echo on || echo off\"`",
        "weather": "`command = \"curl -s 'wttr.in/?format=3'\"`, `interval = 900`",
        "pacman": "`command = \"checkupdates | wc -l\"`, `interval = 600`",
        "apt": "`command = \"apt list --upgradable 2>/dev/null | grep -c upgradable\"`, `interval = 600`",
        "packages": "`command` counting updates, `interval = 600`",
        "toggle": "`command` that runs `command_state` and, on `$BLOCK_BUTTON`, `command_on`/`command_off`",
    ]
}
