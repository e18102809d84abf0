#!/usr/bin/env python3
"""A local HTTP server for vtourist's tests and benchmarks.

Listens on 127.0.0.1 (a free port unless --port is given), prints
"PORT <n>" on the first line of stdout, and serves until killed (or, with
--exit-on-stdin-eof, until its stdin closes, so it never outlives its test).

Routes (any of them also takes ?delay_ms=N before answering):
  /bytes/N                 N bytes of a repeating pattern
  /text?body=S             S as text/plain
  /status/CODE             that status, body "status CODE"
  /redirect?to=URL[&code=302]
  /chain/N                 N redirects (302) down to /chain/0, which answers "done"
  /hang                    reads the request, never answers
  /endless                 200 with a body that never ends
  /truncated?declared=N&sent=M   Content-Length N, sends M bytes, closes
  /close                   reads the request, closes without a word
  /reset                   reads the request, resets the connection (RST)
  /huge-declared           Content-Length of 10 GB, sends nothing, closes
  /trickle?bytes=N&interval_ms=M one byte every M ms
  /gzip?n=N                N bytes of "a", gzip-encoded
  /headers                 the request headers as JSON (names lower-cased)
  /echo?...                the query as JSON
  /files/NAME              a file from --root DIR
  /stats                   {"requests", "connections", "in_flight", "max_in_flight",
                            "head_requests", "tls_resumed"}
                           (/stats requests are not counted; their connections are)
  /stats/reset             zero the counters
HEAD is answered as GET would be, without the body. Any answer takes ?close=1:
it says "Connection: close" and closes the connection after it.
Extra fixed routes come from --routes FILE.json:
  {"/path": {"status": 200, "headers": {...}, "body": "text" | "body_base64": "..." |
             "body_file": "path", "delay_ms": 0}}
matched on the path without the query; they win over the built-in routes.
--delay-ms N delays every answer (except /stats) by N ms.
--tls-cert PEM serves https instead, with a certificate and key from
Tests/Fixtures/tls (scripts/make_test_certs.sh; test-only, see its header).
"""

import argparse
import base64
import gzip
import json
import os
import select
import socket
import ssl
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.requests = 0
        self.connections = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.head_requests = 0
        self.tls_resumed = 0

    def enter(self):
        with self.lock:
            self.requests += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def connect(self, resumed=False):
        with self.lock:
            self.connections += 1
            if resumed:
                self.tls_resumed += 1

    def leave(self):
        with self.lock:
            self.in_flight -= 1

    def snapshot(self):
        with self.lock:
            return {"requests": self.requests, "connections": self.connections,
                    "in_flight": self.in_flight,
                    "max_in_flight": self.max_in_flight,
                    "head_requests": self.head_requests,
                    "tls_resumed": self.tls_resumed}


class Server(ThreadingHTTPServer):
    # The default backlog of 5 drops SYNs under parallel load, adding a second each.
    request_queue_size = 128
    daemon_threads = True
    allow_reuse_address = True


