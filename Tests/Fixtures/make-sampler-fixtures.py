#!/usr/bin/env python3
"""Writes the sampler's fixture trees: Tests/Fixtures/sampler-<case>/<n>/{proc,sys}.

Each case holds two consecutive samples (1 and 2) of a whole machine. The
expected figures in Tests/SamplerTests are computed by hand from the numbers
below; run this again after changing them (it rewrites the trees).
"""
import os, shutil

HERE = os.path.dirname(os.path.abspath(__file__))

def write(path, text, mode="w"):
    # Binary always: a name may hold bytes that are not UTF-8 (written as \udcXX escapes).
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    with open(path, "wb") as f:
        f.write(text)

def stat_line(pid, comm, state, utime, stime, starttime, rss_pages, flags=0x400000):
    # Fields 1..52 of /proc/PID/stat; only pid, comm, state, flags(9), utime(14),
    # stime(15), starttime(22) and rss(24) matter here.
    f = [str(pid), "(" + comm + ")", state, "1", str(pid), str(pid), "0", "-1", str(flags),
         "100", "0", "0", "0", str(utime), str(stime), "0", "0", "20", "0", "1", "0",
         str(starttime), "100000000", str(rss_pages)] + ["0"] * 28
    return " ".join(f) + "\n"

def process(root, pid, comm, state, utime, stime, starttime, resident, shared,
            cmdline=b"", exe=None, kernel=False):
    d = os.path.join(root, "proc", str(pid))
    flags = 0x00208040 if kernel else 0x400100
    rss = 0 if kernel else resident
    write(os.path.join(d, "stat"), stat_line(pid, comm, state, utime, stime, starttime, rss, flags))
    write(os.path.join(d, "statm"), "" if kernel else f"50000 {resident} {shared} 10 0 3000 0\n")
    write(os.path.join(d, "comm"), comm + "\n")
    write(os.path.join(d, "cmdline"), cmdline, "wb")
    if exe:
        os.symlink(exe, os.path.join(d, "exe"))

def machine(root, cpu, cores, mem, uptime, load, psi, kernel="6.1.0-13-amd64"):
    p = os.path.join(root, "proc")
    lines = ["cpu  " + " ".join(map(str, cpu)) + " 0 0"]
    for i, c in enumerate(cores):
        lines.append(f"cpu{i} " + " ".join(map(str, c)) + " 0 0")
    lines += ["intr 123456 " + " ".join(["0"] * 300), "ctxt 987654", "btime 1763700000",
              "processes 4321", "procs_running 3", "procs_blocked 1", "softirq 1 2 3 4 5 6 7 8 9 10 11", ""]
    write(os.path.join(p, "stat"), "\n".join(lines))
    write(os.path.join(p, "meminfo"), "".join(f"{k + ':':<16}{v:>8} kB\n" for k, v in mem))
    write(os.path.join(p, "uptime"), uptime + "\n")
    write(os.path.join(p, "loadavg"), load + "\n")
    if psi is not None:
        write(os.path.join(p, "pressure", "memory"),
              f"some avg10={psi} avg60=3.00 avg300=1.00 total=123456\nfull avg10=1.00 avg60=0.50 avg300=0.10 total=2345\n")
    write(os.path.join(p, "sys", "kernel", "osrelease"), kernel + "\n")
    write(os.path.join(p, "sys", "kernel", "random", "boot_id"), "0f8c1a52-6d1e-4b7a-9c33-2e5f7d9a4b10\n")

def battery(root, name, status, energy_now, energy_full, power):
    d = os.path.join(root, "sys", "class", "power_supply", name)
    for k, v in [("type", "Battery"), ("present", "1"), ("status", status), ("energy_now", energy_now),
                 ("energy_full", energy_full), ("power_now", power),
                 ("capacity", str(round(100 * energy_now / energy_full)))]:
        write(os.path.join(d, k), f"{v}\n")

def mains(root, online):
    d = os.path.join(root, "sys", "class", "power_supply", "AC")
    write(os.path.join(d, "type"), "Mains\n")
    write(os.path.join(d, "online"), f"{online}\n")

def meminfo(free, available, active, inactive):
    return [("MemTotal", 8000000), ("MemFree", free), ("MemAvailable", available), ("Buffers", 100000),
            ("Cached", 2000000), ("SwapCached", 0), ("Active", active), ("Inactive", inactive),
            ("Active(anon)", 900000), ("Inactive(anon)", 300000), ("Active(file)", active - 900000),
            ("Inactive(file)", inactive - 300000), ("Unevictable", 10000), ("Mlocked", 0),
            ("SwapTotal", 2000000), ("SwapFree", 1500000), ("Dirty", 100), ("Shmem", 200000),
            ("KReclaimable", 120000), ("Slab", 200000), ("SReclaimable", 120000), ("SUnreclaim", 80000),
            ("KernelStack", 15000), ("PageTables", 45000), ("CommitLimit", 6000000)]

HOSTILE = '"},{"full_text":"x'  # 18 bytes: the kernel would cut comm at 15

