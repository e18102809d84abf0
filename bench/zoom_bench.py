#!/usr/bin/env python3
"""The photo view's zoom step, measured in process by `vtourist-bench zoom` (the reducer, the live
painter decoding only the part shown and rendering it into cells, the frame drawn) at 200x60 in true
colour over a photograph-like 2048x1536 JPEG made here (bench/album_pictures.py).
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

STEP = re.compile(r"Zoom step at 200x60, key to frame with its picture: median ([0-9.]+) ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--size", default="2048x1536", help="the photo's pixels, WIDTHxHEIGHT")
    args = ap.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory(prefix="vtourist-zoom-") as folder:
        album_pictures.write(folder, 1, (width, height))
        photo = os.path.join(folder, sorted(os.listdir(folder))[0])
        r = subprocess.run([args.bench_binary, "zoom", photo, str(args.runs)], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        targets.verdict("zoom step", False, f"{args.bench_binary} zoom failed with status {r.returncode}")
        sys.exit(1)
    step = STEP.search(r.stdout)
    if step is None:
        targets.verdict("zoom step", False, "no zoom-step median in the output")
        sys.exit(1)
    ms = float(step.group(1))
    ok = targets.verdict("zoom step", ms < targets.ZOOM_STEP_MS,
                         f"{width}x{height} photo at 200x60: median {ms:.1f} ms (target < {targets.ZOOM_STEP_MS:g} ms)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
