#!/usr/bin/env python3
"""Writes a synthetic, deterministic /proc and /sys tree for benchmarks and budget tests.

    make-proc-tree.py OUT --processes N [--batteries K] [--seed S]
    make-proc-tree.py OUT --tick [--seconds S]

The first form (re)creates OUT/proc and OUT/sys:

  OUT/proc/{stat, meminfo, uptime, loadavg, pressure/memory,
            sys/kernel/osrelease, sys/kernel/random/boot_id}
  OUT/proc/<pid>/{stat, statm, comm, cmdline[, exe -> /usr/bin/...]}   N processes
  OUT/proc/{net/dev, net/wireless, diskstats}
  OUT/sys/class/power_supply/{BAT0..BAT<K-1>, AC}
  OUT/sys/class/net/{lo, eth0, wlan0, docker0}/operstate
  OUT/sys/block/{sda, nvme0n1}
  OUT/sys/class/hwmon/{hwmon0 (acpitz), hwmon1 (coretemp)} -> ../../devices/...
  OUT/sys/class/thermal/thermal_zone0 (x86_pkg_temp)
  OUT/sys/devices/system/cpu/cpu{0,1}/cpufreq/scaling_cur_freq

The network, disk, temperature and frequency files are there so that every probe of
the sampler does its real work on every sample (their counters stay constant).

Processes look like a desktop with a browser: pid 1, kthreadd and about 30 %
kernel threads (rss 0, PF_KTHREAD in flags, empty statm and cmdline), the rest
user processes with varied names, some of them 15-byte truncated comms and
names with spaces or parentheses. The same arguments always give the same tree.

The second form (--tick) advances an existing tree by S seconds (default 1):
CPU counters in proc/stat, proc/uptime and the utime/stime of a few busy
processes, so a sampler sees non-zero CPU shares. Files are rewritten in place
(same inode), since a sampler keeps proc/stat open and re-reads it with pread.
"""
import argparse
import os
import random
import shutil
import sys

HZ = 100                 # USER_HZ: /proc counts CPU time in 1/100 s
CORES = 2
PAGE_KIB = 4
BOOT_TIME = 1763700000   # btime, seconds since the epoch
UPTIME = 86_400.0 + 3_723.45
KERNEL = "6.1.0-13-amd64"
BOOT_ID = "0f8c1a52-6d1e-4b7a-9c33-2e5f7d9a4b10"
PF_KTHREAD = 0x00200000

