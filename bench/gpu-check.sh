#!/usr/bin/env bash
# The check a machine with a real GPU runs: sysstats's GPU figures against the vendor's own
# tool while a load runs, and what the GPU costs the sampler.
#
#   bench/gpu-check.sh [--bin-dir DIR] [--seconds N] [--no-load]
#
# Runs the sampler (DIR/sysstatsd, with DIR/sysstatsd-gpu beside it; default the release
# build) on this machine, writing its Prometheus file every second, and every 2 s compares
# each card's sysstats_gpu_* series with `nvidia-smi --query-gpu=...` (NVIDIA) or the card's
# own sysfs files (amdgpu), read at the same moment. Meanwhile a load runs on the GPU
# (PyTorch matrix products and a 16 GiB allocation, where python3 has torch; --no-load: idle).
# Prints each figure's differences (median and largest) and whether they are within the
# limits (VRAM 1 % of the total, busy 5 points, temperature 2 °C, power 10 %, clock 10 %,
# the power limit 1 W),
# the gpu block as the bar shows it, and the sampler's and the helper's CPU time per second
# and resident memory; with DIR/sysstats, `sysstats top --gpu` beside the vendor's lists of
# processes. Exits 1 when a figure is outside its limit, 2 when there is no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."

bin_dir=.build/release
seconds=30
load=1
while (($#)); do
    case $1 in
        --bin-dir) bin_dir=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --no-load) load=0; shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "gpu-check: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
for p in sysstatsd sysstatsd-gpu sysstats-bar; do
    [[ -x $bin_dir/$p ]] || { echo "gpu-check: $bin_dir/$p is missing" >&2; exit 2; }
done

vendor=
if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
    vendor=nvidia
elif grep -qs '^DRIVER=amdgpu' /sys/class/drm/card*/device/uevent; then
    vendor=amdgpu
else
    echo "gpu-check: no NVIDIA (nvidia-smi) or amdgpu card here" >&2
    exit 2
fi

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 0700 "$work/run"
mkdir "$work/prom"

echo "== gpu-check: $vendor, $(uname -r), $seconds s, load: $((load)) =="
[[ $vendor == nvidia ]] && nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader

if ((load)); then
    python3 - "$seconds" > "$work/load.log" 2>&1 <<'PY' &
import sys, time
try:
    import torch
except ImportError:
    print("no torch: no load"); sys.exit(0)
if not torch.cuda.is_available():
    print("torch without a GPU: no load"); sys.exit(0)
end = time.time() + float(sys.argv[1]) + 30   # past the last comparison: no change of load inside it
hold = torch.empty(16 * 1024**3 // 4, dtype=torch.float32, device="cuda")   # 16 GiB of VRAM
a = torch.randn(8192, 8192, device="cuda"); b = torch.randn(8192, 8192, device="cuda")
n = 0
while time.time() < end:
    for _ in range(20): a @ b
    torch.cuda.synchronize(); n += 20
print("matmuls:", n)
PY
    pids+=($!)
    # The comparisons start once the load holds its memory (CUDA's set-up takes seconds):
    # the sampler's figures are up to two intervals old, so a comparison across the load's
    # start would compare two different moments, not two measurements.
    if [[ $vendor == nvidia ]]; then
        for ((w = 0; w < 60; w++)); do
            used=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -n 1 | tr -dc '0-9')
            ((${used:-0} >= 8000)) && break
            sleep 1
        done
    fi
    sleep 4
fi

"$bin_dir/sysstatsd" --interval 1 --no-history --runtime-dir "$work/run" --textfile-dir "$work/prom" \
    --textfile-interval 1 2> "$work/sysstatsd.log" &
sampler=$!
pids+=("$sampler")
sleep 3

# Time on a CPU, ns, of all the process's threads (schedstat's first field: finer than
# stat's clock ticks).
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
helper=$(pgrep -P "$sampler" -x sysstatsd-gpu || true)
start_sampler=$(cpu_ns "$sampler"); start_helper=$([[ -n $helper ]] && cpu_ns "$helper" || echo 0)
start_time=$(date +%s.%N)

