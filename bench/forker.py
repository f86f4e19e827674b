#!/usr/bin/env python3
"""A machine that forks all day, for bench/footprint.py: starts /bin/true N times a second,
evenly spaced, and reaps each before the next (a build's or a shell script's short-lived
processes). Runs until killed.

    forker.py N
"""
import os
import sys
import time

rate = float(sys.argv[1])
step = 1.0 / rate
devnull = os.open(os.devnull, os.O_RDWR)
actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
deadline = time.monotonic()
while True:
    pid = os.posix_spawn("/bin/true", ["true"], {}, file_actions=actions)
    os.waitpid(pid, 0)
    deadline += step
    pause = deadline - time.monotonic()
    if pause > 0:
        time.sleep(pause)
    else:
        deadline = time.monotonic()
