"""Warships tokens as the board and its key draw them: each type's shape and its code.

Every type has an outline of its own (octagon, diamond, hexagon, arrow, capsule, cross,
shield, hull, fort, spiked mine), so types differ by shape as well as by their code, and a
colour-blind reader or a phone's small image still tells them apart. The board and the key
under it stamp the same sprites, so the key shows exactly what the board draws.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.warships.units import Kind
from renderers.common import Sprite, board_palette, make_sprite

PALETTE = board_palette("warships")
"""The board's colours: ``renderers/palettes.toml``."""


CELL = 36
"""A field's side in px; a token fills its field (28 px on a 360 px phone)."""
CODE_SIZE = 20
"""A unit's code on its token, in px: 15 px on a 360 px phone."""
MINE_CODE = 15
"""``MN`` on a mine, smaller than a ship's code: the spiked ball leaves less room."""
REPLAY_CODE = 20
"""A unit's code in a replay frame, in px: as wide as a cell holds, and the firing range
left out (a replay shows the board at two fifths or less, where 13 px is a blur)."""

# Each shape fills most of a field, leaving room in its middle for a two-letter code.

Points = list[tuple[float, float]]


def _polygon(size: int, corners: list[tuple[float, float]]) -> Points:
    """``corners`` given in fractions of a field, turned into pixels inside ``size``."""
    pad = 2
    span = size - 2 * pad
    return [(pad + x * span, pad + y * span) for x, y in corners]


SHAPES: dict[Kind | None, list[tuple[float, float]] | str] = {
    None: "disc",  # a token whose type the viewer may not know
    Kind.BATTLESHIP: [
        (0.3, 0),
        (0.7, 0),
        (1, 0.3),
        (1, 0.7),
        (0.7, 1),
        (0.3, 1),
        (0, 0.7),
        (0, 0.3),
    ],
    Kind.MISSILE_SHIP: [(0.5, -0.04), (1.04, 0.5), (0.5, 1.04), (-0.04, 0.5)],
    Kind.CRUISER: [(0.25, 0.04), (0.75, 0.04), (1, 0.5), (0.75, 0.96), (0.25, 0.96), (0, 0.5)],
    Kind.DESTROYER: [(0.5, 0), (1, 0.38), (1, 1), (0, 1), (0, 0.38)],
    Kind.SUBMARINE: "capsule",
    Kind.ESCORT: [
        (0.3, 0),
        (0.7, 0),
        (0.7, 0.22),
        (1, 0.22),
        (1, 0.78),
        (0.7, 0.78),
        (0.7, 1),
        (0.3, 1),
        (0.3, 0.78),
        (0, 0.78),
        (0, 0.22),
        (0.3, 0.22),
    ],
    Kind.MINESWEEPER: [(0, 0), (1, 0), (1, 0.6), (0.5, 1), (0, 0.6)],
    Kind.LANDING_SHIP: [(0, 0.12), (1, 0.12), (0.8, 0.9), (0.2, 0.9)],
    Kind.BATTERY: "fort",
    Kind.MINE: "mine",
}
"""Each type's outline, so that types differ by shape as well as by their code."""


def _paint_shape(
    draw: ImageDraw.ImageDraw, kind: Kind | None, size: int, fill: int, edge: int
) -> None:
    shape = SHAPES[kind]
    pad = 2
    inner = (pad, pad, size - 1 - pad, size - 1 - pad)
    if shape == "disc":
        draw.ellipse((3, 3, size - 4, size - 4), fill=fill, outline=edge, width=2)
    elif shape == "capsule":
        top, bottom = round(size * 0.18), round(size * 0.82)
        draw.rounded_rectangle(
            (pad, top, size - 1 - pad, bottom), (bottom - top) // 2, fill, edge, 2
        )
    elif shape == "fort":
        merlon = size // 5
        x0, y0, x1, y1 = inner
        draw.rectangle((x0, y0 + merlon, x1, y1), fill=fill, outline=edge, width=2)
        for i in (0, 2, 4):
            left = x0 + i * (x1 - x0) // 5
            draw.rectangle((left, y0, left + merlon, y0 + merlon + 2), fill=fill, outline=edge)
    elif shape == "mine":
        centre, ball = size / 2, size * 0.34
        spokes: tuple[tuple[float, float], ...] = ((0, 1), (1, 0), (0.7, 0.7), (0.7, -0.7))
        for dx, dy in spokes:
            reach = size * 0.47
            draw.line(
                (
                    centre - dx * reach,
                    centre - dy * reach,
                    centre + dx * reach,
                    centre + dy * reach,
                ),
                fill=edge,
                width=3,
            )
        draw.ellipse(
            (centre - ball, centre - ball, centre + ball, centre + ball),
            fill=fill,
            outline=edge,
            width=2,
        )
    else:
        assert isinstance(shape, list)
        draw.polygon(_polygon(size, shape), fill=fill, outline=edge, width=2)


@lru_cache(maxsize=64)
def token_shape(kind: Kind | None, size: int, colour: str, edge: str) -> Sprite:
    return make_sprite(
        (size, size), lambda draw: _paint_shape(draw, kind, size, PALETTE[colour], PALETTE[edge])
    )


def draw_token(
    image: Image.Image, corner: tuple[int, int], kind: Kind | None, colour: str, replay: bool
) -> None:
    """A token in its owner's ``colour`` with its code, blank where its type is unknown."""
    token_shape(kind, CELL, colour, "ink").stamp(image, corner)
    if kind is not None:
        draw_code(image, corner, kind, colour, replay)


def draw_mine(image: Image.Image, corner: tuple[int, int], colour: str, replay: bool) -> None:
    """A mine as both sides see one in the open, a hazard to both: drawn dark, rimmed in
    its owner's ``colour``."""
    x0, y0 = corner
    token_shape(Kind.MINE, CELL, "mine", colour).stamp(image, corner)
    size = REPLAY_CODE if replay else MINE_CODE
    middle = (x0 + CELL / 2, y0 + CELL / 2)
    PALETTE.text(image, middle, "MN", size, "text", "mine", "mm", "glyphs")


def draw_code(
    image: Image.Image, corner: tuple[int, int], kind: Kind, colour: str, replay: bool = False
) -> None:
    """A unit's code, large in the middle of its token: its range is in the key below the
    board, since a digit small enough to share the token could not be read on a phone."""
    x0, y0 = corner
    size = REPLAY_CODE if replay else CODE_SIZE
    middle = (x0 + CELL / 2, y0 + CELL / 2)
    PALETTE.text(image, middle, kind.value, size, "ink", colour, "mm", "glyphs")
