// sysstats-bar --help: the usage text, then each block's placeholders from its descriptor.

import SnapshotCodec
import CClock
import CommandOptions

/// The names `--blocks` takes, from the registry: `cpu, mem, …, time`.
func appendBlockNames(into w: inout ByteWriter) {
    var first = true
    for kind in BlockKind.allCases where kind.isNamedInBlocksOption {
        if !first { w.append(", ") }
        w.append(kind.name)
        first = false
    }
}

/// `--help`: the usage, each option, then every block's placeholders from the blocks' own tables.
public func helpText(into w: inout ByteWriter) {
    var usage: [UInt8] = []
    BarOptions.table.writeUsage(into: &usage)
    usage.append(0x0A)
    BarOptions.table.writeOptions(into: &usage, column: 19)
    w.append(bytes: usage)
    w.append("\ndefault blocks: ")
    for (i, kind) in BlockKind.defaults.enumerated() {
        if i > 0 { w.append(UInt8(ascii: ",")) }
        w.append(kind.name)
    }
    w.append("\nplaceholders for --format, per block (man sysstats-config says what each shows):\n")
    for block in BlockKind.allCases {
        w.append("  ")
        w.append(block.name)
        var pad = max(1, 9 - block.name.utf8CodeUnitCount)
        while pad > 0 { w.append(UInt8(ascii: " ")); pad -= 1 }
        if let note = block.descriptor.helpNote { w.append(note) }
        for (i, spec) in block.placeholders.enumerated() {
            if i > 0 { w.append(UInt8(ascii: " ")) }
            w.append(UInt8(ascii: "{")); w.append(spec.name); w.append(UInt8(ascii: "}"))
        }
        w.append(UInt8(ascii: "\n"))
    }
}

