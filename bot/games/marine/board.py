"""The Marine Game board (Marine Game rules §2) as data: 20 hexes, 58 corners, 77 sides.

One table is written out by hand: the 20 hex centres in doubled-height coordinates, exactly
as §2.4 prints them. Everything else is derived from it with the formulas of §2.3 (each
hex's six corners, the corner numbers in reading order, the sides, who neighbours whom),
so the data has one source; ``tests/games/marine/test_board.py`` checks the result against the
printed tables and counts.

Points: a **hex** is its letter ``"A"``..``"T"`` (where U-boats stand), a **corner** is its
number ``1``..``58`` (where cruisers and destroyers stand).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.games.core import NotationError
from bot.games.grid import shorten

Hex = str
Corner = int
Point = Hex | Corner
"""Where a piece stands: a hex letter for a U-boat, a corner number for a battleship."""

HEX_CENTRES: Mapping[Hex, tuple[int, int]] = {
    "A": (0, -5),
    "B": (-1, -4),
    "C": (1, -4),
    "D": (0, -3),
    "E": (-1, -2),
    "F": (1, -2),
    "G": (-2, -1),
    "H": (0, -1),
    "I": (2, -1),
    "J": (-1, 0),
    "K": (1, 0),
    "L": (-2, 1),
    "M": (0, 1),
    "N": (2, 1),
    "O": (-1, 2),
    "P": (1, 2),
    "Q": (0, 3),
    "R": (-1, 4),
    "S": (1, 4),
    "T": (0, 5),
}
"""§2.4: each hex's centre as (col, row), doubled height: columns of 2, 5, 6, 5 and 2 hexes."""

HEXES: tuple[Hex, ...] = tuple(HEX_CENTRES)
"""Hex letters in reading order (north to south, then west to east)."""


def _corner_offsets(col: int, row: int) -> tuple[tuple[int, int], ...]:
    """§2.3: a flat-topped hex's corners NW, NE, E, SE, SW, W as (u, v)."""
    return (
        (3 * col - 1, row - 1),
        (3 * col + 1, row - 1),
        (3 * col + 2, row),
        (3 * col + 1, row + 1),
        (3 * col - 1, row + 1),
        (3 * col - 2, row),
    )


CORNER_POSITIONS: tuple[tuple[int, int], ...] = tuple(
    sorted(
        {uv for col, row in HEX_CENTRES.values() for uv in _corner_offsets(col, row)},
        key=lambda uv: (uv[1], uv[0]),
    )
)
"""Each corner's (u, v), indexed by ``corner - 1``: numbered in reading order (§2.3)."""

CORNERS: tuple[Corner, ...] = tuple(range(1, len(CORNER_POSITIONS) + 1))
_NUMBER = {uv: number for number, uv in zip(CORNERS, CORNER_POSITIONS, strict=True)}

HEX_CORNERS: Mapping[Hex, tuple[Corner, ...]] = {
    letter: tuple(_NUMBER[uv] for uv in _corner_offsets(*centre))
    for letter, centre in HEX_CENTRES.items()
}
"""§2.4: each hex's corners, NW NE E SE SW W."""

SIDES: frozenset[frozenset[Corner]] = frozenset(
    frozenset((ring[i], ring[(i + 1) % 6])) for ring in HEX_CORNERS.values() for i in range(6)
)
"""§2.6: two corners are joined by a side when they follow each other round one hex."""

CORNER_NEIGHBOURS: Mapping[Corner, frozenset[Corner]] = {
    corner: frozenset(
        other for side in SIDES if corner in side for other in side if other != corner
    )
    for corner in CORNERS
}
"""§2.5: the corners one hex side away."""

CORNER_HEXES: Mapping[Corner, frozenset[Hex]] = {
    corner: frozenset(letter for letter, ring in HEX_CORNERS.items() if corner in ring)
    for corner in CORNERS
}
"""§2.5: the hexes having this corner (one, two or three)."""

HEX_NEIGHBOURS: Mapping[Hex, frozenset[Hex]] = {
    letter: frozenset(
        other
        for other, ring in HEX_CORNERS.items()
        if other != letter and len(set(ring) & set(HEX_CORNERS[letter])) == 2
    )
    for letter in HEXES
}
"""§2.4: hexes sharing a side (two corners) with this one."""

U_BOAT_HARBOURS: tuple[Hex, Hex] = ("T", "A")
"""§2.7, indexed by side (0 South, 1 North): each side's own U-boat harbour hex."""

BATTLESHIP_HARBOURS: tuple[frozenset[Corner], frozenset[Corner]] = (
    frozenset({50, 51}),
    frozenset({8, 9}),
)
"""§2.7, indexed by side: the two corners of the harbour hex that face into the board."""


def position_of(corner: Corner) -> tuple[int, int]:
    """The corner's (u, v); drawn at ``x = u/2, y = v·√3/2`` for a unit hex (§2.3)."""
    return CORNER_POSITIONS[corner - 1]


def is_hex(point: object) -> bool:
    return isinstance(point, str) and point in HEX_CENTRES


def is_corner(point: object) -> bool:
    return isinstance(point, int) and not isinstance(point, bool) and 1 <= point <= len(CORNERS)


def point_name(point: Point) -> str:
    return str(point)


_POINT = re.compile(r"\s*(?:([A-Ta-t])|(\d{1,2}))\s*")


def parse_point(text: str) -> Point:
    """Read a hex letter (any case) or a corner number; refuses anything off the board."""
    match = _POINT.fullmatch(text)
    if match is not None and match.group(1):
        return match.group(1).upper()
    if match is not None and 1 <= int(match.group(2)) <= len(CORNERS):
        return int(match.group(2))
    raise NotationError(
        f"`{shorten(text)}` is not a point of the board: hexes are A to T, corners 1 to 58."
    )


def sort_key(point: Point) -> tuple[int, int]:
    """Corners first in number order, then hexes in letter order."""
    return (0, point) if isinstance(point, int) else (1, HEXES.index(point))