# (comm as the kernel keeps it -- at most 15 bytes, argv, exe or None, weight,
#  resident KiB range). A weight is how many of every ~1000 user processes have
#  this name; the comm is cut at 15 bytes like the kernel does.
USER_PROGRAMS = [
    ("systemd-journal", ["/lib/systemd/systemd-journald"], "/usr/lib/systemd/systemd-journald", 1, (20_000, 60_000)),
    ("systemd-udevd", ["/lib/systemd/systemd-udevd"], "/usr/lib/systemd/systemd-udevd", 2, (5_000, 12_000)),
    ("systemd-logind", ["/lib/systemd/systemd-logind"], "/usr/lib/systemd/systemd-logind", 1, (6_000, 9_000)),
    ("systemd-timesyn", ["/lib/systemd/systemd-timesyncd"], "/usr/lib/systemd/systemd-timesyncd", 1, (5_000, 7_000)),
    ("systemd", ["/lib/systemd/systemd", "--user"], "/usr/lib/systemd/systemd", 2, (9_000, 14_000)),
    ("(sd-pam)", ["(sd-pam)"], None, 2, (3_000, 5_000)),
    ("dbus-daemon", ["/usr/bin/dbus-daemon", "--system", "--address=systemd:", "--nofork", "--nopidfile",
                     "--systemd-activation", "--syslog-only"], "/usr/bin/dbus-daemon", 3, (3_000, 8_000)),
    ("NetworkManager", ["/usr/sbin/NetworkManager", "--no-daemon"], "/usr/sbin/NetworkManager", 1, (15_000, 22_000)),
    ("wpa_supplicant", ["/sbin/wpa_supplicant", "-u", "-s", "-O", "/run/wpa_supplicant"], "/usr/sbin/wpa_supplicant", 1, (8_000, 12_000)),
    ("polkitd", ["/usr/lib/polkit-1/polkitd", "--no-debug"], "/usr/lib/polkit-1/polkitd", 1, (8_000, 12_000)),
    ("sshd", ["sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups"], "/usr/sbin/sshd", 1, (8_000, 10_000)),
    ("sshd", ["sshd: alice@pts/0"], "/usr/sbin/sshd", 2, (6_000, 9_000)),
    ("cron", ["/usr/sbin/cron", "-f"], "/usr/sbin/cron", 1, (2_000, 3_000)),
    ("rsyslogd", ["/usr/sbin/rsyslogd", "-n", "-iNONE"], "/usr/sbin/rsyslogd", 1, (4_000, 6_000)),
    ("chronyd", ["/usr/sbin/chronyd", "-F", "1"], "/usr/sbin/chronyd", 1, (2_000, 4_000)),
    ("agetty", ["/sbin/agetty", "-o", "-p -- \\u", "--noclear", "-", "linux"], "/usr/sbin/agetty", 1, (1_800, 2_200)),
    ("udisksd", ["/usr/libexec/udisks2/udisksd"], "/usr/libexec/udisks2/udisksd", 1, (10_000, 14_000)),
    ("upowerd", ["/usr/libexec/upowerd"], "/usr/libexec/upowerd", 1, (7_000, 9_000)),
    ("cupsd", ["/usr/sbin/cupsd", "-l"], "/usr/sbin/cupsd", 1, (10_000, 13_000)),
    ("Xorg", ["/usr/lib/xorg/Xorg", "-nolisten", "tcp", ":0", "vt1", "-keeptty", "-auth",
              "/tmp/serverauth.x8Yq2Lk0"], "/usr/lib/xorg/Xorg", 1, (90_000, 160_000)),
    ("i3", ["i3"], "/usr/bin/i3", 1, (20_000, 30_000)),
    ("i3bar", ["i3bar", "--bar_id=bar-0", "--socket=/run/user/1000/i3/ipc-socket.1234"], "/usr/bin/i3bar", 1, (9_000, 12_000)),
    ("pipewire", ["/usr/bin/pipewire"], "/usr/bin/pipewire", 1, (12_000, 18_000)),
    ("pipewire-pulse", ["/usr/bin/pipewire-pulse"], "/usr/bin/pipewire-pulse", 1, (12_000, 16_000)),
    ("wireplumber", ["/usr/bin/wireplumber"], "/usr/bin/wireplumber", 1, (18_000, 25_000)),
    ("gnome-keyring-d", ["/usr/bin/gnome-keyring-daemon", "--daemonize", "--login"], "/usr/bin/gnome-keyring-daemon", 1, (7_000, 9_000)),
    ("at-spi2-registr", ["/usr/libexec/at-spi2-registryd", "--use-gnome-session"], "/usr/libexec/at-spi2-registryd", 1, (6_000, 8_000)),
    ("at-spi-bus-laun", ["/usr/libexec/at-spi-bus-launcher"], "/usr/libexec/at-spi-bus-launcher", 1, (6_000, 8_000)),
    ("xdg-desktop-por", ["/usr/libexec/xdg-desktop-portal"], "/usr/libexec/xdg-desktop-portal", 2, (15_000, 25_000)),
    ("xdg-document-po", ["/usr/libexec/xdg-document-portal"], "/usr/libexec/xdg-document-portal", 1, (8_000, 10_000)),
    ("gvfsd", ["/usr/libexec/gvfsd"], "/usr/libexec/gvfsd", 1, (7_000, 9_000)),
    ("gvfs-udisks2-vo", ["/usr/libexec/gvfs-udisks2-volume-monitor"], "/usr/libexec/gvfs-udisks2-volume-monitor", 1, (9_000, 11_000)),
    ("tracker-miner-f", ["/usr/libexec/tracker-miner-fs-3"], "/usr/libexec/tracker-miner-fs-3", 1, (30_000, 90_000)),
    ("evolution-sourc", ["/usr/libexec/evolution-source-registry"], "/usr/libexec/evolution-source-registry", 1, (25_000, 30_000)),
    ("dunst", ["/usr/bin/dunst"], "/usr/bin/dunst", 1, (12_000, 15_000)),
    ("picom", ["picom", "-b"], "/usr/bin/picom", 1, (25_000, 60_000)),
    ("firefox-esr", ["/usr/lib/firefox-esr/firefox-esr"], "/usr/lib/firefox-esr/firefox-esr", 1, (350_000, 500_000)),
    ("Isolated Web Co", ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "-childID", "12", "-isForBrowser",
                         "-prefsLen", "31432", "-prefMapSize", "236117", "-jsInitLen", "246848", "-parentBuildID",
                         "20231016095030", "-appDir", "/usr/lib/firefox-esr/browser", "{a1b2c3d4}", "1234", "true", "tab"],
     "/usr/lib/firefox-esr/firefox-esr", 40, (60_000, 300_000)),
    ("Web Content", ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "-childID", "3", "-isForBrowser", "tab"],
     "/usr/lib/firefox-esr/firefox-esr", 10, (30_000, 45_000)),
    ("WebExtensions", ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "-childID", "2", "tab"],
     "/usr/lib/firefox-esr/firefox-esr", 1, (90_000, 130_000)),
    ("Privileged Cont", ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "-childID", "4", "tab"],
     "/usr/lib/firefox-esr/firefox-esr", 1, (50_000, 70_000)),
    ("RDD Process", ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "rdd"], "/usr/lib/firefox-esr/firefox-esr", 1, (35_000, 40_000)),
    ("Socket Process", ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "socket"], "/usr/lib/firefox-esr/firefox-esr", 1, (35_000, 40_000)),
    ("Utility Process", ["/usr/lib/firefox-esr/firefox-esr", "-contentproc", "utility"], "/usr/lib/firefox-esr/firefox-esr", 2, (35_000, 45_000)),
    ("chromium", ["/usr/lib/chromium/chromium", "--type=renderer", "--crashpad-handler-pid=4321",
                  "--enable-crash-reporter=,Debian", "--change-stack-guard-on-fork=enable", "--lang=en-US",
                  "--num-raster-threads=1", "--renderer-client-id=7", "--shared-files=v8_context_snapshot_data:100"],
     "/usr/lib/chromium/chromium", 25, (40_000, 250_000)),
    ("code", ["/usr/share/code/code", "--type=utility", "--utility-sub-type=node.mojom.NodeService",
              "--lang=en-US", "--service-sandbox-type=none"], "/usr/share/code/code", 12, (60_000, 400_000)),
    ("alacritty", ["alacritty"], "/usr/bin/alacritty", 4, (60_000, 90_000)),
    ("tmux: server", ["tmux"], "/usr/bin/tmux", 1, (5_000, 8_000)),
    ("tmux: client", ["tmux", "attach"], "/usr/bin/tmux", 2, (3_000, 4_000)),
    ("bash", ["-bash"], "/usr/bin/bash", 40, (4_000, 6_000)),
    ("zsh", ["-zsh"], "/usr/bin/zsh", 12, (6_000, 9_000)),
    ("nvim", ["nvim", "Sources/Sampler/Sampler.swift"], "/usr/bin/nvim", 8, (15_000, 40_000)),
    ("vim", ["vim", "NOTES.txt"], "/usr/bin/vim.basic", 3, (9_000, 14_000)),
    ("less", ["less", "-R"], "/usr/bin/less", 3, (2_500, 3_500)),
    ("python3", ["/usr/bin/python3", "-m", "http.server", "8000"], "/usr/bin/python3.11", 10, (12_000, 60_000)),
    ("node", ["/usr/bin/node", "/home/alice/.vscode/extensions/ms-python.vscode-pylance/dist/server.bundle.js",
              "--cancellationReceive=file:abcdef", "--node-ipc", "--clientProcessId=5678"], "/usr/bin/node", 12, (50_000, 600_000)),
    ("sourcekit-lsp", ["/opt/swift/usr/bin/sourcekit-lsp"], "/opt/swift/usr/bin/sourcekit-lsp", 2, (80_000, 300_000)),
    ("swift-frontend", ["/opt/swift/usr/bin/swift-frontend", "-frontend", "-c", "-primary-file",
                        "Sources/ProcFS/ProcessTable.swift", "-target", "x86_64-unknown-linux-gnu",
                        "-module-name", "ProcFS", "-O", "-o", "/work/.build/release/ProcFS.build/ProcessTable.swift.o"],
     "/opt/swift/usr/bin/swift-frontend", 8, (150_000, 900_000)),
    ("swift-build", ["/opt/swift/usr/bin/swift-build", "-c", "release"], "/opt/swift/usr/bin/swift-build", 2, (80_000, 150_000)),
    ("clang", ["/usr/bin/clang", "-c", "shim.c"], "/usr/lib/llvm-14/bin/clang", 3, (40_000, 90_000)),
    ("make", ["make", "-j2"], "/usr/bin/make", 3, (2_500, 4_000)),
    ("postgres", ["postgres: 15/main: checkpointer "], "/usr/lib/postgresql/15/bin/postgres", 8, (8_000, 30_000)),
    ("java", ["/usr/lib/jvm/java-17-openjdk-amd64/bin/java", "-Xmx2g", "-jar", "/opt/app/server.jar"],
     "/usr/lib/jvm/java-17-openjdk-amd64/bin/java", 3, (200_000, 800_000)),
    ("containerd", ["/usr/bin/containerd"], "/usr/bin/containerd", 1, (40_000, 50_000)),
    ("containerd-shim", ["/usr/bin/containerd-shim-runc-v2", "-namespace", "moby", "-id",
                         "7f3c9e0b5a1d2c4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e", "-address",
                         "/run/containerd/containerd.sock"], "/usr/bin/containerd-shim-runc-v2", 12, (9_000, 14_000)),
    ("dockerd", ["/usr/sbin/dockerd", "-H", "fd://", "--containerd=/run/containerd/containerd.sock"],
     "/usr/sbin/dockerd", 1, (70_000, 100_000)),
    ("nginx", ["nginx: worker process"], "/usr/sbin/nginx", 8, (5_000, 9_000)),
    ("redis-server", ["/usr/bin/redis-server 127.0.0.1:6379"], "/usr/bin/redis-server", 1, (9_000, 15_000)),
    ("sleep", ["sleep", "infinity"], "/usr/bin/sleep", 4, (1_500, 2_000)),
    ("gpg-agent", ["/usr/bin/gpg-agent", "--supervised"], "/usr/bin/gpg-agent", 1, (2_500, 3_500)),
    ("ssh-agent", ["/usr/bin/ssh-agent", "-s"], "/usr/bin/ssh-agent", 1, (1_500, 2_500)),
    ("obexd", ["/usr/libexec/bluetooth/obexd"], "/usr/libexec/bluetooth/obexd", 1, (5_000, 7_000)),
    ("thunderbird", ["/usr/lib/thunderbird/thunderbird"], "/usr/lib/thunderbird/thunderbird", 1, (250_000, 400_000)),
    ("slack", ["/usr/lib/slack/slack", "--type=renderer"], "/usr/lib/slack/slack", 5, (60_000, 350_000)),
    ("Web Content x", ["/opt/weird/bin/tool", "--name", "Web Content x"], None, 1, (3_000, 4_000)),
    ("a) b (c", ["./a) b (c"], "/home/alice/bin/a) b (c", 1, (1_000, 1_200)),
]

