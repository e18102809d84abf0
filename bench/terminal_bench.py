#!/usr/bin/env python3
"""Benchmarks of the real binary in a pseudo-terminal (200x60 map + status line).

- cold start to the first drawn frame with a 10,000-pin database, and peak memory;
- bytes written to the terminal when the cursor moves one cell.

Prints medians of several runs.
"""
import argparse
import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import targets  # noqa: E402

ROWS, COLS = 61, 200  # a 200x60 map plus the status line


def spawn(binary, db, rows=ROWS, cols=COLS, extra_env=None):
    """The app on `db` in a pseudo-terminal of `cols` x `rows`; HOME is the database's folder."""
    pid, fd = pty.fork()
    if pid == 0:
        # Nothing of the caller's environment; photo endpoints on a closed loopback port, so
        # nothing the app might fetch leaves the machine.
        nowhere = "http://127.0.0.1:9"
        env = {"PATH": "/usr/bin:/bin", "HOME": os.path.dirname(db), "TERM": "xterm-256color",
               "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "VTOURIST_FLICKR_ENDPOINT": f"{nowhere}/flickr/rest", "VTOURIST_COMMONS_ENDPOINT": f"{nowhere}/w/api.php",
               **(extra_env or {})}
        os.execve(binary, [binary, "--db", db], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    return pid, fd


def read_until(fd, marker=None, quiet=0.25, limit=10.0):
    """Reads output until `marker` was seen and nothing came for `quiet` seconds."""
    data = b""
    seen = marker is None
    start = time.monotonic()
    first_marker_time = None
    while time.monotonic() - start < limit:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            if seen:
                break
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
        if not seen and marker in data:
            seen = True
            first_marker_time = time.monotonic()
    return data, first_marker_time


def finish(pid, fd):
    os.write(fd, b"q")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                os.read(fd, 65536)
        except OSError:
            pass
        wpid, status, usage = os.wait4(pid, os.WNOHANG)
        if wpid:
            os.close(fd)
            return usage.ru_maxrss / 1024.0  # MiB
    os.kill(pid, 9)
    _, _, usage = os.wait4(pid, 0)
    os.close(fd)
    return usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="vtourist-bench-")
    db = os.path.join(work, "bench.sqlite")
    os.system(f"{args.bench_binary} make-db {db} 10000")

    starts, peaks, move_bytes = [], [], []
    for run in range(args.runs):
        t0 = time.monotonic()
        pid, fd = spawn(args.binary, db)
        _, t_frame = read_until(fd, marker=b"help")
        if t_frame is None:
            raise SystemExit("the app drew no frame")
        starts.append((t_frame - t0) * 1000)
        # Cursor moves: right, down, left, up — one cell each.
        for key in (b"l", b"j", b"h", b"k"):
            os.write(fd, key)
            out, _ = read_until(fd, quiet=0.15)
            move_bytes.append(len(out))
        peaks.append(finish(pid, fd))

    cold = statistics.median(starts)
    print(f"Cold start to first frame, 10,000 pins, {COLS}x{ROWS - 1} map: "
          f"median {cold:.1f} ms (min {min(starts):.1f}, max {max(starts):.1f}, n={len(starts)})"
          f"  [target < {targets.COLD_START_MS:g} ms]")
    peak, moved = statistics.median(peaks), statistics.median(move_bytes)
    limit_mib = targets.MAP_MEMORY_MB * targets.MIB_PER_MB
    print(f"Peak memory (max RSS): median {peak:.1f} MiB "
          f"(max {max(peaks):.1f})  [target < {targets.MAP_MEMORY_MB:g} MB = {limit_mib:.1f} MiB]")
    print(f"Bytes written per one-cell cursor move: median {moved:.0f} "
          f"(min {min(move_bytes)}, max {max(move_bytes)}, n={len(move_bytes)})  [target < {targets.CURSOR_MOVE_BYTES}]")
    ok = targets.verdict("cold start", cold < targets.COLD_START_MS,
                         f"median {cold:.1f} ms (target < {targets.COLD_START_MS:g} ms)")
    ok &= targets.verdict("map memory", peak < limit_mib,
                          f"median {peak:.1f} MiB over {len(peaks)} runs (target < {targets.MAP_MEMORY_MB:g} MB "
                          f"= {limit_mib:.1f} MiB)")
    ok &= targets.verdict("cursor move bytes", moved < targets.CURSOR_MOVE_BYTES,
                          f"median {moved:.0f} bytes over {len(move_bytes)} moves (target < {targets.CURSOR_MOVE_BYTES})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
