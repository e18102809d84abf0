#!/usr/bin/env python3
"""Writes Tests/Fixtures/destinations/independent.tsv: for destinations of top150.tsv, a point from a
source the shipped destinations (Resources/destinations.tsv) were not built from, and the tolerance
that source justifies. DestinationTableTests checks the bundled gazetteer against it.

The shipped file comes from the curated list scripts/famous_destinations.tsv (UNESCO's export,
Wikidata and the web pages top150.tsv cites), UNESCO's export, Natural Earth and GeoNames
(docs/data-places.md, "Destinations"); none of them is used here. Two sources are:

- the tz database's zone.tab (public domain; Debian's tzdata, /usr/share/zoneinfo/zone.tab): the
  principal location of a zone's city, to the arc-minute or arc-second, for destinations that lie
  in that city (read from the file at each run; the rows say which zone and quote its text);
- hand-checked rows: a point read on a named web page that is not one of those sources (HAND below,
  each with the page and the figure as it is written there).

    python3 scripts/destination_oracle.py [--zone-tab /usr/share/zoneinfo/zone.tab] [--check]

--check exits 1 unless the committed file is what this writes (the tz rows as zone.tab has them).
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUTPUT = os.path.join(ROOT, "Tests", "Fixtures", "destinations", "independent.tsv")

# A landmark in a city counts as there within this of the city's tz point: the table's radius for a
# point (top150.tsv), which holds the landmarks below (the farthest, Giza's pyramids, lies 14 km
# from Cairo's point); the tz point itself is given to the arc-minute (at most 1.3 km off).
CITY_KM = 20

# (query in top150.tsv, tz zone whose city holds it, tolerance in km, where it lies)
TZ = [
    ("Eiffel Tower", "Europe/Paris", CITY_KM, "in Paris"),
    ("Notre-Dame de Paris", "Europe/Paris", CITY_KM, "in Paris"),
    ("Colosseum", "Europe/Rome", CITY_KM, "in Rome"),
    ("Pantheon", "Europe/Rome", CITY_KM, "in Rome"),
    ("Vatican City", "Europe/Vatican", CITY_KM, "the Vatican's own zone"),
    ("St. Peter's Basilica", "Europe/Vatican", CITY_KM, "in the Vatican"),
    ("Acropolis", "Europe/Athens", CITY_KM, "in Athens"),
    ("Pyramids of Giza", "Africa/Cairo", CITY_KM, "at Giza, in Greater Cairo"),
    ("Carthage", "Africa/Tunis", CITY_KM, "a suburb of Tunis"),
    ("Hagia Sophia", "Europe/Istanbul", CITY_KM, "in Istanbul"),
    ("Topkapı Palace", "Europe/Istanbul", CITY_KM, "in Istanbul"),
    ("Kathmandu Valley", "Asia/Kathmandu", CITY_KM, "Kathmandu is its city"),
    ("Samarkand", "Asia/Samarkand", CITY_KM, "the city"),
    ("Changdeokgung", "Asia/Seoul", CITY_KM, "in Seoul"),
    ("Prague", "Europe/Prague", CITY_KM, "the city"),
    ("Vienna", "Europe/Vienna", CITY_KM, "the city"),
    ("Schönbrunn Palace", "Europe/Vienna", CITY_KM, "in Vienna"),
    ("Budapest", "Europe/Budapest", CITY_KM, "the city"),
    ("Tallinn Old Town", "Europe/Tallinn", CITY_KM, "in Tallinn"),
    ("Red Square", "Europe/Moscow", CITY_KM, "in Moscow"),
    ("Museum Island", "Europe/Berlin", CITY_KM, "in Berlin"),
    ("Amsterdam Canal Ring", "Europe/Amsterdam", CITY_KM, "in Amsterdam"),
    ("Grand-Place", "Europe/Brussels", CITY_KM, "in Brussels"),
    ("Tower of London", "Europe/London", CITY_KM, "in London"),
    ("Big Ben", "Europe/London", CITY_KM, "in London"),
    ("Kew Gardens", "Europe/London", CITY_KM, "in London (Richmond)"),
    ("Belém Tower", "Europe/Lisbon", CITY_KM, "in Lisbon"),
    ("Valletta", "Europe/Malta", CITY_KM, "Malta's zone is Valletta"),
    ("Statue of Liberty", "America/New_York", CITY_KM, "in New York Harbor"),
    ("Old Havana", "America/Havana", CITY_KM, "in Havana"),
    ("Salvador de Bahia", "America/Bahia", CITY_KM, "Bahia's zone is Salvador"),
    ("Sydney Opera House", "Australia/Sydney", CITY_KM, "in Sydney"),
    ("Easter Island", "Pacific/Easter", CITY_KM, "the zone's point is Hanga Roa, on the island, which is 24 km long"),
    ("Galápagos Islands", "Pacific/Galapagos", 210, "the zone's point is Puerto Baquerizo Moreno, San Cristóbal; "
     "the tolerance is the archipelago's radius in top150.tsv"),
]

# (query, lat, lon, tolerance in km and why, the page and its figure)
HAND = [
    ("Machu Picchu", -(13 + 9 / 60 + 47 / 3600), -(72 + 32 / 60 + 44 / 3600), 2,
     "the citadel is 530 m long; the page gives arc-seconds",
     "kondorpathtours.com/?p=19982: \"13º 09 '47 \"South latitude and 72º 32′ 44\" West longitude\""),
    ("Stonehenge", 51 + 10 / 60 + 44 / 3600, -(1 + 49 / 60 + 35 / 3600), 1,
     "the monument is 100 m across; arc-seconds",
     "iliana.us/2007/01/stonehenge.html (a satellite meteorologist's own reading): \"51°10'44''N , 1°49'35''W\""),
    ("Angkor Wat", 13 + 24.774 / 60, 103 + 51.996 / 60, 2,
     "the temple's outer wall is 1 km by 0.8 km; a visitor's GPS reading",
     "waymarking.com WMD85B \"Angkor Wat—Siem Reap, Cambodia\": \"N 13° 24.774 E 103° 51.996\""),
    ("Mount Everest", 27 + 59 / 60 + 17 / 3600, 86 + 55 / 60 + 31 / 3600, 1,
     "a summit; arc-seconds",
     "tea-band.com/it/la-posizione-del-monte-everest (China's National Surveying and Mapping Administration, "
     "2005): \"27°59′17″ N ;86°55′31″ E\""),
    ("Taj Mahal", 27 + 10 / 60 + 30 / 3600, 78 + 2 / 60 + 32 / 3600, 1,
     "the mausoleum and its garden are 600 m long; arc-seconds",
     "bharatonline.com/uttar-pradesh/taj-mahal/location.html: \"27°10'30o North and 78°02'32o East\""),
    ("Uluru", -(25 + 20 / 60 + 41 / 3600), 131 + 1 / 60 + 57 / 3600, 20,
     "the table's radius: its point is the national park's, the rock lies inside it (top150.tsv)",
     "Danish Wikipedia \"Uluru\", static dump of December 2006 (dumps.wikimedia.your.org): \"25°20′41\" S "
     "131°01′57\" Ø\""),
    ("Mount Fuji", 35.3667, 138.733, 2,
     "the summit crater is 0.8 km across; the page gives 0.001°",
     "peakware.com/work/peaks.php?pk=86: \"Latitude: 35.3667 Longitude: 138.733\""),
    ("Kilimanjaro", -(3 + 4 / 60 + 33 / 3600), 37 + 21 / 60 + 12 / 3600, 20,
     "the table's radius for a mountain; the page's point is Uhuru Peak, the summit",
     "uhurupoint.com/?p=1053: \"The precise geographical coordinates of Uhuru Peak are 3°04′33″S 37°21′12″E\""),
    ("Alhambra", 37 + 10 / 60 + 36.34 / 3600, -(3 + 35 / 60 + 18.44 / 3600), 1,
     "the palace city is 740 m long; arc-seconds",
     "plantarium.ru/page/landscape/id/8799.html: \"37° 10′ 36.34″ с.ш., 3° 35′ 18.44″ з.д.\""),
    ("Santorini", (36 + 19 / 60 + 56 / 3600 + 36 + 28 / 60 + 40 / 3600) / 2,
     (25 + 19 / 60 + 22 / 3600 + 25 + 29 / 60 + 13 / 3600) / 2, 11,
     "the middle of the island group's extent; the tolerance is half its diagonal (16 km by 15 km)",
     "hatzidakiswines.gr/en/the-winery/santorini-island.html: \"Latitude: from 36 19' 56'' to 36 28' 40''N "
     "Longitude: from 25 19' 22'' to 25 29' 13''E\""),
    ("Grand Canyon", 36, -112, 225,
     "the table's radius (half the canyon's 446 km); the point is a degree confluence in the canyon",
     "confluence.org, 36°N 112°W: \"8.7 miles (14.0 km) ESE of Grand Canyon Village\", \"the cliff preventing "
     "access to 36 North 112 West\""),
    ("Great Wall of China", 40 + 21 / 60 + 15 / 3600, 116 + 0 / 60 + 25 / 3600, 20,
     "the table's radius for the section north of Beijing; the page's point is Badaling on it",
     "en.wikipedia.org/wiki/Badaling?oldid=342114155 (2010): \"40°21′15″N 116°00′25″E\""),
]


def degrees(text):
    """An ISO 6709 coordinate of zone.tab (±DDMM, ±DDMMSS, ±DDDMM, ±DDDMMSS) in degrees."""
    sign, digits = (-1 if text[0] == "-" else 1), text[1:]
    if len(digits) in (4, 5):
        return sign * (int(digits[:-2]) + int(digits[-2:]) / 60)
    return sign * (int(digits[:-4]) + int(digits[-4:-2]) / 60 + int(digits[-2:]) / 3600)


def zones(path):
    found = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        country, where, zone = line.rstrip("\n").split("\t")[:3]
        m = re.fullmatch(r"([+-]\d+)([+-]\d+)", where)
        found[zone] = (country, where, degrees(m.group(1)), degrees(m.group(2)))
    return found


def tz_version(path):
    version = os.path.join(os.path.dirname(path), "tzdata.zi")
    if os.path.exists(version):
        first = open(version, encoding="utf-8").readline()
        if first.startswith("# version"):
            return first.split()[-1]
    return "unknown"


def rows(zone_tab):
    table = zones(zone_tab)
    version = tz_version(zone_tab)
    out = []
    for query, zone, tolerance, where in TZ:
        country, text, lat, lon = table[zone]
        out.append((query, f"{lat:.5f}", f"{lon:.5f}", str(tolerance),
                    f"tz {version} zone.tab {zone} {text} ({country}): {where}"))
    for query, lat, lon, tolerance, why, page in HAND:
        out.append((query, f"{lat:.5f}", f"{lon:.5f}", str(tolerance), f"page {page}; tolerance: {why}"))
    return out


HEADER = """# Destinations of top150.tsv with a point from a source the shipped destinations were not built from
# (written by scripts/destination_oracle.py; its docstring says why these sources are independent).
# source: "tz VERSION zone.tab ZONE ISO6709 (CC): where" is the principal location of that zone's city in the tz
#   database (public domain), for a destination that lies in that city; "page URL: figure" is a point read
#   on that page, as written there. tolerance_km: landing within it of lat,lon counts; each row says why.
# Columns are separated by one tab; lines starting with # are comments.
query\tlat\tlon\ttolerance_km\tsource
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zone-tab", default="/usr/share/zoneinfo/zone.tab")
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    args = ap.parse_args()
    text = HEADER + "".join("\t".join(row) + "\n" for row in rows(args.zone_tab))
    if args.check:
        if open(OUTPUT, encoding="utf-8").read() != text:
            sys.exit(f"{OUTPUT} is not what {os.path.basename(__file__)} writes from {args.zone_tab}")
        print(f"{OUTPUT}: as written from {args.zone_tab}")
        return
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{OUTPUT}: {len(TZ)} rows from tz, {len(HAND)} hand-checked")


if __name__ == "__main__":
    main()
