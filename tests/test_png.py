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
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.games import ENGINES
from bot.games.core import View
from bot.presenter import RENDERERS
from renderers.common import encode_png

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
