#!/usr/bin/env python3
"""The measuring half of bench/bar.sh: drives sysstats-bar, records JSON lines.

    measure-bar.py latency --bar BIN --output text|i3bar --snapshot F --dir D --out FILE [--updates N] [--period S]
    measure-bar.py trace   --bar BIN --output text|i3bar --snapshot F --dir D --out FILE [--updates N] [--idle S]
    measure-bar.py table   RESULTS.jsonl [--machine TEXT]

latency: publishes a snapshot into D (write `.snapshot.tmp`, then rename it over
`snapshot`, as the sampler does), N times (plus 20 warm-up updates), one every
--period seconds. Each update is timed from just before rename() to the moment
the renderer's output line has been read from its stdout pipe (CLOCK_MONOTONIC
both sides, in this process; the line is awaited before the next rename). The
renderer runs untraced; its CPU time (schedstat sum_exec_runtime, as
measure.py reads it) is taken before and after the N updates, VmHWM at the end.

trace: the same under `strace -f -ttt`, N updates, then --idle seconds without a
new snapshot. Syscalls are counted by their entry time: those between the first
rename and the last line read, divided by N, are the per-update figure (cut at
each write to stdout for the min–max); those from 50 ms after the last line to
the end of the idle time are the idle figure. The snapshot's timestamp is that
of its rename, so its staleness timer (5 s at a 1 s interval) fires once while
idle: that wake is expected and reported with its time.

The snapshot bytes come from a committed golden file: the sequence (header),
the timestamp and cpuBusy (body) are rewritten per update and the header's
CRC-32 of the body recomputed (docs/snapshot-format.md).

table: medians over the repeats of these records and of measure.py's i3status
records (label i3status-real), as Markdown.
"""
import argparse
import collections
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import zlib

sys.dont_write_bytecode = True   # no bench/__pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402  (bench/measure.py: cpu_ns, status_kib, stop, children, med, fmt, spread)

WARMUP = 20
TRACE_LINE = re.compile(r"^(?:\[pid\s+)?(?:\d+\]?\s+)?(\d+\.\d+)\s+([a-z_0-9]+)\((.*)$")


class Publisher:
    """Writes snapshots into a runtime dir the way sysstatsd does: temp file + rename."""

    def __init__(self, golden, directory):
        self.template = bytearray(open(golden, "rb").read())
        if self.template[:8] != b"SYSSTATS":
            raise SystemExit(f"{golden}: not a snapshot")
        self.dir = directory
        self.tmp = os.path.join(directory, ".snapshot.tmp")
        self.path = os.path.join(directory, "snapshot")
        self.sequence = 0

    def prepare(self):
        """Writes the next snapshot to the temp file (not timed); returns nothing."""
        self.sequence += 1
        b = self.template
        b[16:24] = self.sequence.to_bytes(8, "little")                     # header: sequence
        b[32:40] = int(time.time() * 1000).to_bytes(8, "little")          # body: timestampMs
        b[40:44] = (1000).to_bytes(4, "little")                           # body: intervalMs
        b[60:62] = (self.sequence * 37 % 10_001).to_bytes(2, "little")     # body: cpuBusy
        b[24:28] = zlib.crc32(bytes(b[32:])).to_bytes(4, "little")        # header: CRC-32 of the body
        fd = os.open(self.tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, bytes(b))
        finally:
            os.close(fd)

    def rename(self):
        os.rename(self.tmp, self.path)


class Lines:
    """Counts the lines a program writes to a pipe."""

    def __init__(self, fd):
        self.fd = fd
        self.count = 0

    def wait(self, count, timeout=10.0):
        """Blocks until `count` lines in total were read; the time they were (monotonic ns)."""
        deadline = time.monotonic() + timeout
        while self.count < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for line {count}")
            data = os.read(self.fd, 65536)
            if not data:
                raise RuntimeError("the renderer ended early")
            self.count += data.count(b"\n")
        return time.monotonic_ns()


def first_lines(output):
    return 3 if output == "i3bar" else 1   # i3bar: header, "[", the first array


def start(args, wrapper=()):
    os.makedirs(args.dir, mode=0o700, exist_ok=True)
    pub = Publisher(args.snapshot, args.dir)
    pub.prepare()
    pub.rename()
    cmd = list(wrapper) + [args.bar, "--output", args.output, "--runtime-dir", args.dir, "--blocks", args.blocks]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=open(args.log, "w") if args.log else None)
    lines = Lines(proc.stdout.fileno())
    lines.wait(first_lines(args.output), timeout=30)
    return pub, proc, lines


def update(pub, lines):
    """One timed update: rename, wait for the line. Returns (t_rename, t_line) in monotonic ns."""
    pub.prepare()
    t0 = time.monotonic_ns()
    pub.rename()
    t1 = lines.wait(lines.count + 1)
    return t0, t1


def pace(t0, period):
    left = period - (time.monotonic_ns() - t0) / 1e9
    if left > 0:
        time.sleep(left)


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p / 100))]


