#!/usr/bin/env python3
"""The measuring half of bench/run.sh: runs one program, records one JSON line.

    measure.py cpu   --label L --out FILE --warmup W --updates N [--timeout S] -- CMD...
    measure.py trace --label L --out FILE --seconds S --trace-file F -- CMD...
    measure.py table RESULTS.jsonl [--machine TEXT]

cpu: runs CMD (sysstatsd or i3status, no tracer), waits for W updates, then
reads the process's CPU time, waits for N more updates, reads it again and
VmHWM, and ends it with SIGTERM. CPU time is sum_exec_runtime from
/proc/PID/schedstat (nanoseconds, user + system), falling back to utime+stime
from /proc/PID/stat (clock ticks). An update is one line on the program's
stdout (i3status) or one new snapshot file in --snapshot-dir (sysstatsd: the
file is renamed into place once per sample), so the count is exact.

trace: runs CMD under `strace -f` for S seconds, then SIGTERMs the traced
program. The trace is cut at each clock_nanosleep (both programs sleep once per
update): the part before the first sleep is start-up plus the first update,
the part after the last sleep is the exit; the updates from the third on are
the steady state, averaged (a battery re-read every 5 s is spread over the
updates, as it should be).

table: the medians over repeats, as Markdown.
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

OPEN_CALLS = {"open", "openat", "openat2", "creat"}
LINE = re.compile(r"^(?:\[pid\s+)?(\d+)\]?\s+([a-z_0-9]+)\((.*)$")


def cpu_ns(pid):
    """CPU time of pid in ns: schedstat if the kernel has it, else utime+stime."""
    try:
        # Every thread's (/proc/PID/schedstat is the main thread's alone): the sampler's
        # pressure-trigger thread counts too.
        return sum(int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0])
                   for t in os.listdir(f"/proc/{pid}/task"))
    except (OSError, ValueError, IndexError):
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
        rest = data[data.rindex(b")") + 2:].split()
        ticks = int(rest[11]) + int(rest[12])
        return ticks * 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def snapshot_key(directory):
    """Identity of the current snapshot file: it changes with each rename into place."""
    try:
        st = os.stat(os.path.join(directory, "snapshot"))
        return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    except OSError:
        return None


class Updates:
    """Waits for a program's updates: stdout lines, or snapshot renames."""

    def __init__(self, proc, snapshot_dir):
        self.proc = proc
        self.snapshot_dir = snapshot_dir
        self.key = snapshot_key(snapshot_dir) if snapshot_dir else None

    def wait(self, deadline):
        if self.snapshot_dir is None:
            line = self.proc.stdout.readline()   # i3status: one line per update
            if not line:
                raise RuntimeError("the program ended early")
            return
        while True:
            key = snapshot_key(self.snapshot_dir)
            if key is not None and key != self.key:
                self.key = key
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"the program ended early (status {self.proc.returncode})")
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for an update")
            time.sleep(0.002)


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def terminate_on_sigterm():
    """run.sh may be interrupted: turn SIGTERM into an exception so `finally` stops the program."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def run_cpu(args):
    deadline = time.monotonic() + args.timeout
    proc = subprocess.Popen(args.cmd, stdout=subprocess.PIPE if args.snapshot_dir is None else subprocess.DEVNULL,
                            stderr=open(args.log, "w") if args.log else None, text=True)
    try:
        updates = Updates(proc, args.snapshot_dir)
        for _ in range(args.warmup):
            updates.wait(deadline)
        t0, c0 = time.monotonic(), cpu_ns(proc.pid)
        for _ in range(args.updates):
            updates.wait(deadline)
        t1, c1 = time.monotonic(), cpu_ns(proc.pid)
        hwm = status_kib(proc.pid, "VmHWM")
    finally:
        stop(proc)
    record = dict(label=args.label, kind="cpu", updates=args.updates,
                  cpu_ms=(c1 - c0) / 1e6 / args.updates, wall_s=t1 - t0, hwm_kib=hwm)
    append(args.out, record)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def run_trace(args):
    tracer = subprocess.Popen(["strace", "-f", "-qq", "-s", "64", "-o", args.trace_file, "--"] + args.cmd,
                              stdout=subprocess.DEVNULL, stderr=open(args.log, "w") if args.log else None)
    try:
        time.sleep(args.seconds)
    finally:
        for pid in children(tracer.pid):
            os.kill(pid, signal.SIGTERM)
        try:
            tracer.wait(20)
        except subprocess.TimeoutExpired:
            tracer.terminate()
            tracer.wait()
    record = analyze(args.trace_file, args.strip)
    record.update(label=args.label, kind="trace")
    append(args.out, record)
    if not args.keep:
        os.unlink(args.trace_file)


def open_pattern(rest, strip=()):
    """The opened path with digit runs as N and the tree's root cut: "1234/stat" -> "N/stat"."""
    m = re.search(r'"((?:[^"\\]|\\.)*)"', rest)
    if not m:
        return "?"
    path = m.group(1)
    for prefix in strip:
        if prefix and path.startswith(prefix):
            path = "…/" + path[len(prefix):]
            break
    return re.sub(r"\d+", "N", path)


