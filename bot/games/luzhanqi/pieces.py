"""The 25 pieces of each side (rules section 3) and a piece on the board."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.games.luzhanqi.board import Colour


class Kind(Enum):
    """A piece kind; the value is its one-character code in deployment texts."""

    MARSHAL = "9"
    GENERAL = "8"
    MAJOR_GENERAL = "7"
    BRIGADIER = "6"
    COLONEL = "5"
    MAJOR = "4"
    CAPTAIN = "3"
    LIEUTENANT = "2"
    ENGINEER = "1"
    BOMB = "B"
    LANDMINE = "L"
    FLAG = "F"

    @property
    def rank(self) -> int | None:
        """9 (marshal) down to 1 (engineer); bombs, landmines and the flag have none."""
        return int(self.value) if self.value.isdigit() else None

    @property
    def movable(self) -> bool:
        """Ranked pieces and bombs move; landmines and the flag never do (rule 5.2)."""
        return self not in (Kind.LANDMINE, Kind.FLAG)

    @property
    def title(self) -> str:
        return TITLES[self]

    @property
    def short(self) -> str:
        return SHORT[self]


TITLES: dict[Kind, str] = {
    Kind.MARSHAL: "field marshal",
    Kind.GENERAL: "general",
    Kind.MAJOR_GENERAL: "major general",
    Kind.BRIGADIER: "brigadier",
    Kind.COLONEL: "colonel",
    Kind.MAJOR: "major",
    Kind.CAPTAIN: "captain",
    Kind.LIEUTENANT: "lieutenant",
    Kind.ENGINEER: "engineer",
    Kind.BOMB: "bomb",
    Kind.LANDMINE: "landmine",
    Kind.FLAG: "flag",
}
SHORT: dict[Kind, str] = {
    Kind.MARSHAL: "Marshal",
    Kind.GENERAL: "General",
    Kind.MAJOR_GENERAL: "Maj Gen",
    Kind.BRIGADIER: "Brigadier",
    Kind.COLONEL: "Colonel",
    Kind.MAJOR: "Major",
    Kind.CAPTAIN: "Captain",
    Kind.LIEUTENANT: "Lieut",
    Kind.ENGINEER: "Engineer",
    Kind.BOMB: "Bomb",
    Kind.LANDMINE: "Mine",
    Kind.FLAG: "Flag",
}
"""Labels short enough for a token on the board image."""

COUNTS: dict[Kind, int] = {
    Kind.MARSHAL: 1,
    Kind.GENERAL: 1,
    Kind.MAJOR_GENERAL: 2,
    Kind.BRIGADIER: 2,
    Kind.COLONEL: 2,
    Kind.MAJOR: 2,
    Kind.CAPTAIN: 3,
    Kind.LIEUTENANT: 3,
    Kind.ENGINEER: 3,
    Kind.BOMB: 2,
    Kind.LANDMINE: 3,
    Kind.FLAG: 1,
}
ARMY: tuple[Kind, ...] = tuple(kind for kind, count in COUNTS.items() for _ in range(count))
"""One side's 25 pieces, strongest first."""
MOVABLE_COUNT = sum(1 for kind in ARMY if kind.movable)


@dataclass(frozen=True)
class Piece:
    """A piece as someone knows it: ``colour`` or ``kind`` is ``None`` where it is hidden.

    The engine's own board knows everything; a view's board blanks what its audience may
    not know (an enemy's kind in the referee game, everything about a face-down piece in
    the flip game). Moves are computed from either, so a player's legal moves can only
    depend on what the player sees.
    """

    colour: Colour | None
    kind: Kind | None
    face_up: bool = True
