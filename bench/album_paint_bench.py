#!/usr/bin/env python3
"""The album's first paint and selection moves, measured in process by `vtourist-bench album`
(the real runtime, store and album renderer with a scripted 200x60 true-colour terminal) over
21 photograph-like 640x480 JPEGs made here (bench/album_pictures.py).
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import album_pictures  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--size", default="640x480", help="the photos' pixels, WIDTHxHEIGHT")
    args = ap.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory(prefix="vtourist-album-paint-") as folder:
        album_pictures.write(folder, 21, (width, height))
        sys.exit(subprocess.run([args.bench_binary, "album", folder, str(args.runs)]).returncode)


if __name__ == "__main__":
    main()
