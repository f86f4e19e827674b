#!/usr/bin/env python3
"""Which 64 KiB windows of the sampler's executable are resident, and what runs in them.

    bench/code-windows.py [--bin DIR] [--callgrind] [--all] [--samples 40] [--processes 1000]
    bench/code-windows.py --diff OLDDIR [--bin DIR] [--callgrind]

Starts DIR/sysstatsd (default .build/release) as bench/memory.py does (the budget test's
tree and options, history on), and after --samples snapshots reads /proc/PID/maps and, for
the executable's r-xp mapping, the present bit (63) of each page in /proc/PID/pagemap
(readable without privileges). The kernel maps a file page with its neighbours in the same
64 KiB window (fault-around), so resident pages come in windows of file offset; each
resident window is printed with the functions in it, from `nm -S --defined-only` of the
binary (demangled by `swift demangle --simplified` when there is one).

--callgrind also runs the same command under `valgrind --tool=callgrind` (about a
minute) and keeps, per window, only the functions that executed, with their own
instruction counts (Ir): a window whose executed functions add up to a few hundred
instructions is start-up code worth rewriting. Callgrind is dumped before SIGTERM
(callgrind_control), so shutdown paths do not show.

--diff OLDDIR does the same for OLDDIR/sysstatsd and says which of the new binary's
resident windows run code the old one did not run (or, without --callgrind, hold
functions none of the old resident windows held), and which old windows are gone.
Build first: `swift build -c release --product sysstatsd` and `--product sysstatsd-history`.
"""
import argparse
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import memory  # noqa: E402  (bench/memory.py: the same command and tree)

WINDOW = 64 * 1024
PAGE = 4096


def wait_for_samples(proc, runtime, samples, timeout):
    deadline = time.monotonic() + timeout
    while memory.sequence(runtime) < samples:
        if proc.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"sysstatsd ended or timed out (status {proc.returncode})")
        time.sleep(0.05)


