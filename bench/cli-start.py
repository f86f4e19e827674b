#!/usr/bin/env python3
"""Times `sysstats report` from start to exit, two builds side by side (issue 48's check).

    bench/cli-start.py [--runs 20] [--sampler PATH] BEFORE AFTER [ARGS...]

BEFORE and AFTER are `sysstats` programs (a release build of another commit, and this one's).
A sampler (default .build/release/sysstatsd) writes a snapshot of this machine into a
temporary runtime directory; then each program runs `report --runtime-dir DIR` (or ARGS),
alternating, RUNS times each, each run a new process. Prints the median and quartiles of
the wall time per program, the ratio of the medians, and each one's largest peak RSS
(getrusage of the children). The machine is shared and noisy: read the medians.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_run(program, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([program] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"cli-start: {program} {' '.join(args)} exited {done.returncode}: {done.stderr.decode()[:200]}")
    return elapsed * 1000, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--sampler", default=os.path.join(ROOT, ".build/release/sysstatsd"))
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="sysstats-cli-start-") as runtime:
        os.chmod(runtime, 0o700)
        sampler = subprocess.Popen([a.sampler, "--interval", "1", "--runtime-dir", runtime, "--no-history"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(50):
                if os.path.exists(os.path.join(runtime, "snapshot")):
                    break
                time.sleep(0.1)
            time.sleep(2.2)   # a second sample, with CPU shares
            args = [x for x in a.args if x != "--"] or ["report", "--runtime-dir", runtime]
            times = {a.before: [], a.after: []}
            peaks = {a.before: 0, a.after: 0}
            for program in (a.before, a.after):   # one untimed run each: the page cache
                one_run(program, args)
            for _ in range(a.runs):
                for program in (a.before, a.after):
                    ms, _ = one_run(program, args)
                    times[program].append(ms)
            # Peak RSS one program at a time (getrusage keeps the largest child's).
            for program in (a.before, a.after):
                peaks[program] = subprocess.run(["/usr/bin/time", "-f", "%M", program] + args, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()[-1]
        finally:
            sampler.terminate()
            sampler.wait()
    print(f"| program | median ms | quartiles ms | peak RSS KiB |\n|---|---:|---:|---:|")
    for label, program in (("before", a.before), ("after", a.after)):
        q = statistics.quantiles(times[program], n=4)
        print(f"| {label}: `{program}` | {statistics.median(times[program]):.2f} | {q[0]:.2f}-{q[2]:.2f} | {peaks[program]} |")
    ratio = statistics.median(times[a.after]) / statistics.median(times[a.before])
    print(f"\n{a.runs} runs each, alternating; after / before (medians): {ratio:.2f}x")


if __name__ == "__main__":
    main()