def analyze(path, strip=()):
    """Cuts a trace at the sleeps; returns start-up and steady per-update figures."""
    segments = [[]]
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            name, rest = m.group(2), m.group(3)
            segments[-1].append((name, rest))
            if name == "clock_nanosleep":
                segments.append([])
    steady = segments[2:-1]   # skip start-up + first update, the second update, and the exit
    if not steady:
        raise RuntimeError(f"{path}: too few updates traced ({len(segments) - 1} sleeps)")
    names = collections.Counter()
    opens = collections.Counter()
    for seg in steady:
        for name, rest in seg:
            names[name] += 1
            if name in OPEN_CALLS:
                opens[open_pattern(rest, strip)] += 1
    n = len(steady)
    return dict(
        updates=n,
        startup_syscalls=len(segments[0]),
        syscalls=sum(names.values()) / n,
        opens=sum(v for k, v in names.items() if k in OPEN_CALLS) / n,
        per_update_min=min(len(s) for s in steady),
        per_update_max=max(len(s) for s in steady),
        by_name={k: v / n for k, v in names.most_common()},
        by_open={k: v / n for k, v in opens.most_common(12)},
    )


def append(path, record):
    with open(path, "a") as f:
        f.write(json.dumps(record) + "\n")


# ---------------------------------------------------------------- table

ROWS = [  # label, description
    ("sysstatsd-0", "sysstatsd, synthetic tree, 0 processes (system-wide part only)"),
    ("sysstatsd-100", "sysstatsd, synthetic tree, 100 processes"),
    ("sysstatsd-1000", "sysstatsd, synthetic tree, 1,000 processes"),
    ("sysstatsd-real", "sysstatsd, this machine's /proc, interval 1 s"),
    ("i3status-real", "i3status 2.14, this machine's /proc, interval 1 s"),
]


def med(values):
    return statistics.median(values) if values else None


def fmt(v, digits=2):
    if v is None:
        return "–"
    if isinstance(v, float) and abs(v) < 100:
        return f"{v:.{digits}f}"
    return f"{v:,.0f}" if isinstance(v, float) else f"{v:,}"


def spread(values, digits=3):
    if not values:
        return "–"
    m = med(values)
    if len(values) == 1:
        return fmt(m, digits)
    return f"{fmt(m, digits)} ({fmt(min(values), digits)}–{fmt(max(values), digits)})"


