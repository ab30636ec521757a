"""Board PNGs as the bot writes them: every game's images decode to exactly what was drawn.

``renderers.common.encode_png`` writes palette PNGs itself rather than through Pillow's
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

from bot.games import ENGINES
from bot.games.core import View
from bot.presenter import RENDERERS
from renderers.common import PNG_BLOCK, encode_png

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


@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_every_board_decodes_to_exactly_the_pixels_and_palette_drawn(key: str) -> None:
    render = RENDERERS[key][0]
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


@pytest.mark.parametrize(
    "size",
    [(1, 1), (255, PNG_BLOCK // 256), (255, PNG_BLOCK // 128), (256, 255), (300, 719), (9000, 3)],
    ids=["one pixel", "rows fill one block", "two blocks", "a byte short", "across", "wide"],
)
def test_rows_handed_over_in_blocks_are_each_deflated_once_with_one_filter_byte(
    size: tuple[int, int],
) -> None:
    """The rows reach the deflater in blocks of ``PNG_BLOCK`` bytes (each row padded by
    one byte): at a block's edge no row is lost, doubled, or left with a padding byte."""
    assert PNG_BLOCK % 256 == 0  # so that rows 256 bytes long fill a block exactly
    width, height = size
    image = Image.new("P", size)
    image.putpalette([value for index in range(16) for value in (index, 2 * index, 3 * index)])
    dice = random.Random(f"{width}x{height}")
    image.putdata([dice.randrange(16) for _ in range(width * height)])
    png = encode_png(image)
    idat_at = png.index(b"IDAT")
    length = int.from_bytes(png[idat_at - 4 : idat_at], "big")
    rows = zlib.decompress(png[idat_at + 4 : idat_at + 4 + length])
    assert len(rows) == height * (width + 1)
    assert rows[:: width + 1] == bytes(height)  # every row's filter byte is 0 ("none")
    assert _decoded(png).tobytes() == image.tobytes()
