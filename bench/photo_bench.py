#!/usr/bin/env python3
"""The photo view's large images (`vtourist-bench photo`): the real runtime, store, renderer and
libcurl against the stand-in server answering each request after 100 ms. Judges Enter to first
paint, Enter to the sharp picture, the right arrow to a prefetched sharp picture and the peak memory.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import targets  # noqa: E402

MEDIAN = r": median ([0-9.]+) ms"
LINES = {
    "photo first paint": re.compile(r"Enter to first paint \(thumbnail\)" + MEDIAN),
    "photo sharp": re.compile(r"Enter to sharp picture \(large 1024x768 not stored\)" + MEDIAN),
    "photo step": re.compile(r"\u2192 to sharp picture, prefetched" + MEDIAN),
}
MEMORY = re.compile(r"Peak memory while browsing [0-9]+ large images: ([0-9.]+) MB")
DELAY = re.compile(r"\(([0-9]+) ms per response\)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    r = subprocess.run([args.bench_binary, "photo", str(args.runs)], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        for name in list(LINES) + ["photo memory"]:
            targets.verdict(name, False, f"{args.bench_binary} photo failed with status {r.returncode}")
        sys.exit(1)
    delay = DELAY.search(r.stdout)
    rtt = float(delay.group(1)) if delay else 100.0
    limits = {
        "photo first paint": targets.PHOTO_FIRST_PAINT_MS,
        "photo sharp": rtt + targets.PHOTO_SHARP_OVER_RTT_MS,
        "photo step": targets.PHOTO_STEP_MS,
    }
    ok = True
    for name, pattern in LINES.items():
        found = pattern.search(r.stdout)
        if found is None:
            ok &= targets.verdict(name, False, "no median in the output")
            continue
        ms = float(found.group(1))
        ok &= targets.verdict(name, ms < limits[name], f"median {ms:.1f} ms (target < {limits[name]:g} ms)")
    memory = MEMORY.search(r.stdout)
    if memory is None:
        ok &= targets.verdict("photo memory", False, "no peak memory in the output")
    else:
        mb = float(memory.group(1))
        ok &= targets.verdict("photo memory", mb < targets.PHOTO_MEMORY_MB,
                              f"{mb:.0f} MB (target < {targets.PHOTO_MEMORY_MB:g} MB)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
