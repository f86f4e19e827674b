#!/usr/bin/env python3
"""Makes Sources/sysstatsd/function-order.txt: the functions a sampler runs, most called first.

    bench/order-functions.py [--bin DIR] [--samples 40] [--out FILE] [--check]

The release link of sysstatsd places the sections named in that file first and together
(gold's --section-ordering-file; the sampler's modules are built with -function-sections,
the standard library already is). The sampler's resident code is then what it runs, packed,
instead of one 64 KiB window of code per function scattered over 5 MB (docs/performance-history.md,
"The sampler's code laid out by use").

Runs DIR/sysstatsd (default .build/release, with sysstatsd-history beside it) under
`valgrind --tool=callgrind` four ways, each until --samples snapshots:
  0. this machine's own /proc at 0.2 s with a bar's wants file (cpu, mem, load, battery),
     counted only from the tenth sample on, for 110 samples: the steady state, with two
     rounds of the parts measured every 10 s; and the same on a proc root of links to this
     machine's files (a container's --proc-root, bench/floor.sh's tree);
  1. the memory budget's command (bench/memory.py: 1,000 processes, history on);
  2. the same with the Prometheus textfile export written every sample;
  3. this machine's own /proc and /sys at 0.2 s, no history (a user's real paths).
The functions of the steady state come first, by their calls (most first): what a sample
runs once a second, packed into as few pages as it can be, since at one sample a second
each page and cache line it touches is a miss (docs/performance-history.md, "The fifth pass").
Then every other function that executed, by the calls made to it over the other runs
(most first), then by name; a name is written as `.text.NAME`, the section
-function-sections gives it. Names the link does not find are ignored by gold, so a list
made before a change still helps after it; make it again when the budget test's figure
climbs. --check prints how many of the file's names the binary still defines and exits
non-zero under 80 %.

Build first: `swift build -c release --product sysstatsd --product sysstatsd-history`.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import memory  # noqa: E402  (bench/memory.py: the budget's command and tree)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "Sources/sysstatsd/function-order.txt")


def parse_calls(path, calls):
    """Adds to `calls` {function: times called} from one callgrind file; every function
    that ran gets at least 1 (main and the entry point are never called by another)."""
    names = {}

    def name(value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            found = value
        else:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            found = names.get(m.group(1), value)
        return re.sub(r"'\d+$", "", found)  # callgrind's mark for a recursion level

    callee = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("fn="):
                fn = name(line[3:].rstrip("\n"))
                calls.setdefault(fn, 1)
            elif line.startswith("cfn="):
                callee = name(line[4:].rstrip("\n"))
            elif line.startswith("calls=") and callee:
                count = int(line[6:].split()[0])
                calls[callee] = calls.get(callee, 1) + count


def run(cmd, runtime, samples, out, timeout=900):
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + cmd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    try:
        while memory.sequence(runtime) < samples:
            if proc.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"order-functions: sysstatsd under callgrind ended or timed out (status {proc.returncode})")
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGTERM)   # the sampler exits cleanly; callgrind writes on exit
        proc.wait(300)
    if not os.path.exists(out):
        sys.exit(f"order-functions: callgrind wrote no {out}")


def run_steady(cmd, runtime, warm, samples, out, timeout=900):
    """Like run, but counts only from snapshot `warm` to `warm + samples` (callgrind_control
    zeroes the counters, then dumps them to `out`.1)."""
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + cmd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout

    def wait_for(n):
        while memory.sequence(runtime) < n:
            if proc.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"order-functions: sysstatsd under callgrind ended or timed out (status {proc.returncode})")
            time.sleep(0.05)
    try:
        wait_for(warm)
        subprocess.run(["callgrind_control", "-z", str(proc.pid)], check=True, stdout=subprocess.DEVNULL)
        wait_for(warm + samples)
        subprocess.run(["callgrind_control", "-d", str(proc.pid)], check=True, stdout=subprocess.DEVNULL)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(300)
    if not os.path.exists(out + ".1"):
        sys.exit(f"order-functions: callgrind wrote no {out}.1")


def defined_functions(binary):
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    return {parts[2] for parts in (line.split() for line in out.splitlines()) if len(parts) == 3 and parts[1] in "tTwW"}


def check(binary, order_file):
    listed = [line.strip()[len(".text."):] for line in open(order_file) if line.startswith(".text.")]
    defined = defined_functions(binary)
    found = sum(1 for n in listed if n in defined)
    share = found / len(listed) if listed else 0
    print(f"order-functions: {found} of {len(listed)} listed functions are in {binary} ({share:.0%})")
    return share >= 0.8


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    p.add_argument("--samples", type=int, default=40)
    p.add_argument("--out", default=DEFAULT_OUT)
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    binary = os.path.join(args.bin, "sysstatsd")
    if args.check:
        sys.exit(0 if check(binary, args.out) else 1)
    for tool in ("valgrind", "callgrind_control", "objcopy", "nm"):
        if not shutil.which(tool):
            sys.exit(f"order-functions: {tool} is missing (install/deps.sh installs it)")

    with tempfile.TemporaryDirectory(prefix="sysstats-order-") as work:
        # Valgrind cannot read the debug information of this toolchain's release builds:
        # a copy without it keeps the symbol table, which is all the names need.
        bin_dir = os.path.join(work, "bin")
        os.mkdir(bin_dir)
        subprocess.run(["objcopy", "--strip-debug", binary, os.path.join(bin_dir, "sysstatsd")], check=True)
        shutil.copy2(os.path.join(args.bin, "sysstatsd-history"), bin_dir)
        tree = os.path.join(work, "tree")
        memory.make_tree(tree, 1000)

        steady = {}
        runtime = os.path.join(work, "run.0")
        os.mkdir(runtime, 0o700)
        os.mkdir(os.path.join(runtime, "wants"), 0o700)
        with open(os.path.join(runtime, "wants", "1"), "w") as f:
            f.write("46\n")   # SnapshotSections cpu 2 + memory 4 + load 8 + battery 32 (pid 1 lives)
        cmd = [os.path.join(bin_dir, "sysstatsd"), "--interval", "0.2", "--runtime-dir", runtime, "--no-history"]
        # 110 samples at 0.2 s: two rounds of the parts no renderer shows (every 10 s, 50
        # samples), so that their code is packed beside the every-sample code too.
        run_steady(cmd, runtime, 10, max(args.samples, 110), os.path.join(work, "cg.0"))
        parse_calls(os.path.join(work, "cg.0.1"), steady)
        # The same with a proc root of links to this machine's files (a container's
        # --proc-root, bench/floor.sh): /proc/net/dev and operstate instead of netlink.
        links = os.path.join(work, "proc-links")
        os.mkdir(links)
        for name in ("stat", "meminfo", "loadavg", "uptime", "diskstats", "pressure", "net"):
            if os.path.exists("/proc/" + name):
                os.symlink("/proc/" + name, os.path.join(links, name))
        runtime = os.path.join(work, "run.0b")
        os.mkdir(runtime, 0o700)
        os.mkdir(os.path.join(runtime, "wants"), 0o700)
        with open(os.path.join(runtime, "wants", "1"), "w") as f:
            f.write("46\n")
        cmd = [os.path.join(bin_dir, "sysstatsd"), "--interval", "0.2", "--runtime-dir", runtime, "--no-history",
               "--proc-root", links, "--sys-root", "/sys", "--disk", "/"]
        run_steady(cmd, runtime, 10, max(args.samples, 110), os.path.join(work, "cg.0b"))
        parse_calls(os.path.join(work, "cg.0b.1"), steady)

        calls = {}
        cmd, runtime, _ = memory.command(bin_dir, tree, work, 1)
        run(cmd, runtime, args.samples, os.path.join(work, "cg.1"))
        parse_calls(os.path.join(work, "cg.1"), calls)

        textfiles = os.path.join(work, "textfiles")
        os.mkdir(textfiles)
        cmd, runtime, _ = memory.command(bin_dir, tree, work, 2)
        run(cmd + ["--textfile-dir", textfiles, "--textfile-interval", "1"], runtime, args.samples, os.path.join(work, "cg.2"))
        parse_calls(os.path.join(work, "cg.2"), calls)

        runtime = os.path.join(work, "run.3")
        os.mkdir(runtime, 0o700)
        cmd = [os.path.join(bin_dir, "sysstatsd"), "--interval", "0.2", "--runtime-dir", runtime, "--no-history"]
        run(cmd, runtime, min(args.samples, 20), os.path.join(work, "cg.3"))
        parse_calls(os.path.join(work, "cg.3"), calls)

    def valid(n):
        return re.fullmatch(r"[A-Za-z0-9_$.]+", n)
    first = sorted((n for n in steady if valid(n)), key=lambda n: (-steady[n], n))
    names = first + sorted((n for n in calls if valid(n) and n not in steady), key=lambda n: (-calls[n], n))
    with open(args.out, "w") as f:
        for n in names:
            f.write(f".text.{n}\n")
    print(f"order-functions: {len(names)} functions written to {os.path.relpath(args.out, ROOT)}, "
          f"the steady state's {len(first)} first")
    # SwiftPM does not know the link reads the file: without the binary it links again.
    if os.path.realpath(args.out) == os.path.realpath(DEFAULT_OUT):
        os.remove(binary)
        print("order-functions: removed the binary; link it again: swift build -c release --product sysstatsd")


if __name__ == "__main__":
    main()
