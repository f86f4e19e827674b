#!/usr/bin/env python3
"""Writes the committed seed corpus, Fuzz/corpus/TARGET/, from the repository's own
golden files and fixtures (and a few hand-written inputs per format).

    Fuzz/make-corpus.py

Run it after a format changes; it replaces the directories' contents. Seeds are
named for what they are, so a diff shows what changed. Standard library only.
"""

import glob
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")


def write(target, name, data):
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def snapshot_files():
    """(name, bytes) of every snapshot file the tests use."""
    paths = sorted(glob.glob(os.path.join(ROOT, "Tests/SnapshotCodecTests/Golden/*.snapshot")))
    paths += sorted(glob.glob(os.path.join(ROOT, "Tests/BarCoreTests/Golden/*.snapshot")))
    paths += sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/*/expected.snapshot")))
    out = []
    for p in paths:
        parts = os.path.relpath(p, ROOT).split(os.sep)
        if parts[1] == "Fixtures":
            name = "fixture-" + parts[2]
        else:
            name = "golden-" + parts[1].replace("Tests", "") + "-" + parts[-1].replace(".snapshot", "")
        with open(p, "rb") as f:
            out.append((name, f.read()))
    return out


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return v[0] if len(v) == 1 else v

    def raw(self, n):
        v = self.data[self.pos:self.pos + n]
        self.pos += n
        return v


def fields_from_snapshot(data):
    """A snapshot file (v1 or v2) as the `snapshot-fields` target reads its input:
    the same fields in the decoder's order, with counts as bytes, then nowMs (half a
    second after the sample), the renderer's usage and the panel size (default)."""
    version = struct.unpack_from("<H", data, 8)[0]
    r = Reader(data[32:])
    out = bytearray()
    timestamp = r.take("Q")
    out += struct.pack("<QQIQQ", struct.unpack_from("<Q", data, 16)[0], timestamp, r.take("I"), r.take("Q"), r.take("Q"))
    out += struct.pack("<HHHI", r.take("H"), r.take("H"), r.take("H"), r.take("I"))
    out += struct.pack("<10Q", *[r.take("Q") for _ in range(10)])
    out += struct.pack("<H", r.take("H"))
    out += struct.pack("<5I", *[r.take("I") for _ in range(5)])
    out += struct.pack("<BBHIII", r.take("B"), r.take("B"), r.take("H"), r.take("I"), r.take("I"), r.take("I"))
    cores = r.take("H")
    out += struct.pack("<H", cores) + r.raw(2 * cores)
    n = r.take("B")
    cpu = [r.take("H") for _ in range(n)]
    iowait = []
    if version >= 2:
        r.take("B")
        iowait = [r.take("H") for _ in range(n)]
    r.take("B")
    mem = [r.take("H") for _ in range(n)]
    out += struct.pack("<BB", n, 0 if iowait else 1)
    for i in range(n):
        out += struct.pack("<H", cpu[i])
        if iowait:
            out += struct.pack("<H", iowait[i])
        out += struct.pack("<H", mem[i])
    for _ in range(2):
        count = r.take("B")
        out += struct.pack("<B", count)
        for _ in range(count):
            pid, cpu_share, private = r.take("I"), r.take("H"), r.take("Q")
            length = r.take("B")
            out += struct.pack("<IHQB", pid, cpu_share, private, length) + r.raw(length)
    count = r.take("B")
    out += struct.pack("<B", count)
    for _ in range(count):
        pid, time_ms, last, freed = r.take("I"), r.take("Q"), r.take("Q"), r.take("Q")
        length = r.take("B")
        out += struct.pack("<IQQQB", pid, time_ms, last, freed, length) + r.raw(length)
    assert r.pos == len(r.data), "trailing bytes in a snapshot file"
    # nowMs, usage (cpu, rss), panel size: 180x56 is minimum + (116, 32).
    out += struct.pack("<QIIHB", timestamp + 500, 25, 1400, 180 - 64, 56 - 24)
    return bytes(out)


def history_batch(boot_id, boot_time, uptime, now, samples, exits, clean, version=2):
    """The encoding documented in Sources/HistoryRecords/HistoryBatch.swift. A sample is
    (minute, avg, max, used, avail, swap, load1, procs, percent, state, hourly), and in
    version 2 also (rx, tx, temperature, root_used); None is an absent field."""
    body = bytearray()
    bid = boot_id.encode()
    body += struct.pack("<H", len(bid)) + bid
    body += struct.pack("<QQQ", boot_time, uptime, now)
    body += struct.pack("<I", len(samples))
    for s in samples:
        minute, avg, mx, used, avail, swap, load1, procs, percent, state, hourly = s[:11]
        newer = s[11:] if version >= 2 else ()
        presence = (1 if percent is not None else 0) | (2 if state is not None else 0) | (4 if hourly else 0)
        for bit, value in zip((8, 16, 32, 64), newer):
            presence |= bit if value is not None else 0
        body += struct.pack("<QIIQQQIIBIB", minute, avg, mx, used, avail, swap, load1, procs, presence,
                            percent or 0, state or 0)
        if version >= 2:
            rx, tx, temperature, root_used = newer
            body += struct.pack("<QQiI", rx or 0, tx or 0, temperature or 0, root_used or 0)
    body += struct.pack("<I", len(exits))
    for time_ms, pid, name, friendly, last, freed in exits:
        body += struct.pack("<QIQQ", time_ms, pid, last, freed)
        body += struct.pack("<I", len(name)) + name
        if friendly is None:
            body += struct.pack("<I", 0xFFFFFFFF)
        else:
            f = friendly.encode()
            body += struct.pack("<I", len(f)) + f
    return b"SSHB" + struct.pack("<HHI", version, 1 if clean else 0, len(body)) + bytes(body)


def prometheus_name(name):
    """A name as the prometheus-text target reads it: a length byte, then the bytes (a length
    byte with its top four bits set reads a 16-bit length)."""
    if len(name) < 64:
        return bytes([len(name)]) + name
    return b"\xf0" + struct.pack("<H", len(name)) + name


def prometheus_fields(top, interfaces, mounts, devices, sensors, long_name=None):
    out = struct.pack("<IQIQQHHHI", 0x3FFF, 1_763_712_346_250, 1000, 1_763_700_000, 1_234_567, 3500, 250, 12, 3900)
    out += struct.pack("<9Q", 8_000_000, 1_420_000, 2_300_000, 1_300_000, 150_000, 2_830_000, 3_420_000, 2_000_000, 500_000)
    out += struct.pack("<H5I", 1250, 60, 159, 1200, 312, 3)
    out += struct.pack("<BBHII", 1, 2, 800, 10_500, 24)
    names = top + ([long_name] if long_name else [])
    for _ in range(2):
        out += bytes([len(names)])
        for i, n in enumerate(names):
            out += struct.pack("<IHQ", i, 100 * i, 1000 * i) + prometheus_name(n)
    out += bytes([len(interfaces)])
    for n in interfaces:
        out += prometheus_name(n) + struct.pack("<QQ", 123_456_789, 42)
    out += bytes([len(mounts)])
    for n in mounts:
        out += prometheus_name(n) + struct.pack("<QQQ", 1000, 600, 350)
    out += bytes([len(devices)])
    for n in devices:
        out += prometheus_name(n) + struct.pack("<QQ", 1_000_000, 2_000_000)
    out += bytes([len(sensors)])
    for chip, label in sensors:
        out += prometheus_name(chip) + prometheus_name(label) + struct.pack("<i", 45_500)
    out += struct.pack("<B3QHQQ", 15, 15_070, 1_005, 80_125, 100, 17, 420_000)
    out += struct.pack("<BQQ", 0, 3, 1)
    return out


def main():
    for target in ("snapshot", "snapshot-fields", "clicks", "bookmarks", "history-batch", "toml", "command-output",
                   "i3bar-stream", "prometheus-text", "budget-file"):
        d = os.path.join(CORPUS, target)
        os.makedirs(d, exist_ok=True)
        # Inputs that once found a bug (regression-*) are kept: they are not generated.
        for f in os.listdir(d):
            if not f.startswith("regression-"):
                os.remove(os.path.join(d, f))

    # snapshot: every snapshot file the tests use, as it is.
    snapshots = snapshot_files()
    for name, data in snapshots:
        write("snapshot", name, data)

    # snapshot-fields: the same snapshots as fields (those of the fixed v1/v2 layout, whose
    # field order the target's input follows), and the two ends of every field.
    for name, data in snapshots:
        if struct.unpack_from("<H", data, 8)[0] <= 2:
            write("snapshot-fields", name, fields_from_snapshot(data))
    write("snapshot-fields", "all-zero", bytes(400))
    write("snapshot-fields", "all-ones", b"\xff" * 400)

    # clicks: the first byte seeds the chunk sizes; then what i3bar and swaybar send.
    i3bar = (b'[\n{"name":"mem","instance":"mem","button":1,"modifiers":["Mod4"],"x":10,"y":5,'
             b'"relative_x":3,"relative_y":4,"output_x":10,"output_y":5,"width":80,"height":20,"scale":1}\n'
             b',{"name":"mem","instance":"mem","button":3,"modifiers":[],"x":10,"y":5}\n'
             b',{"name":"cpu","instance":"cpu","button":4,"x":1,"y":1}\n')
    write("clicks", "i3bar-stream", b"\x07" + i3bar)
    write("clicks", "swaybar-spaces", b"\x01" + b'[{ "name" : "battery", "button" : 2, "event": 274 }\n'
          b',{"name":"top","instance":"top","button":5}\n')
    write("clicks", "garbage-and-partial", b"\x2a" + b'garbage\n\x00\x01{{{\n{"name":"firefox","button":1}\n'
          b'{"name":"mem"}\n{"name":"mem","button":"x"}\n{"name":"mem","button":1')
    write("clicks", "long-line", b"\x03" + b'{"name":"mem","button":1,"pad":"' + b"x" * 4100 + b'"}\n'
          b'{"name":"self","button":999999}\n')

    # bookmarks: the built-in defaults, the format document's example, the rules cache
    # form, a newer minor version with an unknown option, CRLF line ends.
    with open(os.path.join(ROOT, "assets/bookmarks/defaults.sysstats-bookmarks"), "rb") as f:
        write("bookmarks", "defaults", f.read())
    example = (b"sysstats-bookmarks 1\n# My machines' bookmarks. Lines starting with # are comments.\n\n"
               b"comm\tIsolated Web Co\tFirefox tab\ntruncated\tgnome-control-center\tSettings\n"
               b"exe\temacs\tEmacs\tstrip=version\nglob\tkworker/*\tkernel worker\n"
               b"cmdline\tchromium --type=renderer\tChromium tab\ncomm\tWeb Content\tFirefox content\tstrip=after:~\n"
               b"exe\tmy\\x20tool\t\ncomm\todd\\x1Bname\tOdd <b>one</b>\n")
    write("bookmarks", "format-example", example)
    write("bookmarks", "rules-cache", b"sysstats-bookmarks 1\ncomm\tfirefox\tFirefox\tsource=user\n"
          b"glob\t[a-z]*d\tdaemon\tstrip=version\tsource=builtin\nexe\tx\t\tsource=imported\n")
    write("bookmarks", "minor-version", b"sysstats-bookmarks 1.3\ncomm\tvim\tVim\tcolour=green\n")
    write("bookmarks", "crlf", b"sysstats-bookmarks 1\r\ncomm\tbash\tShell\r\n#x\r\n \t\r\n")

    # history-batch: as the sampler hands them to sysstatsd-history (version 2), and as a
    # sampler started before an upgrade still does (version 1).
    write("history-batch", "empty", history_batch("", 0, 0, 0, [], [], False))
    minutes = [(29_393_393, 1234, 9800, 5_000_000, 11_000_000, 0, 52, 312, None, None, False,
                1_250_000, 80_000, 51_000, 4_213),
               (29_393_394, 50, 400, 5_100_000, 10_900_000, 2048, 48, 311, 8000, 2, True,
                None, 0, -7_500, None),
               (29_393_395, 0, 0, 0, 0, 0, 0, 0, None, None, False, None, None, None, None)]
    exits = [(1_763_603_590_000, 4242, b"Isolated Web Co", "Firefox tab", 900_000, 1_300_000),
             (1_763_603_595_000, 77, b"\xffodd\x00name", None, 12, 0)]
    write("history-batch", "minutes-and-exits", history_batch(
        "0b6c1f0e-2f43-4a8e-9d1c-3c5b8f1d2e7a", 1_763_600_000, 3600, 1_763_603_600, minutes, exits, True))
    write("history-batch", "version-1-minutes-and-exits", history_batch(
        "0b6c1f0e-2f43-4a8e-9d1c-3c5b8f1d2e7a", 1_763_600_000, 3600, 1_763_603_600, minutes[:2], exits, True,
        version=1))


    # toml: TOML 1.0's forms, as config.toml may hold them (and some it refuses).
    for name, text in TOML_SEEDS:
        write("toml", name, text.encode())

    # budget-file: the repository's own budgets, the one docs/budgets.md shows, and mistakes.
    with open(os.path.join(ROOT, "sysstats-budget.toml"), "rb") as f:
        write("budget-file", "repository-budgets.toml", f.read())
    with open(os.path.join(ROOT, "docs", "budgets.md"), encoding="utf-8") as f:
        docs = f.read()
    example = docs.split("```toml\n", 1)[1].split("```", 1)[0]
    write("budget-file", "docs-example.toml", example.encode())
    write("budget-file", "bad-size.toml", b'[[budget]]\nname = "x"\ncommand = "true"\npeak_rss = "2 parsecs"\n')
    write("budget-file", "hostile.toml", b'[[budget]]\nname = "a\\u202eb"\ncommand = "x"\nsteady_uss = "\\u001b[2J"\n')

    # command-output: the first byte picks the exit status (0, 33, 1, other) and the rest
    # is what a command block's command printed: i3blocks' lines or a JSON object line.
    write("command-output", "lines", b"\x00VOL 42%\n42%\n#00FF00\n")
    write("command-output", "urgent", b"\x01mail 3\n")
    write("command-output", "failed", b"\x02oops\n\n#zzz\n")
    write("command-output", "json", b'\x00{"full_text":"Caf\\u00e9 \\"x\\"","short_text":"C","color":"#AABBCC","urgent":true}\n')
    write("command-output", "hostile", b'\x00\x1b[31m"},{"full_text":"x<b>\xff\xc3\xe2\x80\xae\r\n')
    write("command-output", "long", b"\x00" + "é".encode() * 700 + b"\n")
    # Hardening round two: NUL, ESC and C1 raw and as JSON escapes (a NUL ended Pango's text).
    write("command-output", "controls-raw", b"\x00a\x00b\x1b[31mc\xc2\x9bd\x7f\n")
    write("command-output", "controls-json", b'\x00{"full_text":"x\\u0000y\\u001bz\\u009b","short_text":"\\u0007"}\n')
    # i3bar-stream: what a wrapped program prints, line by line.
    write("i3bar-stream", "i3status", b'{"version":1}\n[\n[{"name":"tztime","instance":"local","markup":"none","full_text":"12:00:01"},'
          b'{"name":"load","full_text":"0.52","color":"#00FF00"}]\n,[{"name":"load","full_text":"0.60"}]\n')
    write("i3bar-stream", "members", b'{"version":1,"click_events":true,"x":{"a":[1,{"b":null}]}}\n[[],\n'
          b'[{"full_text":"W: up","short_text":"W","background":"#000000","border":"#FFFFFF80","separator":false,'
          b'"separator_block_width":3,"min_width":"W: 100%","align":"right","urgent":true,"markup":"pango","other":[true]}],\n')
    write("i3bar-stream", "plain", b"just text\r\n{\"full_text\":\"x\"}\n")
    write("i3bar-stream", "hostile", b'{"version":1}\n[\n[{"full_text":"\\u001b[31m\"},{\"x\":\"\xff\xc3\xe2\x80\xae","name":"a\\"b","instance":"i3bar:0:x","color":"red"}]\n'
          b',[{"full_text":"cut\n,[{"a":[[[[[[[[[[1]]]]]]]]]]}]\n')
    write("i3bar-stream", "controls", b'{"version":1}\n[\n[{"full_text":"w\\u0000v","name":"n\\u0007","instance":"\\u001b"}],\n'
          b'[{"full_text":"raw\x7f\xc2\x85"}],\n')

    # prometheus-text: a snapshot and counters as fields (Fuzz/prometheus-text.swift's order).
    write("prometheus-text", "all-zero", bytes(600))
    write("prometheus-text", "all-ones", b"\xff" * 600)
    write("prometheus-text", "desktop", prometheus_fields([b"Firefox", b'say "hi"', b"two\nlines"], [b"eth0", b"wlan0"],
                                                          [b"/", b"/home"], [b"nvme0n1"], [(b"coretemp", b"Package id 0"),
                                                          (b"nvme", b"Composite"), (b"nvme", b"Composite")]))
    write("prometheus-text", "hostile", prometheus_fields([b"\xff\xfe\\\"", b"\x00\x1b[31m", "é".encode() * 30],
                                                          [b"w\xff", b"w\xfe"], [b"/\"x\""], [b"sd\na"],
                                                          [(b"\\", b"\n" * 40)], long_name=b'"' * 3000))


TOML_SEEDS = [
    ("spec-example", """# This is a TOML document

title = "TOML Example"

[owner]
name = "Tom Preston-Werner"
dob = 1979-05-27T07:32:00-08:00

[database]
enabled = true
ports = [ 8000, 8001, 8002 ]
data = [ ["delta", "phi"], [3.14] ]
temp_targets = { cpu = 79.5, case = 72.0 }

[servers]

[servers.alpha]
ip = "10.0.0.1"
role = "frontend"

[servers.beta]
ip = "10.0.0.2"
role = "backend"
"""),
    ("config", """# sysstats
interval = 2
"quoted key" = 'literal'
blocks = ["cpu", "mem", 3]

[bar]
output = "i3bar"
colors = { good = "#00ff00", bad.fg = "#ff0000" }

[[bar.block]]
name = "cpu"
levels = [50, 80.5]

[[bar.block]]
name = "mem"
format = \"\"\"
{used}\\
/{total}\"\"\"
"""),
    ("strings-basic", r'''basic = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF. \b\f\r\\ \U0001F600"
multi = """
Roses are red
Violets are blue"""
folded = """\
       The quick brown \
       fox jumps over \
       the lazy dog.\
       """
quotes = """"This," she said, "is just a pointless statement.""""
"" = "empty key"
"ʎǝʞ" = "é€😀"
'''),
    ("strings-literal", r"""winpath = 'C:\Users\nodejs\templates'
regex = '''I [dw]on't need \d{2} apples'''
lines = '''
The first newline is
trimmed in raw strings.
'''
apos = ''''That,' she said, 'is still pointless.''''
quoted = 'Tom "Dubs" Preston-Werner'
"""),
    ("numbers", """int1 = +99
int2 = -17
int3 = 5_349_221
hex = 0xdead_BEEF
oct = 0o755
bin = 0b1101_0110
max = 9223372036854775807
min = -9223372036854775808
flt1 = +1.0
flt2 = -0.01
flt3 = 5e+22
flt4 = 6.626e-34
flt5 = 224_617.445_991_228
flt6 = 1e06
tiny = 4.9406564584124654e-324
big = 1.7976931348623157e308
specials = [inf, +inf, -inf, nan, +nan, -nan, -0.0]
bools = [true, false]
"""),
    ("tables", """fruit.apple.color = "red"
fruit.apple.taste.sweet = true
3.14159 = "pi"
site."google.com" = true

[x.y.z.w]
[x]

[dog."tater.man"]
type.name = "pug"

[ j . "ʞ" . 'l' ]

[[fruits]]
name = "apple"

[fruits.physical]
color = "red"

[[fruits.varieties]]
name = "red delicious"

[[fruits]]
name = "banana"

[[fruits.varieties]]
name = "plantain"

[inline]
points = [ { x = 1, y = 2 },
           { x = 7, y = 8 }, ]
nested = { a = { b = { c = [1, [2, [3]]] } }, d.e = 2 }
"""),
    ("crlf", "a = 1\r\n# comment\r\n[t]\r\ns = \"\"\"\r\nx\r\ny\"\"\"\r\n"),
    ("dates", """odt = 1979-05-27T00:32:00.999999-07:00
ldt = 1979-05-27 07:32:00
ld = 1979-05-27
lt = 07:32:00
"""),
    ("deep", "a = " + "[" * 31 + "]" * 31 + "\n" + ".".join("k" for _ in range(31)) + " = { b = 1 }\n"),
    ("redefinitions", """[a]
b = 1
[a.c]
[a]
d = { e = 1 }
[a.d]
"""),
]


if __name__ == "__main__":
    main()
