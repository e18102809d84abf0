#!/usr/bin/env python3
"""A local stand-in for the Flickr REST API, the MediaWiki API of Wikimedia
Commons and their image hosts, for tests and benchmarks. Listens on
127.0.0.1 only and prints "PORT <n>" once it is ready.

Faults are chosen by the request itself, so one server serves every test:
- Flickr `api_key`: bad-key (stat fail 100), unavailable (105), malformed
  (truncated JSON), wrong-shape, http500, empty, hang (never answers),
  escapes (titles with control characters and escape sequences),
  img-html / img-random / img-trunc / img-endless / img-404 (the first
  photo's image is broken that way); any other key succeeds.
- More search faults by `api_key` (docs/reliability.md, "Fault matrix"): http404, html,
  garbage, truncated (the body cut off mid-transfer), slow (a trickle below any low-speed
  limit), gzip-bomb, endless, redirect-other (to https on a host that is not loopback),
  redirect-http (to plain http off loopback), redirect-loop.
- Image faults, by `api_key`: `img-F` breaks the first photo's image, `imgs-F` every one,
  `img-mixed` gives photo n the fault IMAGE_FAULTS[n] (the rest succeed). F is one of
  IMAGE_FAULTS: html, random, trunc (cut off mid-transfer), half (half a JPEG, delivered
  whole), endless, 404, 500, hang, slow, huge (a 60000x60000 header), bomb (a tiny
  progressive JPEG declaring 8000x8000), gzip-bomb, redirect-other, redirect-http,
  redirect-loop, refused (a loopback port with nothing listening), dns (a host name
  no resolver can even ask for: a label longer than 63 characters).
- Passing faults (PASSING_FAULTS), for searches (the `search-fault` switch or the Flickr key) and
  images (`image-fault`, `img-F`, `imgs-F`), each answered every time while chosen, so a test
  heals it by turning the switch off: `429` (Too Many Requests with `Retry-After: 3`), `429-date`
  (the same with an HTTP-date 3 s ahead), `503` (Service Unavailable without Retry-After),
  `maxlag` (a search only: Commons answers the API error `maxlag` with HTTP 200, `Retry-After: 5`
  and `X-Database-Lag: 5`, in the shape MediaWiki documents; Flickr, which has no maxlag,
  answers stat fail 105, service unavailable), `flaky3` (an image only: every third image, n mod
  3 == 0, fails once with HTTP 500, then is served; /reset forgets which ones failed).
  An image's `429`, `429-date` or `503` lasts while the `image-fault` switch is on (whatever it
  names): turning it off heals the photo URLs the search already gave out.
  `500` (in IMAGE_FAULTS) stays the image that fails every time.
- `total` (query) sets how many results exist (default 250).
- Large images (the photo view's): every Flickr photo has a `url_l` under /img/large/;
  Commons answers `pageids=…&iiurlwidth=W` with a thumbnail W px wide there (each request's
  width is logged in large-requests.log). Photo n's is Fixtures/images/large_1024x768_exif.jpg
  (a photo-like picture of about 300 KB), or the same turned upright, large_768x1024_exif.jpg,
  when n mod 3 is 1 (its thumbnail is portrait too).
- Album filters, in a simple way the end-to-end tests can use: a Flickr search whose `text` or
  `tags` holds the word `nomatch` (case-insensitive; words split at spaces and commas), or a
  Commons search whose `gsrsearch` does, finds nothing (a well-formed answer with zero photos).
  Other filter parameters are accepted and not applied.
- Commons `generator=search` (a filtered album) is answered as CirrusSearch does: `gsrlimit`
  results (at most 500) from `gsroffset`, best match first (`index` = offset + position + 1),
  thumbnails for at most 50 per answer (the rest through `iicontinue`), then
  `continue: {gsroffset: next}` while `total` (query, default 120) has more, and
  `query.searchinfo.totalhits` when `gsrinfo` asks for it. Result n is the same file (page id
  100 + n) as geosearch's n; its DateTimeOriginal is `YEAR-MM-DD 12:00:00` with YEAR 2015 + n mod 10,
  month 1 + n mod 9, day 10 + n mod 10, except every n with n mod 7 == 6, which has none (undated).
  Geosearch answers stay as they were (no DateTimeOriginal).
Every search request (Flickr, and Commons other than `pageids=` lookups) has its query string
appended, as received, to CONTROL_DIR/search-requests.log (one line each, on arrival), so a test
can check what was asked.
Every response waits --delay-ms first. /stats reports the most requests seen
in flight at once; /reset clears the counters.
HEAD of an endpoint (/flickr/rest, /commons/api.php: what an app asks to learn whether the
network is back) is answered 200 with no body and counted in `head_requests`.
Photo URLs point back at the host and port the request named (its Host header, when that is
127.0.0.1 or localhost with a port), so a client reaching the server through a proxy
(Tests/Support/net_proxy.py, or nghttpx in bench/tls_bench.py) fetches the photos through it too;
`--public-scheme https` makes them https behind a TLS front.

Switches the test turns on and off as files in --control-dir:
- `hold-images`: every image request waits while the file exists (only
  images numbered from N on, if the file holds N), so "still downloading"
  and "half downloaded" are states the test ends, not races it hopes to win;
- `search-down`: every search fails (Flickr stat fail 105, Commons HTTP 503);
- `hold-search`: every search (Flickr and Commons) waits while the file exists;
- `search-fault`: every search (Flickr and Commons) fails as the fault the file names
  (one of SEARCH_FAULTS);
- `image-fault`: every image fails as the fault the file names, or photo n as the n-th
  (round) of a comma-separated list (IMAGE_FAULTS, or `ok` for a good one);
- `large-fault`: every large image fails as the fault the file names, or photo n as the n-th
  (round) of a comma-separated list (IMAGE_FAULTS, or `ok`); thumbnails are served as usual;
- `hold-large`: every large image waits while the file exists; one whose client goes away
  meanwhile counts in `large_cancelled`;
- `hostile-text`: every title, author and licence (Flickr and Commons) is one
  of HOSTILE: escape sequences, C1 controls, bidi overrides, combining marks,
  wide and zero-width characters, very long text.

With --served-log FILE, every image answered 200 (thumbnails and large ones) appends a JSON
line to FILE: {"path": request path and query, "sha256", "crc32" (hex), "bytes"} of the bytes sent,
so a test checks a stored image against what was served for its URL, not against what the client
says it received.

It is also the trap for requests that would leave the machine: tests point
every proxy variable at it, and curl fetches loopback hosts directly, so any
request it sees as a proxy (CONNECT, or an absolute URL as the target) was
meant for another host. Each is recorded in --leaks-file and refused.
"""
import argparse
import hashlib
import json
import os
import random
import re
import select
import socket
import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from email.utils import formatdate
from urllib.parse import parse_qs, urlparse

