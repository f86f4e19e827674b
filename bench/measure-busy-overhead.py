#!/usr/bin/env python3
"""What `sysstats measure` costs on busy trees, per kind of workload, side by side.

    bench/measure-busy-overhead.py [--runs 5] [--bin DIR] [--against PATH] [--wall]

The measurer's CPU time over the wall time (`measurer_cpu_ms` / `wall_ms` of --json: its
share of one core) at the default 10 ms interval, for workloads that change every sample:
a C program leaking 20 MiB/s, a Python program growing 60 MiB over 3 s, a storm of 2,000
children one after another (4 MiB each), 200 children in waves of 10, a shell running /bin/true 1,500 times, and a parent
with 49 children sharing 8 MiB (the tree of bench/measure-overhead.sh). With --against, another sysstats (an older build)
is run alternately with DIR/sysstats, run for run. With --wall, the workload's own wall time
under each build against the workload alone, run for run in A B B A order (alone, measured,
measured, alone): the median slowdown. Prints medians and ranges as a Markdown table;
docs/budgets.md ("Overhead") quotes it.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROW = "import time\na = []\nfor i in range(300):\n    a.append(b'\\x01' * 200000)\n    time.sleep(0.01)\n"


def share(sysstats, command):
    run = subprocess.run([sysstats, "measure", "--json", "--output", "-", "--"] + command,
                         capture_output=True, text=True, timeout=120, check=True)
    report = json.loads(run.stdout)
    return 100.0 * report["measurer_cpu_ms"] / max(report["wall_ms"], 1)


def alone(command):
    start = time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
    return time.monotonic() - start


def measured(sysstats, command):
    start = time.monotonic()
    subprocess.run([sysstats, "measure", "--output", "/dev/null", "--"] + command,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
    return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--against")
    parser.add_argument("--wall", action="store_true")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="measure-busy-")
    program = os.path.join(scratch, "touch-memory")
    subprocess.run(["cc", "-O2", "-o", program, os.path.join(ROOT, "Tests/Fixtures/measure/touch-memory.c")], check=True)
    python = os.path.realpath(sys.executable)
    workloads = [
        ("a C program leaking 20 MiB/s for 3 s", [program, "leak", "20", "3"]),
        ("Python growing 60 MiB over 3 s", [python, "-c", GROW]),
        ("2,000 children one after another, 4 MiB each", [program, "storm", "2000", "4"]),
        ("200 children in waves of 10, 4 MiB and 50 ms each", [program, "waves", "200", "4", "10", "50"]),
        ("a shell running /bin/true 1,500 times", ["/bin/bash", "-c", "for i in $(seq 1 1500); do /bin/true; done"]),
        ("a parent and 49 children sharing 8 MiB, 3 s", [program, "shared", "8", "49", "3000"]),
    ]
    builds = [("now", os.path.join(args.bin, "sysstats"))] + ([("against", args.against)] if args.against else [])
    walls = [f"wall, {name}" for name, _ in builds] if args.wall else []
    print("| workload | " + " | ".join([name for name, _ in builds] + walls) + " |")
    print("|---|" + "---|" * (len(builds) + len(walls)))
    for name, command in workloads:
        shares = {b: [] for b, _ in builds}
        for _ in range(args.runs):
            for b, path in builds:
                shares[b].append(share(path, command))
        cells = [f"{statistics.median(v):.1f} % ({min(v):.1f}-{max(v):.1f})" for v in shares.values()]
        if args.wall:
            # A B B A: the workload alone, measured, measured, alone; each measured run against
            # the mean of the two alone beside it.
            slowdowns = {b: [] for b, _ in builds}
            for _ in range(args.runs):
                for b, path in builds:
                    first = alone(command)
                    pair = [measured(path, command), measured(path, command)]
                    mean = (first + alone(command)) / 2
                    slowdowns[b] += [100.0 * (m / mean - 1) for m in pair]
            cells += [f"{statistics.median(v):+.1f} % ({min(v):+.1f} to {max(v):+.1f})" for v in slowdowns.values()]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