def run_latency(args):
    pub, proc, lines = start(args)
    try:
        for _ in range(args.warmup):
            t0, _ = update(pub, lines)
            pace(t0, args.period)
        c0 = measure.cpu_ns(proc.pid)
        w0 = time.monotonic()
        latencies = []
        for _ in range(args.updates):
            t0, t1 = update(pub, lines)
            latencies.append((t1 - t0) / 1e6)
            pace(t0, args.period)
        c1 = measure.cpu_ns(proc.pid)
        wall = time.monotonic() - w0
        hwm = measure.status_kib(proc.pid, "VmHWM")
    finally:
        measure.stop(proc)
    latencies.sort()
    record = dict(label=args.label or f"bar-{args.output}", kind="latency", updates=args.updates,
                  median_ms=statistics.median(latencies), p99_ms=percentile(latencies, 99),
                  max_ms=latencies[-1], cpu_us=(c1 - c0) / 1e3 / args.updates,
                  wall_s=wall, hwm_kib=hwm)
    measure.append(args.out, record)


def parse_trace(path):
    calls = []   # (realtime s, name, rest)
    with open(path, errors="replace") as f:
        for line in f:
            m = TRACE_LINE.match(line)
            if m:
                calls.append((float(m.group(1)), m.group(2), m.group(3)))
    return calls


