#!/usr/bin/env bash
# Run by install.sh (the tarball's and the checkout's) once the programs are in BINDIR:
# deals with the programs of a release that cannot follow its program file (0.1.0; every
# later release starts again from the new file by itself: docs/packaging.md, "Upgrades and
# removal") that still run from a file this install replaced.
#   - such a sampler is stopped: it hands its minute's history to the new writer as it ends,
#     and the bar that started it starts this release's within 30 s (a systemd unit's
#     sampler is restarted through systemctl instead);
#   - such a bar cannot be started again from here (i3bar and swaybar show a status command
#     that ended as an error, and start none again): one line names it and how to restart it.
# Only the processes this user may look at (all of them for root) are seen.
#
# usage: old-programs.sh BINDIR
set -uo pipefail

bindir=${1:?usage: old-programs.sh BINDIR}
say() { printf 'sysstats install: %s\n' "$*"; }

# The version the running image prints (it is still there, under /proc/PID/exe, when its
# file was replaced); empty when it prints none.
running_version() {
    local out
    out=$(timeout 5 "/proc/$1/exe" --version 2>/dev/null) || return 0
    [[ $out == *" "* ]] && printf '%s' "${out##* }"
}

# Whether PID is the sampler of the systemd user unit (its cgroup is the unit's).
in_unit() { grep -q '/sysstatsd\.service$' "/proc/$1/cgroup" 2>/dev/null; }

stopped=()
for link in /proc/[0-9]*/exe; do
    target=$(readlink "$link" 2>/dev/null) || continue
    pid=${link#/proc/} pid=${pid%/exe}
    case $target in
        "$bindir/sysstatsd (deleted)") program=sysstatsd ;;
        "$bindir/sysstats-bar (deleted)") program=sysstats-bar ;;
        "$bindir/sysstats-bar-x11 (deleted)") program=sysstats-bar-x11 ;;
        *) continue ;;
    esac
    # A child between its fork and its exec runs the same image: its parent is the one.
    parent=$(awk '/^PPid:/ {print $2}' "/proc/$pid/status" 2>/dev/null)
    [[ $(readlink "/proc/${parent:-0}/exe" 2>/dev/null) != "$target" ]] || continue
    version=$(running_version "$pid")
    [[ $version == 0.1.0 ]] || continue
    case $program in
        sysstatsd)
            if in_unit "$pid" && command -v systemctl > /dev/null 2>&1 &&
                systemctl --user try-restart sysstatsd.service > /dev/null 2>&1; then
                say "restarted the sysstatsd user unit, which ran 0.1.0 (pid $pid): 0.1.0 cannot follow an upgrade"
            elif kill -TERM "$pid" 2> /dev/null; then
                stopped+=("$pid")
                say "stopped sysstatsd 0.1.0 (pid $pid), which cannot follow an upgrade: its bar starts this release's within 30 s"
            fi
            ;;
        *)
            say "$program 0.1.0 (pid $pid) runs on from the replaced file and cannot follow an upgrade: restart your bar to run this release (i3: i3-msg restart; sway: swaymsg reload)"
            ;;
    esac
done

# Whether PID still runs (a zombie does not: its parent has yet to reap it).
runs() { local stat; stat=$(cat "/proc/$1/stat" 2>/dev/null) && [[ ${stat##*) } != Z* ]]; }
# A stopped sampler hands its last minute to the history writer as it ends: wait for that
# (a few seconds at most), so that the install ends with the old programs gone.
for pid in "${stopped[@]}"; do
    for ((i = 0; i < 100; i++)); do
        runs "$pid" || break
        sleep 0.1
    done
    ! runs "$pid" || say "sysstatsd 0.1.0 (pid $pid) has not ended yet"
done
exit 0
