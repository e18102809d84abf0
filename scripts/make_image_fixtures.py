#!/usr/bin/env python3
"""Makes the small picture files the Imaging tests decode (Tests/Fixtures/images/).

Run once (needs Pillow: `pip install pillow`); the generated files are committed,
so the tests need neither Pillow nor the network. Every picture is made of flat,
block-aligned areas of known colours, so the files stay a few KB and the tests can
check colours at known pixels within JPEG's tolerance.

    python3 scripts/make_image_fixtures.py
"""
import io
import os
import struct
import random

from PIL import Image, ImageDraw

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "images")

RED = (255, 0, 0)
GREEN = (0, 255, 0)
BLUE = (0, 0, 255)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
YELLOW = (255, 255, 0)
GREY = (128, 128, 128)


def jpeg_bytes(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    return buffer.getvalue()


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")


def blocks(size, areas, background=BLACK):
    """A picture of `size` with rectangles (x0, y0, x1, y1, colour), x1/y1 exclusive."""
    image = Image.new("RGB", size, background)
    draw = ImageDraw.Draw(image)
    for x0, y0, x1, y1, colour in areas:
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=colour)
    return image


def exif_segment(orientation, big_endian):
    """An APP1 Exif segment holding IFD0 with only the Orientation tag (0x0112, SHORT)."""
    e = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    # IFD0: one entry, then the offset of the next IFD (0 = none).
    tiff += struct.pack(e + "H", 1)
    tiff += struct.pack(e + "HHI", 0x0112, 3, 1) + struct.pack(e + "H", orientation) + b"\0\0"
    tiff += struct.pack(e + "I", 0)
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def with_segment_after_app0(jpeg, segment):
    """Inserts a segment after SOI and the JFIF APP0 (where cameras put Exif)."""
    assert jpeg[:2] == b"\xff\xd8"
    at = 2
    if jpeg[2:4] == b"\xff\xe0":
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    return jpeg[:at] + segment + jpeg[at:]


def patch_sof_size(jpeg, width, height):
    """Rewrites the frame header's declared size (SOF0/SOF2)."""
    i = 2
    while i < len(jpeg):
        assert jpeg[i] == 0xFF
        marker = jpeg[i + 1]
        length = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            # FF Cx, length(2), precision(1), height(2), width(2)
            return jpeg[:i + 5] + struct.pack(">HH", height, width) + jpeg[i + 9:]
        i += 2 + length
    raise ValueError("no SOF")


def main():
    os.makedirs(OUT, exist_ok=True)
    best = dict(quality=100, subsampling=0)  # 4:4:4, so single-pixel colours survive

    # 4×3 colour bars: columns red, green, blue, white; rows the same.
    bars = Image.new("RGB", (4, 3))
    for x, colour in enumerate([RED, GREEN, BLUE, WHITE]):
        for y in range(3):
            bars.putpixel((x, y), colour)
    write("bars_4x3.jpg", jpeg_bytes(bars, **best))

    # 1024×768 in four quadrants: red | green over blue | white (for the scale tests).
    quads = blocks((1024, 768), [(0, 0, 512, 384, RED), (512, 0, 1024, 384, GREEN),
                                 (0, 384, 512, 768, BLUE), (512, 384, 1024, 768, WHITE)])
    write("quadrants_1024x768.jpg", jpeg_bytes(quads, quality=85, optimize=True))

    # Greyscale 64×48: left half dark (40), right half light (200).
    grey = Image.new("L", (64, 48), 40)
    ImageDraw.Draw(grey).rectangle([32, 0, 63, 47], fill=200)
    write("grey_64x48.jpg", jpeg_bytes(grey, quality=95))

    # CMYK 64×48 (Adobe, inverted as Photoshop writes it): left red, right blue.
    cmyk = Image.new("CMYK", (64, 48), (0, 255, 255, 0))
    ImageDraw.Draw(cmyk).rectangle([32, 0, 63, 47], fill=(255, 255, 0, 0))
    write("cmyk_64x48.jpg", jpeg_bytes(cmyk, quality=95))

    # Progressive 64×48: top half yellow, bottom half blue.
    prog = blocks((64, 48), [(0, 0, 64, 24, YELLOW), (0, 24, 64, 48, BLUE)])
    write("progressive_64x48.jpg", jpeg_bytes(prog, quality=95, progressive=True))

    # Orientation: stored 48×32 (landscape), red marker at the stored top-left,
    # green marker at the stored top-right, the rest blue. One file per EXIF value
    # 1–8; odd values in big-endian (MM) Exif, even ones little-endian (II).
    stored = blocks((48, 32), [(0, 0, 16, 16, RED), (32, 0, 48, 16, GREEN)], background=BLUE)
    plain = jpeg_bytes(stored, quality=95, subsampling=0)
    for orientation in range(1, 9):
        data = with_segment_after_app0(plain, exif_segment(orientation, big_endian=orientation % 2 == 1))
        write(f"orientation{orientation}_48x32.jpg", data)

    # A single pixel.
    write("pixel_1x1.jpg", jpeg_bytes(Image.new("RGB", (1, 1), (200, 40, 120)), **best))

    # A 10000×200 panorama: red first 400 columns, blue last 400, grey between.
    pano = blocks((10000, 200), [(0, 0, 400, 200, RED), (9600, 0, 10000, 200, BLUE)], background=GREY)
    write("panorama_10000x200.jpg", jpeg_bytes(pano, quality=75, optimize=True))

    # A small JPEG whose frame header claims 60000×60000.
    small = jpeg_bytes(blocks((16, 16), [], background=GREEN), quality=90)
    write("huge_header_60000x60000.jpg", patch_sof_size(small, 60000, 60000))

    # Truncated: the first half of a 128×128 whose top half is red, bottom half
    # noisy (so the bytes spread over the whole picture and half the file ends
    # inside the bottom half).
    trunc = blocks((128, 128), [(0, 0, 128, 64, RED)], background=WHITE)
    rng = random.Random(7)
    for y in range(64, 128):
        for x in range(128):
            v = rng.randrange(256)
            trunc.putpixel((x, y), (v, 255 - v, v // 2))
    whole = jpeg_bytes(trunc, quality=80)
    write("truncated_128x128.jpg", whole[:len(whole) // 2])

    # Not JPEGs.
    noise = random.Random(42)
    write("random.bin", bytes(noise.randrange(256) for _ in range(2048)))
    write("empty.jpg", b"")
    write("page.html", b"<!DOCTYPE html>\n<html><head><title>Not found</title></head>"
                       b"<body><h1>404 Not Found</h1></body></html>\n")
    buffer = io.BytesIO()
    blocks((8, 8), [], background=RED).save(buffer, "PNG")
    write("picture.png", buffer.getvalue())


if __name__ == "__main__":
    main()