def desktop(n, root):
    # Sample 1 → 2: 100 ticks per core pass. cpu0: +50 user +10 system +35 idle +5 iowait (60 % busy);
    # cpu1: +10 user +90 idle (10 % busy). Total 70/200 busy = 35.00 %, iowait 5/200 = 2.50 %.
    if n == 1:
        cores = [[5000, 0, 2500, 40000, 500, 0, 0, 0], [5000, 0, 2500, 40000, 500, 0, 0, 0]]
        mem = meminfo(free=1000000, available=3000000, active=2500000, inactive=1500000)
        machine(root, [sum(c[i] for c in cores) for i in range(8)], cores, mem,
                "12345.67 20000.00", "0.52 0.58 0.59 3/345 12345", "12.50")
    else:
        cores = [[5050, 0, 2510, 40035, 505, 0, 0, 0], [5010, 0, 2500, 40090, 500, 0, 0, 0]]
        # firefox (400000 KiB private) exits: MemAvailable rises by 420000 KiB.
        mem = meminfo(free=1420000, available=3420000, active=2300000, inactive=1300000)
        machine(root, [sum(c[i] for c in cores) for i in range(8)], cores, mem,
                "12346.67 20001.50", "0.60 0.59 0.59 2/340 12350", "12.50")
    ticks = 0 if n == 1 else 1
    process(root, 1, "systemd", "S", 100, 50 + ticks * 2, 1, 3000, 2000,
            b"/sbin/init\0splash\0", "/usr/lib/systemd/systemd")
    process(root, 2, "kthreadd", "S", 0, 5, 2, 0, 0, kernel=True)
    if n == 1:
        process(root, 100, "firefox-esr", "S", 9000, 1000, 500, 110000, 10000,
                b"/usr/lib/firefox-esr/firefox-esr\0", "/usr/lib/firefox-esr/firefox-esr")
    # 'Isolated Web Co' is a Firefox content process: busy, 40 ticks in the interval.
    process(root, 200, "Isolated Web Co", "R", 5000 + ticks * 30, 500 + ticks * 10, 600, 80000, 5000,
            b"/usr/lib/firefox-esr/firefox-esr\0-contentproc\0-childID\0003\0", "/usr/lib/firefox-esr/firefox-esr")
    # comm truncated at 15 bytes: the exe basename gives the whole name.
    process(root, 300, "gnome-shell-cal", "S", 300, 100 + ticks * 5, 700, 9000, 4000,
            b"/usr/libexec/gnome-shell-calendar-server\0", "/usr/libexec/gnome-shell-calendar-server")
    # A hostile name: JSON injection, markup, a newline, invalid UTF-8; parentheses and spaces.
    process(root, 400, 'x"},{</b>\n\udcff', "S", 10, 10 + ticks * 2, 800, 3000, 1000)
    process(root, 401, "a) b (c", "S", 10, 10, 801, 2000, 1000)
    # A process directory whose files vanished mid-scan: skipped, never fatal.
    write(os.path.join(root, "proc", "999", ".gitkeep"), "")
    battery(root, "BAT0", "Discharging", 4000000, 50000000, 10000000)  # 8 %, 24 min left
    mains(root, 0)

def server(n, root):
    # An old kernel (3.10): no MemAvailable, a pressure file that must be ignored
    # (PSI needs 4.20), no battery, one core.
    cores = [[1000 + n * 25, 0, 500 + n * 25, 8000 + n * 50, 0, 0, 0, 0]]
    mem = [(k, v) for k, v in meminfo(free=500000, available=0, active=3000000, inactive=2000000) if k != "MemAvailable"]
    machine(root, cores[0], cores, mem, f"{100 + n}.00 90.00", "1.00 0.50 0.25 1/80 500", "50.00", kernel="3.10.0-1160.el7.x86_64")
    process(root, 1, "init", "S", 10, 10, 1, 500, 300, b"/sbin/init\0")

def bookmarks(n, root):
    # Names a bookmark fixes: a comm cut at 15 bytes with no exe link and no cmdline
    # to recover it from (so only a `truncated` rule can), and a process whose name
    # carries a variable suffix.
    cores = [[1000 + n * 50, 0, 500, 8000 + n * 50, 0, 0, 0, 0], [1000 + n * 50, 0, 500, 8000 + n * 50, 0, 0, 0, 0]]
    mem = meminfo(free=1000000, available=3000000, active=2500000, inactive=1500000)
    machine(root, [sum(c[i] for c in cores) for i in range(8)], cores, mem, f"{200 + n}.00 300.00",
            "0.10 0.10 0.10 1/100 600", "0.00")
    process(root, 1, "systemd", "S", 100, 50, 1, 3000, 2000, b"/sbin/init\0", "/usr/lib/systemd/systemd")
    # Busiest and largest: 40 ticks per interval, 200000 KiB private.
    process(root, 500, "gnome-control-c", "R", 1000 + n * 40, 100, 900, 210000, 10000)
    process(root, 501, "Web Content~2", "S", 10, 10 + n, 901, 5000, 1000, b"webcontent\0", "/opt/web/webcontent")

for name, build in [("sampler-desktop", desktop), ("sampler-server", server), ("sampler-bookmarks", bookmarks)]:
    for n in (1, 2):
        root = os.path.join(HERE, name, str(n))
        shutil.rmtree(root, ignore_errors=True)
        build(n, root)
