#!/usr/bin/env python3
"""Crash soak: the full-screen app against the local photo server with slow
images, driven through pseudo-terminals this script owns, killed with SIGKILL
at random moments and started again, round after round.

Each round starts the app (sometimes a second instance on the same database,
sometimes a `vtourist drop LAT LON [--wait]` alongside), drops, drags and
deletes pins, opens albums and presses `x` (delete photo), `n` (New
Collection) and `a` (add more), then at a random moment reads the database and
kills every process with SIGKILL. Right after the kill, before anything opens
the database again, it checks with a read-only connection:

- `PRAGMA integrity_check` is ok and `PRAGMA foreign_key_check` finds nothing;
- no row seen before is missing: a pin (id and place) or a photo (id, pin and
  URL; its stored image too, once it had one) disappears only if a key this
  round sent could have removed it (a pin deleted, dragged, its album renewed,
  at most as many photos as `x` was pressed in its album);
- nothing seen gone comes back (ids are never reused: the tables are
  AUTOINCREMENT).

After the last round the app starts once more and every album must complete
(`vtourist pins --json`: every pin `ready` or `empty`, every photo of a ready
album stored). "albums resumed" counts albums left `downloading` at a kill
that completed after a restart.

Every process gets an explicit environment (a temporary HOME and XDG folders,
the database, both photo endpoints and every proxy variable on the local
server); nothing of the caller's. The seed is printed; `--seed` replays it.

    python3 scripts/soak.py --binary .build/release/vtourist --rounds 50 [--seed N]

Exit status 0 only when rows lost, resurrected rows, crashes, integrity
failures and incomplete albums are all 0.
"""
import argparse
import fcntl
import json
import os
import pty
import random
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(ROOT, "Tests", "Support", "photo_server.py")
ESC = "\x1b"
BACKSPACE = "\x7f"
# The app takes an Esc and what arrives with it as one key (Alt+key, ignored): let it read the Esc alone.
ESC_GAP = 0.06
# Pins this close (degrees, either way) to a pin the script acts on count as acted on: the key
# reaches "the pin under the cursor", the nearest pin of the marker there.
NEAR = 1.5
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


def read_db(db):
    """Pins, photos and whether the check pragmas pass, read in one transaction with a read-only
    connection; None when there is no database yet."""
    if not os.path.exists(db):
        return None
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30, isolation_level=None)
    try:
        con.execute("BEGIN")
        if not con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pin'").fetchone():
            # Killed before its first migration committed: a database with nothing in it yet.
            con.execute("COMMIT")
            return {}, {}
        pins = {r[0]: (r[1], r[2], r[3]) for r in con.execute("SELECT id, latitude, longitude, albumState FROM pin")}
        photos = {r[0]: (r[1], r[2], r[3] == "stored" and bool(r[4]), r[3]) for r in con.execute(
            "SELECT photo.id, photo.pinId, photo.url, photo.state, photoImage.photoId IS NOT NULL "
            "FROM photo LEFT JOIN photoImage ON photoImage.photoId = photo.id")}
        con.execute("COMMIT")
        return pins, photos
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


class Scope:
    """What the keys sent in one round may have removed: pins near a pin the script deleted or
    dragged (gone, or moved with their photos), albums renewed, photos deleted one by one."""

    def __init__(self):
        self.targets = []  # (lat, lon, kind, count)

    def add(self, lat, lon, kind, count=0):
        self.targets.append((lat, lon, kind, count))

    def _near(self, place, kinds):
        lat, lon = place
        return [t for t in self.targets if t[2] in kinds and abs(t[0] - lat) <= NEAR and abs(t[1] - lon) <= NEAR]

    def may_delete_pin(self, place):
        return bool(self._near(place, {"delete"}))

    def may_move_pin(self, place):
        return bool(self._near(place, {"drag"}))

    def photo_allowance(self, place):
        """How many photos of the pin at `place` may go: None for all of them."""
        near = self._near(place, {"delete", "drag", "renew", "photos"})
        if any(t[2] != "photos" for t in near):
            return None
        return sum(t[3] for t in near)


