#!/usr/bin/env python3
"""Before and after: the frame, start-up, album first paint and memory benchmarks run on a
baseline build and on this tree's build, alternately, in one command.

    python3 bench/compare.py --base-dir DIR --new-dir DIR [--rounds 3]

Each DIR is a checkout whose release build (`vtourist`, `vtourist-bench`) is done. The benchmark
scripts of this tree are used for both, so both are measured the same way. Each figure is the
median, over the rounds, of the median each benchmark prints; the ratio is new / base (below 1 is
faster or smaller).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, command builder, [(figure, regex whose group 1 is the number)])
BENCHES = [
    ("frame", lambda d: [os.path.join(d, ".build/release/vtourist-bench")], [
        ("frame z0 (ms)", r"world zoom \(z0\) median ([\d.]+) ms"),
        ("frame z6 (ms)", r"z6 \(Italy\) median ([\d.]+) ms"),
        ("frame z12 Naples (ms)", r"z12, Naples median ([\d.]+) ms"),
    ]),
    ("terminal", lambda d: ["python3", os.path.join(HERE, "terminal_bench.py"), "--binary",
                            os.path.join(d, ".build/release/vtourist"), "--bench-binary",
                            os.path.join(d, ".build/release/vtourist-bench")], [
        ("cold start (ms)", r"Cold start to first frame.*?median ([\d.]+) ms"),
        ("peak memory, map (MiB)", r"Peak memory \(max RSS\): median ([\d.]+) MiB"),
    ]),
    ("album paint", lambda d: ["python3", os.path.join(HERE, "album_paint_bench.py"), "--bench-binary",
                               os.path.join(d, ".build/release/vtourist-bench")], [
        ("album first paint (ms)", r"First paint, Enter to every picture drawn: median ([\d.]+) ms"),
        ("album selection move (ms)", r"Selection move, key to frame drawn: median ([\d.]+) ms"),
    ]),
    ("album memory", lambda d: ["python3", os.path.join(HERE, "album_memory_bench.py"), "--runs", "1", "--binary",
                                os.path.join(d, ".build/release/vtourist"), "--bench-binary",
                                os.path.join(d, ".build/release/vtourist-bench")], [
        ("peak memory, 500-photo album (MiB)", r"album of 500, scrolled end to end: median ([\d.]+) MiB"),
    ]),
]


def measure(command, figures):
    # A benchmark exits non-zero when its figure misses a target: the figure is compared all the same.
    out = subprocess.run(command, capture_output=True, text=True).stdout
    found = {}
    for name, pattern in figures:
        m = re.search(pattern, out)
        if not m:
            sys.exit(f"compare: no '{name}' in the output of {' '.join(command)}:\n{out}")
        found[name] = float(m.group(1))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-dir", required=True)
    ap.add_argument("--new-dir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    results = {"base": {}, "new": {}}
    for r in range(args.rounds):
        # The order alternates, so neither build always runs on a warmer machine.
        order = [("base", args.base_dir), ("new", args.new_dir)]
        if r % 2:
            order.reverse()
        for _, make, figures in BENCHES:
            for label, folder in order:
                for name, value in measure(make(folder), figures).items():
                    results[label].setdefault(name, []).append(value)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"{'figure':38} {'base':>9} {'new':>9} {'new/base':>9}   (medians of {args.rounds} rounds)")
    for _, _, figures in BENCHES:
        for name, _ in figures:
            base = statistics.median(results["base"][name])
            new = statistics.median(results["new"][name])
            print(f"{name:38} {base:9.2f} {new:9.2f} {new / base:9.2f}")


if __name__ == "__main__":
    main()
