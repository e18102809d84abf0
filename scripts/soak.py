#!/usr/bin/env python3
"""Crash soak: the full-screen app against the local photo server with slow
images, driven through pseudo-terminals this script owns, killed with SIGKILL
at random moments and started again, round after round.

Each round starts the app (sometimes a second instance on the same database,
sometimes a `vtourist drop LAT LON [--wait]` alongside, sometimes a `vtourist
import FILE` first), drops, drags (keys and mouse) and deletes pins, opens
albums and deletes photos (`x`; marked with space and `X`; from the photo
screen), presses `n` (New Collection) and `a` (add more), changes settings (the
settings screen and `vtourist config set`), then at a random moment kills every
process with SIGKILL. Right after the kill, before anything opens the database
again, it checks with a read-only connection:

- `PRAGMA integrity_check` is ok and `PRAGMA foreign_key_check` finds nothing;
- every acknowledged row is there as acknowledged, unless a later acknowledged
  action removed it. The app acknowledges in its trace (`VTOURIST_TRACE`, one
  JSON line per committed action, written after the commit): pins (id, place,
  name), photos (id, pin, URL, title), stored images (state `stored`, CRC-32 and
  length of the bytes), settings; `drop`, `import` and `config set` acknowledge
  by exit status 0. Nothing is forgiven by place: an acknowledged row is
  accounted for by its id;
- what an acknowledged action deleted stays deleted, and nothing seen gone comes
  back (ids are never reused: the tables are AUTOINCREMENT).

The database is also read every 0.3 s while the apps run, with the same checks;
a reading that shows a loss is taken again 0.5 s later before it counts (an action
is acknowledged just after it commits), so a loss that an action acknowledged
within that half second would explain is forgiven there (the last check is not).
Every round that drives the apps must acknowledge something (it begins with a
drop), and the run must reach a minimum of activity (`minimum_activity`).

After the last round the app starts once more and every album must complete
(`vtourist pins --json`: every pin `ready` or `empty`, every photo of a ready
album stored). "albums resumed" counts albums left `downloading` at a kill
that completed after a restart.

Every process gets an explicit environment (a temporary HOME and XDG folders,
the database, the trace, both photo endpoints and every proxy variable on the
local server); nothing of the caller's but a sanitized binary's options
(VTOURIST_SANITIZER_ENV, scripts/sanitizers/sanitizer_env.py). The seed is printed; `--seed` replays it.

    python3 scripts/soak.py --binary .build/release/vtourist --rounds 50 [--seed N]

Exit status 0 only when rows lost, resurrected rows, crashes, integrity
failures and incomplete albums are all 0 and the activity reached its minimum.
"""
import argparse
import fcntl
import json
import os
import pty
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
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts", "sanitizers"))
import sanitizer_env  # noqa: E402  (a sanitized binary's options, VTOURIST_SANITIZER_ENV)
SERVER = os.path.join(ROOT, "Tests", "Support", "photo_server.py")
ESC = "\x1b"
BACKSPACE = "\x7f"
# The app takes an Esc and what arrives with it as one key (Alt+key, ignored): let it read the Esc alone.
ESC_GAP = 0.06
# Seconds before a reading that shows losses is taken again (Soak.look).
LOOK_AGAIN = 0.5
# Each round drives the apps at least this long (seconds) and begins with a drop (about 0.4 s of keys),
# so every round but those killed while starting has at least MIN_ROUND_ACKS acknowledged actions.
MIN_DRIVE = 1.0
# By round number modulo 3; round 1 of a new database has no pin yet (the visit becomes a drop), so the
# album visit, whose photo deletions other actions also make, takes that turn.
OPENINGS = ["drag", "album", "delete"]
# What acknowledges each opening (the album's opening deletes a photo first), and how long after its
# last key the round waits for that.
OPENING_ACKS = {"drag": "pins moved", "album": "photos deleted", "delete": "pins deleted"}
OPENING_LIMIT = 5.0
MIN_ROUND_ACKS = 1
# The terminal the mouse drag runs in: its terminfo names X10 mouse reports (kmous=\E[M), as under screen
# or tmux, the format this script writes. Under xterm-256color (kmous=\E[<) the app asks for SGR 1006
# reports (ESC [ <), as a real xterm then sends, so X10 bytes would reach it as keys.
MOUSE_TERM = "screen-256color"
PROXY_VARIABLES = ["http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"]


def log(*parts):
    print(*parts, flush=True)


class Failure:
    """What the soak found wrong, kept for the summary."""

    def __init__(self):
        self.lost = 0
        self.resurrected = 0
        self.integrity = 0
        self.crashes = 0
        self.stuck = 0
        self.notes = []

    def note(self, kind, text):
        self.notes.append(f"{kind}: {text}")
        log(f"  !! {kind}: {text}")