KERNEL_THREADS = [
    ("kworker/{cpu}:{n}-events", 20), ("kworker/{cpu}:{n}H-kblockd", 6), ("kworker/u{cores2}:{n}-events_unbound", 15),
    ("kworker/{cpu}:{n}-mm_percpu_wq", 4), ("kworker/u{cores2}:{n}-flush-259:0", 3), ("ksoftirqd/{cpu}", 2),
    ("migration/{cpu}", 2), ("cpuhp/{cpu}", 2), ("idle_inject/{cpu}", 2), ("rcu_preempt", 1), ("rcu_tasks_kthread", 1),
    ("kcompactd0", 1), ("khugepaged", 1), ("ksmd", 1), ("kswapd0", 1), ("oom_reaper", 1), ("writeback", 1),
    ("kblockd", 1), ("blkcg_punt_bio", 1), ("kintegrityd", 1), ("edac-poller", 1), ("devfreq_wq", 1),
    ("watchdogd", 1), ("irq/{n}-iwlwifi", 4), ("irq/{n}-nvme0q{cpu}", 3), ("nvme-wq", 1), ("nvme-reset-wq", 1),
    ("jbd2/nvme0n1p2-8", 1), ("ext4-rsv-conver", 1), ("scsi_eh_{n}", 2), ("card0-crtc{cpu}", 2),
    ("cryptd", 1), ("ipv6_addrconf", 1), ("zswap-shrink", 1), ("kthrotld", 1), ("acpi_thermal_pm", 1),
    ("i915_modeset", 1), ("cfg80211", 1), ("hci0", 1), ("krfcommd", 1), ("psimon", 1),
]