def make_table(path, machine):
    records = [json.loads(l) for l in open(path) if l.strip()]
    cpu = collections.defaultdict(list)
    trace = collections.defaultdict(list)
    for r in records:
        (cpu if r["kind"] == "cpu" else trace)[r["label"]].append(r)

    def figures(label):
        c, t = cpu.get(label, []), trace.get(label, [])
        return dict(
            cpu=[r["cpu_ms"] for r in c], hwm=[r["hwm_kib"] for r in c if r["hwm_kib"]],
            sys=[r["syscalls"] for r in t], opens=[r["opens"] for r in t],
            startup=[r["startup_syscalls"] for r in t],
            repeats=max(len(c), len(t)), updates=sum(r["updates"] for r in c),
        )

    out = []
    if machine:
        out += [machine, ""]
    out += ["| run | CPU ms / update, median (min–max) | syscalls / update | opens / update | "
            "peak RSS (VmHWM) KiB | start-up syscalls | repeats |",
            "|---|---|---|---|---|---|---|"]
    fig = {label: figures(label) for label, _ in ROWS}
    for label, desc in ROWS:
        f = fig[label]
        if not f["repeats"]:
            continue
        out.append(f"| {desc} | {spread(f['cpu'])} | {spread(f['sys'], 1)} | {spread(f['opens'], 1)} | "
                   f"{fmt(med(f['hwm']))} | {fmt(med(f['startup']))} | {f['repeats']} |")

    def ratio(a, b, key):
        x, y = med(fig[a][key]), med(fig[b][key])
        return f"{x / y:.2f}×" if x is not None and y else "–"

    base = "i3status-real"
    if fig[base]["repeats"]:
        for label, text in [("sysstatsd-real", "sysstatsd / i3status, same /proc, same interval"),
                            ("sysstatsd-0", "sysstatsd system-wide part (0 processes) / i3status")]:
            if fig[label]["repeats"]:
                out.append(f"| **ratio** {text} | {ratio(label, base, 'cpu')} | {ratio(label, base, 'sys')} | "
                           f"{ratio(label, base, 'opens')} | {ratio(label, base, 'hwm')} | "
                           f"{ratio(label, base, 'startup')} | |")

    out += ["", "Steady-state syscalls per update (mean over the traced updates, median over repeats; "
            "≥ 0.05 per update shown):", ""]
    for label, desc in ROWS:
        runs = trace.get(label, [])
        if not runs:
            continue
        keys = sorted({k for r in runs for k in r["by_name"]})
        per = {k: med([r["by_name"].get(k, 0.0) for r in runs]) for k in keys}
        top = sorted(((v, k) for k, v in per.items() if v >= 0.05), reverse=True)
        out.append(f"- {desc}: " + ", ".join(f"{k} {v:.1f}" for v, k in top))
        okeys = sorted({k for r in runs for k in r["by_open"]})
        oper = {k: med([r["by_open"].get(k, 0.0) for r in runs]) for k in okeys}
        otop = sorted(((v, k) for k, v in oper.items() if v >= 0.05), reverse=True)[:8]
        if otop:
            out.append("  - opened per update: " + ", ".join(f"`{k}` {v:.1f}" for v, k in otop))
        lo = min(r["per_update_min"] for r in runs)
        hi = max(r["per_update_max"] for r in runs)
        out.append(f"  - syscalls in one update ranged {lo}–{hi}")
    return "\n".join(out) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description="measure one program for bench/run.sh")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cpu")
    c.add_argument("--label", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--warmup", type=int, default=3)
    c.add_argument("--updates", type=int, default=20)
    c.add_argument("--timeout", type=float, default=120)
    c.add_argument("--snapshot-dir", help="count updates by snapshot renames here (else by stdout lines)")
    c.add_argument("--log", help="the program's stderr goes here")
    c.add_argument("cmd", nargs=argparse.REMAINDER)
    t = sub.add_parser("trace")
    t.add_argument("--label", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--seconds", type=float, required=True)
    t.add_argument("--trace-file", required=True)
    t.add_argument("--keep", action="store_true", help="keep the strace output")
    t.add_argument("--strip", action="append", default=[], help="show paths under this prefix as …/rest")
    t.add_argument("--log", help="the program's (and strace's) stderr goes here")
    t.add_argument("cmd", nargs=argparse.REMAINDER)
    tb = sub.add_parser("table")
    tb.add_argument("results")
    tb.add_argument("--machine", default="")
    a = sub.add_parser("analyze")
    a.add_argument("trace_file")
    args = parser.parse_args(argv)
    if getattr(args, "cmd", None) and args.cmd[0] == "--":
        args.cmd = args.cmd[1:]
    terminate_on_sigterm()
    if args.command == "cpu":
        run_cpu(args)
    elif args.command == "trace":
        run_trace(args)
    elif args.command == "analyze":
        print(json.dumps(analyze(args.trace_file), indent=1))
    else:
        sys.stdout.write(make_table(args.results, args.machine))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
