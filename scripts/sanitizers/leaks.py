#!/usr/bin/env python3
"""Reads the LeakSanitizer reports `make check-address` leaves in a folder (ASAN_OPTIONS log_path)
and decides: any direct leak left after the suppressions (scripts/sanitizers/lsan.supp) fails the
check, with its stack; indirect leaks (memory reachable only from leaked blocks, which here are
the suppressed ones) are only counted. An AddressSanitizer error in a report fails it too.

Usage: leaks.py REPORT_FOLDER
"""
import os
import re
import sys


def main(folder):
    direct, indirect, errors = [], [], []
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    for name in names:
        with open(os.path.join(folder, name), errors="replace") as f:
            text = f.read()
        for m in re.finditer(r"^==\d+==ERROR: AddressSanitizer: .*$", text, re.M):
            errors.append(f"{name}: {m.group(0)}")
        for block in re.split(r"\n(?=(?:Direct|Indirect) leak of)", text):
            m = re.match(r"(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object", block)
            if not m:
                continue
            entry = (int(m.group(2)), int(m.group(3)), block.split("\n\n")[0])
            (direct if m.group(1) == "Direct" else indirect).append(entry)
    print(f"AddressSanitizer reports read: {len(names)}")
    print(f"errors: {len(errors)}")
    for e in errors:
        print("  " + e)
    print(f"direct leaks after suppressions: {len(direct)} ({sum(d[0] for d in direct)} bytes)")
    for size, count, stack in direct[:20]:
        print(stack)
        print()
    print(f"indirect leaks (reachable only from suppressed blocks): {len(indirect)} "
          f"({sum(i[0] for i in indirect)} bytes)")
    return 1 if errors or direct else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
