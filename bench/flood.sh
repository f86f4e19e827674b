#!/usr/bin/env bash
# What a flood of command output costs the bar: a persistent command that prints
# changing lines as fast as it can, run as a command block of sysstats-bar
# (--output i3bar) and, side by side in the same run, as a persistent blocklet of
# i3blocks (the program whose contract command blocks follow). For each: the
# bar's CPU time per second (all its threads, from schedstat), the lines and
# bytes it wrote for i3bar per second, and its peak RSS. Each case runs SECONDS
# (default 10), ROUNDS times (default 3); the table gives the medians and the
# spread. See docs/performance.md, and docs/performance-history.md, "Command output floods".
#
#   bench/flood.sh [--seconds N] [--rounds N] [--bar PATH]
#
# Needs python3 and i3blocks (installed with apt-get when missing and run as
# root; without i3blocks its column is left out).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

seconds=10
rounds=3
bar=""
while (($# > 0)); do
    case $1 in
        --seconds) seconds=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --bar) bar=$2; shift ;;
        -h | --help) sed -n '2,/^set/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
        *) echo "flood.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

say() { printf 'bench-flood: %s\n' "$*" >&2; }

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
if ! command -v i3blocks >/dev/null && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    say "installing i3blocks with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends i3blocks >&2 || true
fi
[[ -n $bar ]] || bar=$(release_binary sysstats-bar)
make_work_dir sysstats-flood
chmod 700 "$work"

# The flood: a counter printed without pause (each line differs from the last).
flood='i=0; while :; do i=$((i+1)); echo "$i"; done'
cat > "$work/config.toml" <<EOF
[[block]]
block = "command"
name = "flood"
command = '$flood'
persist = true
EOF
cat > "$work/i3blocks.conf" <<EOF
[flood]
command=$flood
interval=persist
EOF

# Runs COMMAND... for $seconds in a session of its own, its stdout counted; prints
# "cpu_ms lines bytes hwm_kib" (the bar's own CPU time, not its children's).
run_case() {
    local out=$work/out pid cpu0 cpu1
    : > "$out"
    SYSSTATS_NO_START_SAMPLER=1 setsid "$@" > "$out" 2>/dev/null < /dev/null &
    pid=$!
    sleep 1   # started, its first lines out
    cpu0=$(cpu_ns "$pid")
    local lines0 bytes0
    lines0=$(wc -l < "$out"); bytes0=$(wc -c < "$out")
    sleep "$seconds"
    cpu1=$(cpu_ns "$pid")
    local lines1 bytes1 hwm
    lines1=$(wc -l < "$out"); bytes1=$(wc -c < "$out")
    hwm=$(awk '/VmHWM/ { print $2 }' /proc/"$pid"/status)
    kill -TERM -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "$(( (cpu1 - cpu0) / 1000000 )) $((lines1 - lines0)) $((bytes1 - bytes0)) $hwm"
}

results=$work/results
: > "$results"
for ((r = 1; r <= rounds; r++)); do
    say "round $r of $rounds ($seconds s each)"
    echo "sysstats-bar $(run_case "$bar" --output i3bar --runtime-dir "$work" --config "$work/config.toml")" >> "$results"
    if command -v i3blocks >/dev/null; then
        echo "i3blocks $(run_case i3blocks -c "$work/i3blocks.conf")" >> "$results"
    fi
done

python3 - "$results" "$seconds" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
seconds = float(sys.argv[2])
print(f"| bar | CPU ms/s (median, min–max) | lines/s | KiB/s written | peak RSS KiB |")
print("|---|---|---|---|---|")
for name in ("sysstats-bar", "i3blocks"):
    mine = [r for r in rows if r[0] == name]
    if not mine: continue
    cpu = [int(r[1]) / seconds for r in mine]
    lines = [int(r[2]) / seconds for r in mine]
    kib = [int(r[3]) / 1024 / seconds for r in mine]
    hwm = [int(r[4]) for r in mine]
    print(f"| {name} | {statistics.median(cpu):.1f} ({min(cpu):.1f}–{max(cpu):.1f}) | {statistics.median(lines):,.0f} "
          f"| {statistics.median(kib):,.1f} | {statistics.median(hwm):,} |")
EOF
