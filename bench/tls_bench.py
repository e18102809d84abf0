#!/usr/bin/env python3
"""`vtourist drop LAT LON --wait` over TLS and HTTP/2 on a long link: the stand-in
(Tests/Support/photo_server.py, plain HTTP) behind nghttpx (TLS with the test certificate of
Tests/Fixtures/tls, HTTP/2 to the client), behind Tests/Support/net_proxy.py adding the round
trip (RTT/2 each way, per chunk). The app trusts the test authority through VTOURIST_CA_BUNDLE
and talks to one host (the search and every photo URL point back through the proxy).

For each of the share handle off (VTOURIST_HTTP_SHARE=off) and on: the median of --runs drops
(a fresh database each) at --rtt-ms, and the same at RTT 0; the floor is the RTT-0 median plus
4 RTT (TCP, TLS, the search, the images); the connections the proxy accepted per drop, and the
TLS handshakes nghttpx saw (full or resumed, from its access log, one per connection).
Target (bench/targets.py, "tls album"): with the share handle, at most 1.3x the floor and at
most 2 connections to the host.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
SERVER = os.path.join(ROOT, "Tests", "Support", "photo_server.py")
PROXY = os.path.join(ROOT, "Tests", "Support", "net_proxy.py")
TLS = os.path.join(ROOT, "Tests", "Fixtures", "tls")
NGHTTPX = "/usr/sbin/nghttpx"
ALBUM = 21

sys.path.insert(0, HERE)
import targets  # noqa: E402

TOOL_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}


def started(cmd, out_path, what):
    """A child process that prints "PORT <n>" when ready, and that port."""
    out = open(out_path, "w+")
    child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=TOOL_ENV)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        out.seek(0)
        for line in out.read().splitlines():
            if line.startswith("PORT "):
                return child, int(line.split()[1])
        if child.poll() is not None:
            break
        time.sleep(0.02)
    child.kill()
    out.seek(0)
    sys.exit(f"{what} did not start: {out.read()}")


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_listening(port, child, what):
    import socket
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if child.poll() is not None:
            sys.exit(f"{what} stopped at start (exit {child.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"{what} did not listen on {port}")


class Front:
    """photo_server ← nghttpx (TLS, h2) ← net_proxy (RTT): the chain one measurement runs through."""

    def __init__(self, work, rtt_ms):
        self.work = os.path.join(work, f"rtt{rtt_ms}")
        os.makedirs(self.work)
        self.stats_file = os.path.join(self.work, "proxy-stats.json")
        self.access_log = os.path.join(self.work, "access.log")
        self.server, server_port = started(
            ["/usr/bin/python3", SERVER, "--public-scheme", "https", "--tcp-nodelay",
             "--stats-file", os.path.join(self.work, "server-stats.json")],
            os.path.join(self.work, "server.out"), "photo_server.py")
        tls_port = free_port()
        certificate = os.path.join(TLS, "server.pem")
        # No configuration file of the system's; one worker; every connection in the access log.
        self.nghttpx = subprocess.Popen(
            [NGHTTPX, "--conf=/dev/null", f"--frontend=127.0.0.1,{tls_port}",
             f"--backend=127.0.0.1,{server_port};;proto=http/1.1", "--workers=1", "--no-ocsp",
             f"--accesslog-file={self.access_log}",
             "--accesslog-format=$remote_port $tls_session_reused $alpn $status $path_without_query",
             f"--errorlog-file={os.path.join(self.work, 'nghttpx.err')}", certificate, certificate],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=TOOL_ENV)
        wait_listening(tls_port, self.nghttpx, "nghttpx")
        self.proxy, self.port = started(
            ["/usr/bin/python3", PROXY, "--target-port", str(tls_port), "--rtt-ms", str(rtt_ms),
             "--stats-file", self.stats_file], os.path.join(self.work, "proxy.out"), "net_proxy.py")

    def accepted(self):
        with open(self.stats_file) as f:
            return json.load(f)["accepted"]

    def log_lines(self):
        try:
            with open(self.access_log) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def stop(self):
        for child in (self.proxy, self.nghttpx, self.server):
            child.kill()
            child.wait()


def handshakes(lines):
    """TLS connections in access-log lines: (full handshakes, resumed ones), one per client port."""
    seen = {}
    for line in lines:
        parts = line.split()
        if len(parts) >= 2:
            seen.setdefault(parts[0], parts[1])
    resumed = sum(1 for r in seen.values() if r == "r")
    return len(seen) - resumed, resumed


def measure(binary, front, share, runs, work):
    """Times of `drop --wait` (fresh database each), connections per drop, handshakes per drop."""
    home = tempfile.mkdtemp(prefix="home-", dir=work)
    base = f"https://127.0.0.1:{front.port}"
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "FLICKR_API_KEY": "bench-key", "VTOURIST_FLICKR_ENDPOINT": f"{base}/flickr/rest",
           "VTOURIST_COMMONS_ENDPOINT": f"{base}/commons/api.php",
           "VTOURIST_CA_BUNDLE": os.path.join(TLS, "ca.pem"), "VTOURIST_HTTP_SHARE": share}
    times, connections, full, resumed = [], [], [], []
    for run in range(runs):
        db = os.path.join(home, f"drop{run}.sqlite")
        accepted = front.accepted()
        logged = len(front.log_lines())
        t0 = time.monotonic()
        r = subprocess.run([binary, "drop", "40.85", "14.27", "--wait", "--db", db], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        times.append(time.monotonic() - t0)
        if r.returncode != 0:
            sys.exit(f"drop --wait (share {share}) failed ({r.returncode}): {r.stderr.decode()}")
        album = json.loads(subprocess.run([binary, "album", "1", "--json", "--db", db], env=env,
                                          stdout=subprocess.PIPE, check=True).stdout)
        stored = sum(1 for p in album["photos"] if p["downloaded"])
        if stored != ALBUM:
            sys.exit(f"share {share}, run {run}: {stored} of {ALBUM} photos stored")
        # The proxy counts a connection when it accepts it; the log line comes when its answer went out.
        time.sleep(0.05)
        connections.append(front.accepted() - accepted)
        f, s = handshakes(front.log_lines()[logged:])
        full.append(f)
        resumed.append(s)
    return times, connections, full, resumed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rtt-ms", type=int, default=100)
    args = ap.parse_args()
    if not os.access(NGHTTPX, os.X_OK):
        targets.verdict("tls album", False, f"{NGHTTPX} is missing (Debian nghttp2-proxy; make deps installs it)")
        sys.exit(1)
    work = tempfile.mkdtemp(prefix="vtourist-tls-bench-")
    rtt = args.rtt_ms / 1000.0
    fronts = []
    ok = True
    try:
        near = Front(work, 0)
        fronts.append(near)
        far = Front(work, args.rtt_ms)
        fronts.append(far)
        verdict_detail = None
        for share in ("off", "on"):
            base_times, _, _, _ = measure(args.binary, near, share, args.runs, work)
            times, connections, full, resumed = measure(args.binary, far, share, args.runs, work)
            floor = statistics.median(base_times) + 4 * rtt
            median = statistics.median(times)
            ratio = median / floor
            print(f"share handle {share}: drop --wait, {ALBUM} photos, TLS + HTTP/2, RTT {args.rtt_ms} ms: "
                  f"median {median * 1000:.0f} ms (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, n={len(times)}); "
                  f"at RTT 0 {statistics.median(base_times) * 1000:.0f} ms; floor (RTT 0 + 4 RTT) {floor * 1000:.0f} ms; "
                  f"ratio {ratio:.2f}x")
            print(f"share handle {share}: connections to the host per drop {connections} (most {max(connections)}); "
                  f"TLS handshakes per drop: full {full}, resumed {resumed}")
            if share == "on":
                ok = ratio <= 1.3 and max(connections) <= 2
                verdict_detail = (f"median {median * 1000:.0f} ms, {ratio:.2f}x the floor of {floor * 1000:.0f} ms "
                                  f"(target <= 1.3x), at most {max(connections)} connections (target <= 2)")
        targets.verdict("tls album", ok, verdict_detail)
    finally:
        for front in fronts:
            front.stop()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
