#!/usr/bin/env python3
"""The benchmark targets `make bench` enforces, in one place, and their verdicts.

Each bench script calls `verdict` for what it measured: it prints `PASS name: …` or
`FAIL name: …` and appends the line to the file named by $VTOURIST_BENCH_VERDICTS (set by
`make bench`). Once every script has run, `python3 bench/targets.py summary FILE` prints
every verdict again, one per target, and exits 1 if any failed (or a target was never
measured), so a FAIL never hides behind the output of the scripts after it.

`python3 bench/targets.py frame BENCH_BINARY` runs `vtourist-bench` (the map frame) and
judges its per-view medians; `python3 bench/targets.py completion BENCH_BINARY` runs
`vtourist-bench completion` (the go-to prompt's suggestions, letter by letter) and judges its p95;
`python3 bench/targets.py filter-editor BENCH_BINARY` runs `vtourist-bench filter-editor` (the album's filter editor
opening, key to frame) and judges its median; `python3 bench/targets.py pins-list BENCH_BINARY` runs
`vtourist-bench pins-list` (the pins list over 10,000 pins: opening, and a keystroke in its filter) and judges both medians.
"""
import os
import re
import subprocess
import sys

# name: (what is compared, the limit)
TARGETS = {
    "render speed": "vtourist render's median time at most 0.8x chafa's, on every picture and colour depth",
    "render fidelity": "vtourist render's PSNR at least chafa's, on every picture and colour depth",
    "album first paint": "Enter to every picture drawn, median under 50 ms",
    "map frame": "rasterise, label and render a 200x60 map frame, median under 4 ms in every view",
    "cold start": "start to the first drawn map frame with 10,000 pins, median under 60 ms",
    "completion": "go-to suggestions after each letter typed, places and destinations, p95 under 5 ms",
    "inline bytes": "one photo view's real picture: iTerm2 at most 1.5x the stored image, kitty at most 3.2 bytes "
                    "per pixel sent and no more pixels than the image has or the view shows",
    "zoom step": "a zoom or pan step of the photo view at 200x60, key to frame with its picture, median under 30 ms",
    "photo first paint": "Enter to the photo view's first frame with its thumbnail drawn, 200x60, median under 30 ms",
    "photo sharp": "Enter to the large 1024x768 picture drawn in full, not stored, server at 100 ms a response: "
                   "median under 1 RTT + 60 ms",
    "photo step": "right arrow to the next photo's sharp picture when prefetched, median under 40 ms",
    "photo memory": "peak resident memory while browsing 100 large images, under 200 MB",
    "filter editor open": "key f to the frame with the album's filter editor drawn, 200x60, median under 5 ms",
    "tls album": "drop --wait to a ready album of 21 over TLS + HTTP/2 at RTT 100 ms (nghttpx, net_proxy.py), with the "
                 "share handle: median at most 1.3x the floor (the same at RTT 0 + 4 RTT) and at most 2 connections "
                 "to the host",
    "offline idle": "offline (every host refusing), drop --wait and the full-screen app each use under 2 % of a core "
                    "over 60 s",
    "pins list open": "P on the map to the frame with the pins list drawn, 10,000 pins, 200x60, median under 50 ms",
    "pins list keystroke": "a letter typed in the pins list's filter to the frame with the rows narrowed, 10,000 pins, "
                           "200x60, median under 10 ms",
    "scale quit": "q to the end of the process with 10,000 imported pins downloading (stand-in at 500 ms a response), "
                  "median under 1 s",
    "scale memory": "peak resident memory of the app over that run (10,000 pins downloading), under 150 MB",
    "scale open album": "Enter on the newest of those 10,000 pins (the last in line) to its album's first photo, median "
                        "under 2 s: its search and a photo are two responses of 500 ms, the rest is its turn and drawing",
    "filter latency": "a filtered search and parse against an unfiltered one through libcurl, median ratio at most "
                      "1.10 (Flickr with every field, Commons with text and tags)",
    "map memory": "peak resident memory of the app drawing the map of 10,000 pins, median under 60 MB",
    "cursor move bytes": "bytes written for a one-cell cursor move on the map of 10,000 pins, median under 300",
    "album drop": "drop --wait to a stored album of 21, every response delayed 100 ms: median at most 1.5x the floor "
                  "(two round trips + the binary's start-up, measured in the same run)",
    "pins json": "vtourist pins --json over 10,000 pins, the listing beyond start-up: median under 150 ms",
    "pins json albums": "vtourist pins --json over 10,000 pins with an album of 21 photos each, the listing beyond "
                        "start-up: median under 400 ms",
    "album memory": "peak resident memory with an album of 500 stored 640x480 photos scrolled end to end, median "
                    "under 150 MB",
    "fault key latency": "a key to its change on screen while every transfer stalls (fault matrix: album grid, photo "
                         "view, map cursor), every key under 100 ms",
    "fault settle": "each fault matrix row settles within its limit: twice the client's 20 s low-speed time for a "
                    "stall, --timeout for a host that never answers, the 1.2 s retry window for the rest, each plus "
                    "5 s of start-up and load",
}
RENDER_SPEED_RATIO = 0.8
ALBUM_FIRST_PAINT_MS = 50.0
MAP_FRAME_MS = 4.0
COLD_START_MS = 60.0
COMPLETION_P95_MS = 5.0
INLINE_ITERM2_RATIO = 1.5
INLINE_KITTY_BYTES_PER_PIXEL = 3.2
ZOOM_STEP_MS = 30.0
PHOTO_FIRST_PAINT_MS = 30.0
PHOTO_SHARP_OVER_RTT_MS = 60.0
PHOTO_STEP_MS = 40.0
PHOTO_MEMORY_MB = 200.0
FILTER_EDITOR_MS = 5.0
FILTER_LATENCY_RATIO = 1.10
PINS_LIST_OPEN_MS = 50.0
PINS_LIST_KEYSTROKE_MS = 10.0
SCALE_QUIT_S = 1.0
SCALE_MEMORY_MB = 150.0
SCALE_OPEN_ALBUM_S = 2.0
OFFLINE_IDLE_SHARE = 0.02
MAP_MEMORY_MB = 60.0
CURSOR_MOVE_BYTES = 300
ALBUM_DROP_RATIO = 1.5
PINS_JSON_MS = 150.0
PINS_JSON_ALBUMS_MS = 400.0
ALBUM_MEMORY_MB = 150.0
FAULT_KEY_LATENCY_MS = 100.0
FAULT_SETTLE_SLACK_S = 5.0
MIB_PER_MB = 1e6 / (1 << 20)


