#!/usr/bin/env python3
"""Unchanged programs checked against their own baseline, run after run: no false failure.

    bench/budget-baselines.py [--bin DIR] [--runs 10] [--busy 0]

Writes a budgets file of the accuracy workloads (Tests/Fixtures/measure/touch-memory.c and a
Python program; docs/budgets.md, "Accuracy"), each with every limit key its run can judge
set well above its figure, so that only the baseline can fail; records a baseline with
`sysstats budget record`, then runs `sysstats budget check --baseline` --runs times with the
default tolerance. With --busy N, N CPU-bound loops run beside. Prints, per budget, how many
checks passed, failed and were errors, the failures' lines, and a Markdown table; exits 1
when a check failed (a false failure: nothing changed). docs/budgets.md ("Baselines")
quotes it.
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEAKS = ["peak_rss", "peak_rss_exact", "peak_pss", "peak_anon", "peak_cgroup"]
STEADY = ["steady_uss", "steady_anon"]

# name, command, duration or None, warmup, limit in MiB, the keys its run can judge
WORKLOADS = [
    ("touches 64 MiB", "exec ./touch-memory private 64 1000", None, "200ms", 256, PEAKS + STEADY),
    ("shares 64 MiB with 3 children", "exec ./touch-memory shared 64 3 1000", None, "300ms", 512, PEAKS + STEADY),
    ("a daemon that double-forks, 32 MiB", "exec ./touch-memory daemon 32 1000", None, None, 128, ["peak_rss", "peak_pss", "peak_anon"]),
    ("leaks 20 MiB/s for 3 s", "exec ./touch-memory leak 20 3", None, None, 256, PEAKS),
    ("holds 32 MiB for 11 s", "exec ./touch-memory steady 32 11", None, "1s", 128, PEAKS + STEADY + ["growth_per_minute"]),
    ("a child touches 100 MiB, reaped at once", "exec ./touch-memory spike 100 500", None, None, 512, ["peak_rss", "peak_rss_exact"]),
    ("8 threads x 8 MiB", "exec ./touch-memory threads 8 8 1000", None, "200ms", 256, PEAKS + STEADY),
    ("200 children, 4 MiB each", "exec ./touch-memory storm 200 4", None, None, 64, ["peak_rss", "peak_rss_exact", "peak_pss"]),
    ("200 children in waves of 10", "exec ./touch-memory waves 200 4 10 50", None, None, 256, ["peak_rss", "peak_pss", "peak_anon"]),
    ("Python, a 48 MiB bytes object", "exec python3 big-bytes.py", None, None, 256, PEAKS),
    ("maps a 64 MiB file and reads it", "exec ./touch-memory file 64 1000 \"$SYSSTATS_BUDGET_TMP/f\"", None, "300ms", 256, PEAKS + STEADY),
]


def budgets_file():
    lines = []
    for name, command, duration, warmup, mib, keys in WORKLOADS:
        lines += ["[[budget]]", f'name = "{name}"', f"command = '{command}'"]
        if duration:
            lines.append(f'duration = "{duration}"')
        if warmup:
            lines.append(f'warmup = "{warmup}"')
        for key in keys:
            lines.append(f'{key} = "{mib} MiB"' if key != "growth_per_minute" else f'{key} = "{mib} MiB/min"')
        lines.append("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--busy", type=int, default=0)
    args = parser.parse_args()
    sysstats = os.path.join(args.bin, "sysstats")
    work = tempfile.mkdtemp(prefix="budget-baselines-")
    subprocess.run(["cc", "-O2", "-o", os.path.join(work, "touch-memory"),
                    os.path.join(ROOT, "Tests/Fixtures/measure/touch-memory.c")], check=True)
    with open(os.path.join(work, "sysstats-budget.toml"), "w") as f:
        f.write(budgets_file())
    with open(os.path.join(work, "big-bytes.py"), "w") as f:
        f.write("import time\nb = b'\\x01' * (48 << 20)\ntime.sleep(1)\n")
    env = dict(os.environ)
    busy = [subprocess.Popen(["/bin/sh", "-c", "while :; do :; done"]) for _ in range(args.busy)]
    try:
        record = subprocess.run([sysstats, "budget", "record"], cwd=work, env=env, capture_output=True, text=True)
        if record.returncode != 0:
            sys.exit(f"budget record: exit {record.returncode}\n{record.stdout}{record.stderr}")
        counts = collections.defaultdict(collections.Counter)
        failures = []
        for run in range(args.runs):
            check = subprocess.run([sysstats, "budget", "check", "--baseline", "sysstats-budget-baseline.json"],
                                   cwd=work, env=env, capture_output=True, text=True)
            for line in check.stdout.splitlines():
                word, _, rest = line.partition(" ")
                if word not in ("ok", "FAIL", "ERROR"):
                    continue
                name = rest.strip().split(":", 1)[0]
                counts[name][word] += 1
                if word != "ok":
                    failures.append(f"run {run + 1}: {line}")
            print(f"run {run + 1}: {check.stdout.splitlines()[-1] if check.stdout else check.stderr.strip()}", flush=True)
    finally:
        for p in busy:
            p.kill()
    for line in failures:
        print(line)
    print()
    print(f"| workload (every limit it can judge set, checked against its own baseline) | ok | FAIL | ERROR |")
    print("|---|---|---|---|")
    for name, *_ in WORKLOADS:
        c = counts[name]
        print(f"| {name} | {c['ok']} | {c['FAIL']} | {c['ERROR']} |")
    sys.exit(1 if any(c["FAIL"] for c in counts.values()) else 0)


if __name__ == "__main__":
    main()
