#!/usr/bin/env bash
# The sampler's system-wide part against the C floor of issue 15 (bench/floor.c: a C
# program that only preads /proc/stat, /proc/meminfo and /proc/loadavg from kept
# descriptors once a second), side by side at interval 1 s on this machine's real files:
#   floor       bench/floor.c
#   contract    bench/floor.c DIR: the floor, and a snapshot-sized file published in DIR as
#               the snapshot contract (docs/architecture.md) asks (a second file renamed over the first),
#               the sampler's way (pwrite into the spare, renameat2 RENAME_EXCHANGE)
#   all parts   sysstatsd --proc-root DIR, where DIR holds symbolic links to the real
#               /proc/stat, meminfo, loadavg, uptime, pressure, diskstats and net, and no
#               process: every system-wide file the sampler reads, each sample (no renderer
#               says what it shows)
#   bar's parts the same, with a renderer's wants file saying cpu, mem, load, battery (the
#               blocks of bench/footprint.sh and of i3status's config there): network, disks,
#               disk I/O, temperatures and frequency every 10 s
# CPU ms/s from /proc/PID/task/*/schedstat (all threads) over S seconds after a warm-up of W
# seconds (default 62: the sampler's histories hold 60 points, and until they are full each
# snapshot is longer than the last, so each sample also sets the spare's length); medians over
# rounds.
# The four wake a quarter of a second apart so that each wakes alone, as the sampler does on
# a desktop (two programs woken together share warm caches: the second measured up to a third
# less), and which quarter each has turns from round to round.
#
#   bench/floor.sh [--rounds R] [--seconds S] [--warmup W] [--sampler PATH]
#
# Prints a Markdown table and writes it to bench/out/floor.md. About 4 minutes 30 s by default.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
rounds=3 seconds=20 warmup=62 sampler=""
while (($# > 0)); do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --warmup) warmup=$2; shift ;;
        --sampler) sampler=$2; shift ;;
        -h | --help) sed -n '2,/^set/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
        *) echo "floor.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
say() { printf 'bench: %s\n' "$*" >&2; }
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
command -v cc >/dev/null || { say "needs a C compiler (cc)"; exit 1; }
[[ -n $sampler ]] || sampler=$(release_binary sysstatsd)
make_work_dir sysstats-floor
cc -O2 -o "$work/floor" "$root/bench/floor.c"
make_floor_tree "$work"
# The bar's blocks cpu, mem, load, battery: SnapshotSections cpu 2 + memory 4 + load 8 + battery 32.
bar_mask=46

results=$work/results
: >"$results"
start() {   # start NAME: one of the four programs; its pid in pid[NAME]
    local common=(--interval 1 --no-history --proc-root "$work/proc" --sys-root /sys --disk /)
    case $1 in
        floor) "$work/floor" & ;;
        contract) "$work/floor" "$work/contract-$r" & ;;
        all) "$sampler" "${common[@]}" --runtime-dir "$work/all-$r" 2>/dev/null & ;;
        bar) "$sampler" "${common[@]}" --runtime-dir "$work/bar-$r" 2>/dev/null & ;;
    esac
    pid[$1]=$!
}
names=(floor contract all bar)
declare -A pid
for r in $(seq "$rounds"); do
    say "round $r/$rounds"
    mkdir -m 0700 "$work/contract-$r" "$work/all-$r" "$work/bar-$r" "$work/bar-$r/wants"
    # Each wakes at its own quarter of the second, and which quarter turns from round to
    # round: the one woken first after something else on the machine (a timer tick, the last
    # round's exits) would otherwise always be the same program. The samplers take their
    # first sample 0.2 s after they start, so they start 0.2 s before their quarter.
    schedule=$(for i in 0 1 2 3; do
        name=${names[$(( (i + r) % 4 ))]}
        delay=0; [[ $name == all || $name == bar ]] && delay=200
        echo "$(( 200 + i * 250 - delay )) $name"
    done | sort -n)
    at=0
    while read -r offset name; do
        sleep "$(printf '0.%03d' $(( offset - at )))"
        at=$offset
        start "$name"
        # A living pid for the bar's wants file: the floor program's, once it runs.
        [[ $name == floor ]] && echo "$bar_mask" >"$work/bar-$r/wants/${pid[floor]}"
    done <<<"$schedule"
    sleep "$warmup"
    before=()
    for name in "${names[@]}"; do before+=("$(cpu_ns "${pid[$name]}")"); done
    sleep "$seconds"
    line=""
    for i in 0 1 2 3; do line+=" $(( ($(cpu_ns "${pid[${names[$i]}]}") - ${before[$i]}) / seconds ))"; done
    echo "$line" >>"$results"
    kill "${pid[@]}"; wait 2>/dev/null || true
done
mkdir -p "$root/bench/out"
python3 - "$results" <<'PY' | tee "$root/bench/out/floor.md"
import statistics, sys
rows = [[int(x) for x in line.split()] for line in open(sys.argv[1]) if line.strip()]
med = [statistics.median(r[i] for r in rows) / 1e6 for i in range(4)]
# The floor itself moves by a fifth between runs (0.099-0.120 ms/s on one day): each round's
# programs ran side by side, so the ratio within a round is the steadier figure.
ratios = [[r[i] / r[0] for r in rows] for i in range(4)]
print("| program | CPU ms/s (median of %d) | vs the C floor | median of the rounds' ratios (each round) |" % len(rows))
print("|---|---:|---:|---|")
for i, (name, v) in enumerate(zip(["C floor (stat, meminfo, loadavg)", "C floor + the snapshot contract's publication", "sysstatsd system-wide, all parts", "sysstatsd system-wide, the bar's parts"], med)):
    each = ", ".join(f"{x:.2f}" for x in ratios[i])
    print(f"| {name} | {v:.3f} | {v / med[0]:.2f}× | {statistics.median(ratios[i]):.2f}× ({each}) |")
PY
say "wrote bench/out/floor.md"
