"""Seachess variants as data. The rules text has one variant, as docs/rules/seachess.md plays it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.core import CorruptStateError


@dataclass(frozen=True)
class SeachessRules:
    """The standard game; kept as a value so that stored games name their rules."""

    def to_json(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeachessRules:
        if not isinstance(data, Mapping) or data:
            raise CorruptStateError("The stored Seachess rules are unreadable.")
        return cls()


PRESETS: dict[str, SeachessRules] = {"standard": SeachessRules()}

VARIANT_NOTES: dict[str, str] = {
    "standard": "the one way the game is played, as the rules above say; it has no options.",
}
"""One line on each variant, for ``/rules``."""