def pattern(n):
    block = bytes(range(256))
    return (block * (n // 256 + 1))[:n]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "vtourist-test-server"

    def log_message(self, format, *args):
        pass

    def setup(self):
        super().setup()
        # A TLS connection whose handshake resumed an earlier session (the client kept its ticket).
        STATS.connect(resumed=bool(getattr(self.connection, "session_reused", False)))

    head = False
    closing = False

    def do_HEAD(self):
        self.head = True
        with STATS.lock:
            STATS.head_requests += 1
        try:
            self.do_GET()
        finally:
            self.head = False

    def do_GET(self):
        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path
        query = dict(urllib.parse.parse_qsl(parsed.query, keep_blank_values=True))
        self.closing = query.get("close") == "1"
        if path == "/stats":
            return self.send_json(200, STATS.snapshot())
        if path == "/stats/reset":
            with STATS.lock:
                STATS.reset()
            return self.send_json(200, {"ok": True})
        STATS.enter()
        try:
            delay = int(query.get("delay_ms", "0") or 0) + OPTIONS.delay_ms
            route = ROUTES.get(path)
            if route is not None:
                delay += int(route.get("delay_ms", 0))
            if delay > 0:
                time.sleep(delay / 1000)
            if route is not None:
                return self.send_route(route)
            return self.dispatch(path, query)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            STATS.leave()

    def dispatch(self, path, query):
        parts = path.strip("/").split("/")
        head = parts[0] if parts else ""
        if head == "bytes" and len(parts) == 2 and parts[1].isdigit():
            return self.send_body(200, pattern(int(parts[1])), "application/octet-stream")
        if head == "text":
            return self.send_body(200, query.get("body", "").encode(), "text/plain; charset=utf-8")
        if head == "status" and len(parts) == 2 and parts[1].isdigit():
            code = int(parts[1])
            return self.send_body(code, f"status {code}".encode(), "text/plain")
        if head == "redirect":
            code = int(query.get("code", "302"))
            return self.send_body(code, b"", "text/plain", {"Location": query.get("to", "/")})
        if head == "chain" and len(parts) == 2 and parts[1].isdigit():
            n = int(parts[1])
            if n == 0:
                return self.send_body(200, b"done", "text/plain")
            return self.send_body(302, b"", "text/plain", {"Location": f"/chain/{n - 1}"})
        if head == "hang":
            return self.hang()
        if head == "close":
            self.close_connection = True
            return
        if head == "reset":
            # SO_LINGER with a zero timeout: close() sends RST instead of FIN.
            self.close_connection = True
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            # Closed here, before the server's own shutdown(SHUT_WR) could send a FIN first.
            self.connection.close()
            return
        if head == "endless":
            return self.endless()
        if head == "truncated":
            declared = int(query.get("declared", "1000"))
            sent = int(query.get("sent", "10"))
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(declared))
            self.end_headers()
            self.wfile.write(pattern(sent))
            self.wfile.flush()
            self.close_connection = True
            return
        if head == "huge-declared":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(10 * 1024 ** 3))
            self.end_headers()
            self.close_connection = True
            return
        if head == "trickle":
            return self.trickle(int(query.get("bytes", "100")), int(query.get("interval_ms", "500")))
        if head == "gzip":
            raw = b"a" * int(query.get("n", "1000"))
            return self.send_body(200, gzip.compress(raw), "text/plain", {"Content-Encoding": "gzip"})
        if head == "headers":
            return self.send_json(200, {k.lower(): v for k, v in self.headers.items()})
        if head == "echo":
            return self.send_json(200, query)
        if head == "files" and len(parts) >= 2 and OPTIONS.root:
            return self.send_file(os.path.join(OPTIONS.root, *parts[1:]))
        return self.send_body(404, b"not found", "text/plain")

    def send_body(self, code, body, content_type, headers=None):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.closing:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if not self.head:
            self.wfile.write(body)

    def send_json(self, code, value):
        self.send_body(code, json.dumps(value).encode(), "application/json")

    def send_file(self, file_path):
        root = os.path.realpath(OPTIONS.root)
        real = os.path.realpath(file_path)
        if not real.startswith(root + os.sep) or not os.path.isfile(real):
            return self.send_body(404, b"not found", "text/plain")
        with open(real, "rb") as f:
            data = f.read()
        kind = "image/jpeg" if real.lower().endswith((".jpg", ".jpeg")) else "application/octet-stream"
        self.send_body(200, data, kind)

    def send_route(self, route):
        if "body_base64" in route:
            body = base64.b64decode(route["body_base64"])
        elif "body_file" in route:
            with open(route["body_file"], "rb") as f:
                body = f.read()
        else:
            body = route.get("body", "").encode()
        headers = dict(route.get("headers", {}))
        kind = headers.pop("Content-Type", "application/octet-stream")
        self.send_body(int(route.get("status", 200)), body, kind, headers)

    def hang(self):
        # Wait until the client gives up (its socket becomes readable at EOF), at most 5 minutes.
        self.close_connection = True
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.5)
            if readable:
                try:
                    if not self.connection.recv(4096):
                        return
                except OSError:
                    return

    def endless(self):
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        chunk = pattern(64 * 1024)
        while True:
            self.wfile.write(chunk)

    def trickle(self, count, interval_ms):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(count))
        self.end_headers()
        for _ in range(count):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(interval_ms / 1000)


def watch_stdin():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except OSError:
        pass
    os._exit(0)


def main():
    global OPTIONS, ROUTES, STATS
    parser = argparse.ArgumentParser(description="vtourist test HTTP server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay-ms", type=int, default=0)
    parser.add_argument("--routes")
    parser.add_argument("--root")
    parser.add_argument("--tls-cert", help="PEM with certificate and key: serve https")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    OPTIONS = parser.parse_args()
    ROUTES = {}
    if OPTIONS.routes:
        with open(OPTIONS.routes) as f:
            ROUTES = json.load(f)
    STATS = Stats()
    server = Server((OPTIONS.host, OPTIONS.port), Handler)
    if OPTIONS.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(OPTIONS.tls_cert)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"PORT {server.server_address[1]}", flush=True)
    if OPTIONS.exit_on_stdin_eof:
        threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
