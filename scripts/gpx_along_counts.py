#!/usr/bin/env python3
"""The pins `import --along KM` must give for each GPX file of Tests/Fixtures/gpx, reckoned here
from the rule as docs/manual.md ("Pins along a trip") states it, with none of the app's code:

- each track segment and each route with a point is a line; the file's waypoints are its points;
- along each line a point every KM measured on the ground (great-circle distance on a sphere of the
  Earth's mean radius, 6371.0088 km, between consecutive points), interpolated on the great circle
  within a segment, plus one at each end; a multiple of KM that falls on the end (to a billionth
  of KM) is the end; a line of no length gives one point;
- merging: the waypoints are kept first; then line after line, its start, its end, then the points
  between; a point closer than KM/2 (on the ground, exactly KM/2 not being closer) to one kept
  before it is left out.

Prints, per file, the counts GPXFixtureTests.expected holds (waypoints, lines, along10, along1);
with --check FILE (the test's source) exits 1 unless every entry there is the same.

    python3 scripts/gpx_along_counts.py [--check Tests/PinFilesTests/GPXFixtureTests.swift]
"""
import argparse
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "gpx")
EARTH_KM = 6371.0088


def local(tag):
    return tag.rsplit("}", 1)[-1]


def point(element):
    return float(element.get("lat")), float(element.get("lon"))


def read(path):
    """(waypoints, lines) of a GPX file, whatever its version or namespace."""
    root = ET.parse(path).getroot()
    waypoints, lines = [], []
    for element in root.iter():
        name = local(element.tag)
        if name == "wpt":
            waypoints.append(point(element))
        elif name == "trkseg":
            lines.append([point(p) for p in element if local(p.tag) == "trkpt"])
        elif name == "rte":
            lines.append([point(p) for p in element if local(p.tag) == "rtept"])
    return waypoints, [line for line in lines if line]


def km(a, b):
    la1, la2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def unit(p):
    la, lo = math.radians(p[0]), math.radians(p[1])
    return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))


def between(a, b, f):
    """The point a fraction f of the way from a to b on the great circle."""
    u, v = unit(a), unit(b)
    angle = math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(u, v)))))
    if angle < 1e-12:
        return a
    s = math.sin(angle)
    w = [x * math.sin((1 - f) * angle) / s + y * math.sin(f * angle) / s for x, y in zip(u, v)]
    n = math.sqrt(sum(x * x for x in w))
    return math.degrees(math.asin(w[2] / n)), math.degrees(math.atan2(w[1], w[0]))


def along(line, step):
    """Start, a point every `step` km strictly before the end, end (one point for no length)."""
    legs = [km(a, b) for a, b in zip(line, line[1:])]
    length = sum(legs)
    if length <= 0:
        return [line[0]]
    points, k, travelled = [line[0]], 1, 0.0
    for (a, b), d in zip(zip(line, line[1:]), legs):
        while d > 0 and k * step <= travelled + d and k * step < length - step * 1e-9:
            points.append(between(a, b, (k * step - travelled) / d))
            k += 1
        travelled += d
    return points + [line[-1]]


def pins_along(waypoints, lines, step):
    kept = list(waypoints)
    made = 0
    for line in lines:
        points = along(line, step)
        order = [0] + ([len(points) - 1] if len(points) > 1 else []) + list(range(1, len(points) - 1))
        for i in order:
            if all(km(points[i], other) >= step / 2 * (1 - 1e-9) for other in kept):
                kept.append(points[i])
                made += 1
    return made


def reckon():
    counts = {}
    for name in sorted(n for n in os.listdir(FOLDER) if n.endswith(".gpx")):
        waypoints, lines = read(os.path.join(FOLDER, name))
        counts[name] = (len(waypoints), len(lines), pins_along(waypoints, lines, 10.0), pins_along(waypoints, lines, 1.0))
    return counts


ENTRY = re.compile(r'"([^"]+\.gpx)": Expected\(waypoints: (\d+), lines: (\d+), along10: (\d+), along1: (\d+)\)')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", metavar="SWIFT_FILE", help="compare with the Expected entries of this test file")
    args = ap.parse_args()
    counts = reckon()
    for name, (w, l, a10, a1) in counts.items():
        print(f'"{name}": Expected(waypoints: {w}, lines: {l}, along10: {a10}, along1: {a1}),')
    if args.check:
        listed = {m.group(1): tuple(int(g) for g in m.groups()[1:]) for m in ENTRY.finditer(open(args.check).read())}
        wrong = [f"{name}: the test has {listed.get(name)}, the rule gives {got}"
                 for name, got in counts.items() if listed.get(name) != got]
        wrong += [f"{name}: in the test, not in {FOLDER}" for name in listed if name not in counts]
        if wrong:
            sys.exit("\n".join(wrong))
        print(f"all {len(counts)} files as the test expects", file=sys.stderr)


if __name__ == "__main__":
    main()