# Text that would take over a terminal shown raw; `hostile-text` serves it. Each one names
# what it tries after the attack, so a screen shows which survived how.
HOSTILE = [
    "\x1b]0;pwned\x07OSC title",
    "\x1b]8;;http://pwned/\x1b\\OSC link\x1b]8;;\x1b\\",
    "Clear\x1b[2Jscreen \x1b[31;7;5mSGR\x1b[0m",
    "\x1b[?1049l\x1b[?25l\x1b[10;10Hcursor",
    "\x1bP1;2|pwned\x1b\\DCS",
    "\x1b_Gpwned\x1b\\APC \x1b^pwned\x1b\\PM \x1bXpwned\x1b\\SOS",
    "\u202eRTL override\u202c \u2066isolate\u2069 \u200e\u200f\u061cmarks",
    "C1 \u009b31mred \u009d0;pwned\u0007 \u0090pwned\u009c\u0085end",
    "e" + "\u0301" * 200 + " combining",
    "\u6771\u4eac \U0001F44D\U0001F3FD \U0001F468\u200d\U0001F469\u200d\U0001F467 \U0001F1EB\U0001F1F7 \uff37ide",
    "zero\u200bwidth\u200djoin\u2060\ufeffer \u2764\ufe0f",
    "bell\x07bs\x08nul\x00 tab\tnewline\r\nend",
    "long " + "x" * 5000,
]

# Faults the searches and the images can be given (docstring). The names are what the tests
# and bench/fault_matrix.py select them by.
SEARCH_FAULTS = ["bad-key", "unavailable", "malformed", "wrong-shape", "http500", "http404", "html", "garbage",
                 "truncated", "empty", "hang", "slow", "gzip-bomb", "endless", "redirect-other", "redirect-http",
                 "redirect-loop"]
IMAGE_FAULTS = ["html", "random", "trunc", "half", "endless", "404", "500", "hang", "slow", "huge", "bomb",
                "gzip-bomb", "redirect-other", "redirect-http", "redirect-loop", "refused", "dns"]
# Faults that heal by themselves in the real world (docstring): the client should retry them.
PASSING_FAULTS = ["429", "429-date", "503", "maxlag", "flaky3"]
# Seconds the passing faults ask the client to wait (Retry-After).
RETRY_AFTER_SECONDS = 3
MAXLAG_SECONDS = 5
# The images `flaky3` has already failed once (photo numbers).
FLAKY_FAILED = set()
# A host name no resolver can ask for (a DNS label holds at most 63 bytes): getaddrinfo fails
# without sending a query. Tests exempt it from their proxy trap (no_proxy) so it is looked up.
DNS_FAILING_HOST = "x" * 64 + ".vtourist-dns.example"
# Another host, not loopback, reached only through a proxy (the tests' trap); its first label is
# too long for DNS as well, so without a proxy it fails before any query.
ELSEWHERE_HOST = "y" * 64 + ".elsewhere.example"
# How much a gzip bomb inflates to, and how fast a slow answer trickles.
BOMB_BYTES = 256 << 20
TRICKLE_SECONDS_PER_BYTE = 0.5

