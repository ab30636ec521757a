"""The seven Seachess piece kinds (§3), the mines (§4) and submerged submarines (§5)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    COMMANDO = "K"
    CARRIER = "A"
    CRUISER = "C"
    TORPEDO_BOAT = "T"
    DESTROYER = "D"
    SUBMARINE = "S"
    BOAT = "B"

    @property
    def noun(self) -> str:
        return NOUNS[self]


NOUNS = {
    Kind.COMMANDO: "commando ship",
    Kind.CARRIER: "aircraft carrier",
    Kind.CRUISER: "cruiser",
    Kind.TORPEDO_BOAT: "torpedo boat",
    Kind.DESTROYER: "destroyer",
    Kind.SUBMARINE: "submarine",
    Kind.BOAT: "boat",
}
PROMOTIONS = (Kind.CRUISER, Kind.TORPEDO_BOAT, Kind.SUBMARINE, Kind.DESTROYER, Kind.CARRIER)
"""§3.8: what a boat may become on its last rank."""
LOADED_KINDS = (Kind.CRUISER, Kind.TORPEDO_BOAT, Kind.CARRIER)
"""The kinds that carry a mine, a torpedo or an aircraft (§3.2, §3.4, §3.7)."""
COLOURS = ("White", "Black")

MAX_COUNT = 8
"""A submarine's visible count stops at 8: any larger count allows the same four-turn dive
(§5.2), and a bounded count lets positions repeat (§8)."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A visible piece. ``loaded``: the cruiser's mine, the torpedo boat's torpedo or the
    carrier's aircraft is aboard. ``facing`` (torpedo boats): 0 N, 1 E, 2 S, 3 W.
    ``count`` (submarines): the visible count V of §5.1."""

    kind: Kind
    owner: int
    loaded: bool = False
    facing: int = 0
    count: int = 0

    @property
    def code(self) -> str:
        """``K`` for White's commando ship, ``k`` for Black's."""
        return self.kind.value if self.owner == 0 else self.kind.value.lower()


def fresh(kind: Kind, owner: int) -> Piece:
    """A piece as it starts or is promoted: loaded, facing forward, count 0 (§3.8)."""
    loaded = kind in LOADED_KINDS
    return Piece(kind, owner, loaded=loaded, facing=0 if owner == 0 else 2)


@dataclass(frozen=True, slots=True)
class Submerged:
    """A submarine under water: its square, owner, the ply at whose start it must surface
    (§5.4) and the square it dived from (public, §9.1)."""

    square: int
    owner: int
    surfaces_at: int
    dived_from: int
