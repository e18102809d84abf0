#!/usr/bin/env python3
"""Crash soak: the full-screen app against the local photo server with slow
images, driven in tmux, killed with SIGKILL at random moments and started
again, round after round; its oracle is what the user was told.

Each round starts the app in a tmux pane of the script's own tmux server
(sometimes a second app on the same database, sometimes `vtourist drop LAT LON
[--wait]` alongside, sometimes `vtourist import FILE` first) and does one
action after another: drops, keyboard and mouse drags, pin deletions, photo
deletions (`x`, marked with space and `X`), New Collection, Add more, a filter
saved and cleared, renames (map and pins list), every field of the settings
screen (found by the label it shows), `vtourist config set`, `W`. Each action
waits (reading the screen with `capture-pane`, or the command's output) for
its acknowledgment; an action not acknowledged in ACK_LIMIT seconds fails the
run, unless the round's kill came first. Then, at a random moment (often in the
middle of an action), every process gets SIGKILL, and before anything opens
the database again the script checks it, read-only, against its record of what
the user was told (`Record`):

- `PRAGMA integrity_check` is ok and `PRAGMA foreign_key_check` finds nothing;
- a pin acknowledged is there with the name and coordinates it was
  acknowledged with (the screen shows 4 decimals, so within 0.00005°), unless
  an acknowledged action deleted it; one acknowledged deleted is gone;
- a pin asked for and not acknowledged (its keys sent, the kill before the
  acknowledgment) may be there or not, but only as asked: every pin of the
  database is explained by an acknowledgment or by an action that asked for
  it (its place, and its name where the screen showed it);
- a photo acknowledged deleted is gone; marked photos (`Deleted N photos.`):
  at least N of the album's photos before it are gone;
- a setting acknowledged (`Saved: LABEL VALUE.`, `config set`'s output) holds
  the value acknowledged; one not acknowledged holds its last acknowledged
  value or one an action asked for; a filter holds its last value or an asked one;
- every stored image is byte for byte what the photo server served for its URL
  (its SHA-256, from the server's --served-log);
- nothing seen gone comes back (ids are never reused: AUTOINCREMENT).

After the last round the app starts once more; every album must complete
(every pin `ready` or `empty`, every photo `stored`: none failed for good, as
the server is never told to fail one).

Every process gets an explicit environment (a temporary HOME and XDG folders,
the database, both photo endpoints and every proxy variable on the local
server); nothing of the caller's but a sanitized binary's options
(VTOURIST_SANITIZER_ENV, scripts/sanitizers/sanitizer_env.py). The seed is
printed; `--seed` replays it.

    python3 scripts/soak.py --binary .build/release/vtourist --rounds 50 [--seed N]

Exit status 0 only when nothing acknowledged was lost, nothing unasked
appeared, nothing came back, no process crashed, every action was
acknowledged or cut off by the kill, every album completed and every kind of
action reached its minimum count (`minimum`).
"""
import argparse
import fcntl
import hashlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import termios
import time
from urllib.parse import urlparse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts", "sanitizers"))
import sanitizer_env  # noqa: E402  (a sanitized binary's options, VTOURIST_SANITIZER_ENV)
SERVER = os.path.join(ROOT, "Tests", "Support", "photo_server.py")
CA_BUNDLE = os.path.join(ROOT, "Tests", "Fixtures", "tls", "ca.pem")
COLS, ROWS = 100, 30
# The app takes an Esc and what arrives with it as one key (Alt+key, ignored): the Esc is read alone
# (the terminal's input queue empty) before the next key goes, within this many seconds.
ESC_READ_LIMIT = 10.0
# Seconds an action may take to be acknowledged (event-based: the screen is read every POLL seconds).
ACK_LIMIT = 20.0
POLL = 0.03
# Another window's change shows within a second (the app polls the store every second); one shown
# before this long is past is not yet stale, with time for a busy machine.
PICKUP = 2.5
# The map's status line shows coordinates to 4 decimals: a value shown is within half the last digit.
SHOWN = 0.00005 + 1e-9
# What `drop` and `import` were given (5 decimals), stored as given.
GIVEN = 0.000005 + 1e-9
# The terminal of the apps that get mouse drags: its terminfo names X10 mouse reports (kmous=\E[M), as
# under screen or tmux, the format this script writes. Under xterm-256color (kmous=\E[<) the app asks
# for SGR 1006 reports, as a real xterm then sends, so X10 bytes would reach it as keys.
MOUSE_TERM = "screen-256color"
PROXY_VARIABLES = ["http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"]
FLICKR_KEY = "soak-key"

# Every kind of action, each with a minimum count per run (`Soak.minimum`).
KINDS = ["drop", "move", "mouse drag", "delete pin", "delete photo", "mark and delete", "New Collection",
         "Add more", "filter save", "filter clear", "rename (map)", "rename (list)", "settings", "config set",
         "shell drop", "import", "second window", "W save"]
# The kinds the driver picks from (the others happen at a round's start or count a round's second app).
DRIVEN = [k for k in KINDS if k not in ("shell drop", "import", "second window")]

# The settings screen's fields by the label it shows, with the setting's name, the values the script
# types (or None for a field Enter steps through), and how a value is stored.
FIELDS = {
    "Flickr API key": ("flickr_api_key", ["soak-key", "soak-key-2", "soak-key-3"]),
    "Photo source": ("source", None),
    "Search area": ("area_half_width", ["0.1", "0.25", "0.5", "0.75"]),
    "Photos per collection": ("photos_per_collection", ["6", "12", "21"]),
    "Confirm delete": ("confirm_delete", None),
    "Allow dragging": ("allow_drag", None),
    "Large-image budget": ("large_cache_mb", ["64", "128", "256"]),
    "Slideshow interval": ("slideshow_seconds", ["3", "4", "5"]),
    "Contact address": ("contact", ["soak@example.org", "https://example.org/soak", "tourist@example.net"]),
    "CA bundle": ("ca_bundle", [CA_BUNDLE]),
}
# How the screen shows a stepped field's value, and what the database holds for it (None: unset).
STEPPED = {
    "source": {"automatic: Flickr": None, "Flickr": "flickr", "Wikimedia Commons": "commons"},
    "confirm_delete": {"on": "on", "off": "off"},
    "allow_drag": {"on": "on", "off": "off"},
}
# `config set` takes these (the values the screen types, and one it must refuse).
CONFIG = {key: values for key, values in FIELDS.values() if values} | {"source": ["flickr", "commons"]}
FILTER_WORDS = ["harbour", "old town", "bridge", "market", "tower"]

ACK = {
    "drop": re.compile(r"Pin dropped at (.+)\.$"),
    "move": re.compile(r"Moved; a new album is on its way for \u201c(.+)\u201d\.$"),
    "delete pin": re.compile(r"Deleted pin \u201c(.+)\u201d\.$"),
    "delete photo": re.compile(r"Deleted \u201c(.+)\u201d\.$"),
    "mark and delete": re.compile(r"Deleted (\d+) photos\.$"),
    "renamed": re.compile(r"Renamed \u201c(.+)\u201d to \u201c(.+)\u201d\.$"),
    "setting": re.compile(r"Saved: (.+)\.$"),
    "filter save": re.compile(r"Fetching a new collection for \u201c(.+)\u201d\u2026$"),
    "filter clear": re.compile(r"Filter cleared: fetching a new collection\u2026$"),
    "W save": re.compile(r"Saved (\d+) photos? to (.+?)(?: \(.+ holds files already\))?$"),
}
STATUS = re.compile(r"^ (\d+\.\d+)°([NS]) (\d+\.\d+)°([EW]) │ z\d+ │ .*? │ (?:MOVING PIN │ )?(.*?)\s+(\d+) pins? │")
HEADER = re.compile(r"^ (.+?)  (-?\d+\.\d+), (-?\d+\.\d+) · ")


def log(*parts):
    print(*parts, flush=True)


def image_digest(data):
    return hashlib.sha256(data).hexdigest()


class Failure:
    """What the soak found wrong, kept for the summary."""

    def __init__(self):
        self.counts = {"lost": 0, "unasked": 0, "resurrected": 0, "integrity": 0, "crashes": 0, "stuck": 0,
                       "unacknowledged": 0, "images": 0, "slow renewal": 0}
        self.notes = []

    def note(self, kind, text):
        self.counts[kind] += 1
        self.notes.append(f"{kind}: {text}")
        log(f"  !! {kind}: {text}")

    def total(self):
        return sum(self.counts.values())


