#!/usr/bin/env python3
"""10,000 pins downloading at once: `vtourist import` of a generated GeoJSON file of 10,000 points,
then the full-screen app (in tmux, 120x40) against the local stand-in server with every response
delayed 500 ms, so that the albums stay downloading. Each run measures:

- opening an album while the 10,000 download (P, Enter: the newest pin, the last of the import, so
  the last in line): Enter to the album's header counting its first photo stored and shown;
- quitting (`q` on the map): the key to the process's end;
- the app's peak resident memory over the run (getrusage, through Tests/Support/peak_rss.py).

Prints each run and the medians, with PASS or FAIL against bench/targets.py ("scale quit",
"scale memory", "scale open album").

    python3 bench/scale_bench.py --binary .build/release/vtourist [--runs 3] [--pins 10000]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import targets  # noqa: E402

SUPPORT = os.path.join(HERE, "..", "Tests", "Support")
SERVER = os.path.join(SUPPORT, "photo_server.py")
PEAK_RSS = os.path.join(SUPPORT, "peak_rss.py")
DELAY_MS = 500
TMUX = "/usr/bin/tmux"
# The album header once a photo is in: "Downloading 3/21" while the rest come, "21 photos" when done.
FIRST_PHOTO = re.compile(r"Downloading [1-9][0-9]*/[0-9]+|^ [0-9]+ photos?\b", re.M)


def geojson(count):
    """`count` points on a grid over the land and sea of the world, each a pin of its own."""
    features = []
    for i in range(count):
        lat = -60 + (i // 200) * 2.4 + (i % 7) * 0.01
        lon = -179 + (i % 200) * 1.79
        features.append({"type": "Feature", "properties": {"name": f"Bench {i}"},
                         "geometry": {"type": "Point", "coordinates": [round(lon, 4), round(lat, 4)]}})
    return {"type": "FeatureCollection", "features": features}


class Tmux:
    def __init__(self, work, env, width=120, height=40):
        # A server of its own each run: the last one may still be ending.
        self.socket = f"vtourist-scale-{os.getpid()}-{time.monotonic_ns()}"
        self.env = env
        self.width, self.height = width, height

    def run(self, *args):
        return subprocess.run([TMUX, "-L", self.socket, "-f", "/dev/null", *args], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def start(self, command):
        r = self.run("new-session", "-d", "-s", "bench", "-x", str(self.width), "-y", str(self.height), command)
        if r.returncode != 0:
            sys.exit(f"tmux did not start: {r.stderr}")

    def keys(self, *names):
        self.run("send-keys", "-t", "bench", *names)

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "bench").stdout

    def wait(self, what, holds, limit=60.0, step=0.025, required=True):
        """Polls the pane until `holds(text)`: the time it held; when `limit` passes, None, or (when
        `required`) the run stops."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            text = self.screen()
            if holds(text):
                return time.monotonic()
            time.sleep(step)
        if not required:
            return None
        screen = self.screen()
        self.kill()
        sys.exit(f"waited {limit:g} s in vain for {what}; the screen:\n{screen}")

    def kill(self):
        self.run("kill-server")


