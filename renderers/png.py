"""Board PNGs written by hand: 8-bit palette images whose rows are deflated in bands.

A board is a "P" image of a few dozen colours, written here as an 8-bit palette PNG: each
row gets filter byte 0 (none, as Pillow's writer chooses for palette images), and the
chunks are put together by hand, since Pillow's own writer (row by row through a filter
stage) cost most of a move's drawing.

Deflating is still the largest part of drawing a board, and most of it is repeated work: a
shot changes one cell of one field, yet every board of the move used to be deflated whole.
So the rows are cut into bands of about
``PNG_BAND_BYTES``, and each band is deflated on its own, by a fresh zlib deflater that ends on
a byte boundary without closing the stream. A band's compressed bytes then depend on its
own rows only, so they can be kept by content (``DeflatedBands``) and put together with
other bands' in any order: the bands of a move's board that did not change since the last
move (the headers, the legend, the other field, most rows of the field shot at) are looked
up instead of deflated again. The result is a valid zlib stream whatever was kept, and the
same image always gives the same bytes, so two boards are equal exactly when their pixels
are (the hidden-information tests compare image bytes). The measurements behind this are
in docs/performance/moves.md.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from collections import OrderedDict

import xxhash
from isal import isal_zlib
from PIL import Image

PNG_DEFLATE_LEVEL = 1
"""zlib's deflate level for the bands: zlib, not the faster ISA-L, because the same image
must give the same bytes and ISA-L's output is not always the same (docs/performance/moves.md)."""

PNG_BAND_BYTES = 32768
"""About how many bytes of rows one band holds (whole rows, at least one): smaller bands
deflate more often, larger ones are looked up less often (docs/performance/moves.md)."""

PNG_BANDS_KEPT = 4096
"""Deflated bands kept (the least recently used go first): about 1-2 KB each, so some
5 MB, enough for the bands of the boards of a few hundred games moving in turn."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x01"
"""A zlib stream with a 32 KB window and no preset dictionary (the level bits only inform)."""
FINAL_EMPTY_BLOCK = b"\x03\x00"
"""A last deflate block holding nothing (fixed codes, end of block): it closes a stream
whose bands each end in a flush that leaves the stream open."""
ADLER_BASE = 65521


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes that depend on the pixels and palette only: no timestamps, no metadata.

    Anything but a plain palette image (an RGB image, a palette with transparency) goes
    through Pillow's writer.
    """
    if (
        image.mode != "P"
        or image.palette is None
        or image.palette.mode != "RGB"
        or ("transparency" in image.info)
    ):
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=False, compress_level=3)
        return buffer.getvalue()
    width, height = image.size
    palette = bytes(image.getpalette() or (0, 0, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette, no interlace
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", deflated_rows(image)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    crc = isal_zlib.crc32(data, isal_zlib.crc32(kind))
    return len(data).to_bytes(4, "big") + kind + data + crc.to_bytes(4, "big")


def band_rows(width: int) -> int:
    """Rows per band for an image ``width`` pixels wide (each row and its filter byte)."""
    return max(1, PNG_BAND_BYTES // (width + 1))


def deflated_rows(image: Image.Image, bands: DeflatedBands | None = None) -> bytes:
    """The image's rows, each after its filter byte 0 ("none"), as one zlib stream.

    Pillow's raw encoder pads each row with zeros up to a stride: one byte more gives every
    row a zero after it, and it hands over whole rows only. So a band of rows as the
    encoder gives it, less its last byte and after one zero, is its rows each with a zero
    before it: every band is deflated alike, and their checksums combine into the stream's.
    """
    bands = BANDS if bands is None else bands
    width, height = image.size
    image.load()
    stride = width + 1
    rows = Image._getencoder("P", "raw", ("P", stride))
    rows.setimage(image.im, (0, 0, width, height))
    parts = [ZLIB_HEADER]
    checksum = 1  # Adler-32 of nothing
    try:
        while True:
            _, done, band = rows.encode(stride * band_rows(width))
            if band:
                deflated, band_checksum, length = bands.deflated(band)
                parts.append(deflated)
                checksum = adler32_combine(checksum, band_checksum, length)
            if done:
                break
        if done < 0:
            raise RuntimeError(f"Pillow's raw encoder failed ({done}) on a board")
    finally:
        rows.cleanup()
    parts.append(FINAL_EMPTY_BLOCK)
    parts.append(checksum.to_bytes(4, "big"))
    return b"".join(parts)


class DeflatedBands:
    """Bands of rows deflated once, kept by their content for the boards that repeat them.

    A band is known by the 128-bit XXH3 hash of its bytes (some 20 GB/s, so hashing a
    whole board costs a few microseconds), a key no two different bands share in practice.
    The lock keeps the least-recently-used order whole when two threads draw at once.
    """

    def __init__(self, kept: int = PNG_BANDS_KEPT) -> None:
        self.kept = kept
        self._bands: OrderedDict[bytes, tuple[bytes, int, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._bands)

    def __contains__(self, band: bytes) -> bool:
        return xxhash.xxh3_128_digest(band) in self._bands

    def deflated(self, band: bytes) -> tuple[bytes, int, int]:
        """``band`` (rows each followed by a zero) as its rows each after a zero: the
        deflated bytes, their Adler-32 and their length."""
        key = xxhash.xxh3_128_digest(band)
        with self._lock:
            found = self._bands.get(key)
            if found is not None:
                self._bands.move_to_end(key)
                return found
        found = _deflate_band(band)
        with self._lock:
            self._bands[key] = found
            while len(self._bands) > self.kept:
                self._bands.popitem(last=False)
        return found


def _deflate_band(band: bytes) -> tuple[bytes, int, int]:
    """One band deflated by a fresh deflater, ending on a byte boundary with the stream
    left open (a sync flush), so that its bytes follow any other band's."""
    rows = memoryview(band)[:-1]
    deflate = zlib.compressobj(PNG_DEFLATE_LEVEL, zlib.DEFLATED, -15)
    deflated = deflate.compress(b"\0") + deflate.compress(rows)
    deflated += deflate.flush(zlib.Z_SYNC_FLUSH)
    checksum = isal_zlib.adler32(rows, isal_zlib.adler32(b"\0"))
    return deflated, checksum, len(band)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's checksum and
    the second's length (zlib's ``adler32_combine``, which Python does not expose)."""
    remainder = second_length % ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % ADLER_BASE
    low += (second & 0xFFFF) + ADLER_BASE - 1
    high += (first >> 16) + (second >> 16) + ADLER_BASE - remainder
    return (low % ADLER_BASE) | ((high % ADLER_BASE) << 16)


BANDS = DeflatedBands()
"""The bands every board of this process shares."""