class Tmux:
    """The script's own tmux server: one session per app, panes kept when their process ends."""

    def __init__(self, folder):
        self.socket = os.path.join(folder, "tmux.sock")
        self.env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder, "TERM": "xterm-256color"}
        # A session that holds the server (and its options) while no app runs.
        self.run("-f", "/dev/null", "new-session", "-d", "-s", "holder", "--", "/bin/sleep", "1000000", ";",
                 "set-option", "-g", "remain-on-exit", "on", ";", "set-option", "-g", "escape-time", "0", ";",
                 "set-option", "-g", "history-limit", "0")

    def run(self, *args, check=True):
        r = subprocess.run(["tmux", "-S", self.socket] + list(args), env=self.env, capture_output=True, text=True)
        if check and r.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args[:3])}: {r.stderr.strip()}")
        return r.stdout

    def stop(self):
        self.run("kill-server", check=False)


class App:
    """The app in a tmux pane (100×30): keys in with send-keys, the screen back with capture-pane. The
    pane's process is the app itself (exec'd), so SIGKILL reaches exactly it."""

    def __init__(self, tmux, name, argv, env, stderr_path, status_path=None):
        self.tmux, self.name = tmux, name
        self.status_path = status_path
        self.target = f"={name}:"  # this session exactly (a bare name also matches one it begins)
        words = [f"{k}={v}" for k, v in env.items()]
        # With `status_path` (the last app, never killed) a shell waits for it and writes its exit status:
        # tmux may leave a process that quit unreaped for a while.
        script = '"$@" 2>"$0"; echo $? > "$STATUS"' if status_path else 'exec "$@" 2>"$0"'
        tmux.run("new-session", "-d", "-s", name, "-x", str(COLS), "-y", str(ROWS), "--", "/usr/bin/env",
                 f"STATUS={status_path or ''}", "/bin/sh", "-c", script, stderr_path, "/usr/bin/env", "-i", *words, *argv)
        self.pid = int(tmux.run("display-message", "-p", "-t", name, "#{pane_pid}").strip())
        self.stderr_path = stderr_path
        self.killed = False
        self.reaped = False
        self.mouse = env.get("TERM") == MOUSE_TERM
        self.tty = None

    def screen(self):
        try:
            return self.tmux.run("capture-pane", "-p", "-t", self.target)
        except RuntimeError:
            return ""

    def lines(self):
        return self.screen().split("\n")

    def contains(self, text):
        return text in self.screen()

    def key(self, name):
        """A named key (Escape, Enter, BSpace, C-u)."""
        self.tmux.run("send-keys", "-t", self.target, name, check=False)

    def type(self, text):
        self.tmux.run("send-keys", "-t", self.target, "-l", "--", tmux_literal(text), check=False)

    def wait_until_read(self, limit):
        """Until the app has read every byte sent to it (its terminal is raw: the input queue holds each
        key until then), or `limit` seconds; False when it had not."""
        if self.tty is None:
            try:
                path = self.tmux.run("display-message", "-p", "-t", self.target, "#{pane_tty}").strip()
                self.tty = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
            except (RuntimeError, OSError):
                return False
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                waiting = struct.unpack("i", fcntl.ioctl(self.tty, termios.FIONREAD, b"\0\0\0\0"))[0]
            except OSError:
                return False
            if waiting == 0:
                return True
            time.sleep(0.002)
        return False


    def dead(self):
        """None while it runs, else (exit status, signal) as tmux saw them (None where it says none)."""
        if self.status_path:
            try:
                with open(self.status_path) as f:
                    text = f.read().strip()
                return (int(text), None) if text else None
            except (OSError, ValueError):
                return None
        out = self.tmux.run("display-message", "-p", "-t", self.target,
                            "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}", check=False).strip().split("|")
        # The pane is dead once its terminal closed; its status comes when the process is reaped, a moment later.
        if len(out) != 3 or out[0] != "1" or not (out[1] or out[2]):
            return None
        return (int(out[1]) if out[1].lstrip("-").isdigit() else None), (int(out[2]) if out[2].isdigit() else None)

    def kill(self):
        if self.status_path and self.dead() is None:
            # The pane's process is the shell that waits for the app: the app is its child.
            subprocess.run(["pkill", "-KILL", "-P", str(self.pid)], check=False)
        if self.dead() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                self.killed = True
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while self.dead() is None and time.monotonic() < deadline:
            time.sleep(0.01)

    def close(self):
        if self.tty is not None:
            os.close(self.tty)
            self.tty = None
        self.tmux.run("kill-session", "-t", self.target, check=False)

    def stderr_tail(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read()[-2000:].decode("utf-8", "replace")
        except OSError:
            return ""

    def status(self):
        """The map's status line: (lat, lon, place shown) or None."""
        for line in reversed(self.lines()):
            m = STATUS.match(line)
            if m:
                lat = float(m.group(1)) * (1 if m.group(2) == "N" else -1)
                lon = float(m.group(3)) * (1 if m.group(4) == "E" else -1)
                return lat, lon, m.group(5)
        return None


def read_db(db, hashes=False):
    """Pins, photos, settings in one read-only transaction; None when there is no database yet."""
    if not os.path.exists(db):
        return None
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30, isolation_level=None)
    try:
        con.execute("BEGIN")
        if not con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pin'").fetchone():
            con.execute("COMMIT")
            return {}, {}, {}
        pins = {r[0]: {"lat": r[1], "lon": r[2], "state": r[3], "name": r[4], "filter": r[5]}
                for r in con.execute("SELECT id, latitude, longitude, albumState, COALESCE(ownName, name, ''), filterText "
                                     "FROM pin")}
        image = "photoImage.bytes" if hashes else "length(photoImage.bytes)"
        photos = {}
        for r in con.execute(f"SELECT photo.id, photo.pinId, photo.url, photo.state, {image}, photo.title "
                             "FROM photo LEFT JOIN photoImage ON photoImage.photoId = photo.id"):
            photos[r[0]] = {"pin": r[1], "url": r[2], "state": r[3], "title": r[5],
                            "digest": image_digest(r[4]) if hashes and r[4] is not None else None,
                            "stored": r[4] is not None}
        settings = {r[0]: r[1] for r in con.execute("SELECT key, value FROM setting")}
        con.execute("COMMIT")
        return pins, photos, settings
    finally:
        con.close()


