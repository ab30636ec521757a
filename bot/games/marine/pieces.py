"""The Marine Game's pieces (Marine Game rules §1.2, §3) and its opening setup (§4)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.games.marine import board
from bot.games.marine.board import Point
from bot.games.words import with_article


class Kind(Enum):
    """The three piece types; the value is the letter the text board writes."""

    CRUISER = "C"
    DESTROYER = "D"
    U_BOAT = "U"

    @property
    def noun(self) -> str:
        return {"C": "cruiser", "D": "destroyer", "U": "U-boat"}[self.value]

    @property
    def is_battleship(self) -> bool:
        """§1.2: cruisers and destroyers stand on corners; U-boats in hexes (§3.1)."""
        return self is not Kind.U_BOAT


SIDE_NAMES = ("South", "North")
"""Side 0 moves first from the bottom of the board (§4, R-5); side 1 faces it."""


@dataclass(frozen=True)
class Piece:
    """One piece on the board (or, in the list of losses, where it was taken)."""

    kind: Kind
    side: int
    """0 South, 1 North; the state maps sides to seats."""
    point: Point

    def __post_init__(self) -> None:
        fits = board.is_corner(self.point) if self.kind.is_battleship else board.is_hex(self.point)
        if not fits or self.side not in (0, 1):
            raise ValueError(f"{with_article(self.kind.noun)} cannot stand on {self.point!r}")

    def describe(self) -> str:
        """``South destroyer on 46``."""
        return f"{SIDE_NAMES[self.side]} {self.kind.noun} {_on(self.point)}"


def _on(point: Point) -> str:
    return f"in {point}" if isinstance(point, str) else f"on {point}"


def where(point: Point) -> str:
    """``in Q`` for a hex, ``on 46`` for a corner."""
    return _on(point)


def _side(
    side: int, boats: str, cruisers: tuple[int, ...], destroyers: tuple[int, ...]
) -> tuple[Piece, ...]:
    return (
        *(Piece(Kind.U_BOAT, side, letter) for letter in boats),
        *(Piece(Kind.CRUISER, side, corner) for corner in cruisers),
        *(Piece(Kind.DESTROYER, side, corner) for corner in destroyers),
    )


OPENING: tuple[Piece, ...] = (
    *_side(0, "RST", (50, 51), (45, 46, 47, 48)),
    *_side(1, "ABC", (8, 9), (11, 12, 13, 14)),
)
"""§4: per side three U-boats, two cruisers on its battleship harbour, four destroyers."""