MEMINFO_KIB = 16_318_124


def write_file(path, data):
    """Writes bytes (or str, surrogate-escaped) to a new file, making directories."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    with open(path, "wb") as f:
        f.write(data)


def rewrite_in_place(path, data):
    """Overwrites a file without replacing it: a reader holding it open sees the new bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    with open(path, "r+b") as f:
        f.write(data)
        f.truncate()


def stat_line(pid, comm, state, ppid, pgrp, session, tty, flags, minflt, majflt,
              utime, stime, priority, nice, threads, starttime, vsize, rss, processor):
    """All 52 fields of /proc/PID/stat (see proc(5)), in the kernel's format."""
    kernel = bool(flags & PF_KTHREAD)
    code = 0 if kernel else 0x55d4c0a00000
    stack = 0 if kernel else 0x7ffd3c9a1f20
    fields = [
        pid, "(" + comm + ")", state, ppid, pgrp, session, tty, -1 if tty == 0 else pgrp, flags,
        minflt, 0, majflt, 0,                               # minflt cminflt majflt cmajflt
        utime, stime, 0, 0,                                  # utime stime cutime cstime
        priority, nice, threads, 0, starttime, vsize, rss,
        18446744073709551615,                                # rsslim
        code if not kernel else 1, code + 0x2a000 if not kernel else 1, stack,  # startcode endcode startstack
        0, 0,                                                # kstkesp kstkeip
        0, 0, 0 if not kernel else 2147483647, 0 if kernel else 81923,  # signal blocked sigignore sigcatch
        0, 0, 0,                                             # wchan nswap cnswap
        17, processor, 0, 0, 0, 0, 0,                        # exit_signal processor rt_priority policy blkio guest cguest
        code + 0x2c000 if not kernel else 0, code + 0x2e000 if not kernel else 0, code + 0x400000 if not kernel else 0,
        stack + 0x1000 if not kernel else 0, stack + 0x1100 if not kernel else 0,
        stack + 0x1100 if not kernel else 0, stack + 0x1fe0 if not kernel else 0, 0,
    ]
    assert len(fields) == 52, len(fields)
    return " ".join(str(f) for f in fields) + "\n"


