#!/usr/bin/env python3
"""Measures sysstats-bar --output png:FILE: per update, from the snapshot's
rename to the new PNG renamed over FILE (latency), the renderer's CPU time per
update (draw + encode + write + rename), and its peak RSS.

    bench/panel.py [--bar BIN] [--updates N] [--size WxH]... [--snapshot F]

Default: the release build, 1,000 updates, sizes 180x56 (default), 320x100 and
1024x256, fed Tests/BarCoreTests/Golden/laptop.snapshot (rewritten per update as
bench/measure-bar.py does). The runtime dir is on tmpfs (/dev/shm) when it can be.
Prints a Markdown table; docs/performance.md has the figures.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import measure  # noqa: E402
measure_bar = __import__("measure-bar")


def stamp(path):
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns)


def wait_new(path, old, timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        s = stamp(path)
        if s is not None and s != old:
            return s, time.monotonic_ns()
        if time.monotonic() > deadline:
            raise RuntimeError("no new picture")
        time.sleep(0.00005)


def run(bar, snapshot, size, updates):
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="sysstats-bench-panel-", dir=base) as d:
        os.chmod(d, 0o700)
        pub = measure_bar.Publisher(snapshot, d)
        pub.prepare()
        pub.rename()
        out = os.path.join(d, "panel.png")
        proc = subprocess.Popen([bar, "--output", f"png:{out}", "--runtime-dir", d, "--size", size],
                                stdin=subprocess.DEVNULL)
        try:
            last, _ = wait_new(out, None, 30)
            for _ in range(20):   # warm-up
                pub.prepare(); pub.rename(); last, _ = wait_new(out, last)
            c0 = measure.cpu_ns(proc.pid)
            latencies = []
            for _ in range(updates):
                pub.prepare()
                t0 = time.monotonic_ns()
                pub.rename()
                last, t1 = wait_new(out, last)
                latencies.append((t1 - t0) / 1e6)
            c1 = measure.cpu_ns(proc.pid)
            hwm = measure.status_kib(proc.pid, "VmHWM")
            png = os.path.getsize(out)
        finally:
            measure.stop(proc)
    latencies.sort()
    return dict(size=size, median_ms=statistics.median(latencies),
                p99_ms=latencies[min(len(latencies) - 1, len(latencies) * 99 // 100)],
                cpu_us=(c1 - c0) / 1e3 / updates, hwm_kib=hwm, png_bytes=png)


def main():
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bar", default=os.path.join(root, ".build/release/sysstats-bar"))
    p.add_argument("--updates", type=int, default=1000)
    p.add_argument("--size", action="append")
    p.add_argument("--snapshot", default=os.path.join(root, "Tests/BarCoreTests/Golden/laptop.snapshot"))
    a = p.parse_args()
    print("| size | rename → PNG median (ms) | p99 (ms) | CPU per update (µs) | peak RSS (KiB) | PNG bytes |")
    print("|---|---|---|---|---|---|")
    for size in a.size or ["180x56", "320x100", "1024x256"]:
        r = run(a.bar, a.snapshot, size, a.updates)
        print(f"| {r['size']} | {r['median_ms']:.2f} | {r['p99_ms']:.2f} | {r['cpu_us']:.0f} | {r['hwm_kib']} | {r['png_bytes']} |")


if __name__ == "__main__":
    main()
