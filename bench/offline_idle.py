#!/usr/bin/env python3
"""Offline, the app waits without working: the CPU time of `vtourist drop --wait` and of the
full-screen app (in a pseudo-terminal, 120x40, its album waiting) while every host is
unreachable, over --seconds (60), as a share of one core. The photo endpoints point at a
loopback port with nothing listening (connections refused: the app is offline at once and only
its probe, with backoff, asks whether the network is back).
Target (bench/targets.py, "offline idle"): under 2 % for each.

    python3 bench/offline_idle.py --binary .build/release/vtourist [--seconds 60]
"""
import argparse
import os
import pty
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import targets  # noqa: E402


def cpu_seconds(pid):
    """User + system CPU of a live process, from /proc (clock ticks)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def environment(work, port):
    return {
        "PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8", "TERM": "xterm-256color",
        "VTOURIST_DB": os.path.join(work, "db.sqlite"), "VTOURIST_IMAGES": "none",
        "FLICKR_API_KEY": "good-key",
        "VTOURIST_FLICKR_ENDPOINT": f"http://127.0.0.1:{port}/flickr/rest",
        "VTOURIST_COMMONS_ENDPOINT": f"http://127.0.0.1:{port}/commons/api.php",
    }


def measure(pid, seconds, settle=3.0):
    """CPU share of one core over `seconds`, after `settle` seconds for the first failures."""
    time.sleep(settle)
    start_cpu, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - start_cpu) / (time.monotonic() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))  # bound and never listening: every connection is refused
    port = closed.getsockname()[1]
    work = tempfile.mkdtemp(prefix="vtourist-offline-")
    results = {}
    try:
        env = environment(work, port)
        drop = subprocess.Popen([args.binary, "drop", "40.85", "14.27", "--wait", "--timeout", str(int(args.seconds + 30))],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        results["drop --wait"] = measure(drop.pid, args.seconds)
        drop.kill()
        _, stderr = drop.communicate()
        if b"offline" not in stderr:
            sys.exit(f"drop --wait did not say offline: {stderr.decode(errors='replace')[:300]}")
        # The app takes the album drop left downloading up again, offline as well.
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(args.binary, [args.binary], env)
        import fcntl
        import termios
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        seen = bytearray()
        deadline = time.monotonic() + 20
        while b"offline" not in seen and time.monotonic() < deadline:
            import select
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
        if b"offline" not in seen:
            os.kill(pid, 9)
            sys.exit("the app did not say offline")
        # Keep reading what it draws, so a full pseudo-terminal never blocks it.
        start_cpu, start = cpu_seconds(pid), time.monotonic()
        import select
        while time.monotonic() - start < args.seconds:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    os.read(fd, 65536)
                except OSError:
                    break
        results["the app"] = (cpu_seconds(pid) - start_cpu) / (time.monotonic() - start)
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    finally:
        closed.close()
        shutil.rmtree(work, ignore_errors=True)
    for name, share in results.items():
        print(f"offline, {name}: {share * 100:.2f} % of a core over {args.seconds:.0f} s")
    worst = max(results.values())
    ok = targets.verdict("offline idle", worst < targets.OFFLINE_IDLE_SHARE,
                         ", ".join(f"{name} {share * 100:.2f} %" for name, share in results.items())
                         + f" of a core over {args.seconds:.0f} s offline (limit {targets.OFFLINE_IDLE_SHARE * 100:g} %)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
