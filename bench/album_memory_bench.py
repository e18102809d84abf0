#!/usr/bin/env python3
"""Peak memory of the real binary with a 500-photo album, in a 200x60 pseudo-terminal.

A database of one pin whose ready album stores 500 photos (640x480 photograph-like JPEGs,
bench/album_pictures.py's 21 variants in turn), written through the app's own store by
`vtourist-bench make-album`. Each run starts the app on the map (VmHWM read there: the
baseline), opens the album (Tab, Enter), goes down to the last row of photos and back up to the
first, three rows at a time, letting every screenful of pictures be drawn, then reads VmHWM (peak
resident memory) from /proc/PID/status. Prints medians of the runs.
"""
import argparse
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import album_pictures  # noqa: E402
import targets  # noqa: E402
import terminal_bench  # noqa: E402

ROWS, COLS = 60, 200
PHOTOS = 500
# The album grid at 200x60: 7 photos a row.
GRID_ROWS = (PHOTOS + 6) // 7


def spawn(binary, db):
    return terminal_bench.spawn(binary, db, rows=ROWS, cols=COLS, extra_env={"COLORTERM": "truecolor"})


def settle(fd, marker=None, quiet=0.3, limit=20.0):
    """Reads output until `marker` was seen (if given) and nothing came for `quiet` seconds."""
    data = b""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            if marker is None or marker in data:
                return data
            continue
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    if marker is not None and marker not in data:
        sys.exit(f"the app never showed {marker!r}")
    return data


class Screen:
    """Just enough of a terminal to read the text ncurses leaves on screen: cursor moves,
    erases, repeats and printable characters; colours and modes are skipped."""
    CSI = re.compile(r"\x1b\[([0-9;:?]*)([A-Za-z@])|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\].*?(?:\x07|\x1b\\)")

    def __init__(self):
        self.rows = [[" "] * COLS for _ in range(ROWS)]
        self.y = self.x = 0
        self.last = " "

    def feed(self, data):
        i = 0
        for m in self.CSI.finditer(data.decode("latin-1")):
            self.put(text_of(data, i, m.start()))
            i = m.end()
            if m.group(2):
                self.control(m.group(1), m.group(2))
        self.put(text_of(data, i, len(data)))

    def control(self, params, final):
        n = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params and "?" not in params else [0]
        first = n[0] or 1
        if final in ("H", "f"):
            self.y, self.x = (n[0] or 1) - 1, ((n[1] if len(n) > 1 else 1) or 1) - 1
        elif final == "d":
            self.y = first - 1
        elif final == "G":
            self.x = first - 1
        elif final == "C":
            self.x += first
        elif final == "X":
            self.rows[self.y][self.x:self.x + first] = [" "] * len(self.rows[self.y][self.x:self.x + first])
        elif final == "K":
            if n[0] == 1:
                self.rows[self.y][:self.x + 1] = [" "] * (self.x + 1)
            else:
                self.rows[self.y][self.x:] = [" "] * (COLS - self.x)
        elif final == "b":
            self.put(self.last * first)
        elif final == "J":
            self.rows = [[" "] * COLS for _ in range(ROWS)]

    def put(self, text):
        for ch in text:
            if ch == "\r":
                self.x = 0
            elif ch == "\n":
                self.y = min(ROWS - 1, self.y + 1)
            elif ch >= " ":
                if 0 <= self.y < ROWS and 0 <= self.x < COLS:
                    self.rows[self.y][self.x] = ch
                self.x += 1
                self.last = ch

    def row(self, y):
        return "".join(self.rows[y])


def text_of(data, start, end):
    """Bytes start..end of data (offsets of its Latin-1 reading) as UTF-8 text."""
    return data[start:end].decode("utf-8", "replace")


def press(fd, keys):
    os.write(fd, keys)
    return settle(fd, quiet=0.25)


def peak_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    sys.exit("no VmHWM in /proc")


def finish(pid, fd):
    os.write(fd, b"\x1b")
    time.sleep(0.1)
    os.write(fd, b"q")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if select.select([fd], [], [], 0.05)[0]:
                os.read(fd, 1 << 16)
        except OSError:
            pass
        if os.waitpid(pid, os.WNOHANG)[0]:
            os.close(fd)
            return
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)


def one_run(binary, db):
    pid, fd = spawn(binary, db)
    try:
        start = settle(fd, marker=b"help")
        on_map = peak_mib(pid)
        os.write(fd, b"\t")
        shown = settle(fd, quiet=0.2)
        os.write(fd, b"\r")
        opened = start + shown + settle(fd, marker=b"%d photos" % PHOTOS)
        # Down to the last row and back up to the first, three rows at a time (j and k: escape
        # sequences written here were taken for Esc), each screenful drawn before the next.
        screen = Screen()
        screen.feed(opened)
        steps = (GRID_ROWS + 2) // 3
        for _ in range(steps):
            screen.feed(press(fd, b"jjj"))
        bottom = screen.row(1)
        for _ in range(steps):
            screen.feed(press(fd, b"kkk"))
        screen.feed(settle(fd, quiet=1.0))
        top = screen.row(1)
        if f"rows {GRID_ROWS - 3}-{GRID_ROWS} of {GRID_ROWS}" not in bottom or f"rows 1-4 of {GRID_ROWS}" not in top:
            sys.exit(f"the album was not scrolled from end to end:\n{bottom}\n{top}")
        return on_map, peak_mib(pid)
    finally:
        finish(pid, fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="vtourist-album-memory-")
    try:
        pictures = os.path.join(work, "pictures")
        album_pictures.write(pictures, 21, (640, 480))
        db = os.path.join(work, "album.sqlite")
        subprocess.run([args.bench_binary, "make-album", db, pictures, str(PHOTOS)], check=True)
        maps, albums = [], []
        for _ in range(args.runs):
            on_map, with_album = one_run(args.binary, db)
            maps.append(on_map)
            albums.append(with_album)
        size = os.path.getsize(db) / (1 << 20)
        print(f"Album memory, {PHOTOS} stored 640x480 photos ({size:.0f} MiB database), {COLS}x{ROWS} true colour, "
              f"every photo scrolled through, peak resident memory (VmHWM), {args.runs} runs:")
        print(f"  map only: median {statistics.median(maps):.1f} MiB (max {max(maps):.1f})")
        album, limit_mib = statistics.median(albums), targets.ALBUM_MEMORY_MB * targets.MIB_PER_MB
        print(f"  album of {PHOTOS}, scrolled end to end: median {album:.1f} MiB "
              f"(min {min(albums):.1f}, max {max(albums):.1f})  [target < {targets.ALBUM_MEMORY_MB:g} MB = {limit_mib:.0f} MiB]")
        ok = targets.verdict("album memory", album < limit_mib,
                             f"album of {PHOTOS} scrolled end to end: median {album:.1f} MiB over {args.runs} runs "
                             f"(target < {targets.ALBUM_MEMORY_MB:g} MB = {limit_mib:.1f} MiB)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