extension BarOptions {
    /// The command line: parsed by ``parse(_:)``, written out by `--help` and the manual's
    /// SYNOPSIS and OPTIONS (assets/man/sysstats-bar.1, checked by a test).
    public static let table = CommandOptions(program: "sysstats-bar", [
        CommandOption(Flag.output, "--output", value: "text|tmux|lemonbar|polybar|i3bar|waybar|x11-root|x11-window|wayland-panel|panel|png:FILE|genmon", """
            bar protocol (default text); tmux, lemonbar and polybar are text lines with
            those bars' markup characters escaped; x11-root sets the root window name (dwm);
            the panel image: x11-window (a window of its own), wayland-panel (a
            layer-shell surface: sway, Hyprland, river, KDE), panel (wayland-panel
            where WAYLAND_DISPLAY is set, else x11-window), png:FILE (rewritten
            atomically per update), genmon (one shot for xfce4-genmon-plugin)
            """,
                      manual: #"""
            The bar protocol (default text). tmux, lemonbar and polybar print the text line
            with those bars' markup characters escaped (a process name cannot become a tmux
            format or a lemonbar/polybar command); x11\-root sets the root window name (dwm);
            x11\-window shows the panel picture in a window of its own; wayland\-panel shows
            it in a layer\-shell surface of a Wayland compositor (sway, Hyprland, river, KDE
            Plasma; not GNOME, which has no layer shell); panel is wayland\-panel where
            WAYLAND_DISPLAY is set, else x11\-window; png:FILE rewrites FILE
            atomically per update; genmon is one shot for xfce4\-genmon\-plugin.
            """#),
        CommandOption(Flag.runtimeDir, "--runtime-dir", value: "DIR", """
            where sysstatsd writes its snapshot
            (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID)
            """,
                      manual: #"""
            Where sysstatsd writes its snapshot (default $XDG_RUNTIME_DIR/sysstats, else
            /tmp/sysstats\-$UID).
            """#),
        CommandOption(Flag.blocks, "--blocks", value: "LIST", """
            comma-separated names of the blocks listed at the end (default below);
            some take an argument:
            time:ZONE (time,time:America/New_York), net:IFACE, wifi:IFACE,
            disk:MOUNT, diskio:DISK, temp:SENSOR (chip/label, label or chip),
            gpu:CARD (index, driver or name), top:gpu, top:units, top:units-mem,
            fan:SENSOR, power:SOURCE, backlight:DEVICE, volume:DEVICE,
            microphone:DEVICE, media:PLAYER, unit:NAME;
            i3status's run_watch:PIDFILE, path_exists:PATH, read_file:PATH need one
            """,
                      manual: #"""
            Comma-separated blocks: cpu, mem, load, uptime, battery, procs, exited, self,
            top, swap, cores, net, wifi, disk, diskio, temp, freq, pressure, gpu, fan, power,
            backlight, volume, microphone, media, unit, run_watch, path_exists, read_file, time. Default, like
            i3status's default bar: wifi,net,disk,load,mem,exited,cpu,temp,gpu,backlight,volume,battery,time, the
            blocks of hardware the machine lacks hidden and exited shown only for an exit that
            freed 100 MiB or more. Some take an argument: time:ZONE,
            net:IFACE, wifi:IFACE, disk:MOUNT, diskio:DISK, temp:SENSOR, gpu:CARD, top:gpu,
            top:units, top:units-mem, fan:SENSOR, power:SOURCE, backlight:DEVICE, volume:DEVICE,
            microphone:DEVICE, media:PLAYER, unit:NAME; i3status's small modules need one, a
            path: run_watch:PIDFILE, path_exists:PATH, read_file:PATH.
            """#),
        CommandOption(Flag.format, "--format", value: "BLOCK=TEXT", repeatable: true, """
            once per block: TEXT replaces the block's built-in text, {name}
            placeholders filled in, {{ and }} for braces;
            e.g. --format 'cpu=CPU {busy}% {spark}' (placeholders listed below)
            """,
                      manual: #"""
            Once per block: TEXT replaces the block's built-in text, {name} placeholders
            filled in, {{ and }} for braces (\-\-help lists each block's placeholders,
            .BR sysstats\-config (5)
            what they show). A block's own format in the config file wins over it.
            """#),
        CommandOption(Flag.once, "--once", "print the current snapshot once and exit (status 1 when none)",
                      manual: #"""
            Print the current snapshot once and exit (status 1 when there is none or it is stale).
            """#),
        CommandOption(Flag.size, "--size", value: "WxH", "panel image size, 64x24 to 1024x256 (default 180x56)",
                      manual: #"""
            The panel picture's size for x11\-window, wayland\-panel, png:FILE and genmon,
            64x24 to 1024x256 (default 180x56).
            """#),
        CommandOption(Flag.position, "--position", value: "X,Y",
                      "x11-window position (default 0,0; negative: from the right/bottom)",
                      manual: #"""
            Where x11\-window puts its window (default 0,0; negative: from the right or bottom edge).
            """#),
        CommandOption(Flag.windowType, "--window-type", value: "TYPE", """
            x11-window: override (default: no window manager moves or sizes it),
            dock, desktop (below other windows) or normal (managed, floating
            under i3), like conky's own_window_type
            """,
                      manual: #"""
            How x11\-window's window meets a window manager, like conky's own_window_type:
            override (default; override\-redirect, it keeps its size and place under any
            window manager, i3 included), dock, desktop (below other windows) or normal
            (managed; floating under i3).
            """#),
        CommandOption(Flag.anchor, "--anchor", value: "EDGE", """
            wayland-panel: top, bottom (centred along the edge), top-left,
            top-right (default), bottom-left or bottom-right
            """,
                      manual: #"""
            Where wayland\-panel's surface sits: top or bottom (centred along that edge),
            top\-left, top\-right (default), bottom\-left or bottom\-right.
            """#),
        CommandOption(Flag.margin, "--margin", value: "PIXELS", "wayland-panel: space from the anchored edges (default 0)",
                      manual: #"""
            wayland\-panel: the space between the surface and the edges it is anchored to (default 0).
            """#),
        CommandOption(Flag.layer, "--layer", value: "LAYER", """
            wayland-panel: background, bottom (below windows), top (default: above
            windows, below full-screen ones) or overlay
            """,
                      manual: #"""
            wayland\-panel's layer: background, bottom (below windows), top (default; above
            windows, below full\-screen ones) or overlay (above everything).
            """#),
        CommandOption(Flag.exclusive, "--exclusive", """
            wayland-panel at the top or bottom: keep windows off its strip of the edge
            """,
                      manual: #"""
            wayland\-panel anchored to the top or bottom edge: the compositor keeps windows
            off the panel's strip of that edge, as it does for a bar.
            """#),
        CommandOption(Flag.waylandOutput, "--wayland-output", value: "NAME", """
            wayland-panel: the output to show it on (e.g. HDMI-A-1; default: the
            compositor's choice); it comes back when that output does
            """,
                      manual: #"""
            The output wayland\-panel shows on, by its name (e.g. HDMI\-A\-1; swaymsg \-t
            get_outputs lists them; default: the compositor's choice, the focused output).
            When the output goes away, the panel comes back with it.
            """#),
        CommandOption(Flag.image, "--image", value: "FILE", "genmon: where to write the PNG (default RUNTIME-DIR/panel.png)",
                      manual: #"""
            genmon: where to write the PNG (default RUNTIME\-DIR/panel.png).
            """#),
        CommandOption(Flag.click, "--click", value: "1|3", """
            genmon: apply a click to the panel (1 next graph form, 3 previous),
            kept in RUNTIME-DIR/panel-form, and exit (genmon's <click> runs this)
            """,
                      manual: #"""
            genmon: apply a click to the panel (1 next graph form, 3 previous) and exit.
            """#),
        CommandOption(Flag.config, "--config", value: "FILE", """
            the config file (default $XDG_CONFIG_HOME/sysstats/config.toml, else
            ~/.config/sysstats/config.toml; man sysstats-config); the flags win over it
            """,
                      manual: #"""
            The config file (default $XDG_CONFIG_HOME/sysstats/config.toml, else
            ~/.config/sysstats/config.toml;
            .BR sysstats\-config (5)).
            The flags win over it:
            .B \-\-blocks
            replaces its block list, and the bar says so on stderr.
            """#),
        CommandOption(Flag.noStartSampler, "--no-start-sampler", """
            do not start sysstatsd when none runs for the runtime dir (by
            default the bar starts it, detached, logging to RUNTIME-DIR/sysstatsd.log;
            also SYSSTATS_NO_START_SAMPLER=1)
            """,
                      manual: #"""
            Do not start
            .BR sysstatsd (1)
            when none runs for the runtime directory. By default the bar starts it, fully
            detached (its own session), with its messages appended to
            RUNTIME\-DIR/sysstatsd.log; SYSSTATS_NO_START_SAMPLER=1 in the environment does
            the same as this option.
            """#),
        CommandOption(Flag.samplerOption, "--sampler-option", value: "ARG", repeatable: true, """
            an argument for the sysstatsd the bar starts, e.g.
            --sampler-option=--interval=2 (repeatable)
            """,
                      manual: #"""
            An argument for the sysstatsd the bar starts, e.g.
            \-\-sampler\-option=\-\-interval=2; repeatable.
            """#),
        CommandOption(Flag.help, "--help", alias: "-h", inSynopsis: false, "show this help",
                      manual: #"""
            Show the usage and every block's placeholders, and exit.
            """#),
        CommandOption(Flag.version, "--version", inSynopsis: false, "print the version and exit",
                      manual: #"""
            Show the version and exit.
            """#),
    ])
}