def proc_stat_text(cpus, processes, running):
    """/proc/stat: the aggregate line, one line per core, then the rest as the kernel prints it."""
    total = [sum(c[i] for c in cpus) for i in range(10)]
    lines = ["cpu  " + " ".join(map(str, total))]
    lines += [f"cpu{i} " + " ".join(map(str, c)) for i, c in enumerate(cpus)]
    irqs = [(i * 7919) % 50_000 if i % 3 else 0 for i in range(1, 120)]
    lines.append("intr " + str(sum(irqs)) + " " + " ".join(map(str, irqs)))
    lines.append(f"ctxt {sum(total) * 37}")
    lines.append(f"btime {BOOT_TIME}")
    lines.append(f"processes {processes}")
    lines.append(f"procs_running {running}")
    lines.append("procs_blocked 0")
    lines.append("softirq 4613872 12 1203921 44 310211 91011 0 2314 1611235 0 1395124")
    return "\n".join(lines) + "\n"


def meminfo_text(rng):
    total = MEMINFO_KIB
    free = 5_102_344 + rng.randrange(100_000)
    cached = 6_211_904
    buffers = 412_300
    active_anon, inactive_anon = 2_903_112, 1_220_480
    active_file, inactive_file = 3_002_116, 2_888_940
    shmem = 612_344
    sreclaimable, sunreclaim = 402_188, 161_020
    available = free + buffers + cached - shmem + sreclaimable // 2
    rows = [
        ("MemTotal", total), ("MemFree", free), ("MemAvailable", available), ("Buffers", buffers),
        ("Cached", cached), ("SwapCached", 12_044), ("Active", active_anon + active_file),
        ("Inactive", inactive_anon + inactive_file), ("Active(anon)", active_anon),
        ("Inactive(anon)", inactive_anon), ("Active(file)", active_file), ("Inactive(file)", inactive_file),
        ("Unevictable", 96_112), ("Mlocked", 32), ("SwapTotal", 2_097_148), ("SwapFree", 1_981_400),
        ("Zswap", 0), ("Zswapped", 0), ("Dirty", 1_340), ("Writeback", 0), ("AnonPages", 3_902_772),
        ("Mapped", 1_104_560), ("Shmem", shmem), ("KReclaimable", sreclaimable), ("Slab", sreclaimable + sunreclaim),
        ("SReclaimable", sreclaimable), ("SUnreclaim", sunreclaim), ("KernelStack", 21_568), ("PageTables", 62_340),
        ("SecPageTables", 0), ("NFS_Unstable", 0), ("Bounce", 0), ("WritebackTmp", 0), ("CommitLimit", 10_256_208),
        ("Committed_AS", 14_902_116), ("VmallocTotal", 34_359_738_367), ("VmallocUsed", 61_220), ("VmallocChunk", 0),
        ("Percpu", 6_912), ("HardwareCorrupted", 0), ("AnonHugePages", 0), ("ShmemHugePages", 0),
        ("ShmemPmdMapped", 0), ("FileHugePages", 0), ("FilePmdMapped", 0),
        ("HugePages_Total", None), ("HugePages_Free", None), ("HugePages_Rsvd", None), ("HugePages_Surp", None),
        ("Hugepagesize", 2048), ("Hugetlb", 0), ("DirectMap4k", 512_188), ("DirectMap2M", 10_930_176),
        ("DirectMap1G", 5_242_880),
    ]
    out = []
    for key, value in rows:
        if value is None:  # the HugePages_ counts have no unit
            out.append(f"{key + ':':<16}{0:>8}\n")
        else:
            out.append(f"{key + ':':<16}{value:>8} kB\n")
    return "".join(out)


def make_processes(rng, count):
    """[(pid, dict)] for `count` processes: pid 1, kthreadd, ~30 % kernel threads, the rest user processes."""
    if count <= 0:
        return []
    procs = []
    procs.append((1, dict(comm="systemd", argv=["/sbin/init", "splash"], exe="/usr/lib/systemd/systemd",
                          kernel=False, ppid=0, rss_kib=12_800, state="S")))
    if count >= 2:
        procs.append((2, dict(comm="kthreadd", argv=[], exe=None, kernel=True, ppid=0, rss_kib=0, state="S")))
    remaining = count - len(procs)
    kernel_count = max(0, round(count * 0.30) - 1)
    kernel_count = min(kernel_count, remaining)
    user_count = remaining - kernel_count

    # Kernel threads have low pids, like right after boot (with a few later kworkers).
    kweights = [w for _, w in KERNEL_THREADS]
    pid = 3
    for i in range(kernel_count):
        pattern = rng.choices(KERNEL_THREADS, weights=kweights)[0][0]
        comm = pattern.format(cpu=rng.randrange(CORES), n=rng.randrange(12), cores2=CORES * 2)
        if i > kernel_count * 0.8:
            pid += rng.randrange(50, 4000)   # kworkers come and go
        else:
            pid += rng.randrange(1, 3)
        state = "I" if comm.startswith("kworker") or comm.startswith("rcu") else "S"
        procs.append((pid, dict(comm=comm, argv=[], exe=None, kernel=True, ppid=2, rss_kib=0, state=state)))

    # User processes spread over a wide pid range.
    uweights = [p[3] for p in USER_PROGRAMS]
    pid = max(pid, 400)
    for _ in range(user_count):
        comm, argv, exe, _, (lo, hi) = rng.choices(USER_PROGRAMS, weights=uweights)[0]
        pid += rng.randrange(1, 180)
        state = "R" if rng.random() < 0.01 else ("D" if rng.random() < 0.003 else "S")
        # "for some": about 1 in 5 has no readable exe link (another user's process, as a non-root reader sees it).
        if exe is not None and rng.random() < 0.2:
            exe = None
        procs.append((pid, dict(comm=comm[:15], argv=argv, exe=exe, kernel=False, ppid=1,
                                rss_kib=rng.randrange(lo, hi), state=state)))
    return procs


