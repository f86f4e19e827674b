// Generated from assets/config.toml (ExampleConfigTests compares the two): what
// `sysstats config example` prints. Edit the asset, then copy it here.

enum ExampleConfig {
    static let text = """
# sysstats configuration: $XDG_CONFIG_HOME/sysstats/config.toml (else ~/.config/sysstats/config.toml),
# or the file given with --config FILE. This file is the built-in defaults: the bar shows the
# same with it as without it. Every key is optional; docs/configuration.md describes each one.
# `sysstats config check` checks a file; `sysstats config example` prints this one.
# sysstats-bar reads it again on SIGHUP and whenever it changes (a broken file keeps the last
# good configuration and shows one error block); sysstatsd reads [sampler] at start.

[theme]
separator = " | "      # between blocks: text, dwm's root window name, waybar's text
na = "n/a"             # what a figure the sampler could not measure reads
warning = "#E5C07B"    # i3bar colour of a block past its warning threshold
critical = "#E06C75"   # ... past its critical threshold

[sampler]
interval = 1           # seconds between samples, 0.05 to 3600
history = true         # keep the minute history (`sysstats history`)
freed_threshold = 4    # MiB: a smaller rise of available memory is not "memory freed by an exit"
disks = ["/"]          # mount points whose space is measured, at most 8
sensors = []           # temperature sensors, "chip/label", "chip" or "label"; empty: the CPU package
interfaces = []        # interfaces measured although they look virtual (a VPN, a bridge)
# textfile_dir = "/var/lib/prometheus/node-exporter"   # also write sysstats.prom there for
# textfile_interval = 15                               # node_exporter (docs/fleet.md)

# The blocks, in bar order. `block` names the kind; the other keys are optional:
#   format, format_short   the full and short text with {placeholders} (docs/renderer.md);
#                          for time, strftime(3) formats
#   warning, critical      thresholds: whole percent (cpu, cores, mem, swap, disk; battery:
#                          at or below), degrees Celsius (temp)
#   interface (net, wifi), mount (disk), device (diskio), sensor (temp), timezone (time)

[[block]]
block = "cpu"
warning = 70
critical = 90

[[block]]
block = "mem"
warning = 80
critical = 90

[[block]]
block = "load"

[[block]]
block = "battery"
warning = 20
critical = 10

[[block]]
block = "exited"

[[block]]
block = "uptime"

# More blocks, for a bar that replaces i3status (remove the leading "# "):
#
# [[block]]
# block = "net"                 # the default route's interface
#
# [[block]]
# block = "wifi"
# format = "{ssid} {quality}%"
#
# [[block]]
# block = "disk"
# mount = "/home"
# warning = 85
#
# [[block]]
# block = "temp"
# critical = 95
#
# [[block]]
# block = "time"
# format = "%a %d %b %H:%M"
#
# [[block]]
# block = "time"
# timezone = "America/New_York"
# format = "NY %H:%M"
"""
}