STATE = {"in_flight": 0, "max_in_flight": 0, "requests": 0, "image_requests": 0, "max_images_in_flight": 0,
         "images_in_flight": 0, "large_requests": 0, "large_cancelled": 0, "large_served": 0,
         "head_requests": 0}
# The large images, in the aspect of the thumbnail of the same number (fixture n mod 3 is 240x320 for 1).
LARGE_FIXTURES = ["large_1024x768_exif.jpg", "large_768x1024_exif.jpg", "large_1024x768_exif.jpg"]


def has_nomatch(text):
    """Whether a search text or tag list holds the word `nomatch` (the end-to-end tests' filter
    that finds nothing)."""
    return "nomatch" in re.split(r"[\s,]+", (text or "").lower())


def commons_date_taken(n):
    """The DateTimeOriginal of search result n, or None for an undated file (docstring)."""
    if n % 7 == 6:
        return None
    return f"{2015 + n % 10:04d}-{1 + n % 9:02d}-{10 + n % 10:02d} 12:00:00"


def large_size(n):
    """Width and height of photo n's large image."""
    return (768, 1024) if n % 3 == 1 else (1024, 768)
LOCK = threading.Lock()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True
    nodelay = False
    served_log = None

    def get_request(self):
        conn, addr = super().get_request()
        if self.nodelay:
            # Headers and body go out in two writes: without this, Nagle's algorithm holds the body
            # until the client's delayed ACK (about 40 ms), which would swamp what a benchmark times.
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, addr


def fixture_bytes(fixtures, n):
    names = sorted(f for f in os.listdir(fixtures) if f.endswith(".jpg"))
    with open(os.path.join(fixtures, names[n % len(names)]), "rb") as f:
        return f.read()


_CACHE = {}
_CACHE_LOCK = threading.Lock()


GZIP_BOMB_FILE = "gzip-bomb-256MiB.gz"


def make_gzip_bomb():
    """BOMB_BYTES of zeros, gzip-compressed (about 250 KB). About a second of CPU, so it is made
    once and kept in the fixtures (--write-gzip-bomb): made on the first request, a busy machine
    kept that request silent past the tests' low-speed limit."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    parts = [z.compress(zeros) for _ in range(BOMB_BYTES >> 20)]
    parts.append(z.flush())
    return b"".join(parts)


def gzip_bomb(fixtures):
    """The fixtures' gzip bomb, read once."""
    with _CACHE_LOCK:
        if "gzip" not in _CACHE:
            with open(os.path.join(fixtures, GZIP_BOMB_FILE), "rb") as f:
                _CACHE["gzip"] = f.read()
        return _CACHE["gzip"]


def closed_port():
    """A loopback port bound but never listening, so connections to it are refused (made once,
    held for the server's life so nothing else takes it)."""
    with _CACHE_LOCK:
        if "closed" not in _CACHE:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            _CACHE["closed"] = s
        return _CACHE["closed"].getsockname()[1]


def patched_size(jpeg, width, height):
    """The JPEG with its frame header (SOF0/1/2) declaring another size; the scans stay as they are."""
    i = 2
    while i + 4 <= len(jpeg):
        marker = jpeg[i + 1]
        length = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            return jpeg[:i + 5] + struct.pack(">HH", height, width) + jpeg[i + 9:]
        i += 2 + length
    return jpeg


