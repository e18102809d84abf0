"""A new database made as a user makes one: `vtourist config set` of one setting to the default the
binary itself reports, since the reading commands (`pins`, `album`) only open a database that exists."""
import subprocess

# Stored at its default, so what the benchmarks measure is as on a database that holds no setting.
SETTING = "photos_per_collection"


def create(binary, db, env):
    """Creates the database at db with the binary's own schema; exits with the binary's message if it cannot."""
    got = subprocess.run([binary, "config", "get", SETTING, "--db", db], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if got.returncode != 0:
        raise SystemExit(f"vtourist config get {SETTING} failed: {got.stderr.strip()}")
    put = subprocess.run([binary, "config", "set", SETTING, got.stdout.strip(), "--db", db], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if put.returncode != 0:
        raise SystemExit(f"vtourist config set {SETTING} failed: {put.stderr.strip()}")
