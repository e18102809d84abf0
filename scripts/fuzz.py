#!/usr/bin/env python3
"""Runs the libFuzzer targets built from Fuzz/ (`make fuzz`), each for a number of seconds, and
prints what each did: executions, executions per second, crashes (docs/reliability.md, "Fuzzing").

Each target starts from its seed corpus in Fuzz/corpus/<target>/ plus what earlier runs found
(kept in .build-fuzz/corpus/<target>/, never in the source tree). A crash, a hang (over 10 s for
one input) or a broken check leaves its input in .build-fuzz/crashes/<target>/ and makes the
exit status 1; replay it with `.build-fuzz/release/fuzz-<target> <file>`.
"""
import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, ".build-fuzz")
TARGETS = ["flickr", "commons", "jpeg", "coordinates", "pinfiles", "terminal", "settings", "app"]
# Inputs longer than this are not tried: bigger ones only make each execution slower.
MAX_LEN = {"app": 2048, "jpeg": 16384, "flickr": 16384, "commons": 16384}
# The app's inputs are programs of actions: long ones from the start, not grown slowly from the seeds.
EXTRA = {"app": ["-len_control=0"]}


def run(target, seconds):
    binary = os.path.join(BUILD, "release", f"fuzz-{target}")
    corpus = os.path.join(BUILD, "corpus", target)
    crashes = os.path.join(BUILD, "crashes", target)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    seeds = os.path.join(ROOT, "Fuzz", "corpus", target)
    log_path = os.path.join(BUILD, f"fuzz-{target}.log")
    command = [binary, f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=10",
               f"-max_len={MAX_LEN.get(target, 4096)}", f"-artifact_prefix={crashes}/"] + EXTRA.get(target, []) + [corpus, seeds]
    dictionary = os.path.join(ROOT, "Fuzz", "dictionaries", f"{target}.dict")
    if os.path.exists(dictionary):
        command.insert(1, f"-dict={dictionary}")
    # Swift's own crash backtracer would stall on an ASan report; libFuzzer prints the stack.
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:handle_abort=1", SWIFT_BACKTRACE="enable=no")
    before = set(os.listdir(crashes))
    start = time.monotonic()
    with open(log_path, "w") as log:
        status = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    elapsed = time.monotonic() - start
    text = open(log_path, errors="replace").read()
    runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    if not runs:
        # A crash ends the run before the final statistics; the last status line has the count.
        runs = re.findall(r"^#(\d+)\s", text, re.M)
    executions = int(runs[-1]) if runs else 0
    found = sorted(set(os.listdir(crashes)) - before)
    return {"target": target, "executions": executions, "seconds": elapsed, "crashes": found,
            "status": status, "log": log_path, "corpus": len(os.listdir(corpus))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2, help="targets run at once")
    parser.add_argument("targets", nargs="*", default=TARGETS)
    args = parser.parse_args()
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        sys.exit(f"unknown fuzz target(s): {', '.join(unknown)} (known: {', '.join(TARGETS)})")

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda t: run(t, args.seconds), args.targets))

    print(f"{'target':<12} {'seconds':>8} {'executions':>12} {'exec/s':>9} {'corpus':>7} {'crashes':>8}")
    for r in results:
        rate = r["executions"] / r["seconds"] if r["seconds"] > 0 else 0
        print(f"{r['target']:<12} {r['seconds']:>8.0f} {r['executions']:>12} {rate:>9.0f} {r['corpus']:>7} {len(r['crashes']):>8}")
    failed = [r for r in results if r["crashes"] or r["status"] != 0]
    for r in failed:
        print(f"\n{r['target']}: exit status {r['status']}; log {os.path.relpath(r['log'], ROOT)}")
        for name in r["crashes"]:
            print(f"  input: {os.path.relpath(os.path.join(BUILD, 'crashes', r['target'], name), ROOT)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
