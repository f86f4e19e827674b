#!/usr/bin/env python3
"""Makes Sources/sysstatsd/function-order.txt: the functions a sampler runs, most called first.

    bench/order-functions.py [--bin DIR] [--samples 40] [--out FILE] [--check]

The release link of sysstatsd (lld's --symbol-ordering-file) places the input sections that
define the symbols named in that file first and together, in its order. The sampler's modules
are built with -function-sections, so each of their functions is a section of its own; glibc's
are mostly one small object each; the standard library's own `.text` in Swift.o is one 1.6 MB
section that cannot be split. The sampler's resident code is then what it runs, packed,
instead of one 64 KiB window of code (or one page-cache folio) per function scattered over
5 MB (docs/performance-history.md, "The sampler's code laid out by use").

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
(most first), then by name. Then what a native run executes that callgrind does not see:
the start-up's lookup of the vDSO (valgrind has none to look up), the C runtime's frame
set-up, and every CPU variant of a glibc string function that ran (glibc picks one per CPU,
and valgrind's CPU is not the machine's). Last, the names whose section is Swift.o's `.text`:
naming one moves the whole section, so they come after everything else, and the standard
library's code follows the packed run instead of splitting it.

Names the link does not find are ignored, so a list made before a change still helps after
it; make it again when the budget test's figure climbs. --check prints how many of the file's
names the binary still defines and exits non-zero under 80 %.

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


def defined_symbols(binary):
    """{name: address} of the binary's defined symbols (the first, for a name defined twice)."""
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    found = {}
    for parts in (line.split() for line in out.splitlines()):
        if len(parts) == 3:
            found.setdefault(parts[2], int(parts[0], 16))
    return found


def check(binary, order_file):
    listed = [line.strip() for line in open(order_file) if line.strip()]
    defined = defined_symbols(binary)
    found = sum(1 for n in listed if n in defined)
    share = found / len(listed) if listed else 0
    print(f"order-functions: {found} of {len(listed)} listed functions are in {binary} ({share:.0%})")
    return share >= 0.8


# What a native start runs and callgrind does not see: glibc's static start-up looks up the
# vDSO's clock functions (valgrind gives the program no vDSO), the C runtime's frame set-up
# and tear-down, and the IFUNC resolver of strcmp, which the start-up calls before main.
NATIVE_START = ["_dl_non_dynamic_init", "_dl_new_object", "_dl_setup_hash", "_dl_add_to_namespace_list",
                "_dl_lookup_symbol_x", "do_lookup_x", "check_match", "strcmp_ifunc", "frame_dummy",
                "register_tm_clones", "deregister_tm_clones", "__do_global_dtors_aux"]

# glibc's string functions come in CPU variants (`__memmove_avx_unaligned_erms`,
# `__memmove_evex_unaligned_erms`, ...) and the start-up picks one per CPU.
CPU_VARIANT = re.compile(r"^(__\w+?)_(avx2|avx|evex|sse2|sse4_1|sse4_2|ssse3|avx512\w*)")


def swift_text(binary):
    """(start, end) of Swift.o's `.text` in the binary: the standard library's compiled code,
    one section. Found from the toolchain's libswiftCore.a: a global symbol's address in the
    binary less its offset in the section."""
    if "swift_conformsToProtocol" not in defined_symbols(binary):
        return 0, 0, set()   # Embedded Swift: no runtime metadata, no libswiftCore.a
    swift = shutil.which("swift")
    archive = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))),
                           "lib/swift_static/linux/libswiftCore.a") if swift else ""
    if not os.path.exists(archive):
        sys.exit(f"order-functions: no libswiftCore.a beside the swift on PATH ({archive or 'no swift'})")
    with tempfile.TemporaryDirectory(prefix="sysstats-swift-o-") as work:
        subprocess.run(["ar", "x", archive, "Swift.o"], cwd=work, check=True)
        obj = os.path.join(work, "Swift.o")
        headers = subprocess.run(["objdump", "-h", obj], capture_output=True, text=True, check=True).stdout
        size = next(int(p[2], 16) for p in (line.split() for line in headers.splitlines()) if len(p) > 2 and p[1] == ".text")
        table = subprocess.run(["objdump", "-t", obj], capture_output=True, text=True, check=True).stdout
    # objdump -t: "VALUE FLAGS SECTION\tSIZE NAME", FLAGS seven columns wide ("l     F").
    offsets, local = {}, set()
    for line in table.splitlines():
        section, _, rest = line[25:].partition("\t")
        if len(line) < 26 or section != ".text" or " " not in rest:
            continue
        name = rest.split()[-1]   # after the size, and ".hidden" or ".protected" if any
        if line[17] == "l":
            local.add(name)
        else:
            offsets[name] = int(line[:16], 16)
    defined = defined_symbols(binary)
    bases = {}
    for name, offset in offsets.items():
        if name in defined:
            base = defined[name] - offset
            bases[base] = bases.get(base, 0) + 1
    if not bases:
        # An Embedded Swift sampler has no Swift.o: the standard library's code it runs is
        # specialised into its own modules, a section per function like theirs.
        return 0, 0, set()
    start = max(bases, key=bases.get)
    return start, start + size, local


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
    for tool in ("valgrind", "callgrind_control", "objcopy", "nm", "objdump", "ar"):
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

    defined = defined_symbols(binary)
    variants = sorted(n for n in defined if CPU_VARIANT.match(n))
    ordered, seen = [], set()

    def add(n):
        if n not in seen and n in defined:
            seen.add(n)
            ordered.append(n)
    for n in names + NATIVE_START:
        add(n)
        m = CPU_VARIANT.match(n)
        if m:
            for v in variants:
                if v.startswith(m.group(1) + "_"):
                    add(v)
    start, end, local = swift_text(binary)
    in_swift = [n for n in ordered if n in local or start <= defined[n] < end]
    moved = set(in_swift)
    ordered = [n for n in ordered if n not in moved] + in_swift
    with open(args.out, "w") as f:
        for n in ordered:
            f.write(n + "\n")
    print(f"order-functions: {len(ordered)} functions written to {os.path.relpath(args.out, ROOT)}, "
          f"the steady state's {len(first)} first, {len(in_swift)} in Swift.o's .text last")
    # SwiftPM does not know the link reads the file: without the binary it links again.
    if os.path.realpath(args.out) == os.path.realpath(DEFAULT_OUT):
        os.remove(binary)
        print("order-functions: removed the binary; link it again: swift build -c release --product sysstatsd")


if __name__ == "__main__":
    main()