def check_db(db):
    """`PRAGMA integrity_check` and `foreign_key_check`: the problems found, [] when none."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30, isolation_level=None)
    try:
        problems = [r[0] for r in con.execute("PRAGMA integrity_check")]
        problems = [] if problems == ["ok"] else problems
        problems += [f"foreign key: {r}" for r in con.execute("PRAGMA foreign_key_check")]
        return problems
    finally:
        con.close()


def near(a, b, tolerance):
    return abs(a - b) <= tolerance


class Value:
    """A pin's place and name as told or asked: coordinates within `tolerance`; a name, or a prefix
    (the screen cut it with …), or None (not shown: `drop` from the shell)."""

    def __init__(self, lat, lon, tolerance, name=None, prefix=False, or_unnamed=False):
        self.lat, self.lon, self.tolerance, self.name, self.prefix = lat, lon, tolerance, name, prefix
        # A pin dropped far from any place has no name, though the status line names the nearest one.
        self.or_unnamed = or_unnamed

    def matches(self, row):
        if not (near(row["lat"], self.lat, self.tolerance) and near(row["lon"], self.lon, self.tolerance)):
            return False
        if self.name is None or (self.or_unnamed and row["name"] == ""):
            return True
        return (row["name"] or "").startswith(self.name) if self.prefix else row["name"] == self.name

    def __repr__(self):
        name = "" if self.name is None else f" named {self.name!r}{'…' if self.prefix else ''}"
        return f"{self.lat:.5f},{self.lon:.5f} (±{self.tolerance:.6f}){name}"


def told_name(name):
    """A name as the database holds it: a pin with none is shown by its place ("Pin at LAT, LON", or the
    coordinates alone), stored as no name ('' here)."""
    return "" if re.match(r"^(Pin at )?-?\d+\.\d+, -?\d+\.\d+$", name) else name


def shown_name(place):
    """The place the status line shows, as a pin there is named: without its distance, a cut name as a prefix."""
    place = re.sub(r" \([\d.,]+ k?m\)$", "", place.strip())
    if place.endswith("…"):
        return re.sub(r" \([^)]*$", "", place[:-1]), True
    return place, False


class Record:
    """What the user was told (acknowledged) and what actions asked for, checked against the database
    after every kill. Pins are known by id once a reading found the acknowledged values; after each
    kill's check, the database's values (all explained) become the base of the next round."""

    def __init__(self, failure):
        self.failure = failure
        self.pins = {}             # id -> {"told": Value, "asked": [Value], "deleted": None | "told" | "asked"}
        self.unbound = []          # acknowledged inserts not yet found: (Value, what)
        self.asked_inserts = []    # inserts asked for and not acknowledged: (Value, what)
        self.settings = {}         # key -> {"told": value (None: unset), "asked": [values]}
        self.filters = {}          # pin id -> {"told": text or None, "asked": [texts]}
        self.photos_gone = {}      # photo id -> what acknowledged its deletion
        self.photos_asked_gone = set()
        self.marked = []           # (pin, ids before, n, what)
        self.seen_pins, self.seen_photos = set(), set()
        self.gone_pins, self.gone_photos = set(), set()
        self.served = {}           # request path -> set of SHA-256 served
        self.served_offset = 0
        self.reported = set()
        self.quiet = None

    def agrees(self, reading):
        """Whether a reading taken while the apps run holds everything acknowledged so far (nothing recorded)."""
        self.quiet = []
        saved = (set(self.gone_pins), set(self.gone_photos), set(self.seen_pins), set(self.seen_photos))
        try:
            self.check(reading, "", final=False)
            return not self.quiet
        finally:
            self.gone_pins, self.gone_photos, self.seen_pins, self.seen_photos = saved
            self.quiet = None

    # MARK: what was told and asked

    def told_insert(self, value, what):
        self.unbound.append((value, what))

    def asked_insert(self, value, what):
        self.asked_inserts.append((value, what))

    def bind(self, reading):
        """Finds the acknowledged inserts' rows (unclaimed ids whose values match): they are known by id from now on."""
        pins = reading[0]
        free = [pid for pid in pins if pid not in self.pins and pid not in self.gone_pins]
        still = []
        for value, what in self.unbound:
            match = next((pid for pid in sorted(free) if value.matches(pins[pid])), None)
            if match is None:
                still.append((value, what))
                continue
            free.remove(match)
            self.pins[match] = {"told": value, "asked": [], "deleted": None, "what": what}
        self.unbound = still

    def told_id(self, pid, value, what):
        """`drop` printed the id of the pin it added."""
        self.pins[pid] = {"told": value, "asked": [], "deleted": None, "what": what}

    def renamed_by(self, pid, former, app):
        """`app` renamed the pin from `former`: another window may show that name for a moment yet."""
        self.pins[pid].setdefault("former", []).append((former, time.monotonic(), id(app)))

    def shown_name(self, pid, said, app):
        """The pin's name as stored, when `said` (what `app` acknowledged under) is one another window gave
        up less than PICKUP ago and `app` has not caught up with; else `said`."""
        now = time.monotonic()
        for former, when, renamer in self.pins.get(pid, {}).get("former", []):
            if former == said and renamer != id(app) and now - when < PICKUP:
                return self.current_name(pid)
        return said

    def pin_by_name(self, name, near_value=None, reading=None):
        """The known pin an acknowledgment names (its current name), the closest to `near_value` first."""
        candidates = [pid for pid, p in self.pins.items() if p["deleted"] is None and self.current_name(pid, reading) == name]
        if near_value and candidates:
            candidates.sort(key=lambda pid: abs(self.pins[pid]["told"].lat - near_value[0]) + abs(self.pins[pid]["told"].lon - near_value[1]))
        return candidates[0] if candidates else None

    def current_name(self, pid, reading=None):
        told = self.pins[pid]["told"]
        if told.name is not None and not told.prefix:
            return told.name
        if reading and pid in reading[0]:
            return reading[0][pid]["name"]
        return told.name

    @staticmethod
    def _value(table, key, value, told):
        """A value told (it becomes the one to hold, nothing asked since) or only asked for."""
        entry = table.setdefault(key, {"told": None, "asked": []})
        if told:
            entry["told"], entry["asked"] = value, []
        else:
            entry["asked"].append(value)

    def setting(self, key, value, told):
        self._value(self.settings, key, value, told)

    def filter(self, pid, text, told):
        self._value(self.filters, pid, text, told)

    def read_served(self, path):
        try:
            with open(path) as f:
                f.seek(self.served_offset)
                data = f.read()
        except FileNotFoundError:
            return
        end = data.rfind("\n")
        if end < 0:
            return
        self.served_offset += len(data[:end + 1].encode())
        for line in data[:end].split("\n"):
            e = json.loads(line)
            self.served.setdefault(e["path"], set()).add(e["sha256"])

    # MARK: the check

    def lose(self, kind, when, text):
        if self.quiet is not None:
            self.quiet.append(text)
            return
        if (kind, text) in self.reported:
            return
        self.reported.add((kind, text))
        self.failure.note(kind, f"{when}: {text}")

    def check(self, reading, when, final):
        """The database against the record. `final` (after a kill, nothing running): every acknowledged
        row must be there; what was asked and not found is forgotten, what was found becomes the base."""
        pins, photos, settings = reading
        self.bind(reading)
        # Nothing seen gone comes back.
        self.gone_pins |= self.seen_pins - pins.keys()
        self.gone_photos |= self.seen_photos - photos.keys()
        for pid in pins.keys() & self.gone_pins:
            self.lose("resurrected", when, f"pin {pid} came back")
        for fid in photos.keys() & self.gone_photos:
            self.lose("resurrected", when, f"photo {fid} came back")
        self.seen_pins |= pins.keys()
        self.seen_photos |= photos.keys()
        for pid, p in list(self.pins.items()):
            row = pins.get(pid)
            if p["deleted"] == "told":
                if row is not None:
                    self.lose("lost", when, f"pin {pid}, acknowledged deleted ({p['what']}), is still there")
                continue
            if row is None:
                if p["deleted"] == "asked" or pid in self.gone_pins and p["deleted"]:
                    p["deleted"] = "told"  # gone as asked
                    continue
                self.lose("lost", when, f"pin {pid} acknowledged at {p['told']} ({p['what']}) is gone")
                continue
            if p["told"].matches(row) or any(v.matches(row) for v in p["asked"]):
                if final:
                    p["told"] = Value(row["lat"], row["lon"], 1e-9, row["name"])
                    p["asked"] = []
                    if p["deleted"] == "asked":
                        p["deleted"] = None
                continue
            self.lose("lost", when, f"pin {pid} is at {row['lat']:.5f},{row['lon']:.5f} named {row['name']!r}; "
                                    f"acknowledged {p['told']} ({p['what']}), asked {p['asked']}")
        if final:
            for value, what in self.unbound:
                self.lose("lost", when, f"acknowledged {what} at {value}: no such pin stored")
            self.unbound = []
            # Every other pin was asked for: adopted with its stored values, or unexplained.
            for pid in sorted(pins.keys() - self.pins.keys()):
                row = pins[pid]
                match = next((i for i, (v, _) in enumerate(self.asked_inserts) if v.matches(row)), None)
                if match is None:
                    self.lose("unasked", when, f"pin {pid} at {row['lat']:.5f},{row['lon']:.5f} named {row['name']!r}: "
                                               f"no action asked for it (asked: {self.asked_inserts})")
                    what = "unasked"
                else:
                    what = self.asked_inserts.pop(match)[1] + " (its acknowledgment cut off by the kill)"
                self.pins[pid] = {"told": Value(row["lat"], row["lon"], 1e-9, row["name"]), "asked": [], "deleted": None,
                                  "what": what}
            self.asked_inserts = []
        for fid, what in self.photos_gone.items():
            if fid in photos:
                self.lose("lost", when, f"photo {fid} ({photos[fid]['title']!r}), acknowledged deleted ({what}), is still there")
        for pid, before, n, what in self.marked:
            gone = len([fid for fid in before if fid not in photos])
            if gone < n:
                self.lose("lost", when, f"{what}: {n} of the photos of pin {pid} acknowledged deleted, {gone} gone")
        for key, entry in self.settings.items():
            now = settings.get(key)
            if now == entry["told"] or now in entry["asked"]:
                if final:
                    entry["told"], entry["asked"] = now, []
                continue
            self.lose("lost", when, f"setting {key} is {now!r}, acknowledged {entry['told']!r}, asked {entry['asked']!r}")
        for pid, entry in self.filters.items():
            if pid not in pins:
                continue
            now = pins[pid]["filter"]
            if now == entry["told"] or now in entry["asked"]:
                if final:
                    entry["told"], entry["asked"] = now, []
                continue
            self.lose("lost", when, f"pin {pid}'s filter is {now!r}, last {entry['told']!r}, asked {entry['asked']!r}")
        for fid, photo in photos.items():
            if photo["digest"] is None:
                continue
            served = self.served.get(self.request_path(photo["url"]), set())
            if photo["digest"] not in served:
                self.lose("images", when, f"photo {fid}'s stored image (sha256 {photo['digest'][:16]}…) is not what the "
                                          f"server sent for {photo['url']} ({len(served)} answers logged)")

    @staticmethod
    def request_path(url):
        u = urlparse(url)
        return u.path + (f"?{u.query}" if u.query else "")


class Killed(Exception):
    """The round's kill came: the action under way is cut off (asked, not acknowledged)."""


class Missed(Exception):
    """The cursor was not on the pin the action meant (the app said so): the action is given up."""


class SlowRenewal(Exception):
    """New Collection or Add more showed nothing on screen within ACK_LIMIT: a stall (neither acknowledges
    anything stored, so nothing is lost), which fails the run as its own kind."""


