#!/usr/bin/env python3
"""Runs the libFuzzer targets built from Fuzz/ (`make fuzz`, `make fuzz-smoke`), each for a number of
seconds, and prints what each did (docs/reliability.md, "Fuzzing").

Before fuzzing, each target runs once over the seeds listed in Fuzz/accepted/<target>.txt (API
samples, camera JPEGs, valid pin files…), which it must accept: a parser that refused everything
would trap nothing, so a seed refused fails the run. Then the target fuzzes from its seeds: Fuzz/corpus/<target>/
plus, for flickr and commons, every documented API sample (Tests/Fixtures/api-samples), and for pinfiles
gpxpy's GPX files (Tests/Fixtures/gpx), copied to
.build-fuzz/seeds/<target>/ so that nothing is written into the source tree. What a run finds is kept
in .build-fuzz/corpus/<target>/ for the next run; with --smoke every run starts from the seeds alone
(.build-fuzz/smoke/<target>/, emptied first) and leaks are checked too.

A crash, a leak, a hang (over 10 s for one input), a broken check or a refused seed makes the exit
status 1; a crashing input is kept in .build-fuzz/crashes/<target>/ and replays with
`.build-fuzz/release/fuzz-<target> <file>`.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, ".build-fuzz")
TARGETS = ["flickr", "commons", "jpeg", "coordinates", "pinfiles", "terminal", "settings", "app"]
# Seeds besides Fuzz/corpus/<target>/, as globs from the checkout's root.
MORE_SEEDS = {
    "flickr": ["Tests/Fixtures/api-samples/flickr-*"],
    "commons": ["Tests/Fixtures/api-samples/commons-*"],
    "pinfiles": ["Tests/Fixtures/gpx/*.gpx"],
}
# Inputs longer than this are not tried: bigger ones only make each execution slower. The camera
# JPEGs are up to 100 KB: whole, so their later segments and scans are mutated too.
MAX_LEN = {"app": 2048, "jpeg": 131072, "flickr": 16384, "commons": 16384}
# The app's inputs are programs of actions: long ones from the start, not grown slowly from the seeds.
EXTRA = {"app": ["-len_control=0"]}
ACCEPTED = re.compile(r"^vtourist-fuzz: accepted$")
TOTALS = re.compile(r"^vtourist-fuzz: accepted (\d+) of (\d+) inputs$", re.M)


def environment(leaks):
    # Swift's own crash backtracer would stall on an ASan report; libFuzzer prints the stack.
    asan = f"detect_leaks={1 if leaks else 0}:handle_abort=1"
    env = dict(os.environ, ASAN_OPTIONS=asan, SWIFT_BACKTRACE="enable=no")
    suppressions = os.path.join(ROOT, "Fuzz", "lsan.supp")
    if leaks and os.path.exists(suppressions):
        env["LSAN_OPTIONS"] = f"suppressions={suppressions}:print_suppressions=0"
    return env


def seed_files(target):
    patterns = [os.path.join("Fuzz", "corpus", target, "*")] + MORE_SEEDS.get(target, [])
    files = []
    for pattern in patterns:
        files += sorted(f for f in glob.glob(os.path.join(ROOT, pattern)) if os.path.isfile(f))
    return files


def copy_seeds(target):
    folder = os.path.join(BUILD, "seeds", target)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for path in seed_files(target):
        shutil.copy(path, os.path.join(folder, os.path.basename(path)))
    return folder


def required_seeds(target):
    """The seeds the target must accept, from Fuzz/accepted/<target>.txt (none for `app`)."""
    path = os.path.join(ROOT, "Fuzz", "accepted", f"{target}.txt")
    if not os.path.exists(path):
        return []
    lines = [line.strip() for line in open(path)]
    return [line for line in lines if line and not line.startswith("#")]


def check_accepted(target, binary, env):
    """Runs the target once over each required seed; returns (accepted, required, problems)."""
    required = required_seeds(target)
    if not required:
        return 0, 0, []
    missing = [p for p in required if not os.path.isfile(os.path.join(ROOT, p))]
    present = [p for p in required if p not in missing]
    log_path = os.path.join(BUILD, f"accept-{target}.log")
    with open(log_path, "w") as log:
        status = subprocess.call([binary] + [os.path.join(ROOT, p) for p in present], cwd=ROOT, stdout=log,
                                 stderr=subprocess.STDOUT, env=dict(env, VTOURIST_FUZZ_ACCEPTANCE="1"), timeout=600)
    # libFuzzer writes "Running: <file>", then what the input printed, then "Executed <file> in N ms".
    verdicts, current = {}, None
    for line in open(log_path, errors="replace").read().splitlines():
        if line.startswith("Running: "):
            current = line[len("Running: "):]
            verdicts.setdefault(current, False)
        elif line.startswith("Executed "):
            current = None
        elif current and ACCEPTED.match(line):
            verdicts[current] = True
    problems = [f"seed missing: {p}" for p in missing]
    if status != 0:
        problems.append(f"exit status {status} over the seeds; log {os.path.relpath(log_path, ROOT)}")
    accepted = 0
    for p in present:
        if verdicts.get(os.path.join(ROOT, p)):
            accepted += 1
        else:
            problems.append(f"seed refused: {p}")
    return accepted, len(required), problems


def run(target, seconds, smoke):
    binary = os.path.join(BUILD, "release", f"fuzz-{target}")
    env = environment(leaks=smoke)
    if smoke:
        corpus = os.path.join(BUILD, "smoke", target)
        shutil.rmtree(corpus, ignore_errors=True)
    else:
        corpus = os.path.join(BUILD, "corpus", target)
    crashes = os.path.join(BUILD, "crashes", target)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    result = {"target": target, "executions": 0, "seconds": 0.0, "crashes": [], "status": 0, "new": 0,
              "log": os.path.join(BUILD, f"fuzz-{target}.log"), "corpus": 0, "inputs": None, "problems": []}
    if not os.path.exists(binary):
        result["problems"].append(f"{os.path.relpath(binary, ROOT)} is not built (make fuzz-build)")
        return result

    accepted, required, problems = check_accepted(target, binary, env)
    result.update(accepted=accepted, required=required)
    result["problems"] += problems

    seeds = copy_seeds(target)
    before_corpus = set(os.listdir(corpus))
    command = [binary, f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=10",
               f"-max_len={MAX_LEN.get(target, 4096)}", f"-artifact_prefix={crashes}/"] + EXTRA.get(target, []) + [corpus, seeds]
    dictionary = os.path.join(ROOT, "Fuzz", "dictionaries", f"{target}.dict")
    if os.path.exists(dictionary):
        command.insert(1, f"-dict={dictionary}")
    before = set(os.listdir(crashes))
    start = time.monotonic()
    with open(result["log"], "w") as log:
        try:
            # libFuzzer finishes its first pass over the corpus before counting time: room for that.
            status = subprocess.call(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env,
                                     timeout=seconds * 4 + 300)
        except subprocess.TimeoutExpired:
            status = "killed: ran far over its time"
    result["seconds"] = time.monotonic() - start
    text = open(result["log"], errors="replace").read()
    runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    if not runs:
        # A crash ends the run before the final statistics; the last status line has the count.
        runs = re.findall(r"^#(\d+)\s", text, re.M)
    totals = TOTALS.findall(text)
    result.update(executions=int(runs[-1]) if runs else 0, status=status,
                  crashes=sorted(set(os.listdir(crashes)) - before),
                  corpus=len(os.listdir(corpus)), new=len(set(os.listdir(corpus)) - before_corpus),
                  inputs=(int(totals[-1][0]), int(totals[-1][1])) if totals else None)
    if status != 0:
        kind = "a leak" if "LeakSanitizer" in text else "a timeout" if "ERROR: libFuzzer: timeout" in text \
            else "a broken check" if "vtourist-fuzz: check failed" in text else "a crash"
        result["problems"].append(f"{kind}: exit status {status}; log {os.path.relpath(result['log'], ROOT)}")
    for name in result["crashes"]:
        result["problems"].append(f"input: {os.path.relpath(os.path.join(crashes, name), ROOT)}")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2, help="targets run at once")
    parser.add_argument("--smoke", action="store_true",
                        help="start from the seeds alone and check for leaks too (make fuzz-smoke)")
    parser.add_argument("targets", nargs="*", default=TARGETS)
    args = parser.parse_args()
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        sys.exit(f"unknown fuzz target(s): {', '.join(unknown)} (known: {', '.join(TARGETS)})")

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda t: run(t, args.seconds, args.smoke), args.targets))

    print(f"{'target':<12} {'seconds':>8} {'executions':>11} {'exec/s':>7} {'new':>5} {'corpus':>7} "
          f"{'seeds accepted':>15} {'inputs accepted':>17} {'result':>7}")
    for r in results:
        rate = r["executions"] / r["seconds"] if r["seconds"] > 0 else 0
        seeds = f"{r.get('accepted', 0)}/{r.get('required', 0)}" if r.get("required") else "-"
        inputs = f"{r['inputs'][0]}/{r['inputs'][1]}" if r["inputs"] else "-"
        print(f"{r['target']:<12} {r['seconds']:>8.0f} {r['executions']:>11} {rate:>7.0f} {r['new']:>5} {r['corpus']:>7} "
              f"{seeds:>15} {inputs:>17} {'FAILED' if r['problems'] else 'ok':>7}")
    failed = [r for r in results if r["problems"]]
    for r in failed:
        print(f"\n{r['target']}:")
        for problem in r["problems"]:
            print(f"  {problem}")
    print(f"\n{len(results) - len(failed)} of {len(results)} targets passed in {time.monotonic() - started:.0f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
