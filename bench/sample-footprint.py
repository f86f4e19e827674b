#!/usr/bin/env python3
"""What one quiet sample of sysstatsd touches: instructions, and the distinct 64-byte lines
and 4 KiB pages of code and of data.

    bench/sample-footprint.py [--sampler PATH] [--real-proc] [--functions N] [--pages] [--seconds S]

At one sample a second the caches and the TLB are cold each time, so what a sample costs
past its system calls follows what it touches more than how many instructions it runs: on
this machine a line missed costs ~135 ns when the next access waits for it, a page missed
in the TLB ~400 ns more (docs/performance-history.md, "The fifth pass", measured with a C program
that walks N lines on M pages once a second).

Runs a copy of the sampler without debug information (valgrind cannot read this
toolchain's) under `valgrind --tool=lackey --trace-mem=yes`, at 0.5 s, on a tree of links
to this machine's /proc/stat, meminfo, loadavg, uptime, pressure, diskstats and net with a
renderer's wants file saying cpu, mem, load, battery (bench/floor.sh's "bar's parts"), or
with --real-proc on this machine's /proc. The trace is cut into samples where the sampler
enters clock_nanosleep; slivers, the first six whole samples and the last are dropped,
and the medians of the rest printed. --functions N lists, for the median sample, the N functions that touch the
most lines (code, data); --pages lists its data pages, each with its lines and the
functions touching it most (a page entered for one line is a TLB miss for one line). About
30 s with the default 12 s of sampling.

Build first: `swift build -c release --product sysstatsd`.
"""
import argparse
import bisect
import collections
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def symbols(binary):
    out = subprocess.run(["nm", "-n", binary], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            rows.append((int(parts[0], 16), parts[2], parts[1]))
    return rows


def samples(trace, sleep_start, sleep_end):
    """Yields, per sample: {instruction address: count}, [(instruction address, data address)]."""
    code, data = collections.Counter(), []
    inside = False
    last = 0
    with open(trace, errors="replace") as f:
        for line in f:
            if line.startswith("=="):
                continue
            kind = line[:2].strip()
            try:
                address = int(line[3:].split(",")[0], 16)
            except ValueError:
                continue
            if kind == "I":
                if sleep_start <= address < sleep_end:
                    if not inside:
                        yield code, data
                        code, data = collections.Counter(), []
                    inside = True
                    continue
                inside = False
                last = address
                code[address] += 1
            elif not inside:
                data.append((last, address))
    yield code, data


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sampler", default=os.path.join(ROOT, ".build/release/sysstatsd"))
    p.add_argument("--real-proc", action="store_true")
    p.add_argument("--functions", type=int, default=0)
    p.add_argument("--pages", action="store_true",
                   help="list the median sample's data pages, each with its lines and the functions touching it")
    p.add_argument("--seconds", type=float, default=12)
    args = p.parse_args()
    for tool in ("valgrind", "objcopy", "nm"):
        if not shutil.which(tool):
            sys.exit(f"sample-footprint: {tool} is missing (install/deps.sh installs it)")
    if not os.path.exists(args.sampler):
        sys.exit(f"sample-footprint: no {args.sampler} (swift build -c release --product sysstatsd)")

    with tempfile.TemporaryDirectory(prefix="sysstats-footprint-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as work:
        binary = os.path.join(work, "sysstatsd")
        subprocess.run(["objcopy", "--strip-debug", args.sampler, binary], check=True)
        runtime = os.path.join(work, "run")
        os.mkdir(runtime, 0o700)
        os.mkdir(os.path.join(runtime, "wants"), 0o700)
        with open(os.path.join(runtime, "wants", "1"), "w") as f:
            f.write("46\n")   # SnapshotSections cpu 2 + memory 4 + load 8 + battery 32; pid 1 lives
        cmd = [binary, "--interval", "0.5", "--no-history", "--runtime-dir", runtime]
        if not args.real_proc:
            proc = os.path.join(work, "proc")
            os.mkdir(proc)
            for name in ("stat", "meminfo", "loadavg", "uptime", "diskstats", "pressure", "net"):
                if os.path.exists("/proc/" + name):
                    os.symlink("/proc/" + name, os.path.join(proc, name))
            cmd += ["--proc-root", proc, "--sys-root", "/sys", "--disk", "/"]
        trace = os.path.join(work, "trace")
        try:
            subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={trace}"] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=args.seconds)
        except subprocess.TimeoutExpired:
            pass   # the sampler runs until stopped: the trace is what it did meanwhile
        table = symbols(binary)
        starts = [row[0] for row in table]
        sleep = next((row[0] for row in table if row[1] == "__clock_nanosleep"), None)
        if sleep is None:
            sys.exit("sample-footprint: no __clock_nanosleep in the binary")
        # Whole samples only (a sleep a signal cut short leaves a sliver), without the first
        # six: the sampler's first seconds still allocate (caches filled, lists sized).
        found = [s for s in list(samples(trace, sleep, sleep + 0x100))[:-1] if sum(s[0].values()) > 1000][6:]
        if not found:
            sys.exit("sample-footprint: no whole sample in the trace (give it more --seconds)")

        def figures(s):
            code_lines = {a >> 6 for a in s[0]}
            data_lines = {a >> 6 for _, a in s[1]}
            return (sum(s[0].values()), len(code_lines), len({x >> 6 for x in code_lines}),
                    len(data_lines), len({x >> 6 for x in data_lines}))
        rows = [figures(s) for s in found]
        names = ["instructions", "code lines", "code pages", "data lines", "data pages"]
        print(f"sample-footprint: {len(rows)} samples of {os.path.relpath(args.sampler, ROOT)}"
              f" on {'this machine' + chr(39) + 's /proc' if args.real_proc else 'the floor tree (the bar' + chr(39) + 's parts)'}")
        for i, name in enumerate(names):
            values = [r[i] for r in rows]
            print(f"  {name:13} median {statistics.median(values):>8.0f}  (min {min(values)}, max {max(values)})")
        if args.functions or args.pages:
            median = sorted(found, key=lambda s: sum(s[0].values()))[len(found) // 2]

            def name_of(address):
                i = bisect.bisect_right(starts, address) - 1
                return table[i][1] if i >= 0 else "?"
            code, data = collections.defaultdict(set), collections.defaultdict(set)
            for address in median[0]:
                code[name_of(address)].add(address >> 6)
            for instruction, address in median[1]:
                data[name_of(instruction)].add(address >> 6)
            if args.pages:
                pages = collections.defaultdict(lambda: (set(), collections.Counter()))
                for instruction, address in median[1]:
                    lines, who = pages[address >> 12]
                    lines.add(address >> 6)
                    who[name_of(instruction)] += 1
                print("  data pages of the median sample (lines, the functions touching it most):")
                for page in sorted(pages):
                    lines, who = pages[page]
                    top = ", ".join(f"{n[:40]}×{c}" for n, c in who.most_common(3))
                    print(f"  {page << 12:#14x} {len(lines):3d}  {top}")
            if not args.functions:
                return
            print(f"  lines touched by function in the median sample (code, data):")
            for n in sorted(set(code) | set(data), key=lambda n: -(len(code[n]) + len(data[n])))[:args.functions]:
                print(f"  {len(code[n]):5d} {len(data[n]):5d}  {n[:110]}")


if __name__ == "__main__":
    main()