def stats(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def one_run(args, work, pristine, env, stats_file, run):
    db = os.path.join(work, f"run{run}.sqlite")
    shutil.copyfile(pristine, db)
    rss_file = os.path.join(work, f"rss{run}.txt")
    done_file = os.path.join(work, f"done{run}")
    for path in (rss_file, done_file):
        if os.path.exists(path):
            os.remove(path)
    app_env = dict(env, VTOURIST_DB=db)
    tmux = Tmux(work, app_env)
    command = (f"env {' '.join(f'{k}={v}' for k, v in app_env.items())} /usr/bin/python3 {PEAK_RSS} {rss_file} "
               f"{args.binary}; touch {done_file}; sleep 30")
    tmux.start(command)
    try:
        tmux.wait("the map", lambda s: "? help" in s)
        # The albums are under way: the stand-in has seen searches and images asked for.
        start = stats(stats_file).get("requests", 0)
        deadline = time.monotonic() + 30
        while stats(stats_file).get("requests", 0) < start + 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(args.settle)
        # The newest pin, the last of the import and so the last album in line, opened from the pins list.
        tmux.keys("P")
        tmux.wait("the pins list", lambda s: "Bench " in s)
        enter = time.monotonic()
        tmux.keys("Enter")
        shown = tmux.wait("the album's first photo", lambda s: FIRST_PHOTO.search(s) is not None,
                          limit=args.limit, required=False)
        opened = shown - enter if shown is not None else float("inf")
        # Back to the pins list, then the map, and a little more downloading before quitting.
        tmux.keys("Escape")
        time.sleep(0.3)
        tmux.keys("Escape")
        tmux.wait("the map again", lambda s: "? help" in s and "Bench " not in s)
        time.sleep(1.0)
        in_flight = stats(stats_file).get("in_flight", 0)
        q = time.monotonic()
        tmux.keys("q")
        deadline = q + args.limit
        # peak_rss.py writes the figure as soon as the app has ended.
        def ended():
            return os.path.exists(rss_file) and os.path.getsize(rss_file) > 0
        while not ended() and time.monotonic() < deadline:
            time.sleep(0.002)
        if not ended():
            tmux.kill()
            return opened, None, None, in_flight
        quit_s = time.monotonic() - q
        with open(rss_file) as f:
            rss_mb = int(f.read().strip()) * 1024 / 1e6
        return opened, quit_s, rss_mb, in_flight
    finally:
        tmux.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pins", type=int, default=10_000)
    ap.add_argument("--settle", type=float, default=3.0, help="seconds of downloading before the album is opened")
    ap.add_argument("--limit", type=float, default=120.0, help="the longest any step is waited for")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="vtourist-scale-bench-")
    stats_file = os.path.join(work, "stats.json")
    server = subprocess.Popen(["/usr/bin/python3", SERVER, "--delay-ms", str(DELAY_MS), "--stats-file", stats_file],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    try:
        port = int(server.stdout.readline().split()[1])
        base = f"http://127.0.0.1:{port}"
        # Nothing of the caller's environment (a key, a source, a proxy) changes what is measured.
        env = {"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color",
               "FLICKR_API_KEY": "bench-key", "VTOURIST_FLICKR_ENDPOINT": f"{base}/flickr/rest",
               "VTOURIST_COMMONS_ENDPOINT": f"{base}/commons/api.php", "VTOURIST_IMAGES": "none"}
        pins_file = os.path.join(work, "pins.geojson")
        with open(pins_file, "w") as f:
            json.dump(geojson(args.pins), f)
        pristine = os.path.join(work, "pristine.sqlite")
        t0 = time.monotonic()
        r = subprocess.run([args.binary, "import", pins_file, "--db", pristine], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.exit(f"vtourist import failed: {r.stderr}")
        print(f"vtourist import of {args.pins:,} points: {time.monotonic() - t0:.1f} s", flush=True)
        opens, quits, peaks = [], [], []
        for run in range(args.runs):
            opened, quit_s, rss, in_flight = one_run(args, work, pristine, env, stats_file, run)
            opens.append(opened)
            quits.append(quit_s if quit_s is not None else float("inf"))
            peaks.append(rss if rss is not None else float("inf"))
            quit_text = f"{quit_s * 1000:.0f} ms" if quit_s is not None else f"more than {args.limit:g} s"
            rss_text = f"{rss:.1f} MB" if rss is not None else "unknown (did not end)"
            open_text = f"{opened * 1000:.0f} ms" if opened != float("inf") else f"not within {args.limit:g} s"
            print(f"run {run + 1}: album's first photo {open_text} after Enter; q to exit {quit_text} "
                  f"({in_flight} requests in flight at q); peak RSS {rss_text}", flush=True)
        opened, quit_s, rss = statistics.median(opens), statistics.median(quits), statistics.median(peaks)
        n = len(opens)

        def ms(seconds):
            return f"{seconds * 1000:.0f} ms" if seconds != float("inf") else f"over {args.limit:g} s"

        def mb(size):
            return f"{size:.1f} MB" if size != float("inf") else "unknown (it did not end)"
        print(f"{args.pins:,} pins downloading, stand-in at {DELAY_MS} ms a response, medians of {n} runs:")
        ok = targets.verdict("scale quit", quit_s < targets.SCALE_QUIT_S,
                        f"q to exit with {args.pins:,} pins downloading, median {ms(quit_s)} "
                        f"(max {ms(max(quits))}, n={n}; target < {targets.SCALE_QUIT_S:g} s)")
        ok &= targets.verdict("scale memory", rss < targets.SCALE_MEMORY_MB,
                        f"peak RSS with {args.pins:,} pins downloading, median {mb(rss)} "
                        f"(max {mb(max(peaks))}, n={n}; target < {targets.SCALE_MEMORY_MB:g} MB)")
        ok &= targets.verdict("scale open album", opened < targets.SCALE_OPEN_ALBUM_S,
                        f"Enter to the opened album's first photo while {args.pins:,} download, median "
                        f"{ms(opened)} (max {ms(max(opens))}, n={n}; target < "
                        f"{targets.SCALE_OPEN_ALBUM_S:g} s, two responses of {DELAY_MS} ms each)")
    finally:
        server.kill()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
