#!/usr/bin/env bash
# Measures the renderer, sysstats-bar, beside i3status: latency from the
# sampler's rename to the renderer's output (median, p99), CPU time and syscalls
# per update, syscalls while idle, peak RSS. The latest figures: docs/performance.md;
# the first run: docs/performance-history.md, "The renderer, benchmarked beside i3status".
#
#   bench/bar.sh [--quick] [--repeats N] [--updates N] [--bar PATH]
#
# Builds the release sysstats-bar if it is missing or older than the sources.
# Then, REPEATS times, for --output text and --output i3bar (blocks
# cpu,mem,load,battery, fed the laptop golden snapshot):
#   - untraced: a driver (bench/measure-bar.py) renames N snapshots into a
#     tmpfs runtime dir, one every 5 ms, each after the previous line came out,
#     and times rename → line (CLOCK_MONOTONIC); CPU time over the N updates,
#     VmHWM at the end;
#   - the same at one update a second (18 updates, in the background);
#   - under strace: 300 updates, then 8 s without a snapshot (the staleness
#     timer fires once, at 5 s): syscalls per update and per idle second;
# and side by side i3status (cpu_usage, memory, load, battery all; interval
# 1 s), measured by bench/measure.py as bench/run.sh does: CPU and VmHWM
# untraced over 18 updates, syscalls per update under strace.
# Prints a Markdown table (medians over the repeats) and writes it to
# bench/out/bar-results.md (raw records in bench/out/bar-results.jsonl).
# Needs strace, python3 and i3status (installed with apt-get when missing and
# run as root). About 1.5 minutes; --quick (1 repeat, 200 updates) about 20 s.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

repeats=3
updates=1000
trace_updates=300
idle=8
i3_updates=18
bar=""
while (($# > 0)); do
    case $1 in
        --quick) repeats=1; updates=200; trace_updates=100; idle=6; i3_updates=8 ;;
        --repeats) repeats=$2; shift ;;
        --updates) updates=$2; shift ;;
        --bar) bar=$2; shift ;;
        -h | --help) sed -n '2,/^set/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
        *) echo "bar.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

say() { printf 'bench-bar: %s\n' "$*" >&2; }

# --- tools
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
need_bench_tools

# --- the release renderer
[[ -n $bar ]] || bar=$(release_binary sysstats-bar)
[[ -x $bar ]] || { say "no renderer at $bar"; exit 1; }

measure=(python3 "$root/bench/measure.py")
measure_bar=(python3 "$root/bench/measure-bar.py")
snapshot=$root/Tests/BarCoreTests/Golden/laptop.snapshot
blocks=cpu,mem,load,battery

# The runtime dirs live on tmpfs, as $XDG_RUNTIME_DIR does in a real session (bench/lib.sh).
make_work_dir sysstats-bench-bar
results=$work/results.jsonl

# The same i3status configuration as bench/run.sh (bench/lib.sh).
write_i3status_conf "$work/i3status.conf"
warmup=3
trace_seconds=$((warmup + i3_updates + 1))

say "$repeats repeats: $updates timed updates and $trace_updates traced ones per output, i3status side by side"
for ((r = 1; r <= repeats; r++)); do
    say "repeat $r/$repeats"
    dir=$work/run-$r
    mkdir -m 0700 "$dir"
    # i3status in the background (about $trace_seconds s), the renderer meanwhile.
    "${measure[@]}" cpu --label i3status-real --out "$dir/i3-cpu.jsonl" --log "$dir/i3-cpu.log" \
        --warmup "$warmup" --updates "$i3_updates" -- i3status -c "$work/i3status.conf" &
    "${measure[@]}" trace --label i3status-real --out "$dir/i3-trace.jsonl" --log "$dir/i3-trace.log" \
        --seconds "$trace_seconds" --trace-file "$dir/i3-strace.txt" -- i3status -c "$work/i3status.conf" &
    # The renderer as deployed, one update a second, also in the background.
    "${measure_bar[@]}" latency --label bar-text-1s --bar "$bar" --output text --blocks "$blocks" \
        --snapshot "$snapshot" --dir "$dir/latency-1s" --out "$dir/bar-1s.jsonl" --log "$dir/latency-1s.log" \
        --updates "$i3_updates" --warmup "$warmup" --period 1 &
    for output in text i3bar; do
        "${measure_bar[@]}" latency --bar "$bar" --output "$output" --blocks "$blocks" --snapshot "$snapshot" \
            --dir "$dir/latency-$output" --out "$dir/bar.jsonl" --log "$dir/latency-$output.log" --updates "$updates"
        "${measure_bar[@]}" trace --bar "$bar" --output "$output" --blocks "$blocks" --snapshot "$snapshot" \
            --dir "$dir/trace-$output" --out "$dir/bar.jsonl" --log "$dir/trace-$output.log" \
            --updates "$trace_updates" --idle "$idle"
    done
    failed=0
    for job in $(jobs -p); do wait "$job" || failed=1; done
    if ((failed != 0)); then
        say "a background measurement failed in repeat $r; the programs said:"
        tail -n 5 "$dir"/*.log >&2 || true
        exit 1
    fi
    cat "$dir"/*.jsonl >>"$results"
done

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
machine="Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -sr), ${cpu_model:-unknown CPU} × $(nproc), \
a shared machine; runtime dirs on $(stat -f -c %T "$work"); \
sysstats-bar $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?') (release), \
i3status $(i3status --version | head -n 1 | cut -d' ' -f2); \
$repeats repeats × $updates timed and $trace_updates traced updates per output, one every 5 ms, idle ${idle} s; \
i3status $i3_updates updates at interval 1 s."

mkdir -p "$root/bench/out"
"${measure_bar[@]}" table "$results" --machine "$machine" | tee "$root/bench/out/bar-results.md"
cp "$results" "$root/bench/out/bar-results.jsonl"
say "wrote bench/out/bar-results.md"