def write_process(proc_dir, rng, pid, p, starttime):
    d = os.path.join(proc_dir, str(pid))
    os.makedirs(d)
    kernel = p["kernel"]
    if kernel:
        flags = 0x00208040  # PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC
        rss = size = 0
        utime = 0
        stime = rng.randrange(0, 3_000)
        threads, vsize, priority, nice = 1, 0, 20, 0
        if "H-" in p["comm"]:
            priority, nice = 0, -20
    else:
        flags = 0x00400100  # PF_RANDOMIZE | PF_SUPERPRIV... as typical user tasks show
        rss = max(1, p["rss_kib"] // PAGE_KIB)
        size = rss * rng.randrange(3, 40)
        utime = rng.randrange(0, 200_000)
        stime = utime // rng.randrange(2, 8)
        threads = rng.choice([1, 1, 1, 2, 3, 4, 8, 17, 30, 64])
        vsize = size * PAGE_KIB * 1024
        priority, nice = 20, 0
    text = stat_line(pid, p["comm"], p["state"], p["ppid"], pid if not kernel else 0, pid if not kernel else 0,
                     34816 if p["comm"] in ("bash", "zsh", "nvim") else 0, flags,
                     rng.randrange(100, 2_000_000) if not kernel else 0, rng.randrange(0, 500) if not kernel else 0,
                     utime, stime, priority, nice, threads, starttime, vsize, rss, rng.randrange(CORES))
    write_file(os.path.join(d, "stat"), text)
    if kernel:
        write_file(os.path.join(d, "statm"), b"")
        write_file(os.path.join(d, "cmdline"), b"")
    else:
        shared = rss * rng.randrange(10, 60) // 100
        textpages = rng.randrange(10, 2_000)
        data = max(rss - shared, 1) + rng.randrange(0, 5_000)
        write_file(os.path.join(d, "statm"), f"{size} {rss} {shared} {textpages} 0 {data} 0\n")
        write_file(os.path.join(d, "cmdline"), b"".join(a.encode() + b"\0" for a in p["argv"]))
    write_file(os.path.join(d, "comm"), p["comm"] + "\n")
    if p["exe"]:
        os.symlink(p["exe"], os.path.join(d, "exe"))


NET_DEV = [
    # name, rx bytes, tx bytes (and packets derived from them)
    ("lo", 48_213_774, 48_213_774),
    ("eth0", 9_812_443_121, 1_204_877_310),
    ("wlan0", 2_331_907_448, 301_228_774),
    ("docker0", 1_553_220, 9_870_112),
]
OPERSTATE = {"lo": "unknown", "eth0": "up", "wlan0": "up", "docker0": "down"}
DISKSTATS = [
    # major, minor, name, reads, sectors read, writes, sectors written
    (259, 0, "nvme0n1", 412_993, 31_288_402, 1_022_871, 88_120_944),
    (259, 1, "nvme0n1p1", 1_203, 38_211, 2, 2),
    (259, 2, "nvme0n1p2", 411_510, 31_240_011, 1_022_869, 88_120_942),
    (8, 0, "sda", 20_118, 4_022_188, 8_120, 1_302_560),
    (8, 1, "sda1", 20_001, 4_019_876, 8_120, 1_302_560),
    (7, 0, "loop0", 61, 2_186, 0, 0),
]
CPU_KHZ = [2_400_000, 3_100_000]


def write_system_files(out):
    """Network, disks, sensors and CPU clocks: what the sampler's system probes read."""
    proc, sys_root = os.path.join(out, "proc"), os.path.join(out, "sys")
    net = ["Inter-|   Receive                                                |  Transmit\n",
           " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"]
    for name, rx, tx in NET_DEV:
        net.append(f"{name:>7}: {rx:>11} {rx // 900:>8}    0    0    0     0          0         0 "
                   f"{tx:>11} {tx // 700:>8}    0    0    0     0       0          0\n")
    write_file(os.path.join(proc, "net", "dev"), "".join(net))
    write_file(os.path.join(proc, "net", "wireless"),
               "Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE\n"
               " face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22\n"
               " wlan0: 0000   54.  -56.  -256        0      0      0      0      0        0\n")
    for name, state in OPERSTATE.items():
        write_file(os.path.join(sys_root, "class", "net", name, "operstate"), state + "\n")

    lines = []
    for major, minor, name, reads, sread, writes, swritten in DISKSTATS:
        lines.append(f"{major:>4} {minor:>7} {name} {reads} {reads // 9} {sread} {reads // 4} {writes} "
                     f"{writes // 3} {swritten} {writes * 2} 0 {reads // 3 + writes} {reads // 4 + writes * 2} "
                     f"0 0 0 0 {writes // 50} {writes // 40}\n")
    write_file(os.path.join(proc, "diskstats"), "".join(lines))
    for name in ("nvme0n1", "sda", "loop0"):
        write_file(os.path.join(sys_root, "block", name, "size"), "1000215216\n")

    # hwmon entries are links into /sys/devices, as on a real system.
    chips = [("hwmon0", "devices/virtual/thermal/thermal_zone0/hwmon/hwmon0", "acpitz",
              [(1, None, 27_800, 119_000, None)]),
             ("hwmon1", "devices/platform/coretemp.0/hwmon/hwmon1", "coretemp",
              [(1, "Package id 0", 52_000, 100_000, 80_000), (2, "Core 0", 50_000, 100_000, 80_000),
               (3, "Core 1", 51_000, 100_000, 80_000)])]
    for entry, target, chip, inputs in chips:
        directory = os.path.join(sys_root, target)
        write_file(os.path.join(directory, "name"), chip + "\n")
        for n, label, value, crit, high in inputs:
            write_file(os.path.join(directory, f"temp{n}_input"), f"{value}\n")
            if label is not None:
                write_file(os.path.join(directory, f"temp{n}_label"), label + "\n")
            if crit is not None:
                write_file(os.path.join(directory, f"temp{n}_crit"), f"{crit}\n")
            if high is not None:
                write_file(os.path.join(directory, f"temp{n}_max"), f"{high}\n")
        link = os.path.join(sys_root, "class", "hwmon", entry)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.join("..", "..", target), link)
    zone = os.path.join(sys_root, "devices", "virtual", "thermal", "thermal_zone0")
    write_file(os.path.join(zone, "type"), "x86_pkg_temp\n")
    write_file(os.path.join(zone, "temp"), "52000\n")
    os.makedirs(os.path.join(sys_root, "class", "thermal"), exist_ok=True)
    os.symlink(os.path.join("..", "..", "devices", "virtual", "thermal", "thermal_zone0"),
               os.path.join(sys_root, "class", "thermal", "thermal_zone0"))

    cpu = os.path.join(sys_root, "devices", "system", "cpu")
    write_file(os.path.join(cpu, "online"), f"0-{CORES - 1}\n")
    write_file(os.path.join(cpu, "possible"), f"0-{CORES - 1}\n")
    os.makedirs(os.path.join(cpu, "cpuidle"), exist_ok=True)
    for c in range(CORES):
        write_file(os.path.join(cpu, f"cpu{c}", "cpufreq", "scaling_cur_freq"), f"{CPU_KHZ[c % len(CPU_KHZ)]}\n")


