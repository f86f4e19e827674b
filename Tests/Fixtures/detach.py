#!/usr/bin/python3
"""Starts a command with no descriptor of its caller but stdin, stdout and stderr.

    detach.py [--wait] [--pid PIDFILE] OUTFILE COMMAND [ARGUMENT...]

COMMAND's stdin is /dev/null and its stdout and stderr go to OUTFILE. Without --wait it runs
in a session of its own (so that killing its process group ends what it started) and
detach.py returns at once, after writing its pid to PIDFILE when given; with --wait
detach.py waits for it (a daemon that forks: its parent returns once it runs) and exits
with its status.

Why: Foundation's Process learns that a child ended through a descriptor the child inherits;
a daemon that keeps its inherited descriptors (dbus-daemon --fork, a Python player) would hold
that open, and the test's wait for the launcher would last as long as the daemon.
"""
import subprocess
import sys

args = sys.argv[1:]
wait = args[:1] == ["--wait"]
if wait:
    args = args[1:]
pid_file = None
if args[:1] == ["--pid"]:
    pid_file, args = args[1], args[2:]
out, command = args[0], args[1:]
with open(out, "ab") as f:
    if wait:
        sys.exit(subprocess.run(command, stdin=subprocess.DEVNULL, stdout=f, stderr=f, close_fds=True).returncode)
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=f, stderr=f, close_fds=True, start_new_session=True)
    if pid_file:
        with open(pid_file, "w") as p:
            p.write(f"{child.pid}\n")
