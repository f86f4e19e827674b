// Generated from assets/config.toml (ConfigCommandTests compares the two): what
// `sysstats config example` prints. Edit the asset, then copy it here.

enum ExampleConfig {
    static let text = """
# sysstats configuration: $XDG_CONFIG_HOME/sysstats/config.toml (else ~/.config/sysstats/config.toml),
# or the file given with --config FILE. This file is the built-in defaults: the bar shows the
# same with it as without it. Every key is optional; `man sysstats-config` describes each one.
# `sysstats config check` checks a file; `sysstats config example` prints this one.
# sysstats-bar reads it again on SIGHUP and whenever it changes (a broken file keeps the last
# good configuration and shows one error block); sysstatsd reads [sampler] again then too
# (it starts again in place with the new settings; a broken file keeps the running ones).

[theme]
separator = " | "      # between blocks: text, dwm's root window name, waybar's text
na = "n/a"             # what a figure the sampler could not measure reads
warning = "#E5C07B"    # i3bar colour of a block past its warning threshold
critical = "#E06C75"   # ... past its critical threshold

[sampler]
interval = 1           # seconds between samples, 0.05 to 3600
history = true         # keep the minute history (`sysstats history`)
freed_threshold = 4    # MiB: a smaller rise of available memory is not "memory freed by an exit"
disks = ["/"]          # mount points always measured, at most 8 (a disk block's mount is besides)
sensors = []           # temperature sensors, "chip/label", "chip" or "label"; empty: the CPU package
interfaces = []        # interfaces measured although they look virtual (a VPN, a bridge)
unit_history = false   # keep the busiest apps, services and containers each minute, bar or
                       # no bar (`sysstats history --units`); else only while a bar shows them
# textfile_dir = "/var/lib/prometheus/node-exporter"   # also write sysstats.prom there for
# textfile_interval = 15                               # node_exporter (docs/fleet.md)

# The blocks, in bar order. `block` names the kind; the other keys are optional:
#   format, format_short   the full and short text with {placeholders} (man sysstats-config);
#                          for time, strftime(3) formats
#   warning, critical      thresholds: whole percent (cpu, cores, mem, swap, disk; battery:
#                          at or below), degrees Celsius (temp, gpu), a load average (load)
#   interface (net, wifi), mount (disk), device (diskio), sensor (temp), card (gpu),
#                          timezone (time); the path of i3status's run_watch (pidfile),
#                          path_exists and read_file (path), with their title and
#                          format_down (read_file: format_bad)
#   hide_missing           true: hidden where this machine has none (no Wi-Fi, no sensor,
#                          no battery, no backlight, no sound, no such disk) instead of
#                          showing n/a
#   min_freed              exited: show only an exit that freed this many MiB or more
#   [[block.click]]        what a mouse button does on the block (example at the end)

[[block]]
block = "wifi"
hide_missing = true

[[block]]
block = "net"                   # the default route's interface
hide_missing = true

[[block]]
block = "disk"                  # "/" (mount = "/home": any path; the sampler is asked for it)
warning = 80
critical = 90
hide_missing = true

[[block]]
block = "load"

[[block]]
block = "mem"
warning = 80
critical = 90

[[block]]
block = "exited"
min_freed = 100

[[block]]
block = "cpu"
warning = 70
critical = 90

[[block]]
block = "temp"
hide_missing = true

[[block]]
block = "gpu"
hide_missing = true

[[block]]
block = "backlight"             # the first of /sys/class/backlight; the wheel changes it
hide_missing = true

[[block]]
block = "volume"                # the sound server's default output, else ALSA's Master;
hide_missing = true             # the wheel changes it, a left click mutes it

[[block]]
block = "battery"
warning = 20
critical = 10
hide_missing = true

[[block]]
block = "time"

# More (remove the leading "# "): the other blocks are uptime, swap, cores, diskio, freq,
# pressure, procs, top, self, fan, power, microphone, media, unit, run_watch, path_exists,
# read_file (sysstats-bar --help lists them with their placeholders).
#
# The volume block above with a format of its own: the wheel changes it by `step` percent
# (not past `max`), a left click mutes it, a right click opens a mixer.
# [[block]]
# block = "volume"
# format = "♪ {volume}%"
# format_muted = "♪ muted"
# step = 5
# [[block.click]]
# button = "right"
# cmd = "pavucontrol"
#
# [[block]]
# block = "microphone"
#
# The MPRIS player playing (Spotify, mpv, a browser), hidden while none runs: a left
# click plays or pauses, the middle button goes back a track, the right one skips.
# [[block]]
# block = "media"
# format = "♪ {artist} - {title}"
# format_paused = "♪ ({status}) {title}"
#
# [[block]]
# block = "time"
# timezone = "America/New_York"
# format = "NY %H:%M"
#
# i3status's run_watch: "DHCP: yes" while the pid file's process runs.
# [[block]]
# block = "run_watch"
# title = "DHCP"
# pidfile = "/var/run/dhclient*.pid"
#
# A click: the middle button on the cpu block opens a task manager (put it right after
# that block's [[block]] entry).
# [[block.click]]
# button = "middle"
# cmd = "gnome-system-monitor"
#
# A command block (i3blocks' keys): its output is the block's text.
# [[block]]
# block = "command"
# name = "volume"
# command = "amixer get Master | grep -o '[0-9]*%' | head -1"
# interval = 5
# signal = 10                   # pkill -RTMIN+10 sysstats-bar redraws it at once
#
# Wrapping i3status: its blocks show at this place while you move over block by block
# (its config needs output_format = "i3bar" in its general section).
# [[block]]
# block = "i3bar"
# name = "i3status"
# command = "i3status -c ~/.config/i3status/config"
"""
}
