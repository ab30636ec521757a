"""Board PNGs as the bot writes them: every game's images decode to exactly what was drawn.

``renderers.png.encode_png`` writes palette PNGs itself rather than through Pillow's
writer, so these tests decode what it wrote with Pillow and compare it with the image the
renderer drew: the same size, the same palette and the same index at every pixel, for
boards of every preset of every game, for each seat and the channel, from setup to end.
"""

from __future__ import annotations

import io
import random
import sys
import zlib
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.catalog import GAMES
from bot.games import ENGINES
from bot.games.core import View
from renderers.png import (
    PNG_BAND_BYTES,
    DeflatedBands,
    adler32_combine,
    band_rows,
    deflated_rows,
    encode_png,
)

NAMES = ("Admiral Zoë", "Борис")
PLIES = 40
"""Random plies per preset: past every setup and into play, where the marks differ."""


def _views(key: str) -> Iterator[tuple[str, View]]:
    """Views of seeded random games of every preset of ``key``, for both seats and the
    channel: at the start, every ten plies, and where the game stands after ``PLIES``."""
    engine = ENGINES[key]
    rng = random.Random(key)
    for preset, rules in engine.presets.items():
        state = engine.new_game(rules, rng.randrange(1 << 30))
        for ply in range(PLIES + 1):
            if ply % 10 == 0 or ply == PLIES:
                for seat in (0, 1, None):
                    yield f"{preset} ply {ply} seat {seat}", engine.view(state, seat)
            movers = sorted(engine.to_move(state))
            if not movers:
                break
            seat = rng.choice(movers)
            action = rng.choice(list(engine.legal_actions(state, seat)))
            state = engine.apply(state, seat, action).state
        for seat in (0, 1, None):
            yield f"{preset} seat {seat} at the end", engine.view(state, seat)


def _decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_board_decodes_to_exactly_the_pixels_and_palette_drawn(key: str) -> None:
    render = GAMES[key].drawing.render
    draw = sys.modules[render.__module__].render_image  # the drawing that ``render`` encodes
    checked = 0
    for label, view in _views(key):
        drawn = draw(view, NAMES)
        png = encode_png(drawn)
        decoded = _decoded(png)
        assert (decoded.mode, decoded.size) == ("P", drawn.size), label
        assert decoded.getpalette() == drawn.getpalette(), label
        assert decoded.tobytes() == drawn.tobytes(), label
        assert png == render(view, NAMES), label  # what the bot sends, byte for byte
        checked += 1
    assert checked >= 3 * len(ENGINES[key].presets)


def test_a_board_is_written_as_an_eight_bit_palette_png_with_no_other_chunks() -> None:
    image = Image.new("P", (7, 3), 2)
    image.putpalette([0, 0, 0, 255, 255, 255, 10, 20, 30])
    image.putpixel((6, 2), 1)
    png = encode_png(image)
    chunks, offset = [], 8
    while offset < len(png):
        length = int.from_bytes(png[offset : offset + 4], "big")
        chunks.append((png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]))
        offset += 12 + length
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert chunks[0][1][8:10] == bytes((8, 3))  # bit depth 8, colour type 3 (palette)
    assert chunks[1][1] == bytes((0, 0, 0, 255, 255, 255, 10, 20, 30))
    decoded = _decoded(png)
    assert decoded.getpixel((6, 2)) == 1 and decoded.getpixel((0, 0)) == 2
    assert decoded.convert("RGB").getpixel((0, 0)) == (10, 20, 30)


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_images_not_in_palette_mode_are_still_written_faithfully(mode: str) -> None:
    image = Image.new(mode, (5, 4))
    image.putpixel((1, 2), (200, 100, 50) if mode == "RGB" else 200)
    decoded = _decoded(encode_png(image))
    assert decoded.mode == mode and decoded.tobytes() == image.tobytes()


def _random_image(size: tuple[int, int], seed: str) -> Image.Image:
    image = Image.new("P", size)
    image.putpalette([value for index in range(16) for value in (index, 2 * index, 3 * index)])
    dice = random.Random(seed)
    image.putdata([dice.randrange(16) for _ in range(size[0] * size[1])])
    return image


def _idat(png: bytes) -> bytes:
    idat_at = png.index(b"IDAT")
    length = int.from_bytes(png[idat_at - 4 : idat_at], "big")
    return png[idat_at + 4 : idat_at + 4 + length]


BAND = PNG_BAND_BYTES // 256  # rows 255 pixels wide (256 bytes with their filter byte) a band


@pytest.mark.parametrize(
    "size",
    [(1, 1), (255, BAND), (255, 2 * BAND), (255, BAND + 1), (256, 255), (300, 719), (40000, 3)],
    ids=["one pixel", "one band", "two bands", "a row over", "a byte wider", "across", "wide"],
)
def test_rows_cut_into_bands_are_each_deflated_once_with_one_filter_byte(
    size: tuple[int, int],
) -> None:
    """The rows reach the deflater in bands of whole rows (each row padded by one byte):
    at a band's edge no row is lost, doubled, or left with a padding byte, and a row wider
    than a band is a band of its own. ``zlib`` checks the stream's checksum too."""
    assert PNG_BAND_BYTES % 256 == 0  # so that rows 256 bytes long fill a band exactly
    width, height = size
    assert band_rows(40000) == 1
    image = _random_image(size, f"{width}x{height}")
    png = encode_png(image)
    rows = zlib.decompress(_idat(png))
    assert len(rows) == height * (width + 1)
    assert rows[:: width + 1] == bytes(height)  # every row's filter byte is 0 ("none")
    assert _decoded(png).tobytes() == image.tobytes()


def test_a_board_gives_the_same_bytes_whatever_bands_were_kept_before() -> None:
    """Kept bands only save work: a board drawn with none kept, with every band kept,
    after other boards, or with room for a single band, is the same bytes, because each
    band is deflated on its own from its rows alone."""
    first = _random_image((300, 700), "first")
    second = first.copy()
    second.putpixel((150, 350), (first.getpixel((150, 350)) + 1) % 16)  # one band differs
    fresh = deflated_rows(second, DeflatedBands())
    shared = DeflatedBands()
    deflated_rows(first, shared)
    kept = len(shared)
    assert kept == -(-700 // band_rows(300))
    again = deflated_rows(second, shared)
    assert len(shared) == kept + 1  # only the band holding the changed pixel was new
    assert again == fresh == deflated_rows(second, DeflatedBands(kept=1))
    assert zlib.decompress(again) == zlib.decompress(deflated_rows(second, DeflatedBands()))
    assert zlib.decompress(again) != zlib.decompress(deflated_rows(first, shared))


def test_the_oldest_band_is_forgotten_first_when_the_room_is_full() -> None:
    bands = DeflatedBands(kept=2)
    one, two, three = (bytes([value]) * 100 + b"\0" for value in (1, 2, 3))
    bands.deflated(one)
    bands.deflated(two)
    bands.deflated(one)  # now the most recently used
    bands.deflated(three)
    assert (one in bands, two in bands, three in bands) == (True, False, True)
    deflated, checksum, length = bands.deflated(one)
    assert zlib.decompressobj(-15).decompress(deflated) == b"\0" + bytes([1]) * 100
    assert (checksum, length) == (zlib.adler32(b"\0" + bytes([1]) * 100), 101)


@pytest.mark.parametrize("split", [0, 1, 5000, 65520, 65521, 65522, 200000])
def test_checksums_of_two_parts_combine_into_the_checksum_of_both(split: int) -> None:
    data = random.Random(split).randbytes(300000)
    first, second = data[:split], data[split:]
    combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(data)