def resident_windows(pid, binary):
    """{window index: resident page count} of the binary's executable mapping, by file offset."""
    real = os.path.realpath(binary)
    windows = {}
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) < 6 or "x" not in parts[1] or os.path.realpath(parts[5].strip()) != real:
                continue
            start, end = (int(v, 16) for v in parts[0].split("-"))
            offset = int(parts[2], 16)
            pagemap.seek(start // PAGE * 8)
            entries = pagemap.read((end - start) // PAGE * 8)
            for i in range(len(entries) // 8):
                (entry,) = struct.unpack_from("<Q", entries, i * 8)
                if entry >> 63:
                    w = (offset + i * PAGE) // WINDOW
                    windows[w] = windows.get(w, 0) + 1
    return windows


def executable_segments(binary):
    """[(vaddr, file offset, size)] of the PT_LOAD segments with the execute flag."""
    with open(binary, "rb") as f:
        header = f.read(64)
        if header[:4] != b"\x7fELF" or header[4] != 2:
            sys.exit(f"{binary}: not a 64-bit ELF file")
        phoff, = struct.unpack_from("<Q", header, 32)
        phentsize, phnum = struct.unpack_from("<HH", header, 54)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    segments = []
    for i in range(phnum):
        p_type, p_flags, p_offset, p_vaddr, _, p_filesz = struct.unpack_from("<IIQQQQ", table, i * phentsize)
        if p_type == 1 and p_flags & 1:
            segments.append((p_vaddr, p_offset, p_filesz))
    return segments


def demangler():
    swift = shutil.which("swift")
    return [swift, "demangle", "--simplified", "--compact"] if swift else None


def demangle(names):
    tool = demangler()
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run(tool, input="\n".join(names) + "\n", capture_output=True, text=True).stdout.split("\n")
    return {n: (out[i] if i < len(out) and out[i] else n) for i, n in enumerate(names)}


def symbols(binary):
    """[(file offset, size, mangled name, nm type)] of the symbols inside executable segments."""
    segments = executable_segments(binary)
    out = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    found, seen = [], set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        address, size, kind, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
        if kind in "bBdD" or size == 0:
            continue
        for vaddr, offset, filesz in segments:
            if vaddr <= address < vaddr + filesz:
                key = (address, size)
                if key not in seen:
                    seen.add(key)
                    found.append((address - vaddr + offset, size, name, kind))
                break
    found.sort()
    return found


def by_window(syms):
    """{window: [(offset, size, name, type)]}: each symbol in every window it overlaps."""
    windows = {}
    for offset, size, name, kind in syms:
        for w in range(offset // WINDOW, (offset + size - 1) // WINDOW + 1):
            windows.setdefault(w, []).append((offset, size, name, kind))
    return windows


def parse_callgrind(path):
    """{mangled function name: own Ir} from a callgrind output file (names compressed or not)."""
    names, costs, fn, skip_next = {}, {}, None, False

    def name(value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), value)

    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if skip_next:      # the inclusive cost line after calls=
                skip_next = False
                continue
            if line.startswith("fn="):
                fn = name(line[3:])
            elif line.startswith("cfn="):
                name(line[4:])  # functions share one table of compressed names; files have their own
            elif line.startswith(("cfi=", "cfl=", "fl=", "fi=", "fe=", "ob=", "cob=")):
                pass
            elif line.startswith("calls="):
                skip_next = True
            elif fn and line[:1] in "0123456789+-*":
                fields = line.split()
                if len(fields) >= 2 and fields[1].isdigit():
                    costs[fn] = costs.get(fn, 0) + int(fields[1])
    return costs


def run_callgrind(bin_dir, tree, work, n, samples):
    """Runs the sampler under callgrind until `samples` snapshots; returns {function: own Ir}."""
    cmd, runtime, _ = memory.command(bin_dir, tree, work, n)
    out = os.path.join(work, f"callgrind.{n}")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + cmd,
                            stderr=subprocess.DEVNULL)
    try:
        wait_for_samples(proc, runtime, samples, 600)
        # Dump before SIGTERM: what runs at shutdown is not resident while the budget is read.
        subprocess.run(["callgrind_control", "-d", str(proc.pid)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(120)
    # The first dump (part 1) covers start-up to the dump; without it, the whole run.
    parts = sorted(p for p in os.listdir(work) if p.startswith(f"callgrind.{n}."))
    return parse_callgrind(os.path.join(work, parts[0] if parts else f"callgrind.{n}"))


def measure(bin_dir, tree, work, n, args):
    """(resident windows, symbols by window, executed costs or None, VmHWM) for one binary."""
    binary = os.path.join(bin_dir, "sysstatsd")
    cmd, runtime, _ = memory.command(bin_dir, tree, work, n)
    proc = subprocess.Popen(cmd)
    try:
        wait_for_samples(proc, runtime, args.samples, 60)
        resident = resident_windows(proc.pid, binary)
        hwm = memory.kib(f"/proc/{proc.pid}/status", "VmHWM")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    costs = run_callgrind(bin_dir, tree, work, n + 100, min(args.samples, 10)) if args.callgrind else None
    return resident, by_window(symbols(binary)), costs, hwm


OUR_MODULES = ("6ProcFS", "7Sampler", "13SnapshotCodec", "9Bookmarks", "14HistoryRecords", "10SystemDirs",
               "9sysstatsd", "sysstatsd_main")


def layout_luck(syms, costs):
    """How many windows the code after our modules (the standard library, the runtime, libc)
    takes with the functions that ran, if its start moved by each multiple of 256 bytes:
    (boundary, windows as linked, min, median, max). Our modules come first in the
    executable, so every change of their size moves the rest by that much."""
    boundary = max((o + size for o, size, name, kind in syms
                    if kind in "tTwW" and any(m in name for m in OUR_MODULES)), default=0)
    ranges = [(o, size) for o, size, name, _ in syms if o >= boundary and name in costs]

    def count(shift):
        windows = set()
        for o, size in ranges:
            windows.update(range((o + shift) // WINDOW, (o + shift + size - 1) // WINDOW + 1))
        return len(windows)

    counts = sorted(count(shift) for shift in range(0, WINDOW, 256))
    return boundary, count(0), counts[0], counts[len(counts) // 2], counts[-1]


def window_functions(w, syms, costs):
    """[(own Ir or None, mangled)] of window w: the executed ones when costs are known."""
    entries = syms.get(w, [])
    if costs is None:
        return [(None, name) for _, _, name, _ in entries]
    return sorted(((costs[name], name) for _, _, name, _ in entries if name in costs), reverse=True)


def show_luck(title, syms, costs):
    boundary, linked, low, median, high = layout_luck(syms, costs)
    print(f"{title}: the code after ours (from 0x{boundary:x}) runs in {linked} windows as linked; "
          f"moved by 0-64 KiB it would take {low}-{high} (median {median})")


def show(title, resident, syms, costs, hwm, all_functions, names):
    total = sum(resident.values())
    print(f"{title}: {len(resident)} resident windows, {total} pages ({total * 4} KiB) of code; VmHWM {hwm} KiB")
    if costs is not None:
        show_luck(title, flat_symbols(syms), costs)
    for w in sorted(resident):
        fns = window_functions(w, syms, costs)
        ir = sum(c for c, _ in fns if c)
        head = f"  window {w:4d} (0x{w * WINDOW:07x}) {resident[w]:2d} pages"
        if costs is not None:
            head += f"  {len(fns)} functions run, {ir} Ir"
        else:
            head += f"  {len(fns)} symbols"
        print(head)
        shown = fns if all_functions or costs is not None else fns[:6]
        for c, name in shown[:40]:
            print(f"      {'' if c is None else f'{c:>10} '}{names.get(name, name)}")
        if len(shown) < len(fns) or len(shown) > 40:
            print(f"      … {len(fns) - min(len(shown), 40)} more")


def flat_symbols(by_window_syms):
    """The symbols of a by_window() map, once each."""
    return sorted({entry for entries in by_window_syms.values() for entry in entries})


def key_set(resident, syms, costs):
    """The functions that count for each resident window: executed ones, else all its symbols."""
    return {w: {name for _, name in window_functions(w, syms, costs)} for w in resident}


def diff(old, new, names):
    (o_res, o_syms, o_costs, o_hwm), (n_res, n_syms, n_costs, n_hwm) = old, new
    o_keys, n_keys = key_set(o_res, o_syms, o_costs), key_set(n_res, n_syms, n_costs)
    o_all = set().union(*o_keys.values()) if o_keys else set()
    n_all = set().union(*n_keys.values()) if n_keys else set()
    print(f"old: {len(o_res)} windows, VmHWM {o_hwm} KiB; new: {len(n_res)} windows, VmHWM {n_hwm} KiB")
    if o_costs is not None and n_costs is not None:
        show_luck("old", flat_symbols(o_syms), o_costs)
        show_luck("new", flat_symbols(n_syms), n_costs)
    print("\nNew windows (every function counted there is new) and shared ones with new functions:")
    added = 0
    for w in sorted(n_res):
        fresh = n_keys[w] - o_all
        if not fresh:
            continue
        whole = fresh == n_keys[w]
        added += whole
        print(f"  {'NEW   ' if whole else 'shared'} window {w:4d}: {len(fresh)} of {len(n_keys[w])} functions new")
        listed = sorted(fresh, key=lambda f: -(n_costs or {}).get(f, 0))
        for name in listed[:25]:
            c = (n_costs or {}).get(name)
            print(f"      {'' if c is None else f'{c:>10} '}{names.get(name, name)}")
        if len(listed) > 25:
            print(f"      … {len(listed) - 25} more")
    print(f"\nWindows of the old binary whose functions no longer count ({'run' if n_costs is not None else 'resident'}):")
    gone = 0
    for w in sorted(o_res):
        if o_keys[w] and not (o_keys[w] & n_all):
            gone += 1
            print(f"  window {w:4d}: " + ", ".join(names.get(f, f) for f in sorted(o_keys[w])[:6]))
    print(f"\n{added} windows wholly new, {gone} old windows gone, {len(n_res) - len(o_res):+d} in all")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(memory.ROOT, ".build/release"))
    p.add_argument("--diff", metavar="OLDDIR", help="compare with OLDDIR/sysstatsd")
    p.add_argument("--callgrind", action="store_true", help="only the functions that ran (valgrind, slow)")
    p.add_argument("--all", action="store_true", help="every symbol of each window, not the first six")
    p.add_argument("--samples", type=int, default=40)
    p.add_argument("--processes", type=int, default=1000)
    args = p.parse_args()
    # memory.py's prefix: the paths' lengths can change which code runs.
    work = tempfile.mkdtemp(prefix="sysstats-memory-")
    try:
        tree = os.path.join(work, "tree")
        memory.make_tree(tree, args.processes)
        new = measure(args.bin, tree, work, 0, args)
        old = measure(args.diff, tree, work, 1, args) if args.diff else None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    wanted = set()
    for m in (new, old):
        if m:
            for w in m[0]:
                wanted.update(name for _, name in window_functions(w, m[1], m[2]))
    names = demangle(sorted(wanted))
    if old:
        diff(old, new, names)
    else:
        show(os.path.join(args.bin, "sysstatsd"), *new, args.all, names)


if __name__ == "__main__":
    main()
