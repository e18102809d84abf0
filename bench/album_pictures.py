#!/usr/bin/env python3
"""Photograph-like album pictures for the album benchmarks: render_bench.py's landscape,
drawn once, then one variant a photo (shifted sideways, lighter or darker, tinted), so
every stored image is a different real JPEG. Python's standard library and libturbojpeg.

`album_pictures.py FOLDER [COUNT] [WIDTHxHEIGHT]` writes photo_NN.jpg files to FOLDER.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_bench import encode_jpeg, scene, turbojpeg  # noqa: E402


def variants(width, height, count):
    """`count` JPEGs (bytes) of the landscape, each shifted and toned differently."""
    tj = turbojpeg()
    base = bytes(scene(width, height))
    stride = width * 3
    out = []
    for i in range(count):
        shift = (i * 37 % width) * 3
        gain = 0.75 + 0.5 * (i % 7) / 6
        tone = bytes(min(255, int(v * gain)) for v in range(256))
        rows = bytearray()
        for y in range(height):
            row = base[y * stride:(y + 1) * stride]
            rows += row[shift:] + row[:shift]
        pixels = bytearray(rows.translate(tone))
        # A tint: one channel of every pixel a little stronger, in turn.
        channel = i % 3
        lift = bytes(min(255, v + 18) for v in range(256))
        pixels[channel::3] = pixels[channel::3].translate(lift)
        out.append(encode_jpeg(tj, pixels, width, height))
    return out


def write(folder, count=21, size=(640, 480)):
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i, data in enumerate(variants(size[0], size[1], count)):
        path = os.path.join(folder, f"photo_{i:02d}.jpg")
        with open(path, "wb") as f:
            f.write(data)
        paths.append(path)
    return paths


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: album_pictures.py FOLDER [COUNT] [WIDTHxHEIGHT]")
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    w, h = (int(n) for n in sys.argv[3].split("x")) if len(sys.argv) > 3 else (640, 480)
    write(sys.argv[1], count, (w, h))
