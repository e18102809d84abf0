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
- `total` (query) sets how many results exist (default 250).
Every response waits --delay-ms first. /stats reports the most requests seen
in flight at once; /reset clears the counters.

Switches the test turns on and off as files in --control-dir:
- `hold-images`: every image request waits while the file exists (only
  images numbered from N on, if the file holds N), so "still downloading"
  and "half downloaded" are states the test ends, not races it hopes to win;
- `search-down`: every search fails (Flickr stat fail 105, Commons HTTP 503);
- `hostile-text`: every title, author and licence (Flickr and Commons) is one
  of HOSTILE: escape sequences, C1 controls, bidi overrides, combining marks,
  wide and zero-width characters, very long text.

It is also the trap for requests that would leave the machine: tests point
every proxy variable at it, and curl fetches loopback hosts directly, so any
request it sees as a proxy (CONNECT, or an absolute URL as the target) was
meant for another host. Each is recorded in --leaks-file and refused.
"""
import argparse
import json
import os
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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

STATE = {"in_flight": 0, "max_in_flight": 0, "requests": 0, "image_requests": 0, "max_images_in_flight": 0,
         "images_in_flight": 0}
LOCK = threading.Lock()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True


def fixture_bytes(fixtures, n):
    names = sorted(f for f in os.listdir(fixtures) if f.endswith(".jpg"))
    with open(os.path.join(fixtures, names[n % len(names)]), "rb") as f:
        return f.read()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, ctype="application/json", length=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def control(self, name):
        return bool(self.server.control_dir) and os.path.exists(os.path.join(self.server.control_dir, name))

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
        return self.leak() if not self.path.startswith("/") else self.send(405, b"", "text/plain")

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
            return self.send(200, b"{}")
        is_image = url.path.startswith("/img/")
        with LOCK:
            STATE["requests"] += 1
            STATE["in_flight"] += 1
            STATE["max_in_flight"] = max(STATE["max_in_flight"], STATE["in_flight"])
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
            if url.path == "/flickr/rest":
                return self.flickr(q)
            if url.path == "/commons/api.php":
                return self.commons(q)
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

    def write_stats(self):
        """Called with LOCK held."""
        if self.server.stats_file:
            tmp = self.server.stats_file + ".tmp"
            with open(tmp, "w") as f:
                json.dump(STATE, f)
            os.replace(tmp, self.server.stats_file)

    def base(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def flickr(self, q):
        key = q.get("api_key", "")
        per_page = max(1, min(500, int(q.get("per_page", "21") or 21)))
        page = max(1, int(q.get("page", "1") or 1))
        total = int(q.get("total", "250"))
        if self.control("search-down"):
            key = "unavailable"
        if key == "bad-key":
            return self.send(200, b'{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}')
        if key == "unavailable":
            return self.send(200, b'{"stat":"fail","code":105,"message":"Service currently unavailable"}')
        if key == "malformed":
            return self.send(200, b'{"photos":{"page":1,"pages":3,"photo":[{"id":"1","tit')
        if key == "wrong-shape":
            return self.send(200, b'{"photos":[1,2,3],"stat":"ok"}')
        if key == "http500":
            return self.send(500, b"<html>Internal error</html>", "text/html")
        if key == "hang":
            time.sleep(3600)
            return
        if key == "empty":
            total = 0
        pages = (total + per_page - 1) // per_page
        first = (page - 1) * per_page
        count = max(0, min(per_page, total - first))
        photos = []
        for i in range(count):
            n = first + i
            name = f"{n}.jpg"
            if i == 0 and key.startswith("img-"):
                name = f"{key[4:]}-{n}.jpg"
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
                "url_q": f"{self.base()}/img/{name}", "height_q": "150", "width_q": 150,
                "url_z": f"{self.base()}/img/{name}", "height_z": "480", "width_z": "640",
            })
        body = {"photos": {"page": page, "pages": str(pages), "perpage": per_page, "total": str(total),
                           "photo": photos}, "stat": "ok"}
        return self.send(200, json.dumps(body).encode())

    def commons(self, q):
        # Like geosearch: the nearest `ggslimit` files (at most 500), thumbnails
        # for at most 50 per answer, the rest through `iicontinue`.
        if self.control("search-down"):
            return self.send(503, b"<html>Service unavailable</html>", "text/html")
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
                    "thumburl": f"{self.base()}/img/{n}.jpg", "thumbwidth": 320, "thumbheight": 240,
                    "url": f"{self.base()}/img/{n}.jpg",
                    "descriptionurl": f"{self.base()}/wiki/File:Place_{n}.jpg",
                    "extmetadata": {"Artist": {"value": f"<a href='x'>{artist}</a>"},
                                    "LicenseShortName": {"value": licence},
                                    "ObjectName": {"value": name}},
                }]
            pages[str(100 + n)] = page
        body = {"query": {"pages": pages}}
        if ii_end < count:
            body["continue"] = {"iicontinue": str(ii_end), "continue": "||"}
        else:
            body["batchcomplete"] = ""
        return self.send(200, json.dumps(body).encode())

    def image(self, name):
        n = int("".join(c for c in name.split("-")[-1] if c.isdigit()) or 0)
        if name.startswith("html-"):
            return self.send(200, b"<html><body>Not a picture</body></html>", "text/html")
        if name.startswith("random-"):
            # Noise, but the same noise every run, so a failure can be reproduced.
            return self.send(200, random.Random(n).randbytes(5000), "image/jpeg")
        if name.startswith("404-"):
            return self.send(404, b"gone", "text/plain")
        data = fixture_bytes(self.server.fixtures, n)
        if name.startswith("trunc-"):
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if name.startswith("endless-"):
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.end_headers()
            chunk = b"\xff" * 65536
            while True:
                self.wfile.write(chunk)
        return self.send(200, data, "image/jpeg")


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
    args = ap.parse_args()
    handler = Handler
    if args.tls_cert:
        class TLSHandler(Handler):
            """Photo URLs in the answers point back over https."""
            def base(self):
                return "https://" + Handler.base(self).split("://", 1)[1]
        handler = TLSHandler
    server = Server(("127.0.0.1", args.port), handler)
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
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
