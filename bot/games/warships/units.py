"""The help card (Warships rules §4): unit types, counts, ranges, and who destroys whom."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """A token's type; the value is its code on the help card and in the notation."""

    BATTLESHIP = "BS"
    MISSILE_SHIP = "MS"
    CRUISER = "CR"
    DESTROYER = "DD"
    SUBMARINE = "SS"
    ESCORT = "ES"
    MINESWEEPER = "MW"
    LANDING_SHIP = "LS"
    BATTERY = "SB"
    MINE = "MN"

    @property
    def unit(self) -> UnitType:
        return UNITS[self]

    @property
    def is_ship(self) -> bool:
        return self not in (Kind.BATTERY, Kind.MINE)


@dataclass(frozen=True)
class UnitType:
    name: str
    count: int
    range: int
    """§1: both the movement allowance and the attack reach; 0 for tokens that never act."""


UNITS: dict[Kind, UnitType] = {
    Kind.BATTLESHIP: UnitType("battleship", 3, 2),
    Kind.MISSILE_SHIP: UnitType("missile ship", 3, 1),
    Kind.CRUISER: UnitType("cruiser", 3, 2),
    Kind.DESTROYER: UnitType("destroyer", 4, 4),
    Kind.SUBMARINE: UnitType("submarine", 4, 2),
    Kind.ESCORT: UnitType("escort", 4, 3),
    Kind.MINESWEEPER: UnitType("minesweeper", 4, 2),
    Kind.LANDING_SHIP: UnitType("landing ship", 1, 1),
    Kind.BATTERY: UnitType("shore battery", 4, 0),
    Kind.MINE: UnitType("mine", 6, 0),
}
"""§4: 26 ships, 4 batteries and 6 mines a side."""

SHIPS = tuple(kind for kind in Kind if kind.is_ship)
SHIP_COUNT = sum(UNITS[kind].count for kind in SHIPS)
MINE_COUNT = UNITS[Kind.MINE].count


class Result(Enum):
    """§4.1: what a clash removes."""

    ATTACKER_WINS = "A"  # the defender is removed
    DEFENDER_WINS = "D"  # the attacker is removed
    BOTH = "="  # both are removed
    FORBIDDEN = "—"  # the attack is not allowed


_ORDER = ["BS", "MS", "CR", "DD", "SS", "ES", "MW", "LS", "SB", "MN"]
_MATRIX = """
BS = A A A D A A A — =
MS D = A A D A A A A =
CR D D = A D A A A — =
DD D D D = A A A A — =
SS A A A A = D A A — =
ES D D D D A = A A — =
MW D D D D D D = A — =
LS — — — — — — — — — —
"""
CLASH: dict[tuple[Kind, Kind], Result] = {
    (Kind(row[0]), Kind(code)): Result(mark)
    for row in (line.split() for line in _MATRIX.strip().splitlines())
    for code, mark in zip(_ORDER, row[1:], strict=True)
}
"""§4.1 as printed, attacker first: ``CLASH[(Kind.DESTROYER, Kind.SUBMARINE)]`` is ``A``."""


def clash(attacker: Kind, defender: Kind) -> Result:
    return CLASH.get((attacker, defender), Result.FORBIDDEN)