def verdict(name, ok, detail):
    """Prints and records one verdict of target `name` (a key of TARGETS)."""
    if name not in TARGETS:
        raise KeyError(f"no target called {name!r}")
    line = f"{'PASS' if ok else 'FAIL'} {name}: {detail}"
    print(line, flush=True)
    path = os.environ.get("VTOURIST_BENCH_VERDICTS")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")
    return ok


def summary(path):
    lines = open(path).read().splitlines() if os.path.exists(path) else []
    failed = False
    print("Targets:")
    for name, what in TARGETS.items():
        mine = [line for line in lines if line.split(" ", 1)[1].startswith(name + ":")]
        if not mine:
            print(f"  FAIL {name}: never measured ({what})")
            failed = True
            continue
        bad = [line for line in mine if line.startswith("FAIL")]
        failed |= bool(bad)
        print(f"  {'FAIL' if bad else 'PASS'} {name}: {what} ({len(mine) - len(bad)} of {len(mine)} measurements pass)")
        for line in bad:
            print(f"      {line}")
    return 1 if failed else 0


FRAME_LINE = re.compile(r"^\s+(.+?)\s+median ([0-9.]+) ms .*\[target < 4 ms\]")


def frame(bench_binary):
    """Runs the frame benchmark, echoing it, and judges each view's median."""
    r = subprocess.run([bench_binary], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        return verdict("map frame", False, f"{bench_binary} failed with status {r.returncode}")
    views = [(m.group(1), float(m.group(2))) for m in map(FRAME_LINE.match, r.stdout.splitlines()) if m]
    if not views:
        return verdict("map frame", False, "no frame medians in the output")
    ok = True
    for view, ms in views:
        ok &= verdict("map frame", ms < MAP_FRAME_MS, f"{view}: median {ms:.3f} ms (target < {MAP_FRAME_MS:g} ms)")
    return ok


def one_figure(bench_binary, case, name, line, missing, limit, described):
    """Runs `vtourist-bench CASE`, echoing it, reads the figure and its count from the first line
    matching `line` and judges the figure against `limit` (FAIL when it stops or prints none);
    `described(figure, count)` words the verdict."""
    r = subprocess.run([bench_binary, case], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        return verdict(name, False, f"{bench_binary} {case} failed with status {r.returncode}")
    found = [m for m in map(line.match, r.stdout.splitlines()) if m]
    if not found:
        return verdict(name, False, missing)
    figure, n = float(found[0].group(1)), int(found[0].group(2))
    return verdict(name, figure < limit, described(figure, n))


COMPLETION_LINE = re.compile(r"^\s+completion p95 ([0-9.]+) ms .*n=([0-9]+)")


def completion(bench_binary):
    """Runs the completion benchmark, echoing it, and judges its 95th percentile."""
    return one_figure(bench_binary, "completion", "completion", COMPLETION_LINE, "no p95 in the output",
                      COMPLETION_P95_MS,
                      lambda p95, n: f"p95 {p95:.3f} ms over {n} keystrokes (target < {COMPLETION_P95_MS:g} ms)")


FILTER_LINE = re.compile(r"^\s+filter editor open median ([0-9.]+) ms .*n=([0-9]+)")


def filter_editor(bench_binary):
    """Runs the filter editor benchmark, echoing it, and judges its median."""
    return one_figure(bench_binary, "filter-editor", "filter editor open", FILTER_LINE, "no median in the output",
                      FILTER_EDITOR_MS,
                      lambda ms, n: f"median {ms:.3f} ms over {n} openings (target < {FILTER_EDITOR_MS:g} ms)")


PINS_LIST_LINE = re.compile(r"^\s+pins list (open|keystroke) median ([0-9.]+) ms .*n=([0-9]+)")


def pins_list(bench_binary):
    """Runs the pins list benchmark, echoing it, and judges the opening's and the keystroke's medians."""
    r = subprocess.run([bench_binary, "pins-list"], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    limits = {"open": PINS_LIST_OPEN_MS, "keystroke": PINS_LIST_KEYSTROKE_MS}
    if r.returncode != 0:
        for what in limits:
            verdict(f"pins list {what}", False, f"{bench_binary} pins-list failed with status {r.returncode}")
        return False
    found = {m.group(1): (float(m.group(2)), int(m.group(3))) for m in map(PINS_LIST_LINE.match, r.stdout.splitlines()) if m}
    ok = True
    for what, limit in limits.items():
        if what not in found:
            ok &= verdict(f"pins list {what}", False, "no median in the output")
            continue
        ms, n = found[what]
        ok &= verdict(f"pins list {what}", ms < limit, f"median {ms:.3f} ms over {n} runs (target < {limit:g} ms)")
    return ok


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "summary":
        sys.exit(summary(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == "frame":
        sys.exit(0 if frame(sys.argv[2]) else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "completion":
        sys.exit(0 if completion(sys.argv[2]) else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "filter-editor":
        sys.exit(0 if filter_editor(sys.argv[2]) else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "pins-list":
        sys.exit(0 if pins_list(sys.argv[2]) else 1)
    sys.exit("usage: targets.py summary FILE | frame BENCH_BINARY | completion BENCH_BINARY | filter-editor BENCH_BINARY"
             " | pins-list BENCH_BINARY")
