#!/usr/bin/env python3
"""peak_rss.py OUT PROGRAM ARGS...: runs PROGRAM (same environment, standard input and output) and
writes its peak resident memory in KiB (getrusage's ru_maxrss) to OUT; exits as PROGRAM did.

A small process of its own forks PROGRAM: on Linux a process's ru_maxrss counts the memory of the
process it was forked from, up to its exec, so a child started straight from a large test process
or benchmark would report that process's size. From here the floor is about 5 MiB.
"""
import os
import sys

pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) % 256)
