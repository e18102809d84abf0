#!/usr/bin/env python3
"""Pin files through the release binary: `vtourist import` of 100,000 GeoJSON points
(read, then stored in one transaction), the same pins exported as GPX (over 10 MB) and
imported again, the refusal of an XML entity bomb, and `import --along 1` of a GPX track of
100,000 points (about 1,000 km: read, sampled, merged, each pin named by its nearest place). The unit tests check what these
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


def track(count):
    """A winding track northwards from 45°N 7°E, about 10 m between points."""
    import math
    points = "".join('<trkpt lat="%.7f" lon="%.7f"><ele>1</ele></trkpt>\n' % (45 + i * 0.00009, 7 + math.sin(i / 500) * 0.01)
                     for i in range(count))
    return '<?xml version="1.0"?>\n<gpx version="1.1" creator="bench"><trk><trkseg>\n' + points + "</trkseg></trk></gpx>\n"


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
    trip = os.path.join(work, "track.gpx")
    with open(trip, "w") as f:
        f.write(track(POINTS))
    added = f"added {POINTS} pins, skipped 0 duplicates, 0 not points\n"
    imports, gpx_imports, refusals, alongs = [], [], [], []
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
        along_db = os.path.join(work, f"along-{run}.sqlite")
        dt, r = timed([args.binary, "import", trip, "--along", "1", "--db", along_db], env)
        if "along tracks)" not in r.stderr.decode():
            sys.exit(f"import --along said: {r.stderr.decode()!r}")
        alongs.append(dt)
        along_said = r.stderr.decode().strip()
        for path in (db, again, exported, along_db):
            os.remove(path)
    size = os.path.getsize(source) / 1e6
    print(f"vtourist import, {POINTS:,} GeoJSON points ({size:.1f} MB) into a new database: "
          f"median {statistics.median(imports):.0f} ms (min {min(imports):.0f}, n={len(imports)})")
    print(f"vtourist import, the same pins as GPX: median {statistics.median(gpx_imports):.0f} ms "
          f"(min {min(gpx_imports):.0f}, n={len(gpx_imports)})")
    print(f"vtourist import, an XML entity bomb refused: median {statistics.median(refusals):.1f} ms "
          f"(max {max(refusals):.1f}, n={len(refusals)})")
    print(f"vtourist import --along 1, a GPX track of {POINTS:,} points ({os.path.getsize(trip) / 1e6:.1f} MB; {along_said}): "
          f"median {statistics.median(alongs):.0f} ms (min {min(alongs):.0f}, n={len(alongs)})")


if __name__ == "__main__":
    main()
