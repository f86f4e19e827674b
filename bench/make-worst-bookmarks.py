#!/usr/bin/env python3
"""Writes the most expensive bookmarks files the parser accepts (Sources/Bookmarks:
at most 4,096 rules, 256-byte patterns, 256 KiB), one per way of making the resolver
work, for bench/resolve-worst.sh. None of their rules matches the benchmark's processes
(names of 'a's), so every process pays for every rule.

    bench/make-worst-bookmarks.py OUTDIR
"""
import os
import sys

LIMIT = 256 * 1024
MAX_RULES = 4096


def write(path, kind, patterns):
    lines = [b"sysstats-bookmarks 1\n"]
    size = len(lines[0])
    count = 0
    for pattern in patterns:
        line = kind + b"\t" + pattern + b"\t\n"
        if count == MAX_RULES or size + len(line) > LIMIT:
            break
        lines.append(line)
        size += len(line)
        count += 1
    with open(path, "wb") as f:
        f.write(b"".join(lines))
    return count


def forever(make):
    i = 0
    while True:
        yield make(i)
        i += 1


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    sets = {
        # The set: `*a*a…a*b`, each a little different.
        "glob-stars": (b"glob", lambda i: b"*a" * (20 + i % 20) + b"*b"),
        # The same open at the end: no literal suffix to check first.
        "glob-stars-open": (b"glob", lambda i: b"*a" * (20 + i % 20) + b"*b*"),
        # One long segment between stars: the matcher tries it at every offset.
        "glob-segment": (b"glob", lambda i: b"*" + b"a" * (40 + i % 16) + b"b*"),
        # A long bracket expression, re-read at every offset.
        "glob-bracket": (b"glob", lambda i: b"*[" + b"a" * (40 + i % 16) + b"]b*"),
        # Long near-misses: the benchmark's command line ('a's, then "ba") has every
        # pair of bytes these have, and a prefix of each at every offset.
        "cmdline": (b"cmdline", lambda i: b"a" * (40 + i % 16) + b"bab"),
    }
    for name, (kind, make) in sets.items():
        n = write(os.path.join(out, name + ".sysstats-bookmarks"), kind, forever(make))
        print(f"{name}: {n} rules", file=sys.stderr)


main()