def run_trace(args):
    trace_file = os.path.join(args.dir, "strace.txt")
    wrapper = ["strace", "-f", "-qq", "-ttt", "-s", "32", "-o", trace_file, "--"]
    pub, proc, lines = start(args, wrapper)
    started = time.time()   # the first line has been read
    try:
        for _ in range(args.warmup):
            t0, _ = update(pub, lines)
            pace(t0, args.period)
        begin = time.time()
        for _ in range(args.updates):
            t0, _ = update(pub, lines)
            pace(t0, args.period)
        end = time.time()
        last_snapshot = end
        time.sleep(args.idle)
        idle_end = time.time()
    finally:
        for pid in measure.children(proc.pid):   # strace blocks SIGTERM; end the renderer
            os.kill(pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.terminate()
            proc.wait()
    calls = parse_trace(trace_file)
    window = [c for c in calls if begin <= c[0] <= end]
    names = collections.Counter(c[1] for c in window)
    # Per-update counts, cut after each write to stdout (one write per update).
    per_update, n = [], 0
    for _, name, rest in window:
        n += 1
        if name == "write" and rest.startswith("1,"):
            per_update.append(n)
            n = 0
    steady = per_update[1:] or per_update   # the first segment may start mid-update
    idle = [c for c in calls if end + 0.05 <= c[0] <= idle_end]
    idle_seconds = idle_end - (end + 0.05)
    # The staleness timer: the snapshot goes stale 5 s after its timestamp (interval 1 s).
    stale = [c for c in idle if 4.9 <= c[0] - last_snapshot <= 5.3]
    record = dict(label=args.label or f"bar-{args.output}", kind="bartrace", updates=args.updates,
                  syscalls=sum(names.values()) / args.updates,
                  per_update_min=min(steady) if steady else None,
                  per_update_max=max(steady) if steady else None,
                  by_name={k: v / args.updates for k, v in names.most_common()},
                  idle_seconds=idle_seconds, idle_syscalls=len(idle), idle_other=len(idle) - len(stale),
                  idle_by_name=dict(collections.Counter(c[1] for c in idle).most_common()),
                  idle_at=[round(c[0] - last_snapshot, 3) for c in idle][:20],
                  startup_syscalls=sum(1 for c in calls if c[0] < started))
    measure.append(args.out, record)
    if not args.keep:
        os.unlink(trace_file)


# ---------------------------------------------------------------- table

ROWS = [  # label, description
    ("bar-text", "sysstats-bar --output text, an update every 5 ms"),
    ("bar-i3bar", "sysstats-bar --output i3bar, an update every 5 ms"),
    ("bar-text-1s", "sysstats-bar --output text, an update a second (as deployed)"),
]

def make_table(path, machine):
    records = [json.loads(line) for line in open(path) if line.strip()]
    by = collections.defaultdict(list)
    for r in records:
        by[(r["label"], r["kind"])].append(r)
    med, fmt, spread = measure.med, measure.fmt, measure.spread

    def col(label, kind, key, scale=1.0):
        return [r[key] * scale for r in by.get((label, kind), []) if r.get(key) is not None]

    rows = []
    for label, name in ROWS:
        if not (by.get((label, "latency")) or by.get((label, "bartrace"))):
            continue
        traces = by.get((label, "bartrace"), [])
        idle_rate = [r["idle_syscalls"] / r["idle_seconds"] for r in traces]
        idle_other = [r["idle_other"] for r in traces]
        rows.append(dict(
            name=name, median=col(label, "latency", "median_ms"),
            p99=col(label, "latency", "p99_ms"), cpu=col(label, "latency", "cpu_us"),
            sys=col(label, "bartrace", "syscalls"), idle=idle_rate, other=idle_other, hwm=col(label, "latency", "hwm_kib"),
            repeats=max(len(by.get((label, "latency"), [])), len(by.get((label, "bartrace"), []))),
            updates=med(col(label, "latency", "updates"))))
    base = "i3status-real"
    i3 = dict(name="i3status (cpu_usage, memory, load, battery all; interval 1 s)", median=[], p99=[],
              cpu=col(base, "cpu", "cpu_ms", 1000.0), sys=col(base, "trace", "syscalls"), idle=[], other=[],
              hwm=col(base, "cpu", "hwm_kib"),
              repeats=max(len(by.get((base, "cpu"), [])), len(by.get((base, "trace"), []))),
              updates=med(col(base, "cpu", "updates")))

    out = []
    if machine:
        out += [machine, ""]
    out += ["| program | rename → line, median ms | p99 ms | CPU µs / update | syscalls / update | "
            "syscalls / idle s | idle syscalls besides the staleness wake | peak RSS (VmHWM) KiB | repeats |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in rows + ([i3] if i3["repeats"] else []):
        out.append(f"| {r['name']} | {spread(r['median'])} | {spread(r['p99'])} | {spread(r['cpu'], 1)} | "
                   f"{spread(r['sys'], 2)} | {spread(r['idle'], 2)} | {spread(r['other'], 0)} | {fmt(med(r['hwm']))} | {r['repeats']} |")
    if i3["repeats"]:
        for r in rows:
            def ratio(key):
                x, y = med(r[key]), med(i3[key])
                return f"{x / y:.3f}×" if x is not None and y else "–"
            out.append(f"| **ratio** {r['name']} / i3status | | | {ratio('cpu')} | {ratio('sys')} | | | "
                       f"{ratio('hwm')} | |")

    out += ["", "Per update (means over the traced updates, medians over the repeats):", ""]
    for mode in ("text", "i3bar"):
        runs = by.get((f"bar-{mode}", "bartrace"), [])
        if not runs:
            continue
        keys = sorted({k for r in runs for k in r["by_name"]})
        per = sorted(((med([r["by_name"].get(k, 0.0) for r in runs]), k) for k in keys), reverse=True)
        lo = min(r["per_update_min"] for r in runs if r["per_update_min"] is not None)
        hi = max(r["per_update_max"] for r in runs if r["per_update_max"] is not None)
        out.append(f"- sysstats-bar {mode}: " + ", ".join(f"{k} {v:.2f}" for v, k in per if v >= 0.005)
                   + f"; one update ranged {lo}–{hi} syscalls")
        idle = "; ".join(f"{r['idle_syscalls']} in {r['idle_seconds']:.1f} s ("
                         + ", ".join(f"{k} {v}" for k, v in r["idle_by_name"].items())
                         + (f"; at +{', +'.join(f'{t:.2f}' for t in r['idle_at'])} s after the last rename"
                            if r["idle_at"] else "") + ")"
                         for r in runs)
        out.append(f"  - idle, per repeat: {idle}")
    runs = by.get((base, "trace"), [])
    if runs:
        keys = sorted({k for r in runs for k in r["by_name"]})
        per = sorted(((med([r["by_name"].get(k, 0.0) for r in runs]), k) for k in keys), reverse=True)
        out.append("- i3status: " + ", ".join(f"{k} {v:.1f}" for v, k in per if v >= 0.05))
    return "\n".join(out) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description="measure sysstats-bar for bench/bar.sh")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("latency", "trace"):
        p = sub.add_parser(name)
        p.add_argument("--bar", required=True)
        p.add_argument("--output", choices=["text", "i3bar"], required=True)
        p.add_argument("--snapshot", required=True, help="a golden .snapshot file to publish (rewritten per update)")
        p.add_argument("--dir", required=True, help="the runtime dir (made if missing)")
        p.add_argument("--out", required=True)
        p.add_argument("--blocks", default="cpu,mem,load,battery")
        p.add_argument("--updates", type=int, default=1000 if name == "latency" else 300)
        p.add_argument("--period", type=float, default=0.005, help="seconds between renames")
        p.add_argument("--warmup", type=int, default=WARMUP, help="untimed updates first")
        p.add_argument("--log", help="the renderer's (and strace's) stderr goes here")
        p.add_argument("--label", help="the record's label (default bar-OUTPUT)")
        if name == "trace":
            p.add_argument("--idle", type=float, default=8.0)
            p.add_argument("--keep", action="store_true", help="keep the strace output")
    t = sub.add_parser("table")
    t.add_argument("results")
    t.add_argument("--machine", default="")
    args = parser.parse_args(argv)
    measure.terminate_on_sigterm()
    if args.command == "latency":
        run_latency(args)
    elif args.command == "trace":
        run_trace(args)
    else:
        sys.stdout.write(make_table(args.results, args.machine))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
