#!/usr/bin/env python3
"""The measuring half of bench/footprint.sh: sampler + bar beside i3status, in one run.

    footprint.py --sampler PATH --bar PATH --work DIR [--rounds R] [--seconds S]
                 [--trace-seconds T] [--warmup W] [--extra N,...] [--forks F,...] [--out FILE]
                 [--slstatus PATH] [--blocks LIST]

Per round and per load (the machine as it is, then with N extra idle `sleep`
processes; each of those with F short-lived processes a second started beside, by
bench/forker.py: /bin/true spawned and reaped F times a second, evenly spaced), starts side by side, at interval 1 s on this machine's real /proc:
  - group "sysstats": sysstatsd --no-history and one sysstats-bar --output i3bar
    --no-start-sampler (blocks cpu,mem,load,battery,time, or --blocks LIST: what a block
    costs the sampler beyond that bar, as top:gpu's list of GPU clients) on its own runtime dir;
  - group "i3status": i3status with the equivalent config (cpu_usage, memory,
    load, battery all, tztime), output to a pipe that is read and dropped;
  - with --slstatus, group "slstatus": an slstatus binary built with the same
    components (cpu_perc, ram_used, load_avg, datetime; no battery_perc, whose
    failing fopen on a machine without one would cost it a write a second), run
    as `slstatus -s` (stdout, no X). It is not in Debian: build it yourself.
After a warm-up of W seconds (default 62: until the sampler's 60-point histories are
full, each snapshot is longer than the last, and each sample also sets the length of the
file it writes), over S seconds, per group (the sum of its processes and their threads):
  - CPU ms per second: sum_exec_runtime from /proc/PID/task/*/schedstat (user +
    system, ns), before and after (utime+stime from /proc/PID/stat if no schedstat);
  - wakeups per second: voluntary context switches from /proc/PID/task/*/status,
    before and after (each a sleep the program chose); preemptions per second beside
    them: nonvoluntary switches, which the load beside decides more than the program
    (a busy machine takes the CPU from a program in the middle of its work);
  - peak RSS: VmHWM at the end (the group's largest process, and the sum).
Then, still in the same run, `strace -c -f -p PID` attached to every process of
both groups for T seconds gives syscalls per second (the strace window is not
used for CPU: the tracer slows what it traces).
Prints a Markdown table of the medians over the rounds.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

I3STATUS_CONF = """general {
    output_format = "i3bar"
    colors = false
    interval = 1
}
order += "cpu_usage"
order += "memory"
order += "load"
order += "battery all"
order += "tztime local"
cpu_usage { format = "%usage" }
memory { format = "%used / %total" }
load { format = "%1min" }
battery all { format = "%status %percentage %remaining" }
tztime local { format = "%Y-%m-%d %H:%M:%S" }
"""


def cpu_ns(pid):
    try:
        # Every thread's (/proc/PID/schedstat is the main thread's alone): the sampler's
        # pressure-trigger thread counts too.
        return sum(int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0])
                   for t in os.listdir(f"/proc/{pid}/task"))
    except (OSError, ValueError, IndexError):
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
        rest = data[data.rindex(b")") + 2:].split()
        return (int(rest[11]) + int(rest[12])) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.split()[0] if value.split() else ""
    return fields


def counters(pids):
    cpu = [cpu_ns(p) for p in pids]
    voluntary = preempted = 0
    for p in pids:
        for t in os.listdir(f"/proc/{p}/task"):   # every thread's (the PID's own are the main thread's)
            s = status(f"{p}/task/{t}")
            voluntary += int(s["voluntary_ctxt_switches"])
            preempted += int(s["nonvoluntary_ctxt_switches"])
    return cpu, voluntary, preempted


def peak_rss(pids):
    values = [int(status(p)["VmHWM"]) for p in pids]
    return max(values), sum(values)


def strace_counts(pids, seconds, work, label):
    """Syscalls per second of `pids` together, from strace -c attached for `seconds`."""
    out = os.path.join(work, f"strace-{label}.txt")
    args = ["strace", "-c", "-f", "-o", out]
    for p in pids:
        args += ["-p", str(p)]
    tracer = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    time.sleep(seconds)
    tracer.send_signal(signal.SIGINT)
    tracer.wait(timeout=10)
    total = 0
    with open(out) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 5 and parts[-1] == "total":
                total = int(parts[3])
    return total / seconds


def start_group(kind, args, work, r, load):
    if kind == "sysstats":
        rt = os.path.join(work, f"rt-{r}-{load}")
        os.mkdir(rt, 0o700)
        sampler = subprocess.Popen([args.sampler, "--interval", "1", "--runtime-dir", rt, "--no-history"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Wait for the first snapshot so the bar does not find an empty runtime dir.
        deadline = time.time() + 5
        while not os.path.exists(os.path.join(rt, "snapshot")) and time.time() < deadline:
            time.sleep(0.05)
        bar = subprocess.Popen([args.bar, "--output", "i3bar", "--runtime-dir", rt, "--no-start-sampler",
                                "--blocks", args.blocks],
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return [sampler, bar]
    conf = os.path.join(work, "i3status.conf")
    with open(conf, "w") as f:
        f.write(I3STATUS_CONF)
    if kind == "slstatus":
        return [subprocess.Popen([args.slstatus, "-s"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    return [subprocess.Popen(["i3status", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]


def stop(procs):
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def one_round(args, r, load, forks):
    idle = []
    try:
        for _ in range(load):
            idle.append(subprocess.Popen(["sleep", "100000"], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        if forks:
            idle.append(subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "forker.py"), str(forks)],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL))
        groups = {k: start_group(k, args, args.work, r, f"{load}-{forks}") for k in kinds(args)}
        try:
            time.sleep(args.warmup)
            pids = {k: [p.pid for p in v] for k, v in groups.items()}
            before = {k: counters(v) for k, v in pids.items()}
            t0 = time.monotonic()
            time.sleep(args.seconds)
            after = {k: counters(v) for k, v in pids.items()}
            elapsed = time.monotonic() - t0
            rows = {}
            for k in groups:
                hwm_max, hwm_sum = peak_rss(pids[k])
                each = [(a - b) / 1e6 / elapsed for a, b in zip(after[k][0], before[k][0])]
                rows[k] = {"cpu_ms_s": sum(each), "cpu_each_ms_s": each,
                           "wakeups_s": (after[k][1] - before[k][1]) / elapsed,
                           "preemptions_s": (after[k][2] - before[k][2]) / elapsed,
                           "rss_max_kib": hwm_max, "rss_sum_kib": hwm_sum}
            for k in groups:
                rows[k]["syscalls_s"] = strace_counts(pids[k], args.trace_seconds, args.work, f"{k}-{r}-{load}")
            processes = sum(1 for d in os.listdir("/proc") if d.isdigit())
            for k in rows:
                rows[k]["processes"] = processes
            return rows
        finally:
            for g in groups.values():
                stop(g)
    finally:
        for p in idle:
            p.kill()
        for p in idle:
            p.wait()


def kinds(args):
    return ("sysstats", "i3status", "slstatus") if args.slstatus else ("sysstats", "i3status")


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--sampler", required=True)
    ap.add_argument("--bar", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--trace-seconds", type=float, default=6)
    ap.add_argument("--warmup", type=float, default=62)
    ap.add_argument("--extra", default="0,1000")
    ap.add_argument("--forks", default="0")
    ap.add_argument("--out")
    ap.add_argument("--slstatus")
    ap.add_argument("--blocks", default="cpu,mem,load,battery,time")
    args = ap.parse_args(argv)
    # A load is (extra idle processes, short-lived processes started a second).
    loads = [(int(x), int(f)) for x in args.extra.split(",") for f in args.forks.split(",")]
    records = []
    for r in range(1, args.rounds + 1):
        for load in loads:
            print(f"footprint: round {r}/{args.rounds}, {load[0]} extra processes, {load[1]} forks/s", file=sys.stderr)
            rows = one_round(args, r, *load)
            for k, v in rows.items():
                records.append(dict(v, group=k, extra=load[0], forks=load[1], round=r))
    if args.out:
        with open(args.out, "w") as f:
            for rec in records:
                f.write(json.dumps(rec) + "\n")
    print("| extra processes | forks/s | group | CPU ms/s | of which sampler / bar | syscalls/s | wakeups/s | preempted/s | peak RSS (largest / sum) | CPU vs i3status |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for load in loads:
        med = {}
        for k in kinds(args):
            sel = [x for x in records if x["group"] == k and (x["extra"], x.get("forks", 0)) == load]
            med[k] = {f: statistics.median(x[f] for x in sel)
                      for f in ("cpu_ms_s", "syscalls_s", "wakeups_s", "preemptions_s", "rss_max_kib", "rss_sum_kib", "processes")}
        for k in kinds(args):
            m = med[k]
            ratio = m["cpu_ms_s"] / med["i3status"]["cpu_ms_s"] if med["i3status"]["cpu_ms_s"] else float("nan")
            label = "sysstatsd + sysstats-bar" if k == "sysstats" else k
            sel = [x for x in records if x["group"] == k and (x["extra"], x.get("forks", 0)) == load]
            split = " / ".join(f"{statistics.median(x['cpu_each_ms_s'][i] for x in sel):.3f}"
                               for i in range(len(sel[0]["cpu_each_ms_s"]))) if k == "sysstats" else ""
            print(f"| {load[0]} (≈{int(m['processes'])} in /proc) | {load[1]} | {label} | {m['cpu_ms_s']:.3f} | {split} | {m['syscalls_s']:.1f} | "
                  f"{m['wakeups_s']:.2f} | {m['preemptions_s']:.2f} | {m['rss_max_kib'] / 1024:.1f} / {m['rss_sum_kib'] / 1024:.1f} MiB | {ratio:.2f}× |")
    # Each round's groups ran side by side: their ratios within the round are the steadier figure.
    print()
    for load in loads:
        for other in kinds(args)[1:]:
            per = []
            for r in range(1, args.rounds + 1):
                mine = [x["cpu_ms_s"] for x in records if x["group"] == "sysstats" and (x["extra"], x.get("forks", 0)) == load and x["round"] == r]
                theirs = [x["cpu_ms_s"] for x in records if x["group"] == other and (x["extra"], x.get("forks", 0)) == load and x["round"] == r]
                if mine and theirs and theirs[0]:
                    per.append(mine[0] / theirs[0])
            if per:
                print(f"{load[0]} extra, {load[1]} forks/s: sysstatsd + sysstats-bar against {other}, each round: "
                      + ", ".join(f"{x:.2f}" for x in per) + f" (median {statistics.median(per):.2f}×)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
