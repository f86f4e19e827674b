#!/usr/bin/env python3
"""The sampler's peak memory, split into code pages and heap, the way the budget test runs it.

    bench/memory.py [--bin DIR] [--repeats 3] [--processes 1000] [--samples 40] [--no-history]

Runs DIR/sysstatsd (default .build/release) as Tests/EndToEndTests/MemoryBudgetTests.swift
does: a tree from bench/make-proc-tree.py (1,000 processes, 2 batteries), interval 0.05 s,
a fresh --data-dir (history on: DIR/sysstatsd-history writes the bookmark rules cache and
the sampler loads it), until the snapshot's sequence reaches --samples. Then reads VmHWM
from /proc/PID/status and Rss/Pss_File/Pss_Anon from /proc/PID/smaps_rollup, sends
SIGTERM, and prints each run and the medians. Build first:
`swift build -c release --product sysstatsd --product sysstatsd-history`.
"""
import argparse
import os
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ["VmHWM", "Rss", "Pss_File", "Pss_Anon"]


def kib(path, field):
    with open(path) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def sequence(runtime):
    try:
        with open(os.path.join(runtime, "snapshot"), "rb") as f:
            header = f.read(24)
        return struct.unpack_from("<Q", header, 16)[0] if len(header) == 24 else 0
    except OSError:
        return 0


def command(bin_dir, tree, work, n, no_history=False):
    """The sampler's command line as the budget test gives it, and its runtime and data directories."""
    runtime = os.path.join(work, f"run{n}")
    data = os.path.join(work, f"data{n}")
    cmd = [os.path.join(bin_dir, "sysstatsd"), "--interval", "0.05", "--runtime-dir", runtime,
           "--proc-root", os.path.join(tree, "proc"), "--sys-root", os.path.join(tree, "sys")]
    cmd += ["--no-history", "--data-dir", data] if no_history else ["--data-dir", data]
    if no_history:
        os.makedirs(data, exist_ok=True)
    return cmd, runtime, data


def make_tree(tree, processes):
    subprocess.run([sys.executable, os.path.join(ROOT, "bench/make-proc-tree.py"), tree,
                    "--processes", str(processes), "--batteries", "2"], check=True, stdout=subprocess.DEVNULL)


def run_once(args, tree, work, n):
    cmd, runtime, data = command(args.bin, tree, work, n, args.no_history)
    proc = subprocess.Popen(cmd)
    try:
        deadline = time.monotonic() + 60
        while sequence(runtime) < args.samples:
            if proc.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"sysstatsd ended or timed out (status {proc.returncode})")
            time.sleep(0.05)
        figures = {"VmHWM": kib(f"/proc/{proc.pid}/status", "VmHWM")}
        for field in FIELDS[1:]:
            figures[field] = kib(f"/proc/{proc.pid}/smaps_rollup", field)
        cache = os.path.exists(os.path.join(data, "bookmarks.rules"))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    figures["cache"] = cache
    return figures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--processes", type=int, default=1000)
    p.add_argument("--samples", type=int, default=40)
    p.add_argument("--no-history", action="store_true")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="sysstats-memory-")
    try:
        tree = os.path.join(work, "tree")
        make_tree(tree, args.processes)
        runs = [run_once(args, tree, work, n) for n in range(args.repeats)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for r in runs:
        print("  ".join(f"{k} {r[k]}" for k in FIELDS) + f"  rules-cache {'yes' if r['cache'] else 'no'}")
    print("median  " + "  ".join(f"{k} {statistics.median(r[k] for r in runs):g}" for k in FIELDS))


if __name__ == "__main__":
    main()
