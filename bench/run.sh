#!/usr/bin/env bash
# Measures sysstatsd against i3status: CPU time, syscalls and opens per update,
# peak RSS. See docs/performance.md for what each figure means.
#
#   bench/run.sh [--quick] [--repeats N] [--updates N] [--sampler PATH] [--with-bar]
#
# Builds the release sampler if it is missing or older than the sources, makes
# synthetic /proc trees with 0, 100 and 1,000 processes (bench/make-proc-tree.py),
# then, REPEATS times, runs side by side at interval 1 s:
#   sysstatsd on each tree and on this machine's /proc, and i3status 2.14
#   (cpu_usage, memory, load, battery all), each twice: once untraced for CPU
#   time and VmHWM, once under strace for syscalls and opens.
# Prints a Markdown table (medians over the repeats) and writes it to
# bench/out/results.md (raw records in bench/out/results.jsonl). Work files go
# to $BENCH_TMPDIR, else a tmpfs ($XDG_RUNTIME_DIR or /dev/shm), else /tmp.
# Needs strace, python3 and i3status (installed with
# apt-get when missing and run as root). About 2 minutes; --quick about 30 s.
# --with-bar then runs bench/bar.sh (the renderer beside i3status; with
# --quick, its quick mode too), about 2 more minutes.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

repeats=5
updates=18
sampler=""
with_bar=0
quick=0
while (($# > 0)); do
    case $1 in
        --quick) repeats=2; updates=8; quick=1 ;;
        --with-bar) with_bar=1 ;;
        --repeats) repeats=$2; shift ;;
        --updates) updates=$2; shift ;;
        --sampler) sampler=$2; shift ;;
        -h | --help) sed -n '2,/^set/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

say() { printf 'bench: %s\n' "$*" >&2; }

# --- tools
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
need_bench_tools

# --- the release sampler
[[ -n $sampler ]] || sampler=$(release_binary sysstatsd)
[[ -x $sampler ]] || { say "no sampler at $sampler"; exit 1; }

measure=(python3 "$root/bench/measure.py")
# The work dir (on tmpfs, see bench/lib.sh) holds the trees, the traces and the sampler's runtime dirs.
make_work_dir sysstats-bench
results=$work/results.jsonl

say "making synthetic trees in $work"
sizes=(0 100 1000)
for n in "${sizes[@]}"; do
    python3 "$root/bench/make-proc-tree.py" "$work/tree-$n" --processes "$n" --batteries 1
done

write_i3status_conf "$work/i3status.conf"

warmup=3
trace_seconds=$((warmup + updates + 1))

# One untraced run (CPU, VmHWM) and one traced run (syscalls, opens) of a program.
# $1 label, $2 "sampler" or "i3status", $3 run number, then the program's arguments.
measure_pair() {
    local label=$1 kind=$2 run=$3
    shift 3
    local dir=$work/$label-$run
    mkdir -m 0700 "$dir"
    if [[ $kind == sampler ]]; then
        "${measure[@]}" cpu --label "$label" --out "$dir/cpu.jsonl" --log "$dir/cpu.log" --warmup "$warmup" --updates "$updates" \
            --snapshot-dir "$dir/run-cpu" -- "$sampler" --interval 1 --runtime-dir "$dir/run-cpu" --no-history "$@" &
        "${measure[@]}" trace --label "$label" --out "$dir/trace.jsonl" --log "$dir/trace.log" --seconds "$trace_seconds" \
            --trace-file "$dir/strace.txt" --strip "$dir/run-trace/" --strip "$work/" -- \
            "$sampler" --interval 1 --runtime-dir "$dir/run-trace" --no-history "$@" &
    else
        "${measure[@]}" cpu --label "$label" --out "$dir/cpu.jsonl" --log "$dir/cpu.log" --warmup "$warmup" --updates "$updates" \
            -- i3status -c "$work/i3status.conf" &
        "${measure[@]}" trace --label "$label" --out "$dir/trace.jsonl" --log "$dir/trace.log" --seconds "$trace_seconds" \
            --trace-file "$dir/strace.txt" -- i3status -c "$work/i3status.conf" &
    fi
}

real_processes=$(find /proc -maxdepth 1 -name '[0-9]*' | wc -l)
say "$repeats repeats of $updates updates at interval 1 s (about $((repeats * (trace_seconds + 2))) s)"
for ((r = 1; r <= repeats; r++)); do
    say "repeat $r/$repeats"
    for n in "${sizes[@]}"; do
        measure_pair "sysstatsd-$n" sampler "$r" --proc-root "$work/tree-$n/proc" --sys-root "$work/tree-$n/sys"
    done
    measure_pair sysstatsd-real sampler "$r"
    measure_pair i3status-real i3status "$r"
    failed=0
    for job in $(jobs -p); do wait "$job" || failed=1; done
    if ((failed != 0)); then
        say "a measurement failed in repeat $r; the programs said:"
        tail -n 5 "$work"/*-"$r"/*.log >&2 || true
        exit 1
    fi
    cat "$work"/*-"$r"/*.jsonl >>"$results"
done

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
machine="Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -sr), ${cpu_model:-unknown CPU} × $(nproc) \
($(getconf _NPROCESSORS_ONLN) online), a shared machine; $real_processes processes in /proc at the start; \
trees and runtime dirs on $(stat -f -c %T "$work"); \
sampler $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), i3status $(i3status --version | head -n 1 | cut -d' ' -f2); \
$repeats repeats × $updates updates at interval 1 s."

mkdir -p "$root/bench/out"
"${measure[@]}" table "$results" --machine "$machine" | tee "$root/bench/out/results.md"
cp "$results" "$root/bench/out/results.jsonl"
say "wrote bench/out/results.md"

if ((with_bar != 0)); then
    bar_args=()
    ((quick == 0)) || bar_args+=(--quick)
    "$root/bench/bar.sh" "${bar_args[@]}"
fi
