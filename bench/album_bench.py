#!/usr/bin/env python3
"""`vtourist drop LAT LON --wait` against the local Flickr stand-in with every
response delayed 100 ms: the time to store a 21-photo album, against the floor
of two round trips (the search, then every image at once) plus the binary's
own start-up, measured in the same run (`vtourist pins` on the same kind of
database: new, made by `vtourist config set` just before, as the drop then
finds it). Prints medians and the most image requests the server saw at once.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import new_database  # noqa: E402
import targets  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "Tests", "Support", "photo_server.py")
DELAY = 0.100


def timed(cmd, env):
    t0 = time.monotonic()
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {r.stderr.decode()}")
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="vtourist-album-bench-")
    stats_file = os.path.join(work, "stats.json")
    server = subprocess.Popen(["/usr/bin/python3", SERVER, "--delay-ms", str(int(DELAY * 1000)), "--stats-file", stats_file],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    try:
        port = int(server.stdout.readline().split()[1])
        # Nothing of the caller's environment (a key, a source, a proxy) changes what is measured.
        base = f"http://127.0.0.1:{port}"
        env = {"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "FLICKR_API_KEY": "bench-key", "VTOURIST_FLICKR_ENDPOINT": f"{base}/flickr/rest",
               "VTOURIST_COMMONS_ENDPOINT": f"{base}/commons/api.php"}
        drops, startups, in_flight = [], [], []
        for run in range(args.runs):
            db = os.path.join(work, f"drop{run}.sqlite")
            new_database.create(args.binary, db, env)
            startups.append(timed([args.binary, "pins", "--db", db], env))
            drops.append(timed([args.binary, "drop", "40.85", "14.27", "--wait", "--db", db], env))
            out = subprocess.run([args.binary, "album", "1", "--json", "--db", db], env=env,
                                 stdout=subprocess.PIPE, check=True).stdout
            album = json.loads(out)
            stored = sum(1 for p in album["photos"] if p["downloaded"])
            if stored != 21:
                sys.exit(f"run {run}: {stored} of 21 photos stored")
            with open(stats_file) as f:
                in_flight.append(json.load(f)["max_images_in_flight"])
        startup = statistics.median(startups)
        drop = statistics.median(drops)
        floor = 2 * DELAY + startup
        print(f"Start-up (vtourist pins, same kind of database): median {startup * 1000:.1f} ms")
        print(f"drop --wait, 21 photos, every response delayed 100 ms: median {drop * 1000:.1f} ms "
              f"(min {min(drops) * 1000:.1f}, max {max(drops) * 1000:.1f}, n={len(drops)})")
        print(f"Floor (two round trips + start-up): {floor * 1000:.1f} ms; ratio {drop / floor:.2f}x  "
              f"[target <= {targets.ALBUM_DROP_RATIO:g}x]")
        print(f"Most image requests in flight at once: {max(in_flight)}")
        ok = targets.verdict("album drop", drop / floor <= targets.ALBUM_DROP_RATIO,
                             f"median {drop * 1000:.1f} ms over {len(drops)} drops, {drop / floor:.2f}x the floor of "
                             f"{floor * 1000:.1f} ms (target <= {targets.ALBUM_DROP_RATIO:g}x)")
    finally:
        server.kill()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
