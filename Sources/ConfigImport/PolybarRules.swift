// polybar's modules as sysstats blocks (docs/configuration.md, "Moving from polybar").

enum PolybarRules {
    static let rules: [ModuleRule] = [
        // Each module's `format-foreground` (else `label-foreground`) → `color`.
        ModuleRule("internal/cpu", "cpu", [("percentage", "{busy}"), ("percentage-sum", "")],
                   "`warn-percentage` → `warning`; `<bar-load>`, `<ramp-load>` → `{spark}`"),
        ModuleRule("internal/memory", "mem", [("percentage_used", "{percent}"), ("used", "{used}"), ("free", "{free}"), ("total", "{total}"),
                                             ("gb_used", "{used}"), ("gb_free", "{free}"), ("gb_total", "{total}"), ("mb_used", "{used}"),
                                             ("mb_free", "{free}"), ("mb_total", "{total}"), ("swap_used", "{swap}"), ("swap_total", "{swap_total}"),
                                             ("gb_swap_used", "{swap}"), ("gb_swap_total", "{swap_total}"),
                                             ("percentage_swap_used", "{swap_percent}")],
                   "`warn-percentage` → `warning`; `<bar-used>`, `<ramp-used>` → `{bar}`"),
        ModuleRule("internal/fs", "disk", [("mountpoint", "{mount}"), ("percentage_used", "{percent}"), ("percentage_free", "{free_percent}"),
                                         ("used", "{used}"), ("free", "{free}"),
                                         ("total", "{total}")],
                   "each `mount-N` its own block; `warn-percentage` → `warning`; `<bar-used>` → `{bar}`"),
        ModuleRule("internal/battery", "battery", [("percentage", "{percent}"), ("percentage_raw", "{percent}"), ("time", "{remaining}"),
                                                  ("consumption", "{power}")],
                   "`label-discharging` → `format`, `label-charging` → `format_charging`, `label-full` → `format_full`; `low-at` → `critical`"),
        ModuleRule("internal/network", "net", [("ifname", "{name}"), ("local_ip", "{ip}"), ("local_ip6", "{ipv6}"), ("upspeed", "{up}"),
                                              ("downspeed", "{down}"), ("linkspeed", "{speed}")],
                   "`interface`; `label-disconnected` → `format_down`; a wireless one (`interface-type = wireless`, or `%essid%` in its label) a `wifi` block: `%essid%` → `{ssid}`, `%signal%` → `{quality}`"),
        ModuleRule("internal/date", "time", [], "`date`, `time` (strftime) into `format` as `label` places them; `date-alt`/`time-alt` → `format_short` and a left click that toggles it"),
        ModuleRule("internal/temperature", "temp", [("temperature-c", "{celsius}"), ("temperature", "{celsius}")], "`warn-temperature` → `warning`"),
        ModuleRule("internal/pulseaudio", "volume", [("percentage", "{volume}")], "`label-muted` → `format_muted`; `interval` → `step`"),
        ModuleRule("internal/alsa", "volume", [("percentage", "{volume}")], "the sound server's default sink, else ALSA's `default` mixer's `Master` (`master-mixer` chooses nothing)"),
        ModuleRule("internal/volume", "volume", [("percentage", "{volume}")], "as internal/alsa"),
        ModuleRule("internal/backlight", "backlight", [("percentage", "{percent}")], "`card` → `device`"),
        ModuleRule("internal/xbacklight", "backlight", [("percentage", "{percent}")], "as internal/backlight"),
        ModuleRule("custom/script", "command", [], "`exec` → `command`, `interval`, `tail = true` → `persist`, `exec-if`, clicks"),
        ModuleRule("custom/text", "command", [], "its text → `full_text`; clicks"),
    ]

    static let wifiPlaceholders: [(String, String)] = [
        ("ifname", "{name}"), ("local_ip", "{ip}"), ("essid", "{ssid}"), ("signal", "{quality}"),
    ]

    /// The label each module shows by default, and its label key per state (polybar 3.7).
    static let defaultLabels: [String: String] = [
        "internal/cpu": "%percentage%%", "internal/memory": "%percentage_used%%",
        "internal/fs": "%mountpoint% %percentage_free%% of %total%", "internal/battery": "%percentage%%",
        "internal/network": "%ifname% %local_ip%", "internal/date": "%date%", "internal/temperature": "%temperature-c%",
        "internal/pulseaudio": "%percentage%%", "internal/alsa": "%percentage%%", "internal/volume": "%percentage%%",
        "internal/backlight": "%percentage%%", "internal/xbacklight": "%percentage%%",
    ]

    /// The state a module's text is taken from, and its format and label keys.
    static let shownState: [String: String] = [
        "internal/fs": "mounted", "internal/battery": "discharging", "internal/network": "connected",
        "internal/pulseaudio": "volume", "internal/alsa": "volume", "internal/volume": "volume",
    ]

    static let barOwn: Set<String> = ["internal/xworkspaces", "internal/i3", "internal/bspwm", "internal/xwindow", "internal/tray",
                                      "custom/menu", "internal/dwm", "internal/herbstluftwm"]

    static let suggestions: [String: String] = [
        "internal/mpd": "`command = \"mpc current\"` (or the `media` block through mpDris2)",
        "internal/xkeyboard": "`command = \"xkb-switch -W\"`, `persist = true` (the layout at each change)",
        "internal/github": "`command` running a script that asks GitHub's API",
        "custom/ipc": "`command` with `signal`: the hook's command, run again on `pkill -RTMIN+N sysstats-bar`",
    ]
}
