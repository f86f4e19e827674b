#!/usr/bin/env bash
# What writing sysstats.prom (--textfile-dir, docs/fleet.md) costs, against one sample's
# system-wide part: CPU time per update of the release sysstatsd on the 0-process
# synthetic tree (bench/make-proc-tree.py: the system-wide part alone), side by side at
# interval 1 s, three ways:
#   plain       no --textfile-dir
#   tmpfs       --textfile-dir on the work dir (tmpfs) with --textfile-interval 1
#   disk        --textfile-dir on $TEXTFILE_DISK_DIR (default /var/tmp, a disk file system,
#               as node_exporter's /var/lib/prometheus/node-exporter usually is), interval 1
# With --textfile-interval 1 every update writes the file, so (tmpfs − plain) and
# (disk − plain) are one write's cost (formatting included). Medians over the repeats.
#
#   bench/textfile.sh [--repeats N] [--updates N] [--sampler PATH]
#
# Prints a Markdown table and writes it to bench/out/textfile.md. About 2 minutes.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

repeats=5
updates=20
sampler=""
while (($# > 0)); do
    case $1 in
        --repeats) repeats=$2; shift ;;
        --updates) updates=$2; shift ;;
        --sampler) sampler=$2; shift ;;
        -h | --help) sed -n '2,/^set/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
        *) echo "textfile.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

say() { printf 'bench: %s\n' "$*" >&2; }

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
command -v python3 >/dev/null || { say "needs python3"; exit 1; }
[[ -n $sampler ]] || sampler=$(release_binary sysstatsd)
[[ -x $sampler ]] || { say "no sampler at $sampler"; exit 1; }

make_work_dir sysstats-textfile
disk_base=${TEXTFILE_DISK_DIR:-/var/tmp}
disk=$(mktemp -d "$disk_base/sysstats-textfile.XXXXXX")
trap 'remove_work_dir; rm -rf "$disk"' EXIT
python3 "$root/bench/make-proc-tree.py" "$work/tree-0" --processes 0 --batteries 1
tree=(--proc-root "$work/tree-0/proc" --sys-root "$work/tree-0/sys")
results=$work/results.jsonl
measure=(python3 "$root/bench/measure.py")

run() {   # label run-number extra-arguments...
    local label=$1 r=$2
    shift 2
    local dir=$work/$label-$r
    mkdir -m 0700 "$dir"
    "${measure[@]}" cpu --label "$label" --out "$dir/cpu.jsonl" --log "$dir/cpu.log" --warmup 3 --updates "$updates" \
        --snapshot-dir "$dir/run" -- "$sampler" --interval 1 --runtime-dir "$dir/run" --no-history "${tree[@]}" "$@" &
}

say "$repeats repeats of $updates updates at interval 1 s (about $((repeats * (updates + 5))) s)"
for ((r = 1; r <= repeats; r++)); do
    say "repeat $r/$repeats"
    mkdir -p "$work/tf-$r" "$disk/tf-$r"
    run plain "$r"
    run tmpfs "$r" --textfile-dir "$work/tf-$r" --textfile-interval 1
    run disk "$r" --textfile-dir "$disk/tf-$r" --textfile-interval 1
    failed=0
    for job in $(jobs -p); do wait "$job" || failed=1; done
    if ((failed != 0)); then
        say "a measurement failed in repeat $r:"
        tail -n 5 "$work"/*-"$r"/*.log >&2 || true
        exit 1
    fi
    [[ -s $work/tf-$r/sysstats.prom && -s $disk/tf-$r/sysstats.prom ]] || { say "no sysstats.prom written"; exit 1; }
    cat "$work"/*-"$r"/cpu.jsonl >>"$results"
done

bytes=$(stat -c %s "$work/tf-1/sysstats.prom")
mkdir -p "$root/bench/out"
python3 - "$results" "$bytes" "$(stat -f -c %T "$work")" "$(stat -f -c %T "$disk")" "$repeats" "$updates" <<'PY' | tee "$root/bench/out/textfile.md"
import json, statistics, sys
path, size, work_fs, disk_fs, repeats, updates = sys.argv[1:]
runs = {}
for line in open(path):
    r = json.loads(line)
    runs.setdefault(r["label"], []).append(r["cpu_ms"])
def med(label): return statistics.median(runs[label])
def span(label): return f"{min(runs[label]):.3f}–{max(runs[label]):.3f}"
plain = med("plain")
print(f"sysstatsd on the 0-process tree (the system-wide part), interval 1 s, {repeats} repeats × {updates} updates;")
print(f"sysstats.prom is {size} bytes. CPU ms per update, median (min–max):\n")
print("| run | CPU ms / update | one write of sysstats.prom | write ÷ system-wide part |")
print("|---|---|---|---|")
print(f"| plain (no textfile) | {plain:.3f} ({span('plain')}) | | |")
for label, fs in (("tmpfs", work_fs), ("disk", disk_fs)):
    m = med(label)
    print(f"| textfile on {fs} ({label}) | {m:.3f} ({span(label)}) | {m - plain:.3f} ms | {(m - plain) / plain:.2f} |")
PY
say "wrote bench/out/textfile.md"