def images_folder(fixtures):
    return os.path.join(fixtures, "images")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, ctype="application/json", length=None, headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)
        self.log_served(status, body)

    def log_served(self, status, body):
        """With --served-log: each image answered 200, as a JSON line (the request's path, the SHA-256
        and CRC-32 of the bytes sent, their count), written once the bytes went out, so a client can
        hold what it stored against what it was sent."""
        log = self.server.served_log
        if not log or status != 200 or not urlparse(self.path).path.startswith("/img/"):
            return
        line = json.dumps({"path": self.path, "sha256": hashlib.sha256(body).hexdigest(),
                           "crc32": f"{zlib.crc32(body):08x}", "bytes": len(body)})
        with LOCK, open(log, "a") as f:
            f.write(line + "\n")

    def control(self, name):
        return bool(self.server.control_dir) and os.path.exists(os.path.join(self.server.control_dir, name))

    def control_text(self, name):
        """What a switch file says (stripped), or None while it is off."""
        if not self.server.control_dir:
            return None
        try:
            with open(os.path.join(self.server.control_dir, name)) as f:
                return f.read().strip()
        except FileNotFoundError:
            return None

    def held(self, path):
        """Whether this image waits: the hold-images file exists and names no
        first image number, or one at most this image's number."""
        if not self.server.control_dir:
            return False
        try:
            with open(os.path.join(self.server.control_dir, "hold-images")) as f:
                first = f.read().strip()
        except FileNotFoundError:
            return False
        digits = "".join(c for c in path.rsplit("/", 1)[-1] if c.isdigit())
        return not first or int(digits or 0) >= int(first)

    def leak(self):
        """A request meant for another host: record it, refuse it."""
        with LOCK:
            if self.server.leaks_file:
                with open(self.server.leaks_file, "a") as f:
                    f.write(f"{self.command} {self.path}\n")
        self.close_connection = True
        return self.send(403, b"this request would have left the machine", "text/plain")

    def do_CONNECT(self):
        return self.leak()

    def do_HEAD(self):
        if not self.path.startswith("/"):
            return self.leak()
        if urlparse(self.path).path in ("/flickr/rest", "/commons/api.php"):
            with LOCK:
                STATE["head_requests"] += 1
                self.write_stats()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        return self.send(405, b"", "text/plain")

    def do_POST(self):
        return self.leak() if not self.path.startswith("/") else self.send(405, b"", "text/plain")

    def do_GET(self):
        if self.server.control_dir:
            # Every User-Agent seen, one a line, for the tests that check what clients send.
            with LOCK, open(os.path.join(self.server.control_dir, "user-agents.log"), "a") as f:
                f.write((self.headers.get("User-Agent") or "").replace("\n", " ") + "\n")
        if not self.path.startswith("/"):
            return self.leak()
        url = urlparse(self.path)
        q = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if url.path == "/stats":
            with LOCK:
                return self.send(200, json.dumps(STATE).encode())
        if url.path == "/reset":
            with LOCK:
                for k in STATE:
                    STATE[k] = 0
                FLAKY_FAILED.clear()
            return self.send(200, b"{}")
        is_large = url.path.startswith("/img/large/")
        is_image = url.path.startswith("/img/") and not is_large
        is_search = url.path == "/flickr/rest" or (url.path == "/commons/api.php" and "pageids" not in q)
        with LOCK:
            if is_search:
                self.log_search(url.query)
            STATE["requests"] += 1
            STATE["in_flight"] += 1
            STATE["max_in_flight"] = max(STATE["max_in_flight"], STATE["in_flight"])
            if is_large:
                STATE["large_requests"] += 1
                self.log_large(url.path)
            if is_image:
                STATE["image_requests"] += 1
                STATE["images_in_flight"] += 1
                STATE["max_images_in_flight"] = max(STATE["max_images_in_flight"], STATE["images_in_flight"])
            self.write_stats()
        try:
            time.sleep(self.server.delay)
            if is_image and self.server.stagger:
                # Image n waits n steps longer, so an album arrives one photo at a time.
                digits = "".join(c for c in url.path.rsplit("/", 1)[-1] if c.isdigit())
                time.sleep(self.server.stagger * (int(digits or 0) % 60))
            while is_image and self.held(url.path):
                time.sleep(0.02)
            while is_large and self.control("hold-large"):
                if self.client_gone():
                    with LOCK:
                        STATE["large_cancelled"] += 1
                        self.write_stats()
                    return
                time.sleep(0.02)
            while url.path in ("/flickr/rest", "/commons/api.php") and self.control("hold-search"):
                time.sleep(0.02)
            if url.path == "/flickr/rest":
                return self.flickr(q)
            if url.path == "/commons/api.php":
                return self.commons(q)
            if is_large:
                return self.large_image(url.path[len("/img/large/"):])
            if is_image:
                return self.image(url.path[len("/img/"):])
            return self.send(404, b"not here", "text/plain")
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with LOCK:
                STATE["in_flight"] -= 1
                if is_image:
                    STATE["images_in_flight"] -= 1
                self.write_stats()

    def client_gone(self):
        """Whether the client closed its connection (a cancelled transfer)."""
        try:
            if select.select([self.connection], [], [], 0)[0]:
                return not self.connection.recv(1, socket.MSG_PEEK)
        except OSError:
            return True
        return False

    def log_search(self, query):
        """Called with LOCK held: every search's query string, as received, one a line."""
        if self.server.control_dir:
            with open(os.path.join(self.server.control_dir, "search-requests.log"), "a") as f:
                f.write(query.replace("\n", "%0A") + "\n")

    def log_large(self, line):
        """Called with LOCK held: every large image and Commons thumbnail request, in order."""
        if self.server.control_dir:
            with open(os.path.join(self.server.control_dir, "large-requests.log"), "a") as f:
                f.write(line + "\n")

    def large_image(self, name):
        """A large image: the large fixture, or the fault `large-fault` gives photo n."""
        stem = name[:-4] if name.endswith(".jpg") else name
        n = int("".join(c for c in stem.rpartition("-")[2] if c.isdigit()) or 0)
        chosen = self.control_text("large-fault")
        fault = None
        if chosen:
            faults = [f.strip() for f in chosen.split(",")]
            fault = faults[n % len(faults)]
        if fault and fault != "ok":
            return self.image(f"{fault}-{n}.jpg")
        with open(os.path.join(images_folder(self.server.fixtures), LARGE_FIXTURES[n % 3]), "rb") as f:
            data = f.read()
        with LOCK:
            STATE["large_served"] += 1
            self.write_stats()
        return self.send(200, data, "image/jpeg")

    def commons_large(self, q):
        """imageinfo for one file with `iiurlwidth`: a thumbnail that wide (logged)."""
        ids = [i for i in q.get("pageids", "").split("|") if i.isdigit()]
        width = max(1, int(q.get("iiurlwidth", "320") or 320))
        with LOCK:
            self.log_large(f"commons pageids={q.get('pageids', '')} iiurlwidth={width}")
        pages = []
        for pid in ids:
            n = int(pid) - 100
            pages.append({"pageid": int(pid), "ns": 6, "title": f"File:Place {n}.jpg", "imageinfo": [{
                "url": self.image_url(None, n), "width": 4000, "height": 3000, "mime": "image/jpeg", "size": 3000000,
                "thumburl": f"{self.base()}/img/large/{width}px-{n}.jpg", "thumbwidth": width,
                "thumbheight": width * large_size(n)[1] // large_size(n)[0]}]})
        return self.send(200, json.dumps({"batchcomplete": True, "query": {"pages": pages}}).encode())

    def write_stats(self):
        """Called with LOCK held."""
        if self.server.stats_file:
            tmp = self.server.stats_file + ".tmp"
            with open(tmp, "w") as f:
                json.dump(STATE, f)
            os.replace(tmp, self.server.stats_file)

    def base(self):
        """Where photo URLs point: the host and port the request named when that is loopback with a
        port (a proxy in between keeps the photos behind it too), else this server."""
        scheme = self.server.public_scheme
        host = (self.headers.get("Host") or "") if self.headers else ""
        if re.fullmatch(r"(127\.0\.0\.1|localhost):[0-9]{1,5}", host):
            return f"{scheme}://{host}"
        return f"{scheme}://127.0.0.1:{self.server.server_address[1]}"

    def flickr(self, q):
        key = q.get("api_key", "")
        if self.control("search-down"):
            key = "unavailable"
        key = self.control_text("search-fault") or key
        if key == "bad-key":
            return self.send(200, b'{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}')
        if key in ("unavailable", "maxlag"):
            return self.send(200, b'{"stat":"fail","code":105,"message":"Service currently unavailable"}')
        if key == "malformed":
            return self.send(200, b'{"photos":{"page":1,"pages":3,"photo":[{"id":"1","tit')
        if key == "wrong-shape":
            return self.send(200, b'{"photos":[1,2,3],"stat":"ok"}')
        if key == "truncated":
            # The whole answer announced, half of it sent, the connection closed.
            return self.cut_off(self.flickr_body(q, "good-key"), "application/json")
        if (key in SEARCH_FAULTS or key in PASSING_FAULTS) and key != "empty":
            return self.http_fault(key, "application/json")
        if has_nomatch(q.get("text")) or has_nomatch(q.get("tags")):
            key = "empty"
        return self.send(200, self.flickr_body(q, key))

    def flickr_body(self, q, key):
        per_page = max(1, min(500, int(q.get("per_page", "21") or 21)))
        page = max(1, int(q.get("page", "1") or 1))
        total = int(q.get("total", "250"))
        if key == "empty":
            total = 0
        pages = (total + per_page - 1) // per_page
        first = (page - 1) * per_page
        count = max(0, min(per_page, total - first))
        photos = []
        for i in range(count):
            n = first + i
            image = self.image_url(self.image_fault(i, n, key), n)
            title = f"Photo {n} near {q.get('bbox', '?')}"
            owner = f"Photographer {n % 7}"
            if key == "escapes":
                title = f"Evil\x1b[2J\x1b]0;pwned\x07title {n}\r\nline"
            if self.control("hostile-text"):
                title, owner = HOSTILE[n % len(HOSTILE)], HOSTILE[(n + 1) % len(HOSTILE)]
            photos.append({
                "id": str(9000000 + n), "owner": "1@N01", "secret": "abc", "server": "1", "farm": 1,
                "title": title, "ispublic": 1, "ownername": owner,
                "datetaken": "2024-05-0%d 10:00:00" % (1 + n % 9), "license": "4",
                "url_q": image, "height_q": "150", "width_q": 150,
                "url_z": image, "height_z": "480", "width_z": "640",
                "url_l": f"{self.base()}/img/large/{n}.jpg", "height_l": str(large_size(n)[1]),
                "width_l": str(large_size(n)[0]),
            })
        body = {"photos": {"page": page, "pages": str(pages), "perpage": per_page, "total": str(total),
                           "photo": photos}, "stat": "ok"}
        return json.dumps(body).encode()

    def image_fault(self, index, n, key=""):
        """The fault of the image of result `index` on its page (photo number `n`), or None:
        the `image-fault` switch first, else what the Flickr key asks for."""
        chosen = self.control_text("image-fault")
        if chosen:
            faults = [f.strip() for f in chosen.split(",")]
            fault = faults[n % len(faults)]
            return None if fault == "ok" else fault
        if key.startswith("imgs-"):
            return key[5:]
        if key == "img-mixed":
            return IMAGE_FAULTS[index] if index < len(IMAGE_FAULTS) else None
        if index == 0 and key.startswith("img-"):
            return key[4:]
        return None

    def image_url(self, fault, n):
        if fault == "refused":
            return f"http://127.0.0.1:{closed_port()}/img/{n}.jpg"
        if fault == "dns":
            return f"https://{DNS_FAILING_HOST}/img/{n}.jpg"
        return f"{self.base()}/img/{fault}-{n}.jpg" if fault else f"{self.base()}/img/{n}.jpg"

    def commons(self, q):
        # Like geosearch: the nearest `ggslimit` files (at most 500), thumbnails
        # for at most 50 per answer, the rest through `iicontinue`.
        if self.control("search-down"):
            return self.send(503, b"<html>Service unavailable</html>", "text/html")
        fault = self.control_text("search-fault")
        canned = {"malformed": b'{"batchcomplete":"","query":{"pages":{"100":{"pageid":100,"ti',
                  "wrong-shape": b'{"batchcomplete":"","query":{"pages":"not pages"}}', "empty": b'{"batchcomplete":""}'}
        if fault in canned:
            return self.send(200, canned[fault])
        if fault == "truncated":
            return self.cut_off(b'{"batchcomplete":"","query":{"pages":{}}}' + b" " * 4096, "application/json")
        if fault in ("bad-key", "unavailable"):
            return self.send(503, b"<html>Service unavailable</html>", "text/html")
        if fault in SEARCH_FAULTS or fault in PASSING_FAULTS:
            return self.http_fault(fault, "application/json")
        if "pageids" in q:
            return self.commons_large(q)
        if q.get("generator") == "search":
            return self.commons_search(q)
        limit = max(1, min(500, int(q.get("ggslimit", "10") or 10)))
        total = int(q.get("total", "120"))
        count = min(limit, total)
        ii_start = int(q.get("iicontinue", "0") or 0)
        ii_end = min(count, ii_start + 50)
        try:
            lat, lon = (float(v) for v in q.get("ggscoord", "0|0").split("|"))
        except ValueError:
            lat, lon = 0.0, 0.0
        pages = {}
        hostile = self.control("hostile-text")
        for n in range(count):
            name = HOSTILE[n % len(HOSTILE)] if hostile else f"Place {n}"
            artist = HOSTILE[(n + 1) % len(HOSTILE)] if hostile else f"Artist {n}"
            licence = HOSTILE[(n + 2) % len(HOSTILE)] if hostile else "CC BY-SA 4.0"
            page = {"pageid": 100 + n, "ns": 6, "title": f"File:{name}.jpg", "index": n,
                    "coordinates": [{"lat": lat + n * 1e-4, "lon": lon, "primary": "", "globe": "earth",
                                     "dist": round(n * 11.1, 1)}]}
            if ii_start <= n < ii_end:
                page["imageinfo"] = [{
                    "timestamp": "2023-01-01T00:00:00Z", "user": f"User{n}", "size": 120000,
                    "width": 1024, "height": 768, "mime": "image/jpeg",
                    "thumburl": self.image_url(self.image_fault(n, n), n), "thumbwidth": 320, "thumbheight": 240,
                    "url": self.image_url(self.image_fault(n, n), n),
                    "descriptionurl": f"{self.base()}/wiki/File:Place_{n}.jpg",
                    "extmetadata": {"Artist": {"value": f"<a href='x'>{artist}</a>"},
                                    "LicenseShortName": {"value": licence},
                                    "ObjectName": {"value": name}},
                }]
            pages[str(100 + n)] = page
        # formatversion=2 (what the app asks for) lists the pages; the older format keys them by id.
        listed = q.get("formatversion", ["1"])[0] == "2"
        body = {"query": {"pages": list(pages.values()) if listed else pages}}
        if ii_end < count:
            body["continue"] = {"iicontinue": str(ii_end), "continue": "||"}
        else:
            body["batchcomplete"] = ""
        return self.send(200, json.dumps(body).encode())

    def commons_search(self, q):
        """`generator=search` as CirrusSearch answers it (docstring)."""
        asked_info = "totalhits" in q.get("gsrinfo", "").split("|")
        total = 0 if has_nomatch(q.get("gsrsearch")) else int(q.get("total", "120"))
        offset = max(0, int(q.get("gsroffset", "0") or 0))
        limit = max(1, min(500, int(q.get("gsrlimit", "10") or 10)))
        found = list(range(offset, min(offset + limit, total)))
        ii_start = int(q.get("iicontinue", "0") or 0)
        ii_end = min(len(found), ii_start + 50)
        hostile = self.control("hostile-text")
        pages = []
        for i, n in enumerate(found):
            name = HOSTILE[n % len(HOSTILE)] if hostile else f"Place {n}"
            page = {"pageid": 100 + n, "ns": 6, "title": f"File:Place {n}.jpg", "index": n + 1}
            if ii_start <= i < ii_end:
                meta = {"Artist": {"value": f"<a href='x'>Artist {n}</a>"},
                        "LicenseShortName": {"value": "CC BY-SA 4.0"}, "ObjectName": {"value": name}}
                taken = commons_date_taken(n)
                if taken:
                    meta["DateTimeOriginal"] = {"value": taken, "source": "commons-desc-page"}
                page["imageinfo"] = [{
                    "timestamp": "2023-01-01T00:00:00Z", "user": f"User{n}", "size": 120000,
                    "width": 1024, "height": 768, "mime": "image/jpeg",
                    "thumburl": self.image_url(self.image_fault(n, n), n), "thumbwidth": 320, "thumbheight": 240,
                    "url": self.image_url(self.image_fault(n, n), n),
                    "descriptionurl": f"{self.base()}/wiki/File:Place_{n}.jpg", "extmetadata": meta}]
            pages.append(page)
        body = {}
        if ii_end < len(found):
            body["continue"] = {"iicontinue": str(ii_end), "continue": "||"}
        else:
            body["batchcomplete"] = True
            if offset + limit < total:
                body["continue"] = {"gsroffset": offset + limit, "continue": "gsroffset||"}
        query = {}
        if asked_info:
            query["searchinfo"] = {"totalhits": total}
        if pages:
            query["pages"] = pages
        if query:
            body["query"] = query
        return self.send(200, json.dumps(body).encode())

    def image(self, name):
        stem = name[:-4] if name.endswith(".jpg") else name
        fault, _, number = stem.rpartition("-")
        n = int("".join(c for c in number if c.isdigit()) or 0)
        if fault == "html":
            return self.send(200, b"<html><body>Not a picture</body></html>", "text/html")
        if fault == "random":
            # Noise, but the same noise every run, so a failure can be reproduced.
            return self.send(200, random.Random(n).randbytes(5000), "image/jpeg")
        if fault == "huge":
            with open(os.path.join(images_folder(self.server.fixtures), "huge_header_60000x60000.jpg"), "rb") as f:
                return self.send(200, f.read(), "image/jpeg")
        if fault == "bomb":
            # 600 bytes of progressive JPEG whose frame claims 8000x8000: under a 64-megapixel budget,
            # but a progressive decode keeps every coefficient of the whole picture (192 MB).
            with open(os.path.join(images_folder(self.server.fixtures), "progressive_64x48.jpg"), "rb") as f:
                return self.send(200, patched_size(f.read(), 8000, 8000), "image/jpeg")
        data = fixture_bytes(self.server.fixtures, n)
        if fault == "flaky3":
            with LOCK:
                fails = n % 3 == 0 and n not in FLAKY_FAILED
                FLAKY_FAILED.add(n)
            if fails:
                return self.send(500, b"<html>Internal error (once)</html>", "text/html")
            return self.send(200, data, "image/jpeg")
        if fault in ("429", "429-date", "503"):
            # A passing fault lasts while the image-fault switch is on: turning it off heals the
            # photo URLs the search already gave out.
            if self.control_text("image-fault") is None:
                return self.send(200, data, "image/jpeg")
            return self.http_fault(fault, "image/jpeg")
        if fault == "trunc":
            return self.cut_off(data, "image/jpeg")
        if fault == "half":
            return self.send(200, data[: len(data) // 2], "image/jpeg")
        if fault in IMAGE_FAULTS:
            return self.http_fault({"404": "http404", "500": "http500", "random": "garbage"}.get(fault, fault),
                                   "image/jpeg", data)
        return self.send(200, data, "image/jpeg")

    # MARK: faults both the searches and the images can have

    def http_fault(self, fault, ctype, body=b'{"photos":{"page":1,"pages":1,"photo":[]},"stat":"ok"}'):
        if fault == "http500":
            return self.send(500, b"<html>Internal error</html>", "text/html")
        if fault == "http404":
            return self.send(404, b"<html>Not found</html>", "text/html")
        if fault == "html":
            return self.send(200, b"<!DOCTYPE html><html><head><title>Sign in</title></head><body>Portal</body></html>",
                             "text/html")
        if fault == "garbage":
            return self.send(200, random.Random(7).randbytes(5000), ctype)
        if fault == "hang":
            return self.stall()
        if fault == "slow":
            return self.trickle(body, ctype)
        if fault == "gzip-bomb":
            bomb = gzip_bomb(self.server.fixtures)
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(bomb)))
            self.end_headers()
            self.wfile.write(bomb)
            return
        if fault == "endless":
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.end_headers()
            chunk = (b"\xff" if ctype.startswith("image/") else b" ") * 65536
            self.close_connection = True
            while True:
                self.wfile.write(chunk)
        if fault in ("429", "429-date"):
            after = str(RETRY_AFTER_SECONDS)
            if fault == "429-date":
                after = formatdate(time.time() + RETRY_AFTER_SECONDS, usegmt=True)
            return self.send(429, b"<html>Too many requests</html>", "text/html", headers={"Retry-After": after})
        if fault == "503":
            return self.send(503, b"<html>Service unavailable</html>", "text/html")
        if fault == "maxlag":
            # The shape MediaWiki documents for a lagged replica (API:Etiquette, maxlag): HTTP 200.
            error = {"error": {"code": "maxlag", "info": f"Waiting for 10.64.48.35: {MAXLAG_SECONDS} seconds lagged",
                               "host": "10.64.48.35", "lag": MAXLAG_SECONDS, "type": "db",
                               "*": "See https://commons.wikimedia.org/w/api.php for API usage."},
                     "servedby": "mw-api-ext.codfw.main-7cd6d4cbb9-9xlmh"}
            return self.send(200, json.dumps(error).encode(), "application/json",
                             headers={"Retry-After": str(MAXLAG_SECONDS), "X-Database-Lag": str(MAXLAG_SECONDS)})
        if fault == "redirect-other":
            return self.redirect(f"https://{ELSEWHERE_HOST}{self.path}")
        if fault == "redirect-http":
            return self.redirect(f"http://images.elsewhere.example{self.path}")
        if fault == "redirect-loop":
            return self.redirect(self.path)
        return self.send(500, f"unknown fault {fault}".encode(), "text/plain")

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def cut_off(self, body, ctype):
        """The whole body announced, half of it sent, the connection closed."""
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.close_connection = True

    def stall(self):
        """Answers nothing until the client gives up (closes the connection), or for an hour."""
        self.close_connection = True
        deadline = time.monotonic() + 3600
        while time.monotonic() < deadline:
            if select.select([self.connection], [], [], 1.0)[0]:
                try:
                    if not self.connection.recv(1, socket.MSG_PEEK):
                        return
                except OSError:
                    return
                time.sleep(0.05)

    def trickle(self, body, ctype):
        """The answer, one byte every TRICKLE_SECONDS_PER_BYTE: far below any low-speed limit."""
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.flush()
        for i in range(len(body)):
            self.wfile.write(body[i:i + 1])
            time.sleep(TRICKLE_SECONDS_PER_BYTE)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--delay-ms", type=int, default=0)
    ap.add_argument("--stagger-ms", type=int, default=0, help="extra delay per image number")
    ap.add_argument("--stats-file", default=None, help="kept up to date with the /stats counters")
    ap.add_argument("--control-dir", default=None, help="switch files: hold-images, search-down")
    ap.add_argument("--leaks-file", default=None, help="where requests meant for other hosts are recorded")
    ap.add_argument("--fixtures", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures"))
    ap.add_argument("--tls-cert", default=None, help="PEM with certificate and key: serve https (Fixtures/tls)")
    ap.add_argument("--write-gzip-bomb", action="store_true", help="make the fixtures' gzip bomb again and exit")
    ap.add_argument("--public-scheme", default="http", choices=["http", "https"],
                    help="the scheme of photo URLs (https behind a TLS front such as nghttpx)")
    ap.add_argument("--served-log", default=None, help="each image answered 200: a JSON line with its path and checksums")
    ap.add_argument("--tcp-nodelay", action="store_true", help="send every write at once (benchmarks timing a search)")
    args = ap.parse_args()
    if args.write_gzip_bomb:
        with open(os.path.join(args.fixtures, GZIP_BOMB_FILE), "wb") as f:
            f.write(make_gzip_bomb())
        return
    server = Server(("127.0.0.1", args.port), Handler)
    # Photo URLs in the answers point back over https when the server, or its front, speaks it.
    server.public_scheme = "https" if args.tls_cert else args.public_scheme
    if args.tls_cert:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.delay = args.delay_ms / 1000.0
    server.fixtures = args.fixtures
    server.stats_file = args.stats_file
    server.stagger = args.stagger_ms / 1000.0
    server.control_dir = args.control_dir
    server.leaks_file = args.leaks_file
    server.nodelay = args.tcp_nodelay
    server.served_log = args.served_log
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
