#!/usr/bin/env python3
"""Bytes one photo view writes to the terminal for its real picture, measured in process by
`vtourist-bench inline` (the picture pipeline's inline encoding and the terminal's bookkeeping)
at 160x50 cells, over two photograph-like JPEGs made here (render_bench.py's landscape): a
500x375 album thumbnail and a 1024x768 large image.
- iTerm2: bytes written at most 1.5x the stored image;
- kitty: at most 3.2 bytes per pixel sent, and never more pixels than the image has or the view shows.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_bench import encode_jpeg, scene, turbojpeg  # noqa: E402
import targets  # noqa: E402

PHOTO = re.compile(r"^  (\S+\.jpg): (\d+)x(\d+), (\d+) bytes stored$")
ITERM = re.compile(r"iTerm2: (\d+) bytes written, ([0-9.]+)x the stored image")
KITTY = re.compile(r"kitty: (\d+) bytes written for (\d+)x(\d+) pixels sent, ([0-9.]+) bytes per pixel.*"
                   r"pixels sent (\d+), the image has (\d+), the view shows (\d+)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    tj = turbojpeg()
    with tempfile.TemporaryDirectory(prefix="vtourist-inline-") as folder:
        for name, (w, h) in [("thumbnail_500.jpg", (500, 375)), ("large_1024x768.jpg", (1024, 768))]:
            with open(os.path.join(folder, name), "wb") as f:
                f.write(encode_jpeg(tj, bytearray(scene(w, h)), w, h))
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
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
