#!/usr/bin/env python3
"""`vtourist pins --json` on a 10,000-pin database, as the map's start-up and
`pins` read it: first pins alone, then pins with a 21-photo album each (two
in three photos stored). The database is built with the binary's own schema
(`vtourist config set` creates it, see new_database.py) and filled with Python's sqlite3. Prints the
median of several runs next to the same command on an empty database, so the
difference is the listing itself.
"""
import argparse
import shutil
import json
import os
import statistics
import subprocess
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import new_database  # noqa: E402
import targets  # noqa: E402

PINS = 10_000
PHOTOS = 21


def run(binary, db, env, json_output=True):
    t0 = time.monotonic()
    r = subprocess.run([binary, "pins"] + (["--json"] if json_output else []) + ["--db", db], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = (time.monotonic() - t0) * 1000
    if r.returncode != 0:
        sys.exit(f"vtourist pins failed: {r.stderr.decode()}")
    return dt, r.stdout


def fill(db, albums):
    c = sqlite3.connect(db)
    with c:
        c.executemany(
            "INSERT INTO pin (latitude, longitude, name, createdAt, albumState) VALUES (?, ?, ?, datetime('now'), ?)",
            [((i % 180) - 89.5, (i % 360) - 179.5, None if i % 3 == 0 else f"Place {i}", "ready" if albums else "empty")
             for i in range(PINS)])
        if albums:
            c.execute(f"""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {PHOTOS - 1})
                INSERT INTO photo (pinId, position, source, sourceId, title, url, pageURL, state)
                SELECT pin.id, n.i, 'flickr', pin.id || '-' || n.i, 'A photo title of typical length',
                       'https://live.staticflickr.com/65535/' || pin.id || '_' || n.i || '_b.jpg',
                       'https://www.flickr.com/photos/someone/' || pin.id || n.i, 'pending'
                FROM pin, n""")
            # A stored photo needs its image (a trigger checks); small ones keep the file small.
            c.execute("INSERT INTO photoImage (photoId, bytes) SELECT id, x'FFD8FFE0' FROM photo WHERE position % 3 != 0")
            c.execute("UPDATE photo SET state = 'stored' WHERE position % 3 != 0")
    c.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="vtourist-store-bench-")
    try:
        ok = measure(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


def measure(args, work):
    env = {"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    empty = os.path.join(work, "empty.sqlite")
    new_database.create(args.binary, empty, env)
    run(args.binary, empty, env)  # a first run that warms the caches, not counted
    baseline = statistics.median(run(args.binary, empty, env)[0] for _ in range(args.runs))
    print(f"vtourist pins --json, empty database: median {baseline:.1f} ms (start-up)")

    ok = True
    for albums, name, target in ((False, "pins json", targets.PINS_JSON_MS),
                                 (True, "pins json albums", targets.PINS_JSON_ALBUMS_MS)):
        db = os.path.join(work, f"pins-{'albums' if albums else 'bare'}.sqlite")
        new_database.create(args.binary, db, env)
        fill(db, albums)
        times = []
        for _ in range(args.runs):
            dt, out = run(args.binary, db, env)
            times.append(dt)
        listed = json.loads(out)
        if len(listed) != PINS or (albums and listed[0]["photos"] != PHOTOS):
            sys.exit(f"expected {PINS} pins{' with albums' if albums else ''}, got {len(listed)}")
        text = statistics.median(run(args.binary, db, env, json_output=False)[0] for _ in range(args.runs))
        median = statistics.median(times)
        what = f"{PINS:,} pins" + (f" x {PHOTOS} photos" if albums else "")
        print(f"vtourist pins --json, {what}: median {median:.1f} ms (min {min(times):.1f}, max {max(times):.1f}, "
              f"n={len(times)}); listing beyond start-up {median - baseline:.1f} ms  [target < {target:g} ms]")
        print(f"vtourist pins (text), {what}: median {text:.1f} ms")
        ok &= targets.verdict(name, median - baseline < target,
                              f"{what}: {median - baseline:.1f} ms beyond the start-up of {baseline:.1f} ms, median of "
                              f"{len(times)} (target < {target:g} ms)")
    return ok


if __name__ == "__main__":
    main()
