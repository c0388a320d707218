"""PNG pictures written byte by byte (no imaging library): any size its header claims, with the pixel rows given;
a decompression bomb is one that claims a huge size and carries almost no data."""

from __future__ import annotations

import struct
import zlib

GREY, RGB = 0, 2  # PNG colour types


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, rows: bytes, colour: int = RGB) -> bytes:
    """A PNG whose header says `width` x `height` pixels (8 bits a channel, `colour` type) and whose data is `rows`
    (each row a filter byte and its pixels) compressed."""
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND", b"")


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims `width` x `height` pixels, with almost no pixel data (a decompression bomb)."""
    return png(width, height, b"\x00" * 64, GREY)
