// waybar's modules as sysstats blocks (docs/configuration.md, "Moving from waybar").

enum WaybarRules {
    static let rules: [ModuleRule] = [
        ModuleRule("cpu", "cpu", [("", "{busy}"), ("usage", "{busy}"), ("avg_frequency", "{frequency}"), ("icon", "")], "`states` → `warning`/`critical`"),
        ModuleRule("memory", "mem", [("", "{percent}"), ("percentage", "{percent}"), ("used", "{used}" + sizedMark), ("total", "{total}" + sizedMark),
                                    ("avail", "{available}" + sizedMark), ("swapUsed", "{swap}" + sizedMark),
                                    ("swapTotal", "{swap_total}" + sizedMark), ("swapPercentage", "{swap_percent}"), ("icon", "")],
                   "`states` → `warning`/`critical`; sizes keep sysstats' units (`3.2G`)"),
        ModuleRule("disk", "disk", [("", "{percent}"), ("percentage_used", "{percent}"), ("percentage_free", "{free_percent}"), ("free", "{free}"), ("used", "{used}"), ("total", "{total}"),
                                  ("path", "{mount}")], "`path` → `mount`; `states` → `warning`/`critical`"),
        ModuleRule("battery", "battery", [("", "{percent}"), ("capacity", "{percent}"), ("time", "{remaining}"), ("power", "{power}"), ("icon", "")],
                   "`states` → `warning`/`critical` (at or below); `format-charging` → `format_charging`, `format-full` → `format_full`"),
        ModuleRule("upower", "battery", [("percentage", "{percent}"), ("time", "{remaining}"), ("icon", "")], "as battery"),
        ModuleRule("network", "net", [("ifname", "{name}"), ("ipaddr", "{ip}"), ("bandwidthDownBytes", "{down}"),
                                     ("bandwidthUpBytes", "{up}"), ("icon", "")],
                   "`interface` → `interface`; `format-disconnected` → `format_down`; with `format-wifi` a `wifi` block: `{essid}` → `{ssid}`, `{signalStrength}` → `{quality}`, `{signaldBm}` → `{signal}`"),
        ModuleRule("temperature", "temp", [("", "{celsius}"), ("temperatureC", "{celsius}"), ("icon", "")], "`critical-threshold` → `critical`"),
        ModuleRule("clock", "time", [], "`{:FORMAT}` → FORMAT (strftime); `timezone`; `format-alt` → `format_short` and a left click that toggles it"),
        ModuleRule("pulseaudio", "volume", [("", "{volume}"), ("volume", "{volume}"), ("desc", "{device}"), ("icon", "")],
                   "`format-muted` → `format_muted`; `{format_source}` → a `microphone` block beside it (`format-source`, `format-source-muted`); `scroll-step` → `step`; `max-volume` → `max`"),
        ModuleRule("wireplumber", "volume", [("", "{volume}"), ("volume", "{volume}"), ("node_name", "{device}"), ("icon", "")], "as pulseaudio"),
        ModuleRule("backlight", "backlight", [("", "{percent}"), ("percent", "{percent}"), ("icon", "")], "`device`"),
        ModuleRule("load", "load", [("", "{1}"), ("load1", "{1}"), ("load5", "{5}"), ("load15", "{15}")]),
        ModuleRule("mpris", "media", [("title", "{title}"), ("artist", "{artist}"), ("album", "{album}"), ("player", "{player}"),
                                     ("status", "{status}"), ("status_icon", ""), ("player_icon", ""), ("length", "{length}"),
                                     ("position", "{position}")],
                   "`format-paused` → `format_paused`; `player`"),
        ModuleRule("custom/…", "command", [], "`exec` → `command`, `interval` (none: `persist`), `return-type = \"json\"` → `format = \"json\"`, `signal`, `exec-if`"),
    ]

    static let wifiPlaceholders: [(String, String)] = [
        ("essid", "{ssid}"), ("signalStrength", "{quality}"), ("signaldBm", "{signal}"), ("ifname", "{name}"), ("ipaddr", "{ip}"),
        ("bandwidthDownBytes", "{down}"), ("bandwidthUpBytes", "{up}"), ("icon", ""),
    ]

    /// Modules waybar draws itself, and the parts of a compositor's (`sway/workspaces`).
    static let own = ["tray", "idle_inhibitor", "image", "user"]
    static let compositorParts = ["workspaces", "window", "mode", "scratchpad", "taskbar", "tags", "layout", "submap", "language"]

    /// Modules waybar draws from the compositor or itself.
    static func isBarOwn(_ type: String) -> Bool {
        if own.contains(type) { return true }
        guard let slash = type.firstIndex(of: "/") else { return false }
        let part = String(type[type.index(after: slash)...])
        return compositorParts.contains(part) && !type.hasPrefix("custom/")
    }

    /// What a module sysstats has no block for would take instead.
    static let suggestions: [String: String] = [
        "bluetooth": "`command = \"bluetoothctl show | grep -q 'Powered: yes' && echo on || echo off\"`",
        "keyboard-state": "`command = \"xset q | grep -o 'Caps Lock: *[a-z]*'\"`",
        "mpd": "`command = \"mpc current\"` (or the `media` block through mpDris2)",
        "cava": nil, "privacy": nil, "gamemode": nil, "power-profiles-daemon": "`command = \"powerprofilesctl get\"`",
        "systemd-failed-units": "`command = \"systemctl --failed --no-legend | wc -l\"`",
    ].compactMapValues { $0 }
}