class NotShown(Exception):
    """What an action waits for was not on screen within its limit (an unacknowledged action, unless
    it is a renewal: SlowRenewal)."""


class Unacknowledged(Exception):
    """An action the app did not acknowledge (nor refuse as expected) before ACK_LIMIT."""


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.failure = Failure()
        self.record = Record(self.failure)
        self.kills = 0
        self.quits = 0
        self.folder = tempfile.mkdtemp(prefix="vtourist-soak-")
        self.home = os.path.join(self.folder, "home")
        self.control = os.path.join(self.folder, "control")
        self.logs = os.path.join(self.folder, "logs")
        for d in (self.home, self.control, self.logs):
            os.makedirs(d)
        self.db = os.path.join(self.home, "soak.sqlite")
        self.served = os.path.join(self.folder, "served.jsonl")
        self.leaks = os.path.join(self.folder, "leaks.txt")
        self.counts = {k: 0 for k in KINDS}
        self.field_counts = {label: 0 for label in FIELDS}
        self.resumed = 0
        self.downloading_at_kill = set()
        self.started = 0
        self.apps = []
        self.kill_at = None

    # MARK: processes

    def start_server(self):
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
        self.server = subprocess.Popen(
            [sys.executable, SERVER, "--delay-ms", str(self.args.delay_ms), "--stagger-ms", str(self.args.stagger_ms),
             "--control-dir", self.control, "--leaks-file", self.leaks, "--served-log", self.served],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.server.stdout.readline()
        if not line.startswith("PORT "):
            raise SystemExit("soak: the photo server did not start")
        self.base = f"http://127.0.0.1:{int(line.split()[1])}"

    def environment(self, term="xterm-256color"):
        env = {
            "PATH": "/usr/bin:/bin", "HOME": self.home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": term,
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "VTOURIST_DB": self.db,
            "VTOURIST_FLICKR_ENDPOINT": self.base + "/flickr/rest",
            "VTOURIST_COMMONS_ENDPOINT": self.base + "/commons/api.php",
            "VTOURIST_MAP_TILES": "off",
        }
        for name in PROXY_VARIABLES:
            env[name] = self.base
        env.update(self.args.sanitizer_env)
        return env

    def app(self, name, status_path=None):
        self.started += 1
        # Half the apps get mouse reports; while mouse drags are short of their minimum, the first app does.
        mouse = self.rng.random() < 0.5 or (name == "a" and self.shortfall(["mouse drag"]) > 0)
        a = App(self.tmux, f"{name}{self.started}", [self.args.binary], self.environment(MOUSE_TERM if mouse else "xterm-256color"),
                os.path.join(self.logs, f"{name}-{self.started}.err"), status_path)
        self.journal(f"{name} started (pid {a.pid}){' (mouse)' if mouse else ''}")
        self.apps.append(a)
        return a

    def cli(self, arguments, timeout=60):
        return subprocess.run([self.args.binary] + arguments, env=self.environment(), capture_output=True, text=True,
                              timeout=timeout)

    def hold_images(self, first):
        path = os.path.join(self.control, "hold-images")
        if first is None:
            if os.path.exists(path):
                os.unlink(path)
        else:
            with open(path, "w") as f:
                f.write(str(first))

    def wait_ready(self, a, limit=30.0):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if a.status():
                return True
            if a.dead() is not None:
                return False
            time.sleep(POLL)
        return False

    def journal(self, line):
        with open(os.path.join(self.logs, "actions.txt"), "a") as f:
            f.write(line + "\n")

    def reading(self, hashes=False):
        try:
            return read_db(self.db, hashes) or ({}, {}, {})
        except sqlite3.Error:
            return {}, {}, {}

    # MARK: keys, with the kill in mind

    def due(self):
        if self.kill_at is not None and time.monotonic() >= self.kill_at:
            raise Killed()

    def send(self, a, *keys):
        """Keys one by one (a name such as Enter or Escape, or text), a random moment apart; the kill may come between."""
        for k in keys:
            self.due()
            if k in ("Escape", "Enter", "BSpace", "C-u", "Space", "Tab", "BTab"):
                a.key(k)
            else:
                a.type(k)
            if k == "Escape":
                a.wait_until_read(ESC_READ_LIMIT)
            else:
                time.sleep(self.rng.uniform(0, 0.04))

    def to_map(self, a):
        """Esc until the map shows with nothing open over it, each Esc seen taken before the next key (an
        Esc read together with the next key would be Alt+key)."""
        for _ in range(8):
            self.due()
            screen = a.screen()
            if self.map_idle(screen):
                return
            self.send(a, "Escape")
            deadline = time.monotonic() + 2
            while a.screen() == screen and time.monotonic() < deadline:
                self.due()
                time.sleep(POLL)
        raise Unacknowledged(f"Esc did not lead back to the map; screen:\n{a.screen()}")

    def map_idle(self, screen):
        lines = screen.rstrip("\n").split("\n")
        status = next((l for l in reversed(lines) if STATUS.match(l)), None)
        return status is not None and "MOVING PIN" not in status and not any("┌" in l or "└" in l for l in lines)

    def go_to(self, a, lat, lon):
        text = f"{lat:.6f}, {lon:.6f}"
        self.send(a, "g")
        self.wait_for(a, lambda s: "┌ Go to" in s, "the go-to prompt")
        self.send(a, text)
        self.wait_for(a, lambda s: f"> {text}" in s, "the place typed in the go-to prompt")
        self.send(a, "Enter")
        self.wait_for(a, lambda s: (lambda st: st and near(st[0], lat, SHOWN) and near(st[1], lon, SHOWN))(self.status_of(s)),
                      "the cursor to reach the place")

    def go_to_pin(self, a, row):
        """The cursor on the pin: its place, then zoomed out to z6. The go-to rounds to the shown precision,
        which at z10 often leaves the cursor in the next cell; at z6 a cell is some 0.01°. A pin missed
        anyway is told by the app ("No pin here…") and the action given up (`Missed`)."""
        self.go_to(a, row["lat"], row["lon"])
        self.send(a, "-", "-", "-", "-")
        self.wait_for(a, lambda s: re.search(r" │ z6 │ ", s), "the map zoomed out to z6")

    @staticmethod
    def status_of(screen):
        for line in reversed(screen.split("\n")):
            m = STATUS.match(line)
            if m:
                return (float(m.group(1)) * (1 if m.group(2) == "N" else -1),
                        float(m.group(3)) * (1 if m.group(4) == "E" else -1), m.group(5))
        return None

    def wait_for(self, a, test, what, limit=ACK_LIMIT):
        """Reads the screen until `test(screen)` is true (returns its value); the kill may come first."""
        deadline = time.monotonic() + limit
        while True:
            self.due()
            screen = a.screen()
            found = test(screen)
            if found:
                return found
            if a.dead() is not None:
                raise Unacknowledged(f"{what}: the app exited; stderr: {a.stderr_tail()!r}")
            if time.monotonic() >= deadline:
                raise NotShown(f"{what}: not on screen after {limit:.0f} s; screen:\n{screen}")
            time.sleep(POLL)

    def renewal(self, a, test, what):
        """`wait_for` for New Collection and Add more, whose stall is a SlowRenewal."""
        try:
            return self.wait_for(a, test, what)
        except NotShown as e:
            raise SlowRenewal(str(e)) from None

    def acknowledged(self, a, pattern, before, what, answer=True):
        """Waits for a line matching `pattern` that was not on screen before the last key (`before`): its
        match. A confirmation dialog on the way (`[y]`) is answered yes."""
        answered = [False]
        said = []

        def test(screen):
            for line in screen.split("\n"):
                text = line.strip()
                if line not in before:
                    if text and text not in said and not STATUS.match(line):
                        said.append(text)
                    m = pattern.search(text)
                    if m:
                        return m
            if any(t.startswith(("No pin here", "No photo to")) for t in said):
                raise Missed(said[-1])
            if answer and not answered[0] and "[y] " in screen:
                answered[0] = True
                a.type("y")
            return None
        try:
            return self.wait_for(a, test, what)
        except (Unacknowledged, NotShown) as e:
            raise Unacknowledged(f"{e}\nnew lines seen meanwhile: {said[-8:]!r}") from None

    # MARK: the actions

    def pick_pin(self, reading, ready=False):
        """A pin the record knows (by id), alive in the database; with `ready`, one whose album is complete."""
        pins = reading[0]
        known = [pid for pid, p in self.record.pins.items() if p["deleted"] is None and pid in pins
                 and (not ready or pins[pid]["state"] == "ready")]
        return self.rng.choice(sorted(known)) if known else None

    def open_album(self, a, reading, pid):
        """On the pin's album (go there, Enter): the pin the header shows."""
        row = reading[0][pid]
        self.to_map(a)
        self.go_to_pin(a, row)
        before = a.lines()
        self.send(a, "Enter")

        def opened(s):
            if any(l.strip().startswith("No pin here") for l in s.split("\n") if l not in before):
                raise Missed("No pin here")
            return HEADER.match(s.split("\n")[0])
        m = self.wait_for(a, opened, "the album to open")
        self.wait_for(a, lambda s: re.search(r"^ (\d+ photos|Downloading|No Images|Searching)", "\n".join(s.split("\n")[1:3]), re.M),
                      "the album's header")
        return m

    def photos_of(self, pid):
        return {fid: p for fid, p in self.reading()[1].items() if p["pin"] == pid}

    def act(self, a, kind, reading, flags):
        """One action of `kind` in app `a`: its keys, then its acknowledgment. Returns True when acknowledged."""
        rec = self.record
        if kind == "drop" or (kind not in ("settings", "config set") and not self.pick_pin(reading)):
            kind = "drop"
            lat, lon = round(self.rng.uniform(-60, 70), 4), round(self.rng.uniform(-170, 170), 4)
            self.to_map(a)
            self.go_to(a, lat, lon)
            place = a.status()
            name, prefix = shown_name(place[2]) if place else (None, False)
            before = a.lines()
            self.journal(f"  drop at {lat:.4f}, {lon:.4f} ({place})")
            rec.asked_insert(Value(lat, lon, SHOWN, name, prefix, or_unnamed=True), f"drop at {lat:.4f},{lon:.4f}")
            self.send(a, "p")
            m = self.acknowledged(a, ACK["drop"], before, "Pin dropped at …")
            rec.asked_inserts.pop()
            rec.told_insert(Value(lat, lon, SHOWN, told_name(m.group(1))), f"“Pin dropped at {m.group(1)}.”")
            rec.bind(self.reading())
            return kind
        if kind in ("move", "mouse drag", "delete pin", "rename (map)"):
            pid = self.pick_pin(reading)
            row = reading[0][pid]
            self.to_map(a)
            self.go_to_pin(a, row)
            shown = row["name"]
            if kind == "delete pin":
                before = a.lines()
                self.journal(f"  delete pin {pid} ({shown!r})")
                rec.pins[pid]["deleted"] = rec.pins[pid]["deleted"] or "asked"
                self.send(a, "x")
                m = self.acknowledged(a, ACK["delete pin"], before, "Deleted pin …")
                said = rec.shown_name(pid, told_name(m.group(1)), a)
                target = pid if said == shown else rec.pin_by_name(said, (row["lat"], row["lon"]), self.reading())
                if target != pid:
                    rec.pins[pid]["deleted"] = None
                if target is None:
                    raise Unacknowledged(f"“Deleted pin {m.group(1)}” names no pin the record knows")
                rec.pins[target]["deleted"] = "told"
                rec.pins[target]["what"] = f"“Deleted pin “{m.group(1)}”.”"
                return kind
            if kind == "rename (map)":
                new = self.new_name()
                self.journal(f"  rename pin {pid} ({shown!r}) to {new!r} on the map")
                self.send(a, "R")
                self.wait_for(a, self.rename_prompt, "the rename prompt")
                self.send(a, "C-u", new)
                before = a.lines()
                return self.renamed(a, pid, row, new, before, kind)
            # A drag: picked up with `m`, carried with hjkl or the mouse, put down (Enter or the button
            # coming up), the question (a pin with photos, confirm delete on) answered yes.
            before = a.lines()
            self.send(a, "m")
            screen = self.wait_for(a, lambda s: s if "MOVING PIN" in s or "No pin here" in s else None, "the pin to be picked up")
            moving = re.search(r"Moving (.*?): ", screen)
            if "MOVING PIN" not in screen:
                raise Missed("No pin here to move")
            if not moving or told_name(moving.group(1)) != shown:
                raise Missed(f"picked up another pin ({moving.group(1) if moving else '?'})")
            if kind == "move":
                # One way only: a pin carried back to its own cell is put back, not moved.
                self.send(a, *[self.rng.choice("hjkl")] * self.rng.randint(1, 5))
            else:
                x, y = self.rng.randint(5, 90), self.rng.randint(3, 26)
                keys = [mouse_report(0, x, y)]
                for _ in range(self.rng.randint(1, 4)):
                    x, y = max(0, min(90, x + self.rng.randint(-3, 3))), max(0, min(27, y + self.rng.randint(-2, 2)))
                    keys.append(mouse_report(32, x, y))
                self.send(a, *keys)
            time.sleep(0.05)
            place = a.status()
            before = a.lines()
            if place:
                name, prefix = shown_name(place[2])
                own = reading[0][pid]["name"] if self.has_own_name(pid) else None
                rec.pins[pid]["asked"].append(Value(place[0], place[1], SHOWN, own or name, prefix and not own,
                                                    or_unnamed=not own))
            self.journal(f"  {kind} pin {pid} ({shown!r}) to {place}")
            self.send(a, "Enter" if kind == "move" else mouse_report(3, x, y))
            m = self.acknowledged(a, ACK["move"], before, "Moved; …")
            after = a.status()
            target = pid
            if after is None:
                raise Unacknowledged(f"the move of pin {pid}: acknowledged, but no status line or pin ({m.group(0)})")
            rec.pins[target]["told"] = Value(after[0], after[1], SHOWN, rec.shown_name(target, told_name(m.group(1)), a))
            rec.pins[target]["asked"] = []
            rec.pins[target]["what"] = f"“{m.group(0)}” at {after[0]:.4f}, {after[1]:.4f}"
            return kind
        if kind == "rename (list)":
            self.to_map(a)
            self.send(a, "P")
            screen = self.wait_for(a, lambda s: s if re.search(r"^ NAME\s+LAT, LON", s, re.M) else None, "the pins list")
            lines = screen.split("\n")
            top = next(i for i, l in enumerate(lines) if l.startswith(" NAME"))
            first = lines[top + 1] if top + 1 < len(lines) else ""
            m = re.search(r"(-?\d+\.\d{4}), (-?\d+\.\d{4})", first)
            if not m:
                return None
            lat, lon = float(m.group(1)), float(m.group(2))
            rows = self.reading()[0]
            candidates = [pid for pid, p in rec.pins.items() if p["deleted"] is None and pid in rows
                          and near(rows[pid]["lat"], lat, SHOWN) and near(rows[pid]["lon"], lon, SHOWN)]
            if len(candidates) != 1:
                return None
            pid = candidates[0]
            new = self.new_name()
            self.journal(f"  rename pin {pid} ({rows[pid]['name']!r}) to {new!r} in the pins list")
            self.send(a, "e")
            self.wait_for(a, lambda s: "Rename pin" in s, "the rename prompt")
            self.send(a, "C-u", new)
            before = a.lines()
            return self.renamed(a, pid, rows[pid], new, before, kind)
        if kind in ("delete photo", "mark and delete", "New Collection", "Add more", "filter save", "filter clear", "W save"):
            settled = kind in ("New Collection", "filter save", "filter clear")
            pid = self.pick_pin(reading, ready=settled or kind in ("W save", "Add more"))
            if pid is None:
                return None
            m = self.open_album(a, reading, pid)
            if not (near(float(m.group(2)), reading[0][pid]["lat"], SHOWN) and near(float(m.group(3)), reading[0][pid]["lon"], SHOWN)):
                return None  # another pin's album (two pins in one cell)
            return self.album_action(a, kind, pid)
        if kind == "settings":
            return self.settings_action(a, flags)
        if kind == "config set":
            return self.config_set(flags)
        raise ValueError(kind)

    @staticmethod
    def rename_prompt(screen):
        if "No pin here to rename" in screen:
            raise Missed("No pin here to rename")
        return "Rename pin" in screen

    def has_own_name(self, pid):
        try:
            con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=30)
            try:
                row = con.execute("SELECT ownName FROM pin WHERE id = ?", (pid,)).fetchone()
            finally:
                con.close()
        except sqlite3.Error:
            return None
        return bool(row and row[0])

    def new_name(self):
        n = self.rng.random()
        if n < 0.15:
            return ""  # back to the place's name
        return f"soak {self.rng.choice(['harbour', 'summit', 'café', 'Ålesund', 'north'])} {self.rng.randrange(10**6)}"

    def renamed(self, a, pid, row, new, before, kind):
        rec = self.record
        if new:
            rec.pins[pid]["asked"].append(Value(row["lat"], row["lon"], 1e-9, new))
        self.send(a, "Enter")
        pattern = ACK["renamed"] if new else re.compile(r"\u201c(.+)\u201d goes by its place's name again\.$")
        m = self.acknowledged(a, pattern, before, "the rename", answer=False)
        name = m.group(2) if new else told_name(m.group(1))
        if new and name != new:
            raise Unacknowledged(f"renamed to {name!r}, typed {new!r}")
        rec.renamed_by(pid, row["name"], a)
        rec.pins[pid]["told"] = Value(row["lat"], row["lon"], 1e-9, name)
        rec.pins[pid]["asked"] = []
        rec.pins[pid]["what"] = f"“{m.group(0)}”"
        return kind

    def album_action(self, a, kind, pid):
        rec = self.record
        photos = self.photos_of(pid)
        screen = a.screen()
        header = "\n".join(screen.split("\n")[1:3])
        if kind in ("New Collection", "Add more", "filter save", "filter clear") and not re.search(r"^ \d+ photos", header, re.M):
            return None  # still downloading in this window: these wait until every photo is in
        before = screen.split("\n")
        if kind == "delete photo":
            self.journal(f"  delete a photo of pin {pid}")
            if self.rng.random() < 0.3:
                self.send(a, "Enter")
                self.wait_for(a, lambda s: "Esc album" in s, "the photo screen")
            before = a.lines()
            self.send(a, "x")
            m = self.acknowledged(a, ACK["delete photo"], before, "Deleted “…”.")
            ids = [fid for fid, p in photos.items() if p["title"] == m.group(1)]
            if len(ids) != 1:
                raise Unacknowledged(f"“Deleted “{m.group(1)}”.” names {len(ids)} photos of pin {pid}")
            rec.photos_gone[ids[0]] = f"“{m.group(0)}”"
            return kind
        if kind == "mark and delete":
            n = self.rng.randint(2, 4)
            keys = []
            for _ in range(n):
                keys += ["Space"]
            self.journal(f"  mark {n} photos of pin {pid}, X")
            self.send(a, *keys)
            before = a.lines()
            self.send(a, "X")
            m = self.acknowledged(a, ACK["mark and delete"], before, "Deleted N photos.")
            rec.marked.append((pid, set(photos), int(m.group(1)), f"“{m.group(0)}”"))
            return kind
        if kind == "New Collection":
            titles = self.titles(screen)
            self.journal(f"  New Collection for pin {pid}")
            self.send(a, "n")
            answered = []

            def renewed(s):
                if "[y] " in s and not answered:
                    answered.append(True)
                    a.type("y")
                    return None
                return (self.titles(s) and self.titles(s) != titles) or re.search(r"No Images", s)
            self.renewal(a, renewed, "New Collection: other photos on screen")
            return kind
        if kind == "Add more":
            count = self.photo_count(screen)
            self.journal(f"  Add more for pin {pid} ({count} photos)")
            self.send(a, "a")
            self.renewal(a, lambda s: (self.photo_count(s) or 0) > (count or 0) or "No more photos" in s,
                         "Add more: more photos in the header")
            return kind
        if kind == "filter save":
            # Not the filter the album already has (its title, the screen's first row, names it, and the
            # store holds it): the app says so, and saves nothing.
            title = screen.split("\n")[0]
            stored = (self.reading()[0].get(pid) or {}).get("filter")
            word = self.rng.choice([w for w in FILTER_WORDS if w != stored and not re.search(rf"· {re.escape(w)}\s*$", title)])
            self.journal(f"  filter {word!r} for pin {pid}")
            self.send(a, "f")
            self.wait_for(a, lambda s: "s save" in s, "the filter editor")
            self.send(a, "Enter", "C-u", word, "Enter")
            before = a.lines()
            rec.filter(pid, word, told=False)
            self.send(a, "s")
            m = self.acknowledged(a, ACK["filter save"], before, "the filter saved")
            if m.group(1) != word:
                raise Unacknowledged(f"filter {m.group(1)!r} acknowledged, {word!r} typed")
            return kind
        if kind == "filter clear":
            self.journal(f"  filter cleared for pin {pid}")
            before = a.lines()
            rec.filter(pid, None, told=False)
            self.send(a, "F")
            self.acknowledged(a, re.compile(r"Filter cleared: fetching a new collection\u2026$|^No filter to clear\.$"),
                              before, "the filter cleared")
            return kind
        if kind == "W save":
            self.journal(f"  W for pin {pid}")
            self.send(a, "W")
            m = self.acknowledged(a, ACK["W save"], before, "Saved N photos to …", answer=False)
            folder = m.group(2)
            if not os.path.isdir(folder):
                # The message line cuts a long path: the one folder it begins.
                folder = re.sub(r" \([^)]*$", "", folder)  # a "(… holds files already)" cut short
                parent = os.path.dirname(folder)
                found = [os.path.join(parent, d) for d in (os.listdir(parent) if os.path.isdir(parent) else [])
                         if os.path.join(parent, d).startswith(folder)]
                folder = found[0] if len(found) == 1 else folder
            files = [f for f in os.listdir(folder) if f not in ("credits.json", "index.html")] if os.path.isdir(folder) else []
            if len(files) != int(m.group(1)) or not os.path.exists(os.path.join(folder, "index.html")):
                self.failure.note("lost", f"“{m.group(0)}”: the folder holds {len(files)} photos"
                                          f"{'' if os.path.isdir(folder) else ' (no folder)'}")
            return kind
        raise ValueError(kind)

    @staticmethod
    def titles(screen):
        # The grid's cells: the line of each that has words (its title), the pictures being blocks.
        return tuple(part.strip() for line in screen.split("\n")[3:] if line.lstrip().startswith("│")
                     for part in line.split("│") if re.search(r"[A-Za-z]{3}", part))

    @staticmethod
    def photo_count(screen):
        head = "\n".join(screen.split("\n")[1:3])
        m = re.search(r"^ (\d+) photos|^ Downloading \d+/(\d+)", head, re.M)
        return int(m.group(1) or m.group(2)) if m else None

    def settings_action(self, a, flags):
        """The settings screen: the field with the fewest changes so far, found by its label on screen."""
        label = min(FIELDS, key=lambda l: (self.field_counts[l], self.rng.random()))
        key, values = FIELDS[label]
        self.to_map(a)
        self.send(a, "s")
        screen = self.wait_for(a, lambda s: s if "Settings" in s and label in s else None, f"the settings screen with {label}")
        lines = screen.split("\n")
        top = next((i for i, l in enumerate(lines) if l.startswith(" Settings")), 0) + 1
        while top < len(lines) and not lines[top].strip():
            top += 1
        labels = []
        for line in lines[top:]:
            m = re.match(r"^ (\S.*?)  +\S", line)
            if not m:
                break
            labels.append(m.group(1))
        if label not in labels:
            raise Unacknowledged(f"no field labelled {label!r} on the settings screen: {labels}")
        # From the first field down to the label's row, as the screen lists them.
        self.send(a, *["k"] * (len(labels) + 1))
        self.send(a, *["j"] * labels.index(label))
        before = a.lines()
        mid = label[0].lower() + label[1:] if label not in ("Flickr API key", "CA bundle") else label
        if values is None:
            mapping = STEPPED[key]
            self.setting_asked(key, list(mapping.values()))
            self.send(a, "Enter")
            m = self.acknowledged(a, ACK["setting"], before, f"Saved: {mid} …", answer=False)
            shown = m.group(1)
            if not shown.startswith(mid + " "):
                raise Unacknowledged(f"Enter on {label!r} saved {shown!r}: the field moved")
            value = shown[len(mid) + 1:]
            if value not in mapping:
                raise Unacknowledged(f"{label}: {value!r} is not a value the script knows")
            self.record.setting(key, mapping[value], told=True)
            flags[key] = mapping[value] or "on"
            if key == "allow_drag" and mapping[value] == "off":
                # Dragging back on at once (the drags need it): a second acknowledgment.
                before = a.lines()
                self.setting_asked(key, ["on"])
                self.send(a, "Enter")
                self.acknowledged(a, re.compile(r"Saved: allow dragging on\.$"), before, "Saved: allow dragging on.", answer=False)
                self.record.setting(key, "on", told=True)
                flags[key] = "on"
        else:
            current = self.reading()[2].get(key)
            value = self.rng.choice([v for v in values if v != current] or values)
            self.setting_asked(key, [value])
            self.send(a, "Enter", "C-u", value)
            before = a.lines()
            self.send(a, "Enter")
            m = self.acknowledged(a, re.compile(r"Saved: (.+)\.$|^Removed the .+\.$"), before, f"Saved: {mid} …", answer=False)
            if not (m.group(1) or "").startswith(mid + " "):
                raise Unacknowledged(f"{value!r} typed into {label!r}: {m.group(0)!r} (the field moved?)")
            self.record.setting(key, value, told=True)
        self.field_counts[label] += 1
        self.journal(f"  settings: {label} ({key})")
        return "settings"

    def setting_asked(self, key, values):
        for v in values:
            self.record.setting(key, v, told=False)

    def config_set(self, flags):
        """`vtourist config set KEY VALUE`: its output the acknowledgment; sometimes a value it refuses."""
        key = self.rng.choice(sorted(CONFIG))
        bad = self.rng.random() < 0.2 and key not in ("contact", "flickr_api_key", "ca_bundle")
        value = "-3" if bad else self.rng.choice(CONFIG[key])
        if not bad:
            self.record.setting(key, value, told=False)
        r = self.cli(["config", "set", key, value])
        self.journal(f"  config set {key} {value!r}: {r.returncode} {r.stdout.strip()!r} {r.stderr.strip()!r}")
        if bad:
            if r.returncode == 0 or not r.stderr.strip():
                self.failure.note("crashes", f"config set {key} {value!r} exited {r.returncode}: {r.stderr!r}")
            return None
        m = re.match(rf"^{re.escape(key)} = (.*) \(stored in the database\)$", r.stdout.strip())
        if r.returncode != 0 or not m:
            raise Unacknowledged(f"config set {key} {value!r}: {r.returncode}, {r.stdout!r} {r.stderr!r}")
        if m.group(1) != value and not (key == "flickr_api_key" and "•" in m.group(1)):
            raise Unacknowledged(f"config set {key} {value!r} says {m.group(0)!r}")
        self.record.setting(key, value, told=True)
        return "config set"

    # MARK: rounds

    def minimum(self):
        """Each kind's minimum count in a run of N rounds; a healthy run does several times more."""
        n = self.args.rounds
        m = {k: max(1, n // 20) for k in KINDS}
        m["drop"] = max(1, n // 4)
        m["settings"] = len(FIELDS) * max(1, n // 100)
        return m

    def shortfall(self, kinds=DRIVEN):
        """How many acknowledged actions the driven kinds still need to reach their minimums."""
        need = self.minimum()
        return sum(max(0, need[k] - self.counts[k]) for k in kinds)

    def choose(self, a):
        """The driven kind furthest below its share so far (ties at random): every kind keeps up."""
        kinds = [k for k in DRIVEN if k != "mouse drag" or a.mouse]
        need = self.minimum()
        return min(kinds, key=lambda k: (self.counts[k] / need[k], self.rng.random()))

    def reap(self, a, name):
        if a.reaped:
            return
        a.reaped = True
        a.kill()
        dead = a.dead() or (None, None)
        if a.killed:
            self.kills += 1
        elif dead[0] == 0:
            self.quits += 1
        else:
            self.failure.note("crashes", f"{name} ended ({dead}) before the kill; stderr: {a.stderr_tail()!r}")
        a.close()

    def round(self, number):
        self.rng = random.Random(self.args.seed * 1_000_003 + number)
        self.journal(f"round {number}")
        self.kill_at = None
        hold = self.rng.random() < 0.3
        self.hold_images(self.rng.randint(0, 20) if hold else None)
        flags = dict(self.reading()[2])
        behind = lambda kind, share: self.counts[kind] < number * share  # noqa: E731
        if self.rng.random() < 0.1 or behind("import", 0.08):
            self.import_pins(number)
        a = self.app("a")
        apps = [a]
        second = self.rng.random() < 0.3 or behind("second window", 0.08)
        drop = None
        if self.rng.random() < 0.3 or behind("shell drop", 0.1):
            drop = self.shell_drop(number)
        # A short run reaches every minimum by its pace, not by luck: the rounds left share what the
        # driven kinds still need (plus one spare in the last two, for an action given up), and a round
        # killed early (before its map) is one the rest can make up for.
        left = self.args.rounds - number + 1
        owed = self.shortfall()
        early = self.rng.random() < 0.08 and owed + 2 <= 2 * (left - 1)
        acted = {}
        if early:
            time.sleep(self.rng.uniform(0, 0.3))
        else:
            if not self.wait_ready(a):
                self.failure.note("stuck", f"round {number}: the app did not draw its map; stderr: {a.stderr_tail()!r}")
            if second:
                apps.append(self.app("b"))
                if not self.wait_ready(apps[1]):
                    self.failure.note("stuck", f"round {number}: the second app did not draw its map")
            actions = max(self.rng.randint(2, 5), -(-owed // left) + (1 if left <= 2 and owed else 0))
            for i in range(actions + 1):
                term = self.rng.choice(apps)
                last = i == actions
                reading = self.reading()
                self.record.bind(reading)
                if flags.get("allow_drag") == "off" and not last:
                    flags["allow_drag"] = "on"
                    self.record.setting("allow_drag", "on", told=False)
                    r = self.cli(["config", "set", "allow_drag", "on"])
                    self.record.setting("allow_drag", "on", told=r.returncode == 0)
                kind = self.choose(term)
                if last:
                    # The kill comes during this action, from its first key to a moment after its acknowledgment.
                    self.kill_at = time.monotonic() + self.rng.uniform(0, 1.2)
                self.journal(f" app {apps.index(term) + 1}: {kind}")
                try:
                    done = self.act(term, kind, reading, flags)
                except Killed:
                    self.journal("  (the kill)")
                    break
                except Missed as e:
                    self.journal(f"  (given up: {e})")
                    done = None
                except SlowRenewal as e:
                    self.failure.note("slow renewal", f"round {number}, {kind} in app {apps.index(term) + 1}: {e}")
                    self.journal(f"  (slow renewal: {e})")
                    self.kill_at = None
                    break
                except (Unacknowledged, NotShown) as e:
                    self.failure.note("unacknowledged", f"round {number}, {kind} in app {apps.index(term) + 1}: {e}")
                    self.kill_at = None
                    break
                if done:
                    self.settle()
                    self.counts[done] += 1
                    acted[apps.index(term)] = True
                    self.journal(f"  acknowledged: {done}")
                if last:
                    while time.monotonic() < self.kill_at:
                        time.sleep(0.01)
            if second and acted.get(1):
                self.counts["second window"] += 1
        self.kill_at = None
        for i, t in enumerate(apps):
            self.reap(t, "the app" if i == 0 else "the second app")
        if drop:
            self.settle_drop(number, *drop)
        after = self.after_kill(f"round {number}, after the kill")
        if after:
            for pid in list(self.downloading_at_kill):
                if pid not in after[0] or after[0][pid]["state"] in ("ready", "empty"):
                    self.downloading_at_kill.discard(pid)
            self.downloading_at_kill |= {pid for pid, p in after[0].items() if p["state"] == "downloading"}
        if self.args.verbose:
            pins, photos, _ = after or ({}, {}, {})
            log(f"round {number}: {len(apps)} app(s){', drop' if drop else ''}{', images held' if hold else ''}"
                f"{', early kill' if early else ''}; {len(pins)} pins, {len(photos)} photos")

    def settle(self):
        """After an acknowledgment, the next action is aimed with the database (a pin's place): until it holds
        what was acknowledged (a moment at most: the check after the kill judges), it waits."""
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            reading = self.reading()
            self.record.bind(reading)
            if self.record.agrees(reading):
                return
            time.sleep(POLL)

    def shell_drop(self, number):
        wait = self.rng.random() < 0.6
        lat, lon = round(self.rng.uniform(-60, 70), 5), round(self.rng.uniform(-170, 170), 5)
        argv = [self.args.binary, "drop", f"{lat:.5f}", f"{lon:.5f}"] + (["--wait"] if wait else [])
        err = open(os.path.join(self.logs, f"drop-{number}.err"), "wb")
        self.record.asked_insert(Value(lat, lon, GIVEN), f"`drop {lat:.5f} {lon:.5f}`")
        proc = subprocess.Popen(argv, env=self.environment(), stdout=subprocess.PIPE, stderr=err)
        return proc, err, wait, lat, lon

    def settle_drop(self, number, proc, err, wait, lat, lon):
        """Kills `drop` if it still runs; the id it printed (exit 0) is acknowledged at the place it was given."""
        if proc.poll() is None:
            proc.kill()
            self.kills += 1
        proc.wait()
        err.close()
        printed = proc.stdout.read().decode().strip()
        proc.stdout.close()
        with open(err.name, "rb") as f:
            text = f.read()[-2000:].decode("utf-8", "replace")
        if printed.isdigit():
            # The pin is stored once `drop` prints its id (the album may still be on its way).
            self.record.told_id(int(printed), Value(lat, lon, GIVEN), f"`drop {lat:.5f} {lon:.5f}` printed {printed}")
            self.record.asked_inserts = [(v, w) for v, w in self.record.asked_inserts if not w.startswith(f"`drop {lat:.5f} {lon:.5f}`")]
            if proc.returncode == 0:
                self.counts["shell drop"] += 1
        if proc.returncode in (0, -signal.SIGKILL):
            return
        vanished = re.search(r"pin (\d+) vanished while downloading", text)
        if vanished and self.record.pins.get(int(vanished.group(1)), {}).get("deleted"):
            return
        self.failure.note("crashes", f"round {number}: drop{' --wait' if wait else ''} exited with {proc.returncode}; stderr: {text!r}")

    def import_pins(self, number):
        """`vtourist import FILE` before the apps start; its summary (`added N pins, skipped M duplicates`)
        acknowledges every point; sometimes killed on the way (then each point is asked, not told)."""
        points = [(round(self.rng.uniform(-60, 70), 5), round(self.rng.uniform(-170, 170), 5), f"soak {number}.{i}")
                  for i in range(self.rng.randint(2, 5))]
        path = os.path.join(self.folder, f"import-{number}.geojson")
        with open(path, "w") as f:
            json.dump({"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"name": name}, "geometry": {"type": "Point", "coordinates": [lon, lat]}}
                for lat, lon, name in points]}, f)
        for lat, lon, name in points:
            self.record.asked_insert(Value(lat, lon, GIVEN, name), f"import of {name!r}")
        proc = subprocess.Popen([self.args.binary, "import", path], env=self.environment(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        if self.rng.random() < 0.3:
            time.sleep(self.rng.uniform(0, 0.15))
            if proc.poll() is None:
                proc.kill()
                self.kills += 1
        out, err = proc.communicate()
        self.journal(f"import {len(points)} pins: {proc.returncode} {out.strip()!r}")
        m = re.search(r"^added (\d+) pins?, skipped (\d+) duplicates?", (out + err).strip(), re.M)
        if proc.returncode == 0 and m and int(m.group(1)) + int(m.group(2)) == len(points):
            names = {name for _, _, name in points}
            self.record.asked_inserts = [(v, w) for v, w in self.record.asked_inserts if v.name not in names]
            for lat, lon, name in points:
                self.record.told_insert(Value(lat, lon, GIVEN, name), f"import of {name!r} ({m.group(0)})")
            self.record.bind(self.reading())
            self.counts["import"] += 1
        elif proc.returncode != -signal.SIGKILL:
            self.failure.note("crashes", f"round {number}: import exited {proc.returncode}: {out!r} {err[-2000:]!r}")

    def after_kill(self, when):
        if not os.path.exists(self.db):
            return None
        problems = check_db(self.db)
        if problems:
            self.failure.note("integrity", f"{when}: {problems[:5]}")
        self.record.read_served(self.served)
        reading = self.reading(hashes=True)
        self.record.check(reading, when, final=True)
        return reading

    def finish(self):
        """The last start: every album completes, whole (every photo stored)."""
        self.hold_images(None)
        a = self.app("final", os.path.join(self.folder, "final-status"))
        ready = self.wait_ready(a)
        deadline = time.monotonic() + self.args.final_limit
        pending = None
        while time.monotonic() < deadline and a.dead() is None:
            pins, photos, _ = self.reading()
            pending = [pid for pid, p in pins.items() if p["state"] not in ("ready", "empty")]
            pending += [f"pin {p['pin']} photo {fid} {p['state']}" for fid, p in photos.items()
                        if p["pin"] in pins and pins[p["pin"]]["state"] == "ready" and p["state"] == "pending"]
            if not pending:
                break
            time.sleep(0.2)
        a.type("q")
        deadline = time.monotonic() + 20
        while a.dead() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        dead = a.dead()
        raw = a.tmux.run("display-message", "-p", "-t", a.target, "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}",
                         check=False).strip()
        try:
            with open(f"/proc/{a.pid}/status") as f:
                raw += "; the process still runs: " + " ".join(l.strip() for l in f if l.startswith(("State", "Threads")))
            with open(f"/proc/{a.pid}/wchan") as f:
                raw += f", waiting in {f.read().strip()}"
        except OSError:
            pass
        if dead is None or dead[0] != 0:
            self.failure.note("crashes", f"the last app did not quit cleanly ({dead}, {raw!r}); stderr: {a.stderr_tail()!r}; "
                                         f"screen:\n{a.screen()}")
        a.reaped = True
        a.kill()
        a.close()
        final = self.after_kill("after the last quit") or ({}, {}, {})
        pins, photos, _ = final
        broken = [f"pin {p['pin']} photo {fid} {p['state']}" for fid, p in photos.items()
                  if p["state"] != "stored" and p["pin"] in pins and pins[p["pin"]]["state"] == "ready"]
        incomplete = [pid for pid, p in pins.items() if p["state"] not in ("ready", "empty")]
        complete = ready and not incomplete and not broken
        if not complete:
            self.failure.note("stuck", f"albums not whole at the end: {incomplete[:20]} {broken[:20]}")
        self.resumed = len([pid for pid in self.downloading_at_kill if pid in pins and pins[pid]["state"] == "ready"])
        return complete, len(pins), sum(1 for p in pins.values() if p["state"] == "ready"), \
            sum(1 for p in photos.values() if p["stored"])

    def run(self):
        start = time.monotonic()
        log(f"soak: seed {self.args.seed}, {self.args.rounds} rounds, {self.args.binary}")
        self.start_server()
        self.tmux = Tmux(self.folder)
        try:
            r = self.cli(["config", "set", "flickr_api_key", FLICKR_KEY])
            if r.returncode != 0:
                raise SystemExit(f"soak: config set flickr_api_key failed: {r.stderr}")
            self.record.setting("flickr_api_key", FLICKR_KEY, told=True)
            for n in range(1, self.args.rounds + 1):
                self.round(n)
            complete, pins, ready, stored = self.finish()
        finally:
            for a in self.apps:
                if not a.reaped and a.dead() is None:
                    try:
                        os.kill(a.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            self.tmux.stop()
            self.server.kill()
            self.server.wait()
        leaks = [l for l in (open(self.leaks).read().split("\n") if os.path.exists(self.leaks) else []) if l]
        need = self.minimum()
        short = [f"{self.counts[k]} {k} (at least {need[k]})" for k in KINDS if self.counts[k] < need[k]]
        fields_short = [l for l, c in self.field_counts.items() if c < max(1, self.args.rounds // 100)]
        if fields_short:
            short.append(f"settings fields never changed: {', '.join(fields_short)}")
        f = self.failure.counts
        ok = self.failure.total() == 0 and complete and not leaks and not short
        log(f"rounds: {self.args.rounds}")
        log(f"kills: {self.kills}")
        log(f"rows lost: {f['lost']}")
        log(f"rows no action asked for: {f['unasked']}")
        log(f"resurrected rows: {f['resurrected']}")
        log(f"images unlike what was served: {f['images']}")
        log(f"actions not acknowledged: {f['unacknowledged']}")
        log(f"renewals not on screen within {ACK_LIMIT:.0f} s: {f['slow renewal']}")
        log(f"albums resumed: {self.resumed}")
        log(f"crashes: {f['crashes']}")
        log("acknowledged: " + ", ".join(f"{self.counts[k]} {k}" for k in KINDS) + f"; {self.quits} quits")
        log("settings fields: " + ", ".join(f"{c} {l}" for l, c in self.field_counts.items()))
        log(f"activity: {'ok' if not short else 'SHORT: ' + '; '.join(short)}")
        log(f"integrity failures: {f['integrity']}")
        log(f"apps that never drew their map: {f['stuck']}")
        log(f"albums completed: {pins if complete else 'NO'} ({pins} pins, {ready} ready, {stored} photos stored)")
        log(f"requests that would have left loopback: {len(leaks)}")
        log(f"duration: {time.monotonic() - start:.1f} s")
        log(f"result: {'ok' if ok else 'FAILED'} (seed {self.args.seed})")
        if ok and not self.args.keep:
            shutil.rmtree(self.folder, ignore_errors=True)
        else:
            log(f"files kept in {self.folder}")
        return 0 if ok else 1


def tmux_literal(text):
    """`text` as an argument tmux takes literally: one that ends in `;` ends a tmux command there (the
    `;` is dropped, as the last byte of a mouse report on row 26 once was), so that `;` is escaped."""
    return text[:-1] + "\\;" if text.endswith(";") else text


def mouse_report(button, x, y):
    """An X10 mouse report (`ESC [ M`, then button, column and row each plus 32; 0-based cells):
    button 0 pressed, 32 moved with it held, 3 released."""
    return f"\x1b[M{chr(32 + button)}{chr(33 + x)}{chr(33 + y)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "vtourist"))
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--seed", type=int, default=None, help="replays a run (printed at the start)")
    ap.add_argument("--delay-ms", type=int, default=30, help="the photo server's delay before every answer")
    ap.add_argument("--stagger-ms", type=int, default=15, help="and before image n, n times this more")
    ap.add_argument("--final-limit", type=float, default=120, help="seconds the last start may take to complete every album")
    ap.add_argument("--verbose", action="store_true", help="a line per round")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (kept anyway on failure)")
    args = ap.parse_args()
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 2**31)
    args.binary = os.path.abspath(args.binary)
    if not os.access(args.binary, os.X_OK):
        raise SystemExit(f"soak: no binary at {args.binary} (swift build -c release --product vtourist)")
    if not shutil.which("tmux"):
        raise SystemExit("soak: tmux is needed (apt-get install tmux)")
    args.sanitizer_env = sanitizer_env.from_environment()
    sys.exit(Soak(args).run())


if __name__ == "__main__":
    main()
