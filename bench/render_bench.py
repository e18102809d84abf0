#!/usr/bin/env python3
"""`vtourist render IMAGE --size 80x40` against the `chafa` command on the same
JPEGs (640×480 and 1024×768, made here by a deterministic script), with the same
symbols and colours:

1. Speed: the whole process, spawn to exit, output to a pipe; runs interleaved,
   the order of each pair alternating (ours then chafa, chafa then ours, …) so
   neither always runs on a cache the other warmed; median ms of each and the
   ratio ours/chafa measured in the same run.  [target: ours <= 0.8x chafa]
2. Fidelity: the terminal output turned back into a picture (each cell 8×8
   pixels: the symbol's coverage mask in the fg colour, the rest in the bg
   colour) against the original box-filtered to the same size; PSNR in dB of
   ours and chafa's.  [target: ours >= chafa's]

Both draw with the same palette: in 256 colours vtourist uses pens 16–255 (the
colour cube and the grey ramp, whose colours every xterm-like terminal fixes),
so chafa runs with `--colors 240`, the same pens; pens 0–15 (themed, differently
in every terminal) in either output stop the benchmark. `make bench` judges
both targets on every row (bench/targets.py) and fails on a FAIL.

Python's standard library only; the pictures are written and read with the
system libturbojpeg (through ctypes), the library vtourist decodes with.
"""
import argparse
import ctypes
import ctypes.util
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import targets  # noqa: E402

SIZE = "80x40"
PICTURES = [(640, 480), (1024, 768)]
# chafa's own default symbol set without Legacy Computing glyphs: what vtourist draws.
CHAFA_SYMBOLS = "block+border+space-wide-inverted-legacy"
# Colour rows: the name, vtourist's extra environment, chafa's --colors (the same pens as ours).
COLOUR_ROWS = [("256 colours", {}, "240"), ("true colour", {"COLORTERM": "truecolor"}, "full")]
# Nothing of the caller's environment changes what is measured.
BASE_ENV = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"}


# --- libturbojpeg through ctypes ----------------------------------------------

def turbojpeg():
    name = ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0"
    lib = ctypes.CDLL(name)
    lib.tjInitCompress.restype = ctypes.c_void_p
    lib.tjInitDecompress.restype = ctypes.c_void_p
    return lib


TJPF_RGB = 0
TJSAMP_420 = 2


def encode_jpeg(tj, pixels, width, height, quality=90):
    """Baseline 4:2:0 JPEG bytes of 8-bit RGB pixels (a camera's usual kind)."""
    handle = ctypes.c_void_p(tj.tjInitCompress())
    out = ctypes.POINTER(ctypes.c_ubyte)()
    size = ctypes.c_ulong(0)
    source = (ctypes.c_ubyte * len(pixels)).from_buffer(pixels)
    status = tj.tjCompress2(handle, source, width, 0, height, TJPF_RGB, ctypes.byref(out), ctypes.byref(size),
                            TJSAMP_420, quality, 0)
    if status != 0:
        sys.exit("libturbojpeg could not write the test picture")
    data = ctypes.string_at(out, size.value)
    tj.tjFree(out)
    tj.tjDestroy(handle)
    return data


def decode_jpeg(tj, data):
    """(width, height, RGB bytes) at full size."""
    handle = ctypes.c_void_p(tj.tjInitDecompress())
    w, h, sub, cs = ctypes.c_int(), ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    tj.tjDecompressHeader3(handle, data, ctypes.c_ulong(len(data)), ctypes.byref(w), ctypes.byref(h),
                           ctypes.byref(sub), ctypes.byref(cs))
    out = (ctypes.c_ubyte * (w.value * h.value * 3))()
    if tj.tjDecompress2(handle, data, ctypes.c_ulong(len(data)), out, w.value, 0, h.value, TJPF_RGB, 0) != 0:
        sys.exit("libturbojpeg could not read the test picture")
    tj.tjDestroy(handle)
    return w.value, h.value, bytes(out)


# --- the test pictures --------------------------------------------------------

