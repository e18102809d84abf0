#!/usr/bin/env python3
"""The album's first paint and selection moves, measured in process by `vtourist-bench album`
(the real runtime, store and album renderer with a scripted 200x60 true-colour terminal) over
21 photograph-like 640x480 JPEGs made here (bench/album_pictures.py).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import album_pictures  # noqa: E402
import targets  # noqa: E402

FIRST_PAINT = re.compile(r"First paint, Enter to every picture drawn: median ([0-9.]+) ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--size", default="640x480", help="the photos' pixels, WIDTHxHEIGHT")
    args = ap.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory(prefix="vtourist-album-paint-") as folder:
        album_pictures.write(folder, 21, (width, height))
        r = subprocess.run([args.bench_binary, "album", folder, str(args.runs)], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        targets.verdict("album first paint", False, f"{args.bench_binary} album failed with status {r.returncode}")
        sys.exit(1)
    paint = FIRST_PAINT.search(r.stdout)
    if paint is None:
        targets.verdict("album first paint", False, "no first-paint median in the output")
        sys.exit(1)
    ms = float(paint.group(1))
    ok = targets.verdict("album first paint", ms < targets.ALBUM_FIRST_PAINT_MS,
                         f"{width}x{height} photos: median {ms:.1f} ms (target < {targets.ALBUM_FIRST_PAINT_MS:g} ms)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
