// sysstats-bar --help: the usage text, then each block's placeholders from its descriptor.

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif
import CClock

/// The names `--blocks` takes, from the registry: `cpu, mem, …, time`.
func appendBlockNames(into w: inout ByteWriter) {
    var first = true
    for kind in BlockKind.allCases where kind != .command {
        if !first { w.append(", ") }
        w.append(kind.name)
        first = false
    }
}

/// `--help`: the usage text, then every block's placeholders from the blocks' own tables.
public func helpText(into w: inout ByteWriter) {
    w.append(usageText)
    w.append("default blocks: ")
    for (i, kind) in BlockKind.defaults.enumerated() {
        if i > 0 { w.append(UInt8(ascii: ",")) }
        w.append(kind.name)
    }
    w.append("\nplaceholders for --format, per block (man sysstats-config says what each shows):\n")
    for block in BlockKind.allCases {
        w.append("  ")
        w.append(block.name)
        var pad = 9 - block.name.utf8CodeUnitCount
        while pad > 0 { w.append(UInt8(ascii: " ")); pad -= 1 }
        if let note = block.descriptor.helpNote { w.append(note) }
        for (i, spec) in block.placeholders.enumerated() {
            if i > 0 { w.append(UInt8(ascii: " ")) }
            w.append(UInt8(ascii: "{")); w.append(spec.name); w.append(UInt8(ascii: "}"))
        }
        w.append(UInt8(ascii: "\n"))
    }
}

/// The usage text for `--help`.
public let usageText: StaticString = """
    usage: sysstats-bar [--output text|tmux|lemonbar|polybar|i3bar|waybar|x11-root|x11-window|png:FILE|genmon]
                        [--runtime-dir DIR] [--blocks LIST] [--format BLOCK=TEXT]... [--once]
                        [--size WxH] [--position X,Y] [--window-type TYPE] [--image FILE]
                        [--click 1|3] [--config FILE]
                        [--no-start-sampler] [--sampler-option ARG]... [--help] [--version]
      --output       bar protocol (default text); tmux, lemonbar and polybar are text lines with
                     those bars' markup characters escaped; x11-root sets the root window name (dwm);
                     the panel image: x11-window (a window of its own), png:FILE (rewritten
                     atomically per update), genmon (one shot for xfce4-genmon-plugin)
      --runtime-dir  where sysstatsd writes its snapshot
                     (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID)
      --blocks       comma-separated names of the blocks listed at the end (default below);
                     some take an argument:
                     time:ZONE (time,time:America/New_York), net:IFACE, wifi:IFACE,
                     disk:MOUNT, diskio:DISK, temp:SENSOR (chip/label, label or chip)
      --format       BLOCK=TEXT, once per block: TEXT replaces the block's built-in
                     text, {name} placeholders filled in, {{ and }} for braces;
                     e.g. --format 'cpu=CPU {busy}% {spark}' (placeholders listed below)
      --once         print the current snapshot once and exit (status 1 when none)
      --size         panel image size, 64x24 to 1024x256 (default 180x56)
      --position     x11-window position X,Y (default 0,0; negative: from the right/bottom)
      --window-type  x11-window: override (default: no window manager moves or sizes it),
                     dock, desktop (below other windows) or normal (managed, floating
                     under i3), like conky's own_window_type
      --image        genmon: where to write the PNG (default RUNTIME-DIR/panel.png)
      --click        genmon: apply a click to the panel (1 next graph form, 3 previous),
                     kept in RUNTIME-DIR/panel-form, and exit (genmon's <click> runs this)
      --config       the config file (default $XDG_CONFIG_HOME/sysstats/config.toml, else
                     ~/.config/sysstats/config.toml; man sysstats-config); the flags win over it
      --no-start-sampler  do not start sysstatsd when none runs for the runtime dir (by
                     default the bar starts it, detached, logging to RUNTIME-DIR/sysstatsd.log;
                     also SYSSTATS_NO_START_SAMPLER=1)
      --sampler-option  an argument for the sysstatsd the bar starts, e.g.
                     --sampler-option=--interval=2 (repeatable)
      --version      print the version and exit

    """
