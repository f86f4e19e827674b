#!/usr/bin/env python3
"""Reads TOML files with Python's tomllib (an independent TOML 1.0 parser) for the
TOML module's tests, and prints one line per file:

    FILE<TAB>OK<TAB>DUMP      or      FILE<TAB>ERR<TAB>tomllib's message

    scripts/tomllib-dump.py FILE...

DUMP is the form of Dump.canonical in Tests/TOMLTests/Dump.swift: tables {key:value,...}
in insertion order, arrays [value,...], keys and strings (s) as the hex of their UTF-8,
integers (i) in decimal, floats (f) as the hex of their IEEE 754 bits (any NaN as fnan),
booleans (btrue, bfalse); dates and times as DATE. Standard library only (Python 3.11+).
"""
import math
import struct
import sys
import tomllib


def dump(v):
    if isinstance(v, dict):
        return "{" + ",".join(k.encode().hex() + ":" + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    if isinstance(v, str):
        return "s" + v.encode().hex()
    if isinstance(v, bool):
        return "btrue" if v else "bfalse"
    if isinstance(v, int):
        return "i" + str(v)
    if isinstance(v, float):
        return "fnan" if math.isnan(v) else "f" + format(struct.unpack("<Q", struct.pack("<d", v))[0], "x")
    return "DATE"


for path in sys.argv[1:]:
    try:
        with open(path, "rb") as f:
            document = tomllib.load(f)
        print(path + "\tOK\t" + dump(document))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        print(path + "\tERR\t" + str(e).replace("\n", " ").replace("\t", " "))
