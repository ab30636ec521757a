"""Taking (Marine Game rules §6): the circle cruiser > destroyer > U-boat > cruiser.

Only the piece that moved triggers anything, and only at its destination (R-9). It takes
every enemy piece of its prey type within reach (R-8) and is itself taken when an enemy of
its predator type is within reach (suicide); both may happen in one move (§6.1). Reach is
the same relation both ways round, seen from the mover:

| mover at    | prey (taken)                        | predator (takes the mover)           |
| ----------- | ----------------------------------- | ------------------------------------ |
| cruiser X   | destroyers on corners next to X     | U-boats in hexes having corner X     |
| destroyer X | U-boats in hexes having corner X    | cruisers on corners next to X        |
| U-boat H    | cruisers on the corners of H        | destroyers on the corners of H       |
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.games.marine.board import CORNER_HEXES, CORNER_NEIGHBOURS, HEX_CORNERS, Point
from bot.games.marine.pieces import Kind, Piece

PREY: Mapping[Kind, Kind] = {
    Kind.CRUISER: Kind.DESTROYER,
    Kind.DESTROYER: Kind.U_BOAT,
    Kind.U_BOAT: Kind.CRUISER,
}
"""§1.5: what each type takes."""

PREDATOR: Mapping[Kind, Kind] = {prey: hunter for hunter, prey in PREY.items()}
"""§1.5: what takes each type."""


def within_reach(mover: Piece, kind: Kind) -> Iterable[Point]:
    """The points from which a piece of ``kind`` and the mover meet, per the table above."""
    point = mover.point
    if isinstance(point, str):  # a U-boat in a hex meets battleships on its corners
        return HEX_CORNERS[point]
    if kind is Kind.U_BOAT:  # a battleship meets U-boats in the hexes it is a corner of
        return CORNER_HEXES[point]
    return CORNER_NEIGHBOURS[point]  # cruiser and destroyer meet one side apart


def enemies(at: Mapping[Point, Piece], mover: Piece, kind: Kind) -> list[Piece]:
    found = (at.get(point) for point in within_reach(mover, kind))
    return [p for p in found if p is not None and p.side != mover.side and p.kind is kind]


def resolve(at: Mapping[Point, Piece], mover: Piece) -> tuple[list[Piece], bool]:
    """§6: what the mover (already at its new point) takes, and whether it is taken."""
    taken = enemies(at, mover, PREY[mover.kind])
    suicide = bool(enemies(at, mover, PREDATOR[mover.kind]))
    return taken, suicide
