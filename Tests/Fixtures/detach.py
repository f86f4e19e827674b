#!/usr/bin/python3
"""Starts a command with no descriptor of its caller but stdin, stdout and stderr.

    detach.py [--wait] OUTFILE COMMAND [ARGUMENT...]

COMMAND's stdin is /dev/null and its stdout and stderr go to OUTFILE. Without --wait it runs
in a session of its own and detach.py returns at once; with --wait detach.py waits for it
(a daemon that forks: its parent returns once it runs) and exits with its status.

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
out, command = args[0], args[1:]
with open(out, "ab") as f:
    if wait:
        sys.exit(subprocess.run(command, stdin=subprocess.DEVNULL, stdout=f, stderr=f, close_fds=True).returncode)
    subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=f, stderr=f, close_fds=True, start_new_session=True)