def make_tree(out, processes, batteries, seed):
    rng = random.Random(seed)
    for sub in ("proc", "sys"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    proc = os.path.join(out, "proc")
    procs = make_processes(rng, processes)

    # CPU: about 5 % user, 2 % system over the uptime, per core.
    cpus = []
    for c in range(CORES):
        ticks = int(UPTIME * HZ)
        user, system = ticks * 5 // 100 + c * 311, ticks * 2 // 100 + c * 97
        iowait, irq, softirq = ticks // 400, ticks // 2000, ticks // 900
        idle = ticks - user - system - iowait - irq - softirq
        cpus.append([user, 1_204 + c, system, idle, iowait, irq, softirq, 0, 0, 0])
    running = max(1, sum(1 for _, p in procs if p["state"] == "R"))
    last_pid = procs[-1][0] if procs else 1
    write_file(os.path.join(proc, "stat"), proc_stat_text(cpus, 40_000 + 3 * processes, running))
    write_file(os.path.join(proc, "meminfo"), meminfo_text(rng))
    write_file(os.path.join(proc, "uptime"), f"{UPTIME:.2f} {UPTIME * CORES * 0.93:.2f}\n")
    write_file(os.path.join(proc, "loadavg"), f"0.52 0.58 0.59 {running}/{processes + processes // 2} {last_pid}\n")
    write_file(os.path.join(proc, "pressure", "memory"),
               "some avg10=0.12 avg60=0.31 avg300=0.18 total=18429911\n"
               "full avg10=0.00 avg60=0.05 avg300=0.02 total=5108821\n")
    write_file(os.path.join(proc, "sys", "kernel", "osrelease"), KERNEL + "\n")
    write_file(os.path.join(proc, "sys", "kernel", "random", "boot_id"), BOOT_ID + "\n")
    # Start times grow with the pid, as they do between pid wrap-arounds.
    for pid, p in procs:
        write_process(proc, rng, pid, p, 30 + int(pid / (last_pid + 1) * (UPTIME - 60) * HZ))

    supply = os.path.join(out, "sys", "class", "power_supply")
    os.makedirs(supply, exist_ok=True)
    for b in range(batteries):
        full = 50_000_000 + 7_000_000 * b
        now = full * (83 - 11 * b) // 100
        attrs = [("type", "Battery"), ("present", "1"), ("status", "Discharging"),
                 ("technology", "Li-poly"), ("cycle_count", str(143 + b)), ("voltage_min_design", "11550000"),
                 ("voltage_now", str(12_104_000 - 50_000 * b)), ("power_now", str(7_912_000 + 1_000_000 * b)),
                 ("energy_full_design", str(57_000_000 + 7_000_000 * b)), ("energy_full", str(full)),
                 ("energy_now", str(now)), ("capacity", str(round(100 * now / full))), ("capacity_level", "Normal"),
                 ("model_name", f"5B10W1386{b}"), ("manufacturer", "SMP"), ("serial_number", str(4120 + b)),
                 ("scope", "System")]
        for name, value in attrs:
            write_file(os.path.join(supply, f"BAT{b}", name), value + "\n")
        write_file(os.path.join(supply, f"BAT{b}", "uevent"),
                   "".join(f"POWER_SUPPLY_{k.upper()}={v}\n" for k, v in attrs if k not in ("type", "scope")))
    write_file(os.path.join(supply, "AC", "type"), "Mains\n")
    write_file(os.path.join(supply, "AC", "online"), "0\n")
    write_file(os.path.join(supply, "AC", "uevent"), "POWER_SUPPLY_NAME=AC\nPOWER_SUPPLY_ONLINE=0\n")
    write_system_files(out)


def tick(out, seconds):
    """Advances an existing tree by `seconds`: CPU counters, uptime, and a few busy processes."""
    proc = os.path.join(out, "proc")
    stat_path = os.path.join(proc, "stat")
    with open(stat_path, "rb") as f:
        lines = f.read().decode().split("\n")
    state_path = os.path.join(out, ".tick")
    n = int(open(state_path).read()) + 1 if os.path.exists(state_path) else 1
    rng = random.Random(n * 7_777)
    ticks = int(round(seconds * HZ))
    cpus = []
    for line in lines:
        if line.startswith("cpu") and not line.startswith("cpu "):
            values = [int(v) for v in line.split()[1:]]
            busy = rng.randrange(ticks // 20, ticks // 2 + 1)
            user = busy * 3 // 4
            system = busy - user
            iowait = rng.randrange(0, max(1, ticks // 50))
            values[0] += user
            values[2] += system
            values[4] += iowait
            values[3] += max(0, ticks - busy - iowait)
            cpus.append(values)
    rest = [l for l in lines if l and not l.startswith("cpu")]
    text = proc_stat_text(cpus, 0, 1)
    head = [l for l in text.split("\n") if l.startswith("cpu")]
    rewrite_in_place(stat_path, "\n".join(head + rest) + "\n")

    uptime_path = os.path.join(proc, "uptime")
    up, idle = (float(v) for v in open(uptime_path).read().split())
    rewrite_in_place(uptime_path, f"{up + seconds:.2f} {idle + seconds * CORES * 0.8:.2f}\n")

    # A few busy user processes (the same ones every tick: the first 5 % of user pids).
    pids = sorted(int(e) for e in os.listdir(proc) if e.isdigit())
    busy = []
    for pid in pids:
        path = os.path.join(proc, str(pid), "stat")
        try:
            data = open(path, "rb").read()
        except OSError:
            continue
        close = data.rindex(b")")
        rest = data[close + 2:].split(b" ")
        if int(rest[6]) & PF_KTHREAD:   # flags is field 9, the 7th after comm
            continue
        busy.append((pid, path, data, close, rest))
    for pid, path, data, close, rest in busy[:max(1, len(busy) // 20)]:
        used = rng.randrange(0, max(1, ticks // 5))
        rest[11] = str(int(rest[11]) + used * 3 // 4).encode()      # utime (field 14)
        rest[12] = str(int(rest[12]) + used - used * 3 // 4).encode()  # stime (field 15)
        rewrite_in_place(path, data[:close + 2] + b" ".join(rest))
    with open(state_path, "w") as f:
        f.write(str(n))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the tree's root (proc/ and sys/ are made under it)")
    parser.add_argument("--processes", type=int, default=None, help="number of processes (0 for none)")
    parser.add_argument("--batteries", type=int, default=1, help="number of batteries (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--tick", action="store_true", help="advance an existing tree instead of making one")
    parser.add_argument("--seconds", type=float, default=1.0, help="how far --tick advances (default 1)")
    args = parser.parse_args(argv)
    if args.tick:
        if not os.path.isfile(os.path.join(args.out, "proc", "stat")):
            parser.error(f"{args.out} has no proc/stat: make the tree first")
        tick(args.out, args.seconds)
        return 0
    if args.processes is None or args.processes < 0 or args.batteries < 0:
        parser.error("--processes N (N >= 0) is required, --batteries K takes K >= 0")
    make_tree(args.out, args.processes, args.batteries, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
