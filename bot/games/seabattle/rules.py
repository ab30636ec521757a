"""Sea Battle variants as data (rules/sea-battle.md §2 and §4).

Every preset is a frozen ``SeaBattleRules`` value stored with the game, so a game keeps
its rules even if the presets change later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot.games.core import CorruptStateError


class Touching(Enum):
    """How close two ships may lie."""

    NONE = "none"  # §2.3: not even at a corner
    CORNERS = "corners"  # §4.1: at corners, never along sides
    ANY = "any"  # §4.2 Milton Bradley: touching allowed, only overlap is forbidden


@dataclass(frozen=True)
class ShipKind:
    name: str
    length: int


@dataclass(frozen=True)
class SeaBattleRules:
    size: int
    fleet: tuple[ShipKind, ...]
    touching: Touching = Touching.NONE
    extra_shot: bool = True
    """§2.7: a hit or a sinking grants another shot; §4.2 turns it off."""

    @property
    def marks_around_sunk(self) -> bool:
        """§2.9 / §4.1 / §4.2: the cells a sunk ship's spacing proves empty, if any."""
        return self.touching is not Touching.ANY

    @property
    def marks_corners(self) -> bool:
        return self.touching is Touching.NONE

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "fleet": [[kind.name, kind.length] for kind in self.fleet],
            "touching": self.touching.value,
            "extra_shot": self.extra_shot,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeaBattleRules:
        try:
            size = int(data["size"])
            fleet = tuple(ShipKind(str(name), int(length)) for name, length in data["fleet"])
            rules = cls(size, fleet, Touching(data["touching"]), bool(data["extra_shot"]))
        except (KeyError, TypeError, ValueError) as error:
            raise CorruptStateError(
                f"The stored Sea Battle rules are unreadable: {error}."
            ) from None
        if not 5 <= size <= 20 or not fleet or any(not 1 <= k.length <= size for k in fleet):
            raise CorruptStateError("The stored Sea Battle rules describe an impossible board.")
        return rules


def _fleet(*kinds: tuple[str, int, int]) -> tuple[ShipKind, ...]:
    return tuple(ShipKind(name, length) for name, length, count in kinds for _ in range(count))


CLASSIC_FLEET = _fleet(
    ("battleship", 4, 1), ("cruiser", 3, 2), ("destroyer", 2, 3), ("torpedo boat", 1, 4)
)
LARGE_FLEET = _fleet(
    ("aircraft carrier", 5, 1),
    ("battleship", 4, 2),
    ("cruiser", 3, 3),
    ("destroyer", 2, 4),
    ("torpedo boat", 1, 5),
)
MILTON_BRADLEY_FLEET = _fleet(
    ("carrier", 5, 1),
    ("battleship", 4, 1),
    ("cruiser", 3, 1),
    ("submarine", 3, 1),
    ("destroyer", 2, 1),
)

PRESETS: dict[str, SeaBattleRules] = {
    "classic": SeaBattleRules(10, CLASSIC_FLEET),
    "corners": SeaBattleRules(10, CLASSIC_FLEET, Touching.CORNERS),
    "large": SeaBattleRules(15, LARGE_FLEET),
    "milton-bradley": SeaBattleRules(10, MILTON_BRADLEY_FLEET, Touching.ANY, extra_shot=False),
}
"""Classic §2 (the default), corner touching §4.1, 15x15 §4.5, Milton Bradley §4.2."""
