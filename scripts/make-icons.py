"""Draws the app icon (a d6 showing four pips on a sheet-green tile) as RGBA PNGs.

Run once when the icon changes: python3 scripts/make-icons.py. No third-party packages.
"""
import struct
import zlib
from pathlib import Path

GREEN = (30, 110, 80, 255)
IVORY = (250, 245, 230, 255)
INK = (25, 30, 35, 255)
CLEAR = (0, 0, 0, 0)


def pixel(x, y, n):
    u, v = x / n, y / n
    # Rounded tile.
    r = 0.18
    cx = min(max(u, r), 1 - r)
    cy = min(max(v, r), 1 - r)
    if (u - cx) ** 2 + (v - cy) ** 2 > r * r:
        return CLEAR
    # The die face.
    if 0.2 <= u <= 0.8 and 0.2 <= v <= 0.8:
        for px, py in ((0.35, 0.35), (0.65, 0.35), (0.35, 0.65), (0.65, 0.65)):
            if (u - px) ** 2 + (v - py) ** 2 < 0.07 ** 2:
                return INK
        return IVORY
    return GREEN


def png(n):
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel(x + 0.5, y + 0.5, n)) for x in range(n)) for y in range(n)
    )

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    ihdr = struct.pack(">IIBBBBB", n, n, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


out = Path(__file__).resolve().parent.parent / "icons"
out.mkdir(exist_ok=True)
for name, size in (("32x32.png", 32), ("128x128.png", 128), ("128x128@2x.png", 256), ("icon.png", 512)):
    (out / name).write_bytes(png(size))
