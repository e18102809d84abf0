#!/usr/bin/env python3
"""Pin files through the release binary: `vtourist import` of 100,000 GeoJSON points
(read, then stored in one transaction), the same pins exported as GPX (over 10 MB) and
imported again, and the refusal of an XML entity bomb. The unit tests check what these
produce; how long they take is measured here, never asserted in a unit test.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

POINTS = 100_000


def geojson(count):
    features = []
    for i in range(count):
        features.append('{"type":"Feature","geometry":{"type":"Point","coordinates":[%r,%r]},"properties":{"name":"p%d"}}'
                        % (float(i % 3600) / 10 - 180, float(i // 3600) - 50, i))
    return '{"type":"FeatureCollection","features":[\n' + ",\n".join(features) + "]}\n"


def entity_bomb():
    bomb = '<?xml version="1.0"?>\n<!DOCTYPE gpx [\n <!ENTITY lol "lol">\n'
    for level in range(1, 10):
        inner = ("&lol;" if level == 1 else f"&lol{level - 1};") * 10
        bomb += f' <!ENTITY lol{level} "{inner}">\n'
    return bomb + ']>\n<gpx><wpt lat="1" lon="2"><name>&lol9;</name></wpt></gpx>\n'


def timed(cmd, env, expect_status=0):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = (time.perf_counter() - t0) * 1000
    if r.returncode != expect_status:
        sys.exit(f"{' '.join(cmd)}: status {r.returncode}, expected {expect_status}: {r.stderr.decode(errors='replace')}")
    return dt, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="vtourist-pin-file-bench-")
    try:
        measure(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args, work):
    env = {"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    source = os.path.join(work, "many.geojson")
    with open(source, "w") as f:
        f.write(geojson(POINTS))
    bomb = os.path.join(work, "bomb.gpx")
    with open(bomb, "w") as f:
        f.write(entity_bomb())
    added = f"added {POINTS} pins, skipped 0 duplicates, 0 not points\n"
    imports, gpx_imports, refusals = [], [], []
    for run in range(args.runs):
        db, again = os.path.join(work, f"import-{run}.sqlite"), os.path.join(work, f"again-{run}.sqlite")
        dt, r = timed([args.binary, "import", source, "--db", db], env)
        if r.stderr.decode() != added:
            sys.exit(f"import said: {r.stderr.decode()!r}")
        imports.append(dt)
        exported = os.path.join(work, f"many-{run}.gpx")
        with open(exported, "wb") as f:
            f.write(timed([args.binary, "export", "--format", "gpx", "--db", db], env)[1].stdout)
        dt, r = timed([args.binary, "import", exported, "--db", again], env)
        if r.stderr.decode() != added:
            sys.exit(f"import of the GPX said: {r.stderr.decode()!r}")
        gpx_imports.append(dt)
        refusals.append(timed([args.binary, "import", bomb, "--db", os.path.join(work, "bomb.sqlite")], env,
                              expect_status=64)[0])
        for path in (db, again, exported):
            os.remove(path)
    size = os.path.getsize(source) / 1e6
    print(f"vtourist import, {POINTS:,} GeoJSON points ({size:.1f} MB) into a new database: "
          f"median {statistics.median(imports):.0f} ms (min {min(imports):.0f}, n={len(imports)})")
    print(f"vtourist import, the same pins as GPX: median {statistics.median(gpx_imports):.0f} ms "
          f"(min {min(gpx_imports):.0f}, n={len(gpx_imports)})")
    print(f"vtourist import, an XML entity bomb refused: median {statistics.median(refusals):.1f} ms "
          f"(max {max(refusals):.1f}, n={len(refusals)})")


if __name__ == "__main__":
    main()