def value_noise(rnd, width, height, cell):
    """Smooth random texture in -1…1: a random grid every `cell` pixels, interpolated."""
    gw, gh = width // cell + 2, height // cell + 2
    grid = [[rnd.uniform(-1, 1) for _ in range(gw)] for _ in range(gh)]
    rows = []
    for y in range(height):
        gy, fy = divmod(y / cell, 1)
        fy = fy * fy * (3 - 2 * fy)
        top, bottom = grid[int(gy)], grid[int(gy) + 1]
        row = []
        for x in range(width):
            gx, fx = divmod(x / cell, 1)
            fx = fx * fx * (3 - 2 * fx)
            i = int(gx)
            a = top[i] + (top[i + 1] - top[i]) * fx
            b = bottom[i] + (bottom[i + 1] - bottom[i]) * fx
            row.append(a + (b - a) * fy)
        rows.append(row)
    return rows


def scene(width, height, seed=7):
    """A photograph-like landscape: a graded sky with clouds, a haloed sun, textured
    hills, a house with sharp edges, a fence of thin posts, and sensor noise.
    The same scene at any size; the same bytes on every run."""
    rnd = random.Random(seed)
    fine = value_noise(rnd, width, height, max(2, width // 160))
    coarse = value_noise(rnd, width, height, max(8, width // 20))
    pixels = bytearray(width * height * 3)
    for y in range(height):
        v = y / height
        for x in range(width):
            u = x / width
            r, g, b = 70 + 120 * v, 120 + 90 * v, 230 - 60 * v
            cloud = max(0.0, coarse[y][x]) * max(0.0, 1 - v * 2.2)
            r, g, b = r + (245 - r) * cloud, g + (245 - g) * cloud, b + (250 - b) * cloud
            d = math.hypot(u - 0.75, (v - 0.22) * 0.75)
            if d < 0.06:
                r, g, b = 255, 235 - 250 * d, 130
            elif d < 0.18:
                k = (0.18 - d) / 0.12 * 0.6
                r, g, b = r + (255 - r) * k, g + (225 - g) * k, b + (160 - b) * k
            hill = 0.55 + 0.08 * math.sin(u * 7.0 + 1.0) + 0.04 * math.sin(u * 19.0)
            if v > hill:
                t = (v - hill) / (1 - hill)
                grass = 35 * fine[y][x] + 20 * coarse[y][x]
                r, g, b = 45 + 60 * t + grass * 0.5, 115 + 40 * math.sin(u * 13) * (1 - t) + 25 * t + grass, 40 + 20 * t
            if 0.18 < u < 0.42 and 0.45 < v < 0.78:
                r, g, b = 185 + 20 * u + 12 * fine[y][x], 80 + 40 * v, 60
                if 0.24 < u < 0.30 and 0.52 < v < 0.62:
                    r, g, b = 250, 240, 170
                if 0.33 < u < 0.38 and 0.62 < v < 0.78:
                    r, g, b = 70, 40, 25
            if 0.15 < u < 0.45 and 0.45 - (0.15 - abs(u - 0.3)) * 1.2 < v < 0.45:
                r, g, b = 120, 30 + 15 * fine[y][x], 30
            if 0.80 < v < 0.90 and int(u * 60) % 3 == 0:
                r, g, b = 230, 225, 210
            n = rnd.gauss(0, 5)
            i = (y * width + x) * 3
            pixels[i] = max(0, min(255, int(r + n)))
            pixels[i + 1] = max(0, min(255, int(g + n)))
            pixels[i + 2] = max(0, min(255, int(b + n)))
    return pixels


def make_pictures(tj, folder):
    paths = []
    for width, height in PICTURES:
        path = os.path.join(folder, f"landscape_{width}x{height}.jpg")
        with open(path, "wb") as f:
            f.write(encode_jpeg(tj, scene(width, height), width, height))
        paths.append(path)
    return paths


# --- the two commands ---------------------------------------------------------

def ours(binary, picture, extra_env):
    return [binary, "render", picture, "--size", SIZE], {**BASE_ENV, **extra_env}


def chafas(chafa, picture, colors):
    return ([chafa, "--size", SIZE, "--colors", colors, "--symbols", CHAFA_SYMBOLS, "--format", "symbols",
             "--animate", "off", "--polite", "on", picture], dict(BASE_ENV))


def run(cmd_env):
    cmd, env = cmd_env
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {r.stderr.decode(errors='replace')}")
    return dt, r.stdout.decode("utf-8")


# --- terminal output back to a picture ----------------------------------------

ANSI16 = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
          (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
          (255, 0, 255), (0, 255, 255), (255, 255, 255)]
CUBE = [0, 95, 135, 175, 215, 255]


def xterm(pen):
    if pen < 16:
        return ANSI16[pen]
    if pen < 232:
        i = pen - 16
        return CUBE[i // 36], CUBE[(i // 6) % 6], CUBE[i % 6]
    level = 8 + 10 * (pen - 232)
    return level, level, level


SGR = re.compile(r"\x1b\[([0-9;]*)m")


def themed_pens(output):
    """The pens 0–15 (the terminal's theme) that an output sets, as 38;5;N / 48;5;N or 30–37, 90–97 and their backgrounds."""
    found = set()
    for m in SGR.finditer(output):
        values = [int(p) if p else 0 for p in m.group(1).split(";")]
        i = 0
        while i < len(values):
            p = values[i]
            if p in (38, 48) and i + 1 < len(values):
                if values[i + 1] == 5 and i + 2 < len(values):
                    if values[i + 2] < 16:
                        found.add(values[i + 2])
                    i += 3
                else:
                    i += 5
                continue
            if 30 <= p <= 37 or 40 <= p <= 47:
                found.add(p % 10)
            elif 90 <= p <= 97 or 100 <= p <= 107:
                found.add(p % 10 + 8)
            i += 1
    return found


def assert_fixed_palette(who, output):
    """Pens 0–15 are the terminal's theme: scoring them with any one palette would be a guess."""
    pens = themed_pens(output)
    if pens:
        sys.exit(f"{who} drew with themed pens {sorted(pens)}: the scores would not compare")


def box_drawing_mask(name):
    """chafa's 8×8 outline of a box-drawing character, from its Unicode name: a light
    line is one pixel at row/column 4, a heavy one two at 3–4; an arm runs from the
    edge across the other direction's stroke (`┐` is XXXXX on row 4 and column 4 below)."""
    words = name.removeprefix("BOX DRAWINGS ").split()
    dashes = {"DOUBLE": (0, 1, 2, 5, 6, 7), "TRIPLE": (0, 1, 3, 4, 6, 7), "QUADRUPLE": (0, 2, 4, 6)}
    heavy_span, light_span = (3, 4), (4,)
    mask = set()
    if len(words) == 4 and words[2] == "DASH":
        span = heavy_span if words[0] == "HEAVY" else light_span
        for a in dashes[words[1]]:
            for b in span:
                mask.add((a, b) if words[3] == "HORIZONTAL" else (b, a))
        return mask
    # Each arm's weight; a leading weight applies to the arms after it, a trailing one to those before.
    arms = {}
    expand = {"HORIZONTAL": ["LEFT", "RIGHT"], "VERTICAL": ["UP", "DOWN"],
              "LEFT": ["LEFT"], "RIGHT": ["RIGHT"], "UP": ["UP"], "DOWN": ["DOWN"]}
    prefix = words[0] in ("LIGHT", "HEAVY")
    weight, pending = None, []
    for word in words:
        if word in ("LIGHT", "HEAVY"):
            if prefix:
                weight = word
            else:
                arms.update({arm: word for arm in pending})
                pending = []
        elif word in expand:
            if prefix:
                arms.update({arm: weight for arm in expand[word]})
            else:
                pending += expand[word]
        elif word != "AND":
            raise ValueError(f"no outline for {name}")
    if pending or not arms:
        raise ValueError(f"no outline for {name}")
    span = {arm: heavy_span if w == "HEAVY" else light_span for arm, w in arms.items()}
    vertical = set(span.get("UP", ())) | set(span.get("DOWN", ()))
    horizontal = set(span.get("LEFT", ())) | set(span.get("RIGHT", ()))
    for arm, cross in span.items():
        if arm == "LEFT":
            mask |= {(x, y) for x in range(0, max(vertical, default=3) + 1) for y in cross}
        elif arm == "RIGHT":
            mask |= {(x, y) for x in range(min(vertical, default=4), 8) for y in cross}
        elif arm == "UP":
            mask |= {(x, y) for y in range(0, max(horizontal, default=3) + 1) for x in cross}
        else:
            mask |= {(x, y) for y in range(min(horizontal, default=4), 8) for x in cross}
    return mask


def block_mask(name):
    """The 8×8 coverage of a block element, from its Unicode name."""
    words = name.split()
    counts = {"ONE": 1, "THREE": 3, "FIVE": 5, "SEVEN": 7}
    # "LOWER THREE EIGHTHS BLOCK", "LEFT ONE QUARTER BLOCK", "UPPER HALF BLOCK": the side and the eighths covered.
    eighths = {"HALF": 4}
    if len(words) == 4 and words[1] in counts:
        eighths[words[1]] = counts[words[1]] * (2 if words[2].startswith("QUARTER") else 1)
    if name == "FULL BLOCK":
        return {(x, y) for x in range(8) for y in range(8)}
    if words[0] == "QUADRANT":
        mask = set()
        quadrants = " ".join(words[1:]).split(" AND ")
        for q in quadrants:
            vert, side = q.split()
            ys = range(0, 4) if vert == "UPPER" else range(4, 8)
            xs = range(0, 4) if side == "LEFT" else range(4, 8)
            mask |= {(x, y) for x in xs for y in ys}
        return mask
    if words[-1] == "BLOCK" and words[1] in eighths:
        n = eighths[words[1]]
        side = words[0]
        if side == "UPPER":
            return {(x, y) for x in range(8) for y in range(n)}
        if side == "LOWER":
            return {(x, y) for x in range(8) for y in range(8 - n, 8)}
        if side == "LEFT":
            return {(x, y) for x in range(n) for y in range(8)}
        if side == "RIGHT":
            return {(x, y) for x in range(8 - n, 8) for y in range(8)}
    raise ValueError(f"no outline for {name}")


def diagonal_mask(char):
    rising = {(x, 7 - x) for x in range(8)}
    falling = {(x, x) for x in range(8)}
    return {"╱": rising, "╲": falling, "╳": rising | falling}[char]


MASKS = {" ": frozenset()}


def mask(char):
    """The pixels (x, y) of an 8×8 cell that a symbol covers in its fg colour."""
    if char not in MASKS:
        name = unicodedata.name(char, "")
        if char in "╱╲╳":
            m = diagonal_mask(char)
        elif name.startswith("BOX DRAWINGS"):
            m = box_drawing_mask(name)
        elif 0x2580 <= ord(char) <= 0x259F:
            m = block_mask(name)
        else:
            raise ValueError(f"no outline for U+{ord(char):04X} {name}")
        MASKS[char] = frozenset(m)
    return MASKS[char]


SGR_OR_TEXT = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|([^\x1b])")


def cells(text):
    """Rows of (symbol, fg, bg) from terminal output; fg/bg are RGB or None (the default)."""
    rows, row = [], []
    fg = bg = None
    reverse = False
    last = None
    for m in SGR_OR_TEXT.finditer(text):
        params, final, char = m.groups()
        if char is not None:
            if char == "\n":
                rows.append(row)
                row = []
            elif char != "\r":
                last = (char, bg, fg) if reverse else (char, fg, bg)
                row.append(last)
            continue
        if final == "m":
            values = [int(p) if p else 0 for p in params.split(";")] if params else [0]
            i = 0
            while i < len(values):
                p = values[i]
                if p == 0:
                    fg = bg = None
                    reverse = False
                elif p == 7:
                    reverse = True
                elif p == 27:
                    reverse = False
                elif p in (38, 48):
                    if values[i + 1] == 5:
                        colour, i = xterm(values[i + 2]), i + 2
                    else:
                        colour, i = tuple(values[i + 2:i + 5]), i + 4
                    if p == 38:
                        fg = colour
                    else:
                        bg = colour
                elif p == 39:
                    fg = None
                elif p == 49:
                    bg = None
                elif 30 <= p <= 37 or 90 <= p <= 97:
                    fg = xterm(p - 30 if p < 90 else p - 90 + 8)
                elif 40 <= p <= 47 or 100 <= p <= 107:
                    bg = xterm(p - 40 if p < 100 else p - 100 + 8)
                i += 1
        elif final == "b" and last is not None:  # REP: the last symbol again
            row += [last] * int(params or 1)
        elif final == "C":  # cursor forward: cells left as they were (blank)
            row += [(" ", None, None)] * int(params or 1)
        # Anything else (cursor visibility, …) draws nothing.
    if row:
        rows.append(row)
    return rows


def picture_cells(rows):
    """The picture's own cells: the smallest rectangle holding every cell that sets a colour."""
    coloured = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c[1] or c[2]]
    if not coloured:
        sys.exit("no coloured cells in the output")
    x0, x1 = min(x for x, _ in coloured), max(x for x, _ in coloured)
    y0, y1 = min(y for _, y in coloured), max(y for _, y in coloured)
    return [row[x0:x1 + 1] for row in rows[y0:y1 + 1]]


def reconstruct(grid):
    """An RGB picture of 8×8 pixels a cell: fg where the symbol covers, bg elsewhere."""
    width, height = len(grid[0]) * 8, len(grid) * 8
    out = bytearray(width * height * 3)
    for cy, row in enumerate(grid):
        if len(row) * 8 != width:
            sys.exit("ragged picture rows in the output")
        for cx, (char, fg, bg) in enumerate(row):
            covered = mask(char)
            fg = fg or (229, 229, 229)
            bg = bg or (0, 0, 0)
            for y in range(8):
                base = ((cy * 8 + y) * width + cx * 8) * 3
                for x in range(8):
                    out[base + x * 3:base + x * 3 + 3] = bytes(fg if (x, y) in covered else bg)
    return width, height, out


def box_filter(width, height, pixels, out_w, out_h):
    """The picture scaled to out_w × out_h, each output pixel the mean of the source area it covers."""
    def weights(n_in, n_out):
        scale = n_in / n_out
        table = []
        for o in range(n_out):
            a, b = o * scale, (o + 1) * scale
            taps = []
            for i in range(int(a), min(n_in, math.ceil(b))):
                w = min(b, i + 1) - max(a, i)
                if w > 0:
                    taps.append((i, w / scale))
            table.append(taps)
        return table

    wx, wy = weights(width, out_w), weights(height, out_h)
    # Horizontal pass: rows of floats.
    rows = []
    for y in range(height):
        src = pixels[y * width * 3:(y + 1) * width * 3]
        row = []
        for taps in wx:
            r = g = b = 0.0
            for i, w in taps:
                r += src[i * 3] * w
                g += src[i * 3 + 1] * w
                b += src[i * 3 + 2] * w
            row += (r, g, b)
        rows.append(row)
    out = []
    for taps in wy:
        acc = [0.0] * (out_w * 3)
        for i, w in taps:
            src = rows[i]
            for k in range(out_w * 3):
                acc[k] += src[k] * w
        out += acc
    return out


def psnr(reference, picture):
    mse = sum((a - b) ** 2 for a, b in zip(reference, picture)) / len(reference)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def fidelity(tj, picture, output, references):
    """PSNR (dB) of one command's output against the box-filtered picture, and the cell box."""
    grid = picture_cells(cells(output))
    width, height, rebuilt = reconstruct(grid)
    if (width, height) not in references:
        with open(picture, "rb") as f:
            references[(width, height)] = box_filter(*decode_jpeg(tj, f.read()), width, height)
    return psnr(references[(width, height)], rebuilt), (len(grid[0]), len(grid))


# --- the benchmark ------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--chafa", default="chafa")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--pictures", help="keep the test pictures in this folder (default: a temporary one)")
    args = ap.parse_args()
    if shutil.which(args.chafa) is None:
        sys.exit(f"{args.chafa}: not found (make deps installs Debian's chafa)")
    if args.pictures:
        os.makedirs(args.pictures, exist_ok=True)
        ok = compare(args, args.pictures)
    else:
        with tempfile.TemporaryDirectory(prefix="vtourist-render-bench-") as folder:
            ok = compare(args, folder)
    sys.exit(0 if ok else 1)


def compare(args, folder):
    tj = turbojpeg()
    pictures = make_pictures(tj, folder)
    version = subprocess.run([args.chafa, "--version"], stdout=subprocess.PIPE, text=True).stdout.split("\n")[0]
    print(f"vtourist render against {version}, box {SIZE}, symbols {CHAFA_SYMBOLS}, 256 colours as --colors 240, "
          f"{args.runs} interleaved runs each (the order alternating), whole process, output to a pipe")

    verdicts = []
    print(f"Speed (median ms; ratio of the medians, ours/chafa)  [target <= {targets.RENDER_SPEED_RATIO:g}x]")
    for picture in pictures:
        name = os.path.basename(picture)
        for label, extra_env, colors in COLOUR_ROWS:
            mine, theirs = ours(args.binary, picture, extra_env), chafas(args.chafa, picture, colors)
            run(mine), run(theirs)  # warm the page cache
            t_ours, t_chafa = [], []
            for i in range(args.runs):
                # Who goes first alternates: neither always follows the other's warm caches.
                if i % 2 == 0:
                    t_ours.append(run(mine)[0])
                    t_chafa.append(run(theirs)[0])
                else:
                    t_chafa.append(run(theirs)[0])
                    t_ours.append(run(mine)[0])
            a, b = statistics.median(t_ours), statistics.median(t_chafa)
            # The fastest runs too: on a busy machine the medians carry other processes' load.
            print(f"  {name} {label:11}: vtourist {a * 1000:6.1f} ms, chafa {b * 1000:6.1f} ms, "
                  f"ratio {a / b:.2f}x  (fastest {min(t_ours) * 1000:.1f} / {min(t_chafa) * 1000:.1f} ms, "
                  f"{min(t_ours) / min(t_chafa):.2f}x)")
            verdicts.append(("render speed", a / b <= targets.RENDER_SPEED_RATIO,
                             f"{name} {label}: {a / b:.2f}x chafa's median (target <= {targets.RENDER_SPEED_RATIO:g}x)"))

    print("Fidelity (PSNR dB of the cells against the box-filtered picture, 8x8 pixels a cell)"
          "  [target: ours >= chafa's]")
    for picture in pictures:
        name = os.path.basename(picture)
        references = {}
        for label, extra_env, colors in COLOUR_ROWS:
            out_ours, out_chafa = run(ours(args.binary, picture, extra_env))[1], run(chafas(args.chafa, picture, colors))[1]
            assert_fixed_palette("vtourist", out_ours)
            assert_fixed_palette("chafa", out_chafa)
            p_ours, box_ours = fidelity(tj, picture, out_ours, references)
            p_chafa, box_chafa = fidelity(tj, picture, out_chafa, references)
            boxes = f"{box_ours[0]}x{box_ours[1]} cells" if box_ours == box_chafa else \
                f"{box_ours[0]}x{box_ours[1]} against {box_chafa[0]}x{box_chafa[1]} cells"
            print(f"  {name} {label:11}: vtourist {p_ours:.2f} dB, chafa {p_chafa:.2f} dB, "
                  f"difference {p_ours - p_chafa:+.2f} dB ({boxes})")
            verdicts.append(("render fidelity", round(p_ours, 2) >= round(p_chafa, 2),
                             f"{name} {label}: {p_ours:.2f} dB against chafa's {p_chafa:.2f} dB (target: not below)"))

    # Every verdict after every measurement: a FAIL stops nothing that follows.
    ok = True
    for name, passed, detail in verdicts:
        ok &= targets.verdict(name, passed, detail)
    return ok


if __name__ == "__main__":
    main()
