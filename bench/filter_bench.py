#!/usr/bin/env python3
"""A filtered search against an unfiltered one (`vtourist-bench filter`): the real sources,
parsers and libcurl against the stand-in server, alternating, median of each. Judges the ratio
filtered / unfiltered of every judged line against the target; prints the others as they are.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import targets  # noqa: E402

LINE = re.compile(r"^\s+(.+?): filtered median .*: ratio ([0-9.]+) \[target <= 1\.10\]$", re.MULTILINE)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-binary", required=True)
    ap.add_argument("--runs", type=int, default=41)
    args = ap.parse_args()
    r = subprocess.run([args.bench_binary, "filter", str(args.runs)], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        targets.verdict("filter latency", False, f"{args.bench_binary} filter failed with status {r.returncode}")
        sys.exit(1)
    found = LINE.findall(r.stdout)
    if not found:
        targets.verdict("filter latency", False, "no judged ratio in the output")
        sys.exit(1)
    ok = True
    for label, ratio in found:
        value = float(ratio)
        ok &= targets.verdict("filter latency", value <= targets.FILTER_LATENCY_RATIO,
                              f"{label}: ratio {value:.3f} (target <= {targets.FILTER_LATENCY_RATIO:g})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