: > "$work/pairs"
rounds=$((seconds / 2))
for ((i = 0; i < rounds; i++)); do
    {
        echo "-- sysstats"
        grep '^sysstats_gpu_' "$work/prom/sysstats.prom" || true
        echo "-- vendor"
        if [[ $vendor == nvidia ]]; then
            nvidia-smi --query-gpu=index,utilization.gpu,memory.used,memory.total,temperature.gpu,power.draw,clocks.gr,enforced.power.limit \
                --format=csv,noheader,nounits
        else
            for d in /sys/class/drm/card*/device; do
                grep -qs '^DRIVER=amdgpu' "$d/uevent" || continue
                n=${d%/device}; n=${n##*/card}
                h=$(ls -d "$d"/hwmon/hwmon* | head -n 1)
                echo "$n, $(cat "$d/gpu_busy_percent"), $(( $(cat "$d/mem_info_vram_used") / 1048576 )), $(( $(cat "$d/mem_info_vram_total") / 1048576 )), $(( $(cat "$h/temp1_input") / 1000 )), $(awk '{print $1 / 1e6}' "$h/power1_average" 2>/dev/null || echo 0), $(awk '{print $1 / 1e6}' "$h/freq1_input" 2>/dev/null || echo 0), $(awk '{print $1 / 1e6}' "$h/power1_cap" 2>/dev/null || echo '[N/A]')"
            done
        fi
        echo "-- end"
    } >> "$work/pairs"
    sleep 2
done

end_time=$(date +%s.%N)
# The processes using the GPU, while the load still runs: sysstats top --gpu (when DIR has the
# CLI) beside the vendor's per-process lists.
if [[ -x $bin_dir/sysstats ]]; then
    echo "== processes: sysstats top --gpu =="
    "$bin_dir/sysstats" top --gpu --interval-ms 1000 || true
    if [[ $vendor == nvidia ]]; then
        echo "== processes: nvidia-smi --query-compute-apps, nvidia-smi pmon =="
        nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader || true
        nvidia-smi pmon -c 1 -s u || true
    fi
fi
end_sampler=$(cpu_ns "$sampler"); end_helper=$([[ -n $helper ]] && cpu_ns "$helper" || echo 0)
echo "== the gpu block =="
"$bin_dir/sysstats-bar" --once --output text --blocks gpu --runtime-dir "$work/run" --no-start-sampler || true
echo "== cost over $(awk -v a="$start_time" -v b="$end_time" 'BEGIN {printf "%.1f", b - a}') s =="
awk -v s0="$start_sampler" -v s1="$end_sampler" -v h0="$start_helper" -v h1="$end_helper" \
    -v a="$start_time" -v b="$end_time" -v rs="$(rss_kib "$sampler")" -v rh="$([[ -n $helper ]] && rss_kib "$helper" || echo 0)" \
    'BEGIN { t = b - a
             printf "sampler: %.3f ms CPU per second, %.2f MiB resident\n", (s1 - s0) / 1e6 / t, rs / 1024
             printf "helper (sysstatsd-gpu, NVML loaded): %.3f ms CPU per second, %.2f MiB resident\n", (h1 - h0) / 1e6 / t, rh / 1024 }'
[[ -s $work/sysstatsd.log ]] && { echo "== sysstatsd's stderr =="; cat "$work/sysstatsd.log"; }
((load)) && { echo "== load =="; cat "$work/load.log"; }

echo "== differences (sysstats − $vendor) =="
python3 - "$work/pairs" <<'PY'
import re, statistics, sys
rounds, block = [], None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line == "-- sysstats": block = {"s": {}, "v": {}}; part = "s"
    elif line == "-- vendor": part = "v"
    elif line == "-- end": rounds.append(block)
    elif part == "s":
        m = re.match(r'(sysstats_gpu_\w+)\{card="(\d+)"[^}]*\} (\S+)', line)
        if m: block["s"].setdefault(int(m.group(2)), {})[m.group(1)] = float(m.group(3))
    else:
        f = [x.strip() for x in line.split(",")]
        if len(f) == 8:
            num = lambda x: float(x) if re.match(r'^[0-9.]+$', x) else None
            block["v"][int(f[0])] = dict(busy=num(f[1]), used=num(f[2]), total=num(f[3]), temp=num(f[4]), power=num(f[5]),
                                         clock=num(f[6]), limit=num(f[7]))
checks = [  # name, sysstats series → vendor's unit, vendor key, limit (absolute, or relative to a base)
    ("busy (points)", lambda s: s.get("sysstats_gpu_busy_ratio", 0) * 100 if "sysstats_gpu_busy_ratio" in s else None, "busy", lambda v: 5),
    ("VRAM used (MiB)", lambda s: s["sysstats_gpu_memory_used_bytes"] / 1048576 if "sysstats_gpu_memory_used_bytes" in s else None, "used", lambda v: 0.01 * v["total"]),
    ("VRAM total (MiB)", lambda s: s["sysstats_gpu_memory_total_bytes"] / 1048576 if "sysstats_gpu_memory_total_bytes" in s else None, "total", lambda v: 0.01 * v["total"]),
    ("temperature (°C)", lambda s: s.get("sysstats_gpu_temperature_celsius"), "temp", lambda v: 2),
    ("power (W)", lambda s: s.get("sysstats_gpu_power_watts"), "power", lambda v: 0.1 * max(v["power"] or 0, 1)),
    ("clock (MHz)", lambda s: s["sysstats_gpu_clock_hertz"] / 1e6 if "sysstats_gpu_clock_hertz" in s else None, "clock", lambda v: 0.1 * max(v["clock"] or 0, 1)),
    ("power limit (W)", lambda s: s.get("sysstats_gpu_power_limit_watts"), "limit", lambda v: 1),
]
bad = 0
cards = sorted({c for r in rounds for c in r["v"]})
if not rounds or not cards:
    print("no rounds compared"); sys.exit(1)
for card in cards:
    print(f"card {card}: {len(rounds)} rounds")
    for name, ours, key, limit in checks:
        diffs, over = [], 0
        for r in rounds:
            s, v = r["s"].get(card, {}), r["v"].get(card)
            if v is None or v[key] is None: continue
            o = ours(s)
            if o is None: over += 1; diffs.append(float("nan")); continue
            d = o - v[key]; diffs.append(d)
            if abs(d) > limit(v): over += 1
        real = [d for d in diffs if d == d]
        if not diffs: print(f"  {name:18} the vendor's tool gives none"); continue
        med = statistics.median(real) if real else float("nan")
        big = max(real, key=abs) if real else float("nan")
        verdict = "ok" if over == 0 else f"OUTSIDE the limit in {over} of {len(diffs)}"
        print(f"  {name:18} median {med:+9.2f}  largest {big:+9.2f}  {verdict}")
        bad += over > 0
sys.exit(1 if bad else 0)
PY
