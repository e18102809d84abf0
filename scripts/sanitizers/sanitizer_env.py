"""The options of a vtourist binary built with a sanitizer, for the scripts that start it
(scripts/soak.py, bench/fault_matrix.py; docs/reliability.md, "Sanitizers").

VTOURIST_SANITIZER_ENV holds `NAME=VALUE` words separated by blanks, each NAME one of VARIABLES, e.g.
`ASAN_OPTIONS=detect_leaks=1:log_path=/tmp/reports/asan LSAN_OPTIONS=suppressions=lsan.supp`. A script
adds them to the explicit environment of every vtourist process it starts; nothing else of the
caller's reaches the binary. Tests/EndToEndTests/Support.swift reads the same words.
"""
import os

VARIABLES = ("ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS")
NAME = "VTOURIST_SANITIZER_ENV"


def parse(text):
    """The variables `text` sets; SystemExit naming the word when one is not NAME=VALUE of VARIABLES."""
    env = {}
    for word in text.split():
        name, eq, value = word.partition("=")
        if not eq or name not in VARIABLES:
            raise SystemExit(f"{NAME}: {word!r} is not NAME=VALUE with NAME one of {', '.join(VARIABLES)}")
        env[name] = value
    return env


def from_environment():
    """The sanitizer's variables this process was given (none when VTOURIST_SANITIZER_ENV is unset)."""
    return parse(os.environ.get(NAME, ""))