class Terminal:
    """A process on a pseudo-terminal of ours: keys in, screen bytes drained (the last 64 KiB kept)."""

    def __init__(self, argv, env, stderr_path, cols=100, rows=30):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.stderr_path = stderr_path
        with open(stderr_path, "wb") as err:
            self.proc = subprocess.Popen(argv, env=env, stdin=slave, stdout=slave, stderr=err, close_fds=True,
                                         start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.master = master
        self.output = bytearray()
        self.seen = 0
        self.lock = threading.Lock()
        self.killed = False
        self.reaped = False
        self.mouse = False
        self.reader = threading.Thread(target=self.drain, daemon=True)
        self.reader.start()

    def drain(self):
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            with self.lock:
                self.seen += len(chunk)
                self.output += chunk
                if len(self.output) > 65536:
                    del self.output[:-65536]

    def contains(self, text):
        with self.lock:
            return text.encode() in self.output

    def send(self, keys):
        if self.proc.poll() is not None:
            return
        try:
            os.write(self.master, keys.encode())
        except OSError:
            pass

    def kill(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.killed = True
        self.proc.wait()
        self.reader.join(timeout=5)
        os.close(self.master)

    def stderr_tail(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read()[-2000:].decode("utf-8", "replace")
        except OSError:
            return ""


def image_hash(data):
    """The trace's checksum of image bytes: CRC-32 in hex and the byte count."""
    return f"{zlib.crc32(data):08x}:{len(data)}"


def read_db(db, hashes=False):
    """Pins, photos and settings, read in one transaction with a read-only connection; None when
    there is no database yet. With `hashes`, each stored image's checksum too."""
    if not os.path.exists(db):
        return None
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30, isolation_level=None)
    try:
        con.execute("BEGIN")
        if not con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pin'").fetchone():
            # Killed before its first migration committed: a database with nothing in it yet.
            con.execute("COMMIT")
            return {}, {}, {}
        # The name a pin is shown by: its own (an imported point's name), else its nearest place's.
        columns = {r[1] for r in con.execute("PRAGMA table_info(pin)")}
        shown = "COALESCE(ownName, name)" if "ownName" in columns else "name"
        pins = {r[0]: (r[1], r[2], r[3], r[4])
                for r in con.execute(f"SELECT id, latitude, longitude, albumState, {shown} FROM pin")}
        image = "photoImage.bytes" if hashes else "photoImage.photoId IS NOT NULL"
        photos = {}
        for r in con.execute(f"SELECT photo.id, photo.pinId, photo.url, photo.state, {image}, photo.title "
                             "FROM photo LEFT JOIN photoImage ON photoImage.photoId = photo.id"):
            stored = r[3] == "stored" and r[4] is not None and r[4] != 0
            digest = image_hash(r[4]) if hashes and r[4] is not None else None
            photos[r[0]] = (r[1], r[2], stored, r[3], r[5], digest)
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


UNKNOWN = object()  # a value the acknowledgment does not say (the name of a pin `drop` added)


class Acks:
    """What was acknowledged, row by row: the app's trace (one JSON line per committed action,
    written after its commit; VTOURIST_TRACE) and the exit statuses of `drop`, `import` and
    `config set`. After each kill every acknowledged pin, photo, image and setting must be in the
    database as acknowledged, unless a later acknowledged action removed or changed it."""

    def __init__(self, path, failure):
        self.path = path
        self.failure = failure
        self.offset = 0
        self.round = 0
        # Mutable rows: a history of (round, writer, value); the last is what the database must hold.
        self.pins = {}         # pin id -> [(round, writer, (lat, lon, name))]
        self.settings = {}     # key -> [(round, writer, value or None)]
        self.removed_pins = set()
        # Photos are immutable once saved: id -> (pin, generation, url, title, order in the acknowledgments).
        self.photos = {}
        self.removed_photos = set()
        self.images = {}       # photo id -> checksum
        self.cleared = {}      # pin id -> the generation below which its photos are gone (a move, New Collection)
        self.replaced = {}     # pin id -> [(order, generation, ids)]: a new collection's photos; the others are gone
        self.order = 0
        self.reported = set()
        self.counts = {"pins added": 0, "pins moved": 0, "pins deleted": 0, "photos deleted": 0,
                       "collections renewed": 0, "photos saved": 0, "images stored": 0, "settings saved": 0}
        self.round_counts = {}

    def count(self, what, n=1):
        self.counts[what] += n
        self.round_counts[what] = self.round_counts.get(what, 0) + n

    def begin_round(self, number):
        self.round = number
        self.round_counts = {}

    # MARK: acknowledgments

    def pin(self, pid, writer, lat, lon, name, added):
        history = self.pins.setdefault(pid, [])
        entry = (self.round, writer, (lat, lon, name))
        # An insert is the oldest value of its row, even when read after a move of it (`drop`'s exit).
        if added:
            history.insert(0, entry)
            self.count("pins added")
        else:
            history.append(entry)
            self.count("pins moved")

    def setting(self, key, value, writer):
        # Before any acknowledged change a setting is unset (the soak's database starts empty).
        self.settings.setdefault(key, [(0, "the start", None)]).append((self.round, writer, value))
        self.count("settings saved")

    def read_trace(self):
        """Takes in the lines appended since the last call (a line cut short has no newline yet: not an acknowledgment)."""
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return
        end = data.rfind(b"\n")
        if end < 0:
            return
        self.offset += end + 1
        for line in data[:end].split(b"\n"):
            try:
                event = json.loads(line)
            except ValueError:
                self.failure.integrity += 1
                self.failure.note("trace", f"a line of the trace is not JSON: {line[:200]!r}")
                continue
            self.take(event)

    def take(self, e):
        kind, writer = e["event"], f"app {e['pid']}"
        self.order += 1
        if kind == "pin":
            self.pin(e["id"], writer, e["lat"], e["lon"], e["name"], added=True)
        elif kind == "move":
            self.pin(e["id"], writer, e["lat"], e["lon"], e["name"], added=False)
            self.clear(e["id"], e["generation"])
        elif kind == "unpin":
            self.removed_pins.add(e["id"])
            self.count("pins deleted")
        elif kind == "setting":
            self.setting(e["key"], e["value"], writer)
        elif kind in ("replace", "append"):
            for p in e["photos"]:
                self.photos[p["id"]] = (e["pin"], e["generation"], p["url"], p["title"], self.order)
            self.count("photos saved", len(e["photos"]))
            if kind == "replace":
                self.replaced.setdefault(e["pin"], []).append((self.order, e["generation"], {p["id"] for p in e["photos"]}))
        elif kind == "unphoto":
            self.removed_photos.update(e["ids"])
            self.count("photos deleted", len(e["ids"]))
        elif kind == "clear":
            self.clear(e["pin"], e["generation"])
            self.count("collections renewed")
        elif kind == "image":
            self.images[e["photo"]] = e["hash"]
            self.photos.setdefault(e["photo"], (e["pin"], e["generation"], UNKNOWN, UNKNOWN, self.order))
            self.count("images stored")
        else:
            self.failure.integrity += 1
            self.failure.note("trace", f"an unknown event in the trace: {e!r}")

    def clear(self, pin, generation):
        if generation is None:
            # The move's generation could not be read back: every photo of the pin acknowledged so far is gone.
            generation = max([g for (p, g, *_r) in self.photos.values() if p == pin] + [0]) + 1
        self.cleared[pin] = max(self.cleared.get(pin, 0), generation)

    # MARK: the check

    def photo_deleted(self, fid):
        """Removed by an acknowledged action that names it: deleted, its pin deleted, its collection replaced."""
        pin, generation, _, _, _ = self.photos[fid]
        return fid in self.removed_photos or pin in self.removed_pins or generation < self.cleared.get(pin, 0)

    def photo_removed(self, fid):
        if self.photo_deleted(fid):
            return True
        pin, _, _, _, order = self.photos[fid]
        # A new collection keeps only its own photos: one acknowledged before it and not in it is gone.
        return any(o > order and fid not in ids for o, _g, ids in self.replaced.get(pin, []))

    @staticmethod
    def expected(history):
        """The values the row may hold: the last acknowledged, or any acknowledged by a different
        writer in that same round (two processes' commits may land in either order)."""
        last_round, last_writer, last = history[-1]
        values = [last]
        writers = {w for r, w, _ in history if r == last_round}
        if len(writers) > 1:
            values += [v for r, w, v in history if r == last_round]
        return values, [v for v in (h[2] for h in history) if v not in values]

    def check(self, reading, when, judge=True):
        """Every acknowledged row against a reading of the database; each loss is a failure.
        With `judge` false, only counts the losses it would report."""
        pins, photos, settings = reading
        lost = []
        for pid, history in self.pins.items():
            if pid in self.removed_pins:
                continue
            row = pins.get(pid)
            if row is None:
                lost.append(f"pin {pid} ({history[-1][2][:2]}) is gone")
                continue
            values, older = self.expected(history)
            if any(self.same_pin(row, v) for v in values):
                continue
            # A value no acknowledgment names is a write whose acknowledgment the kill cut off (it committed
            # after the last acknowledged one); an older acknowledged value is a lost write.
            if any(self.same_pin(row, v) for v in older):
                lost.append(f"pin {pid} is at {row[0]:.5f},{row[1]:.5f} named {row[3]!r}, acknowledged {values}")
        # What an acknowledged action deleted stays deleted: the user saw it go.
        for pid in self.removed_pins & pins.keys():
            lost.append(f"pin {pid}, acknowledged deleted, is still there")
        for fid in self.removed_photos & photos.keys():
            lost.append(f"photo {fid}, acknowledged deleted, is still there")
        for fid, (pin, generation, url, title, _) in self.photos.items():
            if fid in photos and fid not in self.removed_photos and self.photo_deleted(fid):
                lost.append(f"photo {fid} of pin {pin} (generation {generation}), gone with its pin or collection, "
                            "is still there")
            if self.photo_removed(fid):
                continue
            row = photos.get(fid)
            if row is None:
                lost.append(f"photo {fid} of pin {pin} (generation {generation}) is gone")
                continue
            if row[0] != pin or (url is not UNKNOWN and row[1] != url) or (title is not UNKNOWN and row[4] != title):
                lost.append(f"photo {fid} is {row[:2]} titled {row[4]!r}, acknowledged pin {pin}, {url}, {title!r}")
            if fid in self.images:
                if row[3] != "stored" or row[5] != self.images[fid]:
                    lost.append(f"photo {fid}'s image: state {row[3]}, checksum {row[5]}, acknowledged stored "
                                f"{self.images[fid]}")
        for key, history in self.settings.items():
            values, older = self.expected(history)
            now = settings.get(key)
            if now in values:
                continue
            if now in older:
                lost.append(f"setting {key} is {now!r}, acknowledged {values!r}")
        # Each loss is counted once, however many readings see it again.
        lost = [text for text in lost if text not in self.reported]
        if not judge:
            return len(lost)
        self.reported.update(lost)
        for text in lost:
            self.failure.lost += 1
            self.failure.note("lost", f"{when}: {text}")
        return len(lost)

    @staticmethod
    def same_pin(row, value):
        lat, lon, name = value
        return (abs(row[0] - lat) < 1e-9 or (name is UNKNOWN and abs(row[0] - lat) < 1e-5)) and \
            (abs(row[1] - lon) < 1e-9 or (name is UNKNOWN and abs(row[1] - lon) < 1e-5)) and \
            (name is UNKNOWN or row[3] == name)


class Ledger:
    """Every row seen, every row seen gone: nothing gone comes back (ids are never reused)."""

    def __init__(self, failure):
        self.failure = failure
        self.pins = {}
        self.photos = {}
        self.gone_pins = set()
        self.gone_photos = set()
        self.downloading_at_kill = set()
        self.resumed = 0
        self.reported_resurrected = set()

    def compare(self, reading, when):
        pins, photos, _ = reading
        self.gone_pins |= self.pins.keys() - pins.keys()
        self.gone_photos |= self.photos.keys() - photos.keys()
        for kind, ids, gone in (("pin", pins.keys(), self.gone_pins), ("photo", photos.keys(), self.gone_photos)):
            for rid in ids & gone:
                if (kind, rid) not in self.reported_resurrected:
                    self.reported_resurrected.add((kind, rid))
                    self.failure.resurrected += 1
                    self.failure.note("resurrected", f"{when}: {kind} {rid} came back")
        # Albums left downloading at a kill that have completed since.
        for pid in list(self.downloading_at_kill):
            if pid not in pins:
                self.downloading_at_kill.discard(pid)
            elif pins[pid][2] in ("ready", "empty"):
                self.downloading_at_kill.discard(pid)
                self.resumed += 1
        self.pins, self.photos = pins, photos


def mouse_report(button, x, y):
    """An X10 mouse report (`ESC [ M`, then button, column and row each plus 32; 0-based cells):
    button 0 pressed, 32 moved with it held, 3 released."""
    return f"{ESC}[M{chr(32 + button)}{chr(33 + x)}{chr(33 + y)}"


def coordinate_text(lat, lon):
    return f"{lat:.5f}, {lon:.5f}"


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.failure = Failure()
        self.ledger = Ledger(self.failure)
        self.kills = 0
        self.quits = 0
        self.folder = tempfile.mkdtemp(prefix="vtourist-soak-")
        self.home = os.path.join(self.folder, "home")
        self.control = os.path.join(self.folder, "control")
        self.logs = os.path.join(self.folder, "logs")
        for d in (self.home, self.control, self.logs):
            os.makedirs(d)
        self.db = os.path.join(self.home, "soak.sqlite")
        self.acks = Acks(os.path.join(self.folder, "trace.jsonl"), self.failure)
        self.activity = {"rounds short of activity": 0}
        self.leaks = os.path.join(self.folder, "leaks.txt")
        self.started = 0
        self.live = []  # every app started, so none outlives the script

    # MARK: processes

    def start_server(self):
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
        self.server = subprocess.Popen(
            [sys.executable, SERVER, "--delay-ms", str(self.args.delay_ms), "--stagger-ms", str(self.args.stagger_ms),
             "--control-dir", self.control, "--leaks-file", self.leaks],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.server.stdout.readline()
        if not line.startswith("PORT "):
            raise SystemExit("soak: the photo server did not start")
        self.base = f"http://127.0.0.1:{int(line.split()[1])}"

    def environment(self, term="xterm-256color"):
        env = {
            "PATH": "/usr/bin:/bin", "HOME": self.home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "TERM": term,
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "VTOURIST_DB": self.db,
            "VTOURIST_FLICKR_ENDPOINT": self.base + "/flickr/rest",
            "VTOURIST_COMMONS_ENDPOINT": self.base + "/commons/api.php",
            "FLICKR_API_KEY": "soak-key",
            "VTOURIST_TRACE": self.acks.path,
        }
        for name in PROXY_VARIABLES:
            env[name] = self.base
        env.update(self.args.sanitizer_env)
        return env

    def app(self, name):
        self.started += 1
        # Some apps run as under screen or tmux, whose mouse reports (X10, `ESC [ M`) the app decodes; the
        # mouse drag is sent to those only (see MOUSE_TERM).
        mouse = self.rng.random() < 0.5
        term = Terminal([self.args.binary], self.environment(MOUSE_TERM if mouse else "xterm-256color"),
                        os.path.join(self.logs, f"{name}-{self.started}.err"))
        term.mouse = mouse
        self.journal(f"{name} started{' (mouse)' if mouse else ''}")
        self.live.append(term)
        return term

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

    def wait_ready(self, term, limit=20.0):
        """Until the app has drawn its map (the status line's `help`); False if it exited or never did."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if term.contains("help"):
                return True
            if term.proc.poll() is not None:
                return False
            time.sleep(0.01)
        return False

    # MARK: what the script does

    def known_pins(self):
        try:
            reading = read_db(self.db)
        except sqlite3.Error:
            return []
        return [(pid, p[0], p[1]) for pid, p in reading[0].items()] if reading else []

    def go_to(self, lat, lon):
        return ["g", coordinate_text(lat, lon), "\r"]

    def action(self, term, kind=None, opening=False):
        """One thing a person does, as the keys it takes (each item sent on its own, a random moment apart)."""
        back = [ESC, ESC, ESC]  # whatever screen or dialog the last action left, back to the map
        pins = self.known_pins()
        kind = kind or self.rng.choices(["drop", "delete", "drag", "mouse drag", "album", "settings", "config"],
                                        weights=[4, 2, 3, 4 if term.mouse else 0, 5, 1, 1])[0]
        if kind == "config":
            return [("config",)]
        if kind == "settings":
            return back + self.settings_keys()
        if kind == "drop" or not pins:
            lat, lon = self.rng.uniform(-60, 70), self.rng.uniform(-170, 170)
            self.journal(f"drop at {coordinate_text(lat, lon)}")
            return back + self.go_to(lat, lon) + ["p"]
        pid, lat, lon = self.rng.choice(pins)
        self.journal(f"{kind} pin {pid} at {coordinate_text(lat, lon)}")
        if kind == "delete":
            return back + self.go_to(lat, lon) + ["x", "y"]
        if kind == "drag":
            moves = [self.rng.choice("hjkl") for _ in range(self.rng.randint(1, 5))]
            # A pin with photos asks before its album is replaced (confirm delete): `y` moves it; with
            # no question, `y` does nothing on the map.
            return back + self.go_to(lat, lon) + ["m"] + moves + ["\r", "y"]
        if kind == "mouse drag":
            # Picked up with `m`, carried with the mouse (X10 reports: press, motion with the button held,
            # release; the cursor follows and the pin with it) and put down where the button comes up,
            # the question (a pin with photos) answered `y`.
            x, y = self.rng.randint(5, 94), self.rng.randint(3, 26)
            keys = [mouse_report(0, x, y)]
            for _ in range(self.rng.randint(1, 4)):
                x, y = max(0, min(99, x + self.rng.randint(-3, 3))), max(0, min(27, y + self.rng.randint(-2, 2)))
                keys.append(mouse_report(32, x, y))
            keys.append(mouse_report(3, x, y))
            return back + self.go_to(lat, lon) + ["m"] + keys + ["y"]
        # The album: photos deleted (`x`; marked with space and deleted with `X` `y`; from the photo
        # screen, Enter then `x`), New Collection (confirmed: `y` only ever right after `n` or `X`, so on
        # the map, where `x` asks to delete the pin, `n` answers Keep first), Add more, the selection moved.
        # The round's opening visit deletes a photo first, so photos are deleted in every few rounds.
        keys = ["x"] if opening else []
        marked = False
        for _ in range(self.rng.randint(1, 6)):
            k = self.rng.choices(["x", "n", "a", "move", "mark", "X", "photo x"], weights=[4, 2, 1, 2, 3, 2, 2])[0]
            if k == "x":
                keys.append("x")
            elif k == "n":
                keys += ["n", "y"]
            elif k == "a":
                keys.append("a")
            elif k == "mark":
                keys.append(" ")
                marked = True
            elif k == "X":
                keys += ["X", "y"]
                marked = False
            elif k == "photo x":
                keys += ["\r", "x"]
            else:
                keys.append(self.rng.choice("hjkl"))
        if marked:
            # Leaving with marks asks first: the marked photos go.
            keys += ["X", "y"]
        self.journal(f"  album keys {keys!r}")
        return back + self.go_to(lat, lon) + ["\r"] + keys + [BACKSPACE]

    # The settings the soak changes, with values to choose from: none changes what the keys do.
    SETTINGS = {
        "contact": ["soak@example.org", "https://example.org/soak", "tourist@example.net"],
        "area_half_width": ["0.1", "0.25", "0.5", "1.0"],
        "photos_per_collection": ["6", "12", "21"],
    }

    def settings_keys(self):
        """The settings screen (`s`): a field selected, its text replaced (Ctrl-U, then typed), Enter;
        now and then a value it refuses (the message says so; nothing is saved), then Esc to the map."""
        key = self.rng.choice(sorted(self.SETTINGS))
        field = ["flickr_api_key", "source", "area_half_width", "photos_per_collection", "confirm_delete",
                 "allow_drag", "contact"].index(key)
        bad = self.rng.random() < 0.2
        value = "not a value" if bad else self.rng.choice(self.SETTINGS[key])
        self.journal(f"settings screen: {key} = {value!r}")
        return ["s"] + ["j"] * field + ["\r", "\x15", value, "\r"] + ([ESC] if bad else []) + [ESC]

    def config_set(self):
        """`vtourist config set KEY VALUE`, its exit status the acknowledgment; sometimes a value it refuses."""
        key = self.rng.choice(sorted(self.SETTINGS))
        bad = self.rng.random() < 0.2
        value = "-3" if bad else self.rng.choice(self.SETTINGS[key])
        r = self.cli(["config", "set", key, value])
        self.journal(f"config set {key} {value!r}: {r.returncode}")
        if r.returncode == 0 and not bad:
            self.acks.setting(key, value, "config set")
        elif r.returncode == 0 or not r.stderr.strip():
            self.failure.crashes += 1
            self.failure.note("crash", f"config set {key} {value!r} exited {r.returncode}: {r.stderr!r}")

    def drive(self, terms, duration, number, first_kill=None):
        """Sends actions to the running apps, interleaved, for `duration` seconds (then stops mid-action).
        Now and then the database is read as it runs: what is acknowledged then must be there too.
        With `first_kill` (seconds), the second app is killed then and the first goes on alone."""
        start = time.monotonic()
        deadline = start + duration
        queues = {id(t): [] for t in terms}
        # Each round opens with a drop, so every round that drives the app has one acknowledgment at least,
        # then, in turn, a drag, a pin deleted or an album visited: each kind happens in every few rounds.
        opening = OPENINGS[number % len(OPENINGS)]
        known = bool(self.known_pins())  # with no pin yet, the opening becomes a drop
        queues[id(terms[0])] = self.action(terms[0], "drop") + self.action(terms[0], opening, opening=True)
        # The round goes on until the opening is acknowledged (or OPENING_LIMIT seconds after its last key):
        # a round's random length alone often ended it first, and a short run then missed a kind at random.
        awaited = ["pins added"] + ([OPENING_ACKS[opening]] if known else [])
        opening_until = None
        terms = list(terms)
        next_look = time.monotonic() + 0.3
        while time.monotonic() < deadline or self.opening_pending(awaited, opening_until):
            if opening_until is None and not queues[id(terms[0])]:
                opening_until = time.monotonic() + OPENING_LIMIT
            if first_kill is not None and len(terms) > 1 and time.monotonic() - start >= first_kill:
                self.journal("the second app killed")
                self.reap(terms.pop(), "the second app")
            if time.monotonic() >= next_look:
                next_look = time.monotonic() + 0.3
                self.look(f"round {number}, while the apps run")
            term = self.rng.choice(terms)
            queue = queues[id(term)]
            if not queue:
                self.journal(f"app {terms.index(term) + 1}:")
                queue += self.action(term)
            key = queue.pop(0)
            if isinstance(key, tuple):
                self.config_set()
                continue
            term.send(key)
            time.sleep(ESC_GAP if key == ESC else self.rng.uniform(0, 0.08))

    def opening_pending(self, awaited, until):
        """Whether the round's opening keys are still being sent, or sent and not yet acknowledged."""
        if until is None:
            return True
        if time.monotonic() >= until:
            return False
        self.acks.read_trace()
        return any(self.acks.round_counts.get(kind, 0) == 0 for kind in awaited)

    def look(self, when):
        """Reads the trace, then the database: every acknowledgment read before must be in it.
        What looks lost is looked at once more, LOOK_AGAIN seconds later: an action is acknowledged
        just after it commits (a moved pin's photos are gone before the move is in the trace), so a
        reading between the two would call its rows lost. This forgives a loss that an action
        acknowledged within that time would explain; a row truly lost stays lost (ids are never
        reused) and is reported by the second look."""
        self.acks.read_trace()
        reading = read_db(self.db, hashes=True)
        if reading:
            self.ledger.compare(reading, when)
            if self.acks.check(reading, when, judge=False):
                time.sleep(LOOK_AGAIN)
                self.acks.read_trace()
                reading = read_db(self.db, hashes=True) or reading
                self.ledger.compare(reading, when)
            self.acks.check(reading, when)
        return reading

    def journal(self, line):
        """What the script did, in the kept folder, to read next to a failure."""
        with open(os.path.join(self.logs, "actions.txt"), "a") as f:
            f.write(line + "\n")

    # MARK: rounds

    def reap(self, term, name):
        """Kills `term` (if it still runs) and reports an exit we did not cause."""
        if term.reaped:
            return
        term.reaped = True
        term.kill()
        if term.killed:
            self.kills += 1
            return
        code = term.proc.returncode
        if code == 0:
            self.quits += 1
            return
        self.failure.crashes += 1
        self.failure.note("crash", f"{name} exited with {code} before the kill; stderr: {term.stderr_tail()!r}")

    def round(self, number):
        # A generator per round: a seed replays each round's choices whatever the timing of the ones before.
        self.rng = random.Random(self.args.seed * 1_000_003 + number)
        self.acks.begin_round(number)
        self.journal(f"round {number}")
        hold = self.rng.random() < 0.4
        self.hold_images(self.rng.randint(0, 20) if hold else None)
        imported = self.rng.random() < 0.15 and self.import_pins(number)
        a = self.app("a")
        terms = [a]
        second = self.rng.random() < 0.35
        early = self.rng.random() < 0.1
        drop = None
        if self.rng.random() < 0.4:
            wait = self.rng.random() < 0.6
            lat, lon = self.rng.uniform(-60, 70), self.rng.uniform(-170, 170)
            argv = [self.args.binary, "drop", coordinate_text(lat, lon)] + (["--wait"] if wait else [])
            err = open(os.path.join(self.logs, f"drop-{number}.err"), "wb")
            drop = (subprocess.Popen(argv, env=self.environment(), stdout=subprocess.PIPE, stderr=err), err, wait, lat, lon)
        if early:
            # Killed while starting: opening the database, resuming albums.
            time.sleep(self.rng.uniform(0, 0.3))
        else:
            # The second app starts with the first (both resume the same interrupted albums) or once it is up.
            together = second and self.rng.random() < 0.5
            if together:
                terms.append(self.app("b"))
            if not self.wait_ready(a):
                self.failure.stuck += 1
                self.failure.note("stuck", f"round {number}: the app did not draw its map; stderr: {a.stderr_tail()!r}")
            if second and not together:
                terms.append(self.app("b"))
            if second and not self.wait_ready(terms[1]):
                self.failure.stuck += 1
                self.failure.note("stuck", f"round {number}: the second app did not draw its map")
            duration = self.rng.uniform(MIN_DRIVE, 2.5)
            first_kill = self.rng.uniform(0, duration) if second and self.rng.random() < 0.5 else None
            self.drive(terms, duration, number, first_kill)
        self.look(f"round {number}, before the kill")
        for i, t in enumerate(terms):
            self.reap(t, "the app" if i == 0 else "the second app")
        if drop:
            self.settle_drop(number, *drop)
        after = self.after_kill(f"round {number}, after the kill")
        if after:
            self.ledger.downloading_at_kill |= {pid for pid, p in after[0].items() if p[2] == "downloading"}
        # Every round but those killed while starting must have done something the app acknowledged.
        acted = sum(self.acks.round_counts.values())
        if not early and acted < MIN_ROUND_ACKS:
            self.activity["rounds short of activity"] += 1
            self.failure.note("idle", f"round {number}: {acted} acknowledged action(s), at least {MIN_ROUND_ACKS} expected")
        if self.args.verbose:
            pins, photos, _ = after or ({}, {}, {})
            done = ", ".join(f"{v} {k}" for k, v in self.acks.round_counts.items() if v)
            log(f"round {number}: {len(terms)} app(s){', drop' if drop else ''}{', import' if imported else ''}"
                f"{', images held' if hold else ''}{', early kill' if early else ''}; {len(pins)} pins, "
                f"{len(photos)} photos, {sum(1 for p in pins.values() if p[2] == 'downloading')} downloading; "
                f"acknowledged: {done or 'nothing'}")

    def settle_drop(self, number, proc, err, wait, lat, lon):
        """Kills `drop` if it still runs; the pin it reported (exit 0) is acknowledged."""
        if proc.poll() is None:
            proc.kill()
            self.kills += 1
        proc.wait()
        err.close()
        printed = proc.stdout.read().decode()
        proc.stdout.close()
        if proc.returncode == 0:
            self.acks.pin(int(printed), "drop", lat, lon, UNKNOWN, added=True)
        with open(err.name, "rb") as f:
            text = f.read()[-2000:].decode("utf-8", "replace")
        if proc.returncode in (0, -signal.SIGKILL):
            return
        # The app may delete the pin `drop --wait` waits for: it says so and fails, as it should.
        self.acks.read_trace()
        vanished = re.search(r"pin (\d+) vanished while downloading", text)
        if vanished and int(vanished.group(1)) in self.acks.removed_pins:
            return
        self.failure.crashes += 1
        self.failure.note("crash", f"round {number}: drop{' --wait' if wait else ''} exited with "
                                   f"{proc.returncode}; stderr: {text!r}")

    def import_pins(self, number):
        """`vtourist import FILE` before the apps start: a GeoJSON file of a few named points. Exit 0
        acknowledges every point (a pin of the same place and name counts: import skips those), read
        back by place and name while nothing else writes. Sometimes killed on the way: all or none."""
        points = [(self.rng.uniform(-60, 70), self.rng.uniform(-170, 170), f"soak {number}.{i}")
                  for i in range(self.rng.randint(2, 6))]
        path = os.path.join(self.folder, f"import-{number}.geojson")
        with open(path, "w") as f:
            json.dump({"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"name": name},
                 "geometry": {"type": "Point", "coordinates": [round(lon, 5), round(lat, 5)]}}
                for lat, lon, name in points]}, f)
        proc = subprocess.Popen([self.args.binary, "import", path], env=self.environment(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        killed = False
        if self.rng.random() < 0.3:
            time.sleep(self.rng.uniform(0, 0.15))
            if proc.poll() is None:
                proc.kill()
                killed = True
                self.kills += 1
        _, stderr = proc.communicate()
        self.journal(f"import {len(points)} pins: {proc.returncode}")
        reading = read_db(self.db) or ({}, {}, {})
        found = {}
        for pid, (lat, lon, _, name) in reading[0].items():
            for plat, plon, pname in points:
                if name == pname and abs(lat - round(plat, 5)) < 1e-9 and abs(lon - round(plon, 5)) < 1e-9:
                    found[pname] = (pid, lat, lon, name)
        if proc.returncode == 0:
            for pname in (p[2] for p in points):
                if pname not in found:
                    self.failure.lost += 1
                    self.failure.note("lost", f"round {number}: `import` exited 0 and pin {pname!r} is not stored")
                else:
                    pid, lat, lon, name = found[pname]
                    self.acks.pin(pid, "import", lat, lon, name, added=True)
        elif killed:
            if found and len(found) != len(points):
                self.failure.lost += 1
                self.failure.note("lost", f"round {number}: a killed import stored {len(found)} of {len(points)} pins")
        else:
            self.failure.crashes += 1
            self.failure.note("crash", f"round {number}: import exited {proc.returncode}: {stderr[-2000:]!r}")
        return True

    def after_kill(self, when):
        if not os.path.exists(self.db):
            return None
        problems = check_db(self.db)
        if problems:
            self.failure.integrity += 1
            self.failure.note("integrity", f"{when}: {problems[:5]}")
        return self.look(when)

    def finish(self):
        """The last restart: the app resumes every album; each must complete."""
        self.hold_images(None)
        a = self.app("final")
        ready = self.wait_ready(a)
        deadline = time.monotonic() + self.args.final_limit
        pending = None
        while time.monotonic() < deadline:
            r = self.cli(["pins", "--json"])
            if r.returncode == 0:
                pins = json.loads(r.stdout)
                pending = [p for p in pins if p["state"] not in ("ready", "empty")
                           or (p["state"] == "ready" and p["downloaded"] < p["photos"] and self.unfinished(p["id"]))]
                if not pending:
                    break
            if a.proc.poll() is not None:
                break
            time.sleep(0.2)
        complete = ready and pending == []
        if not complete:
            self.failure.note("incomplete", f"albums that never completed: {json.dumps(pending)[:1500]}")
        a.send("q")
        try:
            code = a.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            code = None
        a.kill()
        if code != 0:
            self.failure.crashes += 1
            self.failure.note("crash", f"the last app did not quit cleanly ({code}); stderr: {a.stderr_tail()!r}")
        final = self.after_kill("after the last quit")
        ready_albums = sum(1 for p in (final or ({}, {}, {}))[0].values() if p[2] == "ready")
        return complete, len(pins) if pending is not None else 0, ready_albums

    def minimum_activity(self):
        """What a run must have acknowledged, by its number of rounds: a healthy run does several times
        more (docs/reliability.md), so falling short means the script no longer drives the app."""
        n = self.args.rounds
        return {"pins added": max(1, n // 2), "images stored": 2 * n, "photos deleted": max(1, n // 10),
                "pins deleted": max(1, n // 20), "pins moved": max(1, n // 10), "albums ready": 1}

    def unfinished(self, pin):
        """A ready album whose photos are not all stored: any still pending (failed for good is finished)."""
        r = self.cli(["album", str(pin), "--json"])
        if r.returncode != 0:
            return True
        return any(not p["downloaded"] and p.get("state", "pending") == "pending" for p in json.loads(r.stdout)["photos"])

    def run(self):
        start = time.monotonic()
        log(f"soak: seed {self.args.seed}, {self.args.rounds} rounds, {self.args.binary}")
        self.start_server()
        try:
            for n in range(1, self.args.rounds + 1):
                self.round(n)
            complete, albums, ready_albums = self.finish()
        finally:
            for term in self.live:
                if term.proc.poll() is None:
                    os.kill(term.proc.pid, signal.SIGKILL)
                    term.proc.wait()
            self.server.kill()
            self.server.wait()
        leaks = open(self.leaks).read().split("\n") if os.path.exists(self.leaks) else []
        leaks = [l for l in leaks if l]
        f = self.failure
        counts = dict(self.acks.counts, **{"albums ready": ready_albums})
        short = [f"{counts[k]} {k} (at least {need})" for k, need in self.minimum_activity().items() if counts[k] < need]
        short += [f"{self.activity['rounds short of activity']} rounds short of activity"] \
            if self.activity["rounds short of activity"] else []
        ok = (f.lost == 0 and f.resurrected == 0 and f.crashes == 0 and f.integrity == 0 and f.stuck == 0 and complete
              and not leaks and not short)
        log(f"rounds: {self.args.rounds}")
        log(f"kills: {self.kills}")
        log(f"rows lost: {f.lost}")
        log(f"resurrected rows: {f.resurrected}")
        log(f"albums resumed: {self.ledger.resumed}")
        log(f"crashes: {f.crashes}")
        log("acknowledged: " + ", ".join(f"{v} {k}" for k, v in counts.items()) + f"; {self.quits} quits")
        log(f"activity: {'ok' if not short else 'SHORT: ' + ', '.join(short)}")
        log(f"integrity failures: {f.integrity}")
        log(f"apps that never drew their map: {f.stuck}")
        log(f"albums completed: {albums if complete else 'NO'} ({albums} pins)")
        log(f"requests that would have left loopback: {len(leaks)}")
        log(f"duration: {time.monotonic() - start:.1f} s")
        log(f"result: {'ok' if ok else 'FAILED'} (seed {self.args.seed})")
        if ok and not self.args.keep:
            shutil.rmtree(self.folder, ignore_errors=True)
        else:
            log(f"files kept in {self.folder}")
        return 0 if ok else 1


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
    args.sanitizer_env = sanitizer_env.from_environment()
    sys.exit(Soak(args).run())


if __name__ == "__main__":
    main()
