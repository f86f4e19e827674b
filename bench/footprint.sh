#!/usr/bin/env bash
# The whole status-bar footprint beside i3status, in one run on this machine's
# real /proc: sysstatsd + one sysstats-bar --output i3bar against i3status
# (cpu_usage, memory, load, battery all, tztime), at interval 1 s; CPU ms per
# second, syscalls per second, wakeups per second and peak RSS per group, with
# the machine's own processes and with 1,000 extra idle ones (--extra), each also with
# F short-lived processes started a second beside (--forks, bench/forker.py). slstatus is not
# packaged in Debian: with --slstatus PATH a build of your own (cpu_perc, ram_used,
# load_avg, datetime) runs beside them as a third group. With --cgroups N (root, on a host
# with a cgroup v2 tree), N idle units (empty scopes in a slice of their own) are made for
# the run and removed after it: with --blocks ...,top:units, what the units part costs on a
# host of that many units. The latest figures are in
# docs/performance.md; the passes in docs/performance-history.md, "Footprint beside
# i3status"; the method in bench/footprint.py.
#
#   bench/footprint.sh [--rounds R] [--seconds S] [--trace-seconds T] [--warmup W] [--extra N,...] [--forks F,...]
#                      [--sampler PATH] [--bar PATH] [--slstatus PATH] [--blocks LIST] [--cgroups N]
#
# Defaults: 3 rounds × (62 s warm-up + 20 s untraced + 6 s under strace) per load,
# loads 0 and 1000: about 9 minutes. Prints a Markdown table (medians over the rounds) and
# writes it to bench/out/footprint.md (raw records in bench/out/footprint.jsonl).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
say() { printf 'bench: %s\n' "$*" >&2; }

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
need_bench_tools

sampler="" bar="" pass=() cgroups=0
while (($# > 0)); do
    case $1 in
        --sampler) sampler=$2; shift ;;
        --bar) bar=$2; shift ;;
        --cgroups) cgroups=$2; shift ;;
        --rounds | --seconds | --trace-seconds | --warmup | --extra | --forks | --slstatus | --blocks) pass+=("$1" "$2"); shift ;;
        -h | --help) sed -n '2,/^set/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
        *) echo "footprint.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $sampler ]] || sampler=$(release_binary sysstatsd)
[[ -n $bar ]] || bar=$(release_binary sysstats-bar)

make_work_dir sysstats-footprint
if ((cgroups > 0)); then
    tree=/sys/fs/cgroup
    [[ -f $tree/cgroup.controllers ]] || tree=/sys/fs/cgroup/unified
    [[ -f $tree/cgroup.controllers ]] || { echo "footprint.sh: --cgroups needs a cgroup v2 tree (/sys/fs/cgroup or its unified folder)" >&2; exit 2; }
    units_slice=$tree/sysstats-footprint-$$.slice
    mkdir "$units_slice" || { echo "footprint.sh: --cgroups: cannot make $units_slice (root?)" >&2; exit 2; }
    remove_units() { for d in "$units_slice"/*.scope; do rmdir "$d" 2>/dev/null || true; done; rmdir "$units_slice" 2>/dev/null || true; remove_work_dir; }
    trap remove_units EXIT
    for ((i = 0; i < cgroups; i++)); do mkdir "$units_slice/idle-$i.scope"; done
    say "$cgroups idle units in $units_slice"
fi
mkdir -p "$root/bench/out"
python3 "$root/bench/footprint.py" --sampler "$sampler" --bar "$bar" --work "$work" \
    --out "$root/bench/out/footprint.jsonl" "${pass[@]}" | tee "$root/bench/out/footprint.md"
say "wrote bench/out/footprint.md"
