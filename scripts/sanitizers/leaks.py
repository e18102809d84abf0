#!/usr/bin/env python3
"""Reads the LeakSanitizer reports `make check-address` leaves in a folder (ASAN_OPTIONS log_path)
and decides. A leak fails the check, direct or indirect (a retain cycle's objects are all
indirect: each is reachable from another leaked one), when any frame of its allocation stack is
in vtourist's own code: a line of a source file under Sources/ or Tests/ of this checkout (or,
without debug information, a Swift symbol of one of those modules). Leaks with no frame of ours (the runtime's and Foundation's own
caches) are only counted. An AddressSanitizer error in a report fails it too.

A `Data` value's storage object (under 256 bytes: the object, not the bytes it owns) is counted
only: LeakSanitizer cannot see it through Data's packed representation (see DATA_STORAGE). The bytes
such an object owns are then reported as indirect leaks, which the probe's rule still fails on.

Foundation's `readBytesFromFile` / `readDataFromFile` buffer (behind `Data(contentsOf:)` and
`String(contentsOfFile:)`) is forgiven here, not in lsan.supp, and only when no frame of the
stack is in Sources/: the tests read every command's output that way, while a leak through our
own readers (PinFileReader, WorldGeometry, Gazetteer) still fails.

One rule for every run: the test process's (`make unit-test`, the probes') and the sanitized
program's. swift-corelibs-xctest never frees a test case, so whatever a test case still holds at exit
is an indirect leak with our frames: the test cases let go of what they hold (tearDown, addCleanup),
and one that keeps an object in a `let` property fails the check as a retain cycle does.

The sanitized program's reports (`make check-address-app`) are judged the same way. ThreadSanitizer's
reports (`make check-thread-app`) are read too: any warning in them fails, as any AddressSanitizer or
UndefinedBehaviorSanitizer error does.

Usage: leaks.py [--min-checked N] [--expect-leak NAME]... [--expect-error NAME]... REPORT_FOLDER
  --min-checked N: fails unless N processes or more wrote that they ran the leak check at exit
    (ASAN_OPTIONS verbosity=1): a run whose checker never ran leaves nothing to fail on.
  --expect-leak NAME: the probe's run; succeeds only if, for each NAME, a failing leak's stack names it.
  --expect-error NAME: the probe's run; succeeds only if, for each NAME, a sanitizer error names it
    (UndefinedBehaviorSanitizer's "FILE:LINE:COL: runtime error: ..."); any other error still fails.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (\S+)(?: (\S+))?", re.M)
FOUNDATION_FILE_READS = ("readBytesFromFile", "readDataFromFile")
# Made by a `Data` initializer: the storage object behind a Data value. A Data value keeps it in a
# packed enum whose tag sits in the reference's spare bits, which LeakSanitizer cannot read as a
# pointer: a Data kept for the process's life in a static (the bundled map in a test class's
# `static let`) is reported as a direct leak although it is reachable.
# A weak reference's side table, allocated by the runtime when the first weak reference to an object
# is formed (`weak var`, `[weak self]`): the object points at it only through its encoded
# reference-count field, which LeakSanitizer cannot read as a pointer, so every side table of a live
# object looks leaked. Only the side table itself is forgiven (its allocating frame is the runtime's
# formWeakReference): a suppression matching that frame would make it a root, and everything it points
# at reachable, so a retain cycle with one weakly referenced object would not be reported at all.
SIDE_TABLE = re.compile(r"#1 0x[0-9a-f]+ in swift_slowAlloc .*\n\s*#2 0x[0-9a-f]+ in swift::RefCounts<[^\n]*>::formWeakReference\(\)")
# An error of AddressSanitizer (it stops the process) or UndefinedBehaviorSanitizer, or a warning of
# ThreadSanitizer (a data race, a lock misused, a signal handler's unsafe call...). LeakSanitizer's
# "ERROR: LeakSanitizer: detected memory leaks" is not one: its leaks are judged one by one below.
SANITIZER_ERROR = re.compile(r"^(?:==\d+==)?(?:ERROR: (?:AddressSanitizer|UndefinedBehaviorSanitizer)|WARNING: ThreadSanitizer): .*$"
                             r"|^.*runtime error: .*$", re.M)
DATA_STORAGE = re.compile(r"#[0-4] 0x[0-9a-f]+ in \$s20FoundationEssentials4DataV")


def modules(kind):
    folder = os.path.join(ROOT, kind)
    return sorted(name for name in os.listdir(folder) if os.path.isdir(os.path.join(folder, name))) \
        if os.path.isdir(folder) else []


def our_frames(stack, roots):
    """The frames of a stack in our code, each as (function, location, whether in Sources/). A frame is
    ours when it points at a line of a source file under Sources/ or Tests/; without debug information
    (a module and an offset for location), when its Swift symbol is of one of those modules. Frames
    the compiler made (no line: `<compiler-generated>`, XCTest's synthesized test-case initializers)
    are not."""
    ours = []
    for function, location in FRAME.findall(stack):
        place = location or ""
        if place.startswith("/"):
            if not re.search(r":\d+(:\d+)?$", place):
                continue
            source = place.startswith(os.path.join(ROOT, "Sources") + "/")
            test = place.startswith(os.path.join(ROOT, "Tests") + "/")
        else:
            source = any(function.startswith(f"$s{len(m)}{m}") for m in roots["Sources"])
            test = any(function.startswith(f"$s{len(m)}{m}") for m in roots["Tests"])
        if source or test:
            ours.append((function, place, source))
    return ours


def read_reports(folder):
    """(report files, errors, leaks, files whose process ran the leak check: LeakSanitizer says so
    with verbosity=1; a process killed with SIGKILL never does)."""
    errors, leaks, checked = [], [], 0
    names = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n))) if os.path.isdir(folder) else []
    for name in names:
        with open(os.path.join(folder, name), errors="replace") as f:
            text = f.read()
        checked += "LeakSanitizer: checking for leaks" in text
        for m in SANITIZER_ERROR.finditer(text):
            errors.append(f"{name}: {m.group(0)}")
        for block in re.split(r"\n(?=(?:Direct|Indirect) leak of)", text):
            m = re.match(r"(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object", block)
            if m:
                leaks.append((m.group(1), int(m.group(2)), int(m.group(3)), block.split("\n\n")[0]))
    return names, errors, leaks, checked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect-leak", metavar="NAME", action="append", default=[])
    ap.add_argument("--expect-error", metavar="NAME", action="append", default=[])
    ap.add_argument("--min-checked", metavar="N", type=int, default=0,
                    help="fail unless at least N processes say they ran the leak check (verbosity=1)")
    ap.add_argument("folder")
    args = ap.parse_args()
    roots = {"Sources": modules("Sources"), "Tests": modules("Tests")}
    names, errors, leaks, checked = read_reports(args.folder)
    failing, forgiven, foreign, data, sides = [], [], [], [], []
    for kind, size, count, stack in leaks:
        ours = our_frames(stack, roots)
        if SIDE_TABLE.search(stack):
            sides.append((kind, size, count))
        elif not ours:
            foreign.append((kind, size))
        elif any(f in stack for f in FOUNDATION_FILE_READS) and not any(source for _, _, source in ours):
            forgiven.append((kind, size))
        elif DATA_STORAGE.search(stack) and size < 256:
            data.append((kind, size))
        else:
            failing.append((kind, size, count, stack))
    print(f"sanitizer reports read: {len(names)} (a file a process)")
    if checked or args.min_checked:
        print(f"processes that ran the leak check at exit (verbosity=1 says so): {checked}")
    too_few = checked < args.min_checked
    if too_few:
        print(f"too few: at least {args.min_checked} processes must have run the leak check; "
              f"a run whose leak check never ran would pass with no report to read")
    print(f"sanitizer errors and warnings: {len(errors)}")
    for e in errors:
        print("  " + e)
    print(f"leaks with a frame in our code: {len(failing)} ({sum(f[1] for f in failing)} bytes; "
          f"{sum(1 for f in failing if f[0] == 'Direct')} direct, {sum(1 for f in failing if f[0] == 'Indirect')} indirect)")
    for kind, size, count, stack in failing[:20]:
        print(stack)
        print()
    print(f"Data storage objects LeakSanitizer cannot see through Data's packed representation, counted only: "
          f"{len(data)} ({sum(d[1] for d in data)} bytes)")
    print(f"weak-reference side tables, forgiven: {sum(c for _, _, c in sides)} ({sum(z for _, z, _ in sides)} bytes)")
    print(f"Foundation file-read buffers of test code, forgiven: {len(forgiven)} ({sum(f[1] for f in forgiven)} bytes)")
    print(f"leaks with no frame in our code (runtime and library caches), counted only: {len(foreign)} "
          f"({sum(f[1] for f in foreign)} bytes)")
    if args.expect_leak or args.expect_error:
        missed, expected = [], []
        for name in args.expect_leak:
            caught = [f for f in failing if name in f[3]]
            print(f"probe: {len(caught)} failing leak(s) name {name} "
                  f"({', '.join(sorted({f[0] for f in caught})) or 'none'})")
            if not caught:
                missed.append(name)
        for name in args.expect_error:
            caught = [e for e in errors if name in e]
            print(f"probe: {len(caught)} sanitizer error(s) name {name}")
            if not caught:
                missed.append(name)
            expected += caught
        return 0 if not missed and not too_few and all(e in expected for e in errors) else 1
    return 1 if errors or failing or too_few else 0


if __name__ == "__main__":
    sys.exit(main())
