#!/usr/bin/env bash
# Two builds of the sampler side by side on bench/floor.sh's tree (links to this machine's
# /proc/stat, meminfo, loadavg, uptime, pressure, diskstats and net; no process), each with a
# renderer's wants file saying cpu, mem, load, battery: four samplers at interval 1 s, in the
# order A B B A (B A A B in alternate rounds), each waking in its own quarter of the second.
# CPU ms/s of every thread from /proc/PID/task/*/schedstat over S seconds after a warm-up of W
# (default 62: until the histories are full); prints each build's median and the median of
# the rounds' B/A ratios. What each pass of docs/performance-history.md measured its steps with.
#
#   bench/side-by-side.sh OLD_SYSSTATSD NEW_SYSSTATSD [--rounds R] [--seconds S] [--warmup W]
#
# About (W + S + 2) × R seconds: 14 minutes by default.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
(($# >= 2)) || { sed -n '2,/^set/{/^#/s/^# \{0,1\}//p}' "$0"; exit 2; }
a=$(realpath "$1") b=$(realpath "$2"); shift 2
rounds=10 seconds=20 warmup=62
while (($# > 0)); do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --warmup) warmup=$2; shift ;;
        *) echo "side-by-side.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done
say() { printf 'bench: %s\n' "$*" >&2; }
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
make_work_dir sysstats-side-by-side
make_floor_tree "$work"
sleep 100000 &
keeper=$!   # a living pid for the wants files
results=$work/results
: >"$results"
for r in $(seq "$rounds"); do
    say "round $r/$rounds"
    if ((r % 2)); then order=(a b b a); else order=(b a a b); fi
    pids=()
    for i in 0 1 2 3; do
        dir=$work/run-$r-$i
        mkdir -m 0700 "$dir" "$dir/wants"
        echo 46 >"$dir/wants/$keeper"
        binary=$a; [[ ${order[$i]} == b ]] && binary=$b
        "$binary" --interval 1 --no-history --proc-root "$work/proc" --sys-root /sys --disk / --runtime-dir "$dir" 2>/dev/null &
        pids+=($!)
        sleep 0.25
    done
    sleep "$warmup"
    before=()
    for p in "${pids[@]}"; do before+=("$(cpu_ns "$p")"); done
    sleep "$seconds"
    sums=(0 0)
    for i in 0 1 2 3; do
        spent=$(( $(cpu_ns "${pids[$i]}") - ${before[$i]} ))
        if [[ ${order[$i]} == a ]]; then sums[0]=$((sums[0] + spent)); else sums[1]=$((sums[1] + spent)); fi
    done
    echo "$((sums[0] / 2 / seconds)) $((sums[1] / 2 / seconds))" >>"$results"
    kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
done
kill "$keeper" 2>/dev/null || true
python3 - "$results" "$a" "$b" <<'PY'
import statistics, sys
rows = [[int(x) for x in line.split()] for line in open(sys.argv[1]) if line.strip()]
a, b = (statistics.median(r[i] for r in rows) / 1e3 for i in (0, 1))
ratios = [r[1] / r[0] for r in rows]
print(f"A {sys.argv[2]}: {a:.1f} µs/s")
print(f"B {sys.argv[3]}: {b:.1f} µs/s")
print(f"B/A: {statistics.median(ratios):.3f} (rounds {', '.join(f'{x:.2f}' for x in ratios)})")
PY
