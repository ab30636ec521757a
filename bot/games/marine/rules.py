"""Marine Game variants as data: one preset, the rules of docs/rules/marine-game.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from bot.games.core import CorruptStateError


@dataclass(frozen=True)
class MarineRules:
    quiet_plies: int = 60
    """§8.2: consecutive plies without a piece taken that end the game in a draw."""

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MarineRules:
        names = {f.name for f in fields(cls)}
        if not isinstance(data, Mapping) or set(data) != names:
            raise CorruptStateError("The stored Marine Game rules are unreadable.")
        quiet = data["quiet_plies"]
        if not isinstance(quiet, int) or isinstance(quiet, bool) or quiet < 1:
            raise CorruptStateError("The stored Marine Game rules are unreadable.")
        return cls(quiet_plies=quiet)


PRESETS: dict[str, MarineRules] = {"classic": MarineRules()}
"""The one way the game is played; the draw limit is data so tests can name it."""

VARIANT_NOTES: dict[str, str] = {
    "classic": "the one way the game is played, as the rules above say; it has no options.",
}
"""One line on each variant, for ``/rules``."""
