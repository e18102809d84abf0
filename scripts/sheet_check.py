#!/usr/bin/env python3
"""The saved album's index.html in a real browser with no network: `vtourist drop --wait` against
the local photo stand-in, `vtourist album 1 --save DIR`, then headless Chromium draws DIR/index.html
in a network namespace of its own (`unshare -n`: no route anywhere, loopback down) and writes a
screenshot. Passes when the pictures are drawn from the files beside the sheet: the screenshot is
mostly the photos' vivid colours, and the same sheet with its pictures moved away is not (a
broken image draws no colour). Also checks the DOM Chromium built: one <img> per saved photo.

    python3 scripts/sheet_check.py --binary .build/release/vtourist --chromium /usr/bin/chromium
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "Tests", "Support", "photo_server.py")


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG, with its filters undone."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                sys.exit(f"{path}: a PNG of depth {depth}, colour type {colour}")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def vivid_share(path):
    """The share of pixels whose colour is strong (max − min channel over 96): photos, not page."""
    width, height, channels, rows = png_pixels(path)
    vivid = total = 0
    for row in rows[::4]:
        for x in range(0, width * channels, channels * 4):
            r, g, b = row[x], row[x + 1], row[x + 2]
            total += 1
            if max(r, g, b) - min(r, g, b) > 96:
                vivid += 1
    return vivid / max(1, total)


def chromium(browser, args, work):
    """Chromium headless with no network: its own network namespace, and no proxy or resolver to reach."""
    command = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
               f"--user-data-dir={os.path.join(work, 'profile')}", "--proxy-server=127.0.0.1:9",
               "--host-resolver-rules=MAP * ~NOTFOUND"] + args
    if os.geteuid() == 0 and shutil.which("unshare"):
        command = ["unshare", "-n"] + command
    r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8"})
    if r.returncode != 0:
        sys.exit(f"chromium failed ({r.returncode}): {r.stderr.decode(errors='replace')[-2000:]}")
    return r.stdout.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="vtourist-sheet-")
    server = subprocess.Popen(["/usr/bin/python3", SERVER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    try:
        port = int(server.stdout.readline().split()[1])
        base = f"http://127.0.0.1:{port}"
        env = {"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "VTOURIST_DB": os.path.join(work, "v.sqlite"), "FLICKR_API_KEY": "good-key",
               "VTOURIST_FLICKR_ENDPOINT": f"{base}/flickr/rest", "VTOURIST_COMMONS_ENDPOINT": f"{base}/commons/api.php"}
        subprocess.run([args.binary, "drop", "Oslo", "--wait"], env=env, check=True, capture_output=True)
        folder = os.path.join(work, "Oslo album")
        saved = subprocess.run([args.binary, "album", "1", "--save", folder], env=env, check=True,
                               capture_output=True, text=True)
        photos = [line for line in saved.stdout.splitlines() if line.endswith(".jpg")]
    finally:
        server.terminate()
        server.wait()
    sheet = "file://" + os.path.join(folder, "index.html").replace(" ", "%20")

    dom = chromium(args.chromium, ["--dump-dom", sheet], work)
    images = dom.count("<img ")
    shot = os.path.join(work, "sheet.png")
    chromium(args.chromium, ["--window-size=1200,1400", f"--screenshot={shot}", sheet], work)
    drawn = vivid_share(shot)
    # The same sheet with its pictures gone: what a sheet that loads nothing looks like.
    aside = os.path.join(work, "aside")
    os.mkdir(aside)
    for name in os.listdir(folder):
        if name.endswith(".jpg"):
            os.rename(os.path.join(folder, name), os.path.join(aside, name))
    bare = os.path.join(work, "bare.png")
    chromium(args.chromium, ["--window-size=1200,1400", f"--screenshot={bare}", sheet], work)
    missing = vivid_share(bare)

    print(f"index.html offline in Chromium: {images} images in the DOM for {len(photos)} photos saved; "
          f"vivid pixels {drawn:.0%} with the pictures, {missing:.0%} with them moved away")
    ok = len(photos) == 21 and images == len(photos) and drawn > 0.30 and missing < 0.10
    print("PASS sheet offline" if ok else "FAIL sheet offline")
    if ok:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"kept for a look: {work}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
