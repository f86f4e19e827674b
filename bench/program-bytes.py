#!/usr/bin/env python3
"""What each installed program's bytes are: the Swift runtime, Foundation, ICU's data,
ArgumentParser, SQLite, the project's own code.

    bench/program-bytes.py [--bin DIR] [--write]

Reads the release programs in DIR (default .build/release, not stripped: their symbols say
where each byte came from) with `nm -S` and `size -A`, and strips a copy of each as
install/package.sh does for the size a package ships. A symbol belongs to a part by its
name: a Swift symbol by the module its mangled name starts with, a C or C++ one by its
prefix (icudt*_dat is ICU's data, u_/ucol_/icu_ its code, sqlite3 SQLite, swift_ and
swift:: the runtime; the rest is glibc in the static programs, libstdc++'s parts the Swift
runtime needs, and the project's C shims). What no symbol covers (exception tables, relocations, headers, the
linker's padding) is "other". --write puts the table into docs/packaging.md between its
`program bytes` markers; issue 48 starts from these figures.
"""
import argparse
import os
import re
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def installed_programs():
    """The programs install/programs.sh names (the one list the install scripts share)."""
    with open(os.path.join(ROOT, "install/programs.sh")) as f:
        for line in f:
            if line.startswith("programs=("):
                return line.strip()[len("programs=("):-1].split()
    raise SystemExit("program-bytes: no programs=( line in install/programs.sh")


PROGRAMS = installed_programs()
PARTS = ["ICU data", "ICU code", "Foundation", "FoundationEssentials", "Swift standard library and runtime",
         "ArgumentParser", "SQLite", "sysstats", "C and C++ libraries"]
OWN = {"SysstatsCLI", "sysstats", "ProcFS", "SnapshotCodec", "BarCore", "BarCoreEmbedded", "BarRuntime", "Sampler",
       "HistoryStore", "HistoryRecords", "Bookmarks", "TOML", "UTF8Text", "CommandOptions", "SystemDirs", "PrometheusText",
       "SnapshotCodecEmbedded", "UTF8TextEmbedded", "sysstatsd", "sysstatsd_history", "sysstats_bar", "sysstats_bar_x11",
       "CommandOptionsEmbedded", "SystemDirsEmbedded", "sysstatsd_gpu", "sysstats_spawn", "JSONCoding"}


def swift_module(name):
    """The module a Swift mangled name starts with ($s10Foundation...: Foundation)."""
    m = re.match(r"_?\$[se](\d+)", name)   # $e: Embedded Swift's mangling
    if not m:
        return None
    length = int(m.group(1))
    start = m.end()
    return name[start:start + length]


def part(name):
    if re.match(r"icudt\d+_dat", name):
        return "ICU data"
    module = swift_module(name)
    if module is not None:
        if module == "Foundation" or module.startswith("Foundation") and module not in ("FoundationEssentials",):
            return "Foundation" if module != "FoundationEssentials" else "FoundationEssentials"
        if module == "FoundationEssentials" or module.startswith("_Foundation"):
            return "FoundationEssentials"
        if module == "ArgumentParser" or module.startswith("ArgumentParser"):
            return "ArgumentParser"
        if module in OWN or module.removesuffix("Embedded") in OWN or module.startswith("C") and module[1:2].isupper():
            return "sysstats"
        return "Swift standard library and runtime"
    if name.startswith(("$s", "_$s", "$S", "$e", "swift_", "_swift_", "_ZN5swift", "_ZNK5swift", "__swift", "_swift")):
        return "Swift standard library and runtime"
    if name.startswith(("u_", "ucol_", "ubrk_", "ucal_", "udat_", "unum_", "uloc_", "ures_", "ucnv_", "utrans_", "uregex_",
                        "_ZN6icu_", "_ZNK6icu_", "icu_", "ulocimp_", "uprv_", "ustr_", "utext_", "ucase_", "uset_", "udata_")):
        return "ICU code"
    if name.startswith("sqlite3"):
        return "SQLite"
    if name.startswith(("cgpuhelper", "cspawnhelper", "measure_", "cbar", "csampler", "cdirect", "crc32", "ctrusted", "cclock", "nvml", "clibc")):
        return "sysstats"
    return "C and C++ libraries"


def breakdown(path):
    sizes = {p: 0 for p in PARTS}
    out = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) != 4:
            continue
        if fields[2] in "bBuU":
            continue   # zero-filled at run time: no bytes in the file
        try:
            size = int(fields[1], 16)
        except ValueError:
            continue
        sizes[part(fields[3])] += size
    loaded = 0
    for line in subprocess.run(["size", "-A", path], capture_output=True, text=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0].startswith(".") and not fields[0].startswith((".debug", ".comment", ".symtab", ".strtab", ".bss", ".tbss")):
            loaded += int(fields[1])
    return sizes, loaded


def stripped(path):
    with tempfile.TemporaryDirectory() as work:
        copy = os.path.join(work, "p")
        shutil.copy(path, copy)
        subprocess.run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", copy], check=True)
        return os.path.getsize(copy)


def mb(n):
    return f"{n / 1e6:.1f}" if n >= 50_000 else ("0" if n == 0 else f"{n / 1e6:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rows = ["| program | stripped | " + " | ".join(PARTS) + " | other |", "|---|" + "---|" * (len(PARTS) + 2)]
    total = 0
    for program in PROGRAMS:
        path = os.path.join(args.bin, program)
        if not os.path.exists(path):
            continue
        sizes, loaded = breakdown(path)
        ship = stripped(path)
        total += ship
        other = max(ship - sum(sizes.values()), 0)
        rows.append(f"| `{program}` | {mb(ship)} | " + " | ".join(mb(sizes[p]) for p in PARTS) + f" | {mb(other)} |")
    rows.append(f"| all | {mb(total)} |" + " |" * (len(PARTS) + 1))
    table = "\n".join(rows)
    print(table)
    if args.write:
        doc = os.path.join(ROOT, "docs", "packaging.md")
        text = open(doc, encoding="utf-8").read()
        begin, end = "<!-- begin: program bytes -->\n", "<!-- end: program bytes -->"
        if begin in text and end in text:
            text = text.split(begin)[0] + begin + table + "\n" + end + text.split(end, 1)[1]
            open(doc, "w", encoding="utf-8").write(text)
            print("program-bytes: docs/packaging.md written")


if __name__ == "__main__":
    main()
