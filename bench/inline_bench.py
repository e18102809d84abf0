#!/usr/bin/env python3
"""Bytes one photo view writes to the terminal, over two photograph-like JPEGs made here
(render_bench.py's landscape): a 500x375 album thumbnail and a 1024x768 large image.

1. The picture alone, in process (`vtourist-bench inline`: the picture pipeline's inline encoding
   and the terminal's bookkeeping) at 160x50 cells, median of several runs:
   - iTerm2: bytes written at most 1.5x the stored image;
   - kitty: at most 3.2 bytes per pixel sent, and never more pixels than the image has or the view shows.
2. The whole photo view, as the issue measured it: the real binary in a 160x50 pseudo-terminal
   with VTOURIST_IMAGES set, every byte from Enter on the album to the screen settling (the
   photo's frame and its picture), the photo stored as the album's image; median of the runs.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_bench import encode_jpeg, scene, turbojpeg  # noqa: E402
import targets  # noqa: E402
from terminal_bench import finish, read_until, spawn  # noqa: E402

PHOTO = re.compile(r"^  (\S+\.jpg): (\d+)x(\d+), (\d+) bytes stored$")
ITERM = re.compile(r"iTerm2: (\d+) bytes written, ([0-9.]+)x the stored image")
KITTY = re.compile(r"kitty: (\d+) bytes written for (\d+)x(\d+) pixels sent, ([0-9.]+) bytes per pixel.*"
                   r"pixels sent (\d+), the image has (\d+), the view shows (\d+)")


def photo_view_bytes(binary, bench_binary, jpeg, protocol, runs):
    """Bytes the real binary writes from Enter on the album to the photo view settling, median of `runs`."""
    counts = []
    with tempfile.TemporaryDirectory(prefix="vtourist-inline-view-") as work:
        pictures = os.path.join(work, "pictures")
        os.mkdir(pictures)
        with open(os.path.join(pictures, "photo.jpg"), "wb") as f:
            f.write(jpeg)
        db = os.path.join(work, "album.sqlite")
        subprocess.run([bench_binary, "make-album", db, pictures, "3"], check=True)
        for _ in range(runs):
            pid, fd = spawn(binary, db, rows=50, cols=160, extra_env={"VTOURIST_IMAGES": protocol, "COLORTERM": "truecolor"})
            read_until(fd, marker=b"help")
            os.write(fd, b"\t")
            read_until(fd, quiet=0.3)
            os.write(fd, b"\r")
            read_until(fd, marker=b"3 photos", quiet=0.5)
            os.write(fd, b"\r")
            out, _ = read_until(fd, marker=b"1 of 3", quiet=0.8)
            counts.append(len(out))
            os.write(fd, b"\x1b")
            read_until(fd, quiet=0.3)
            os.write(fd, b"\x1b")
            read_until(fd, quiet=0.3)
            finish(pid, fd)
    return statistics.median(counts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    tj = turbojpeg()
    photos = {}
    with tempfile.TemporaryDirectory(prefix="vtourist-inline-") as folder:
        for name, (w, h) in [("thumbnail_500.jpg", (500, 375)), ("large_1024x768.jpg", (1024, 768))]:
            photos[name] = encode_jpeg(tj, bytearray(scene(w, h)), w, h)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(photos[name])
        r = subprocess.run([args.bench_binary, "inline", folder, str(args.runs)], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        targets.verdict("inline bytes", False, f"{args.bench_binary} inline failed with status {r.returncode}")
        sys.exit(1)
    ok, photo, seen = True, None, 0
    for line in r.stdout.splitlines():
        m = PHOTO.match(line)
        if m:
            photo = f"{m.group(1)} ({m.group(2)}x{m.group(3)})"
            continue
        m = ITERM.search(line)
        if m:
            seen += 1
            ratio = float(m.group(2))
            ok &= targets.verdict("inline bytes", ratio <= targets.INLINE_ITERM2_RATIO,
                                  f"iTerm2, {photo}: {m.group(1)} bytes, {ratio:.2f}x the stored image "
                                  f"(target <= {targets.INLINE_ITERM2_RATIO:g}x)")
        m = KITTY.search(line)
        if m:
            seen += 1
            per_pixel = float(m.group(4))
            sent, has, shows = int(m.group(5)), int(m.group(6)), int(m.group(7))
            ok &= targets.verdict("inline bytes", per_pixel <= targets.INLINE_KITTY_BYTES_PER_PIXEL and sent <= min(has, shows),
                                  f"kitty, {photo}: {per_pixel:.2f} bytes per pixel sent (target <= "
                                  f"{targets.INLINE_KITTY_BYTES_PER_PIXEL:g}), {sent} pixels sent of {has} in the image, "
                                  f"{shows} in the view (target <= the fewer)")
    if seen < 4:
        targets.verdict("inline bytes", False, f"{seen} of 4 figures in the output")
        ok = False

    print("Whole photo view in a 160x50 pseudo-terminal (true colour), Enter to the screen settling, "
          f"median of {args.runs} runs:")
    for name, jpeg in photos.items():
        figures = {p: photo_view_bytes(args.binary, args.bench_binary, jpeg, p, args.runs)
                   for p in ("iterm2", "kitty", "sixel", "cells")}
        print(f"  {name}: {len(jpeg)} bytes stored; iTerm2 {figures['iterm2']:.0f} bytes "
              f"({figures['iterm2'] / len(jpeg):.2f}x the stored image), kitty {figures['kitty']:.0f}, "
              f"sixel {figures['sixel']:.0f}, cells only {figures['cells']:.0f}")
        ratio = figures["iterm2"] / len(jpeg)
        ok &= targets.verdict("inline bytes", ratio <= targets.INLINE_ITERM2_RATIO,
                              f"iTerm2, whole photo view of {name}: {ratio:.2f}x the stored image "
                              f"(target <= {targets.INLINE_ITERM2_RATIO:g}x)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