class Ledger:
    """Every row seen, every row seen gone; compares each new reading with the one before."""

    def __init__(self, failure):
        self.failure = failure
        self.pins = {}    # id -> (lat, lon, state)
        self.photos = {}  # id -> (pinId, url, stored, state)
        self.gone_pins = set()
        self.gone_photos = set()
        self.downloading_at_kill = set()
        self.resumed = 0
        self.reported_resurrected = set()
        # What the keys did, as the database shows it: proof that the script drives the app.
        self.done = {"pins added": 0, "pins deleted": 0, "pins moved": 0, "photos removed": 0}

    def compare(self, reading, scope, when):
        pins, photos = reading
        old_pins, old_photos = self.pins, self.photos
        # Pins: every one seen must still be there, where it was, unless the keys could have changed that.
        for pid, (lat, lon, _) in old_pins.items():
            now = pins.get(pid)
            if now is None:
                self.gone_pins.add(pid)
                self.done["pins deleted"] += 1
                if not scope.may_delete_pin((lat, lon)):
                    self.failure.lost += 1
                    self.failure.note("lost", f"{when}: pin {pid} at {lat:.5f},{lon:.5f} is gone")
            elif (now[0], now[1]) != (lat, lon):
                self.done["pins moved"] += 1
                if scope.may_move_pin((lat, lon)):
                    continue
                self.failure.lost += 1
                self.failure.note("lost", f"{when}: pin {pid} moved from {lat:.5f},{lon:.5f} to {now[0]:.5f},{now[1]:.5f}")
        # Photos: per pin, how many went (or lost their stored image) against what the keys allow.
        went = {}
        for fid, (pin, url, stored, _) in old_photos.items():
            now = photos.get(fid)
            if now is None:
                self.gone_photos.add(fid)
                went.setdefault(pin, []).append(f"photo {fid} gone")
            elif (now[0], now[1]) != (pin, url):
                went.setdefault(pin, []).append(f"photo {fid} is now {now[1]} of pin {now[0]}")
            elif stored and not now[2]:
                went.setdefault(pin, []).append(f"photo {fid}'s stored image gone (state {now[3]})")
        self.done["pins added"] += len(pins.keys() - old_pins.keys() - self.gone_pins)
        self.done["photos removed"] += sum(len(w) for w in went.values())
        for pin, what in went.items():
            place = old_pins.get(pin) or pins.get(pin)
            allowed = scope.photo_allowance(place[:2]) if place else None
            if allowed is not None and len(what) > allowed:
                self.failure.lost += len(what) - allowed
                self.failure.note("lost", f"{when}: pin {pin}: {len(what)} photo(s) went, the keys allow {allowed}: "
                                          + "; ".join(what[:4]))
        # Nothing seen gone comes back.
        for pid in pins.keys() & self.gone_pins:
            if ("pin", pid) not in self.reported_resurrected:
                self.reported_resurrected.add(("pin", pid))
                self.failure.resurrected += 1
                self.failure.note("resurrected", f"{when}: pin {pid} came back")
        for fid in photos.keys() & self.gone_photos:
            if ("photo", fid) not in self.reported_resurrected:
                self.reported_resurrected.add(("photo", fid))
                self.failure.resurrected += 1
                self.failure.note("resurrected", f"{when}: photo {fid} came back")
        # Albums left downloading at a kill that have completed since.
        for pid in list(self.downloading_at_kill):
            if pid not in pins:
                self.downloading_at_kill.discard(pid)
            elif pins[pid][2] in ("ready", "empty"):
                self.downloading_at_kill.discard(pid)
                self.resumed += 1
        self.pins, self.photos = pins, photos


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
        self.leaks = os.path.join(self.folder, "leaks.txt")
        self.started = 0
        self.dropped = []
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

    def environment(self):
        env = {
            "PATH": "/usr/bin:/bin", "HOME": self.home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "TERM": "xterm-256color",
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "VTOURIST_DB": self.db,
            "VTOURIST_FLICKR_ENDPOINT": self.base + "/flickr/rest",
            "VTOURIST_COMMONS_ENDPOINT": self.base + "/commons/api.php",
            "FLICKR_API_KEY": "soak-key",
        }
        for name in PROXY_VARIABLES:
            env[name] = self.base
        return env

    def app(self, name):
        self.started += 1
        term = Terminal([self.args.binary], self.environment(), os.path.join(self.logs, f"{name}-{self.started}.err"))
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

    def action(self, scope):
        """One thing a person does, as the keys it takes (each item sent on its own, a random moment apart)."""
        back = [ESC, ESC, ESC]  # whatever screen or dialog the last action left, back to the map
        pins = self.known_pins()
        kind = self.rng.choices(["drop", "delete", "drag", "album"], weights=[4, 2, 2, 4])[0]
        if kind == "drop" or not pins:
            lat, lon = self.rng.uniform(-60, 70), self.rng.uniform(-170, 170)
            self.journal(f"drop at {coordinate_text(lat, lon)}")
            return back + self.go_to(lat, lon) + ["p"]
        pid, lat, lon = self.rng.choice(pins)
        self.journal(f"{kind} pin {pid} at {coordinate_text(lat, lon)}")
        if kind == "delete":
            scope.add(lat, lon, "delete")
            return back + self.go_to(lat, lon) + ["x", "y"]
        if kind == "drag":
            scope.add(lat, lon, "drag")
            moves = [self.rng.choice("hjkl") for _ in range(self.rng.randint(1, 5))]
            return back + self.go_to(lat, lon) + ["m"] + moves + ["\r"]
        # The album: photos deleted, New Collection (confirmed: `y` only ever right after `n`, so on the
        # map, where `x` asks to delete the pin, `n` answers Keep first), Add more, the selection moved.
        keys = []
        deletes = 0
        renew = False
        for _ in range(self.rng.randint(1, 6)):
            k = self.rng.choices(["x", "n", "a", "move"], weights=[4, 2, 1, 2])[0]
            if k == "x":
                deletes += 1
                keys.append("x")
            elif k == "n":
                renew = True
                keys += ["n", "y"]
            elif k == "a":
                keys.append("a")
            else:
                keys.append(self.rng.choice("hjkl"))
        scope.add(lat, lon, "renew" if renew else "photos", deletes)
        self.journal(f"  album keys {keys!r}")
        return back + self.go_to(lat, lon) + ["\r"] + keys + [BACKSPACE]

    def drive(self, terms, scope, duration, number, first_kill=None):
        """Sends actions to the running apps, interleaved, for `duration` seconds (then stops mid-action).
        Now and then the database is read as it runs: what is committed then must be kept too.
        With `first_kill` (seconds), the second app is killed then and the first goes on alone."""
        start = time.monotonic()
        deadline = start + duration
        queues = {id(t): [] for t in terms}
        terms = list(terms)
        next_look = time.monotonic() + 0.3
        while time.monotonic() < deadline:
            if first_kill is not None and len(terms) > 1 and time.monotonic() - start >= first_kill:
                self.journal("the second app killed")
                self.reap(terms.pop(), "the second app")
            if time.monotonic() >= next_look:
                next_look = time.monotonic() + 0.3
                reading = read_db(self.db)
                if reading:
                    self.ledger.compare(reading, scope, f"round {number}, while the apps run")
            term = self.rng.choice(terms)
            queue = queues[id(term)]
            if not queue:
                self.journal(f"app {terms.index(term) + 1}:")
                queue += self.action(scope)
            key = queue.pop(0)
            term.send(key)
            time.sleep(ESC_GAP if key == ESC else self.rng.uniform(0, 0.08))

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
        scope = Scope()
        self.journal(f"round {number}")
        hold = self.rng.random() < 0.4
        self.hold_images(self.rng.randint(0, 20) if hold else None)
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
            duration = self.rng.uniform(0.2, 2.5)
            first_kill = self.rng.uniform(0, duration) if second and self.rng.random() < 0.5 else None
            self.drive(terms, scope, duration, number, first_kill)
        before = read_db(self.db)
        if before:
            self.ledger.compare(before, scope, f"round {number}, before the kill")
        for i, t in enumerate(terms):
            self.reap(t, "the app" if i == 0 else "the second app")
        if drop:
            proc, err, wait, lat, lon = drop
            if proc.poll() is None:
                proc.kill()
                self.kills += 1
            proc.wait()
            err.close()
            printed = proc.stdout.read().decode().strip()
            proc.stdout.close()
            if proc.returncode == 0:
                # The pin `drop` reported is committed: it must be in every reading from now on.
                self.dropped.append((int(printed), lat, lon))
            with open(err.name, "rb") as f:
                text = f.read()[-2000:].decode("utf-8", "replace")
            # The app may delete the pin `drop --wait` waits for: it says so and fails, as it should.
            deleted = "vanished while downloading" in text and scope.may_delete_pin((lat, lon))
            if proc.returncode not in (0, -signal.SIGKILL) and not deleted:
                self.failure.crashes += 1
                self.failure.note("crash", f"round {number}: drop{' --wait' if wait else ''} exited with "
                                           f"{proc.returncode}; stderr: {text!r}")
        after = self.after_kill(scope, f"round {number}, after the kill")
        for pid, lat, lon in self.dropped:
            if (after is None or pid not in after[0]) and not scope.may_delete_pin((lat, lon)):
                self.failure.lost += 1
                self.failure.note("lost", f"round {number}: pin {pid} that `vtourist drop` reported is not stored")
        self.dropped = []
        if after:
            self.ledger.downloading_at_kill |= {pid for pid, p in after[0].items() if p[2] == "downloading"}
        if self.args.verbose:
            pins, photos = after or ({}, {})
            log(f"round {number}: {len(terms)} app(s){', drop' if drop else ''}{', images held' if hold else ''}"
                f"{', early kill' if early else ''}; {len(pins)} pins, {len(photos)} photos, "
                f"{sum(1 for p in pins.values() if p[2] == 'downloading')} downloading")

    def after_kill(self, scope, when):
        if not os.path.exists(self.db):
            return None
        problems = check_db(self.db)
        if problems:
            self.failure.integrity += 1
            self.failure.note("integrity", f"{when}: {problems[:5]}")
        reading = read_db(self.db)
        self.ledger.compare(reading, scope, when)
        return reading

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
        self.after_kill(Scope(), "after the last quit")
        return complete, len(pins) if pending is not None else 0

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
            complete, albums = self.finish()
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
        ok = (f.lost == 0 and f.resurrected == 0 and f.crashes == 0 and f.integrity == 0 and f.stuck == 0 and complete
              and not leaks)
        log(f"rounds: {self.args.rounds}")
        log(f"kills: {self.kills}")
        log(f"rows lost: {f.lost}")
        log(f"resurrected rows: {f.resurrected}")
        log(f"albums resumed: {self.ledger.resumed}")
        log(f"crashes: {f.crashes}")
        log("done: " + ", ".join(f"{v} {k}" for k, v in self.ledger.done.items()) + f", {self.quits} quits")
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
    sys.exit(Soak(args).run())


if __name__ == "__main__":
    main()
