"""Warships variants as data: the classic rules and the optional rules of §15."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from bot.games.core import CorruptStateError, GameError, shorten
from bot.games.warships.units import Kind

OPTION_WORDS: dict[str, str] = {
    "harder": "harder",  # §15.1
    "mobility": "mobility",  # §15.2
    "manoeuvres": "manoeuvres",  # §15.3
    "maneuvers": "manoeuvres",
    "quick": "quick",  # §5.5
    "forget": "forget",  # §15.4
}
"""Option words players may type at ``/play``, and the rule each one turns on."""

VARIANT_NOTES: dict[str, str] = {
    "classic": "the rules of the help card, with any optional rules added as options.",
}
"""One line on each variant, for ``/rules``."""

OPTION_NOTES: dict[str, str] = {
    "harder": "moving before an attack shortens its reach by the steps moved (15.1).",
    "mobility": "missile ships and the landing ship have range 2 (15.2).",
    "manoeuvres": "up to 12 ships may start in front of the port (15.3).",
    "maneuvers": "the same as `manoeuvres`.",
    "quick": "setups are dealt at random and play starts at once (5.5).",
    "forget": "revealed enemy tokens turn face down again (15.4).",
}
"""One line on each option word, for ``/rules``."""


@dataclass(frozen=True)
class WarshipsRules:
    harder: bool = False
    """§15.1: moving k steps before an attack shortens its reach by k."""
    mobility: bool = False
    """§15.2: missile ships and the landing ship have range 2."""
    manoeuvres: bool = False
    """§15.3: up to 12 ships may start on the initial-manoeuvre area."""
    quick: bool = False
    """§5.5: setups are dealt at random and play starts at once."""
    forget: bool = False
    """§15.4: revealed enemy tokens are not kept on the board (memory play)."""

    def range_of(self, kind: Kind) -> int:
        if self.mobility and kind in (Kind.MISSILE_SHIP, Kind.LANDING_SHIP):
            return 2
        return kind.unit.range

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self) if getattr(self, f.name))

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WarshipsRules:
        names = {f.name for f in fields(cls)}
        if not isinstance(data, Mapping) or set(data) != names:
            raise CorruptStateError("The stored Warships rules are unreadable.")
        if any(not isinstance(data[name], bool) for name in names):
            raise CorruptStateError("The stored Warships rules are unreadable.")
        return cls(**{name: data[name] for name in names})


PRESETS: dict[str, WarshipsRules] = {"classic": WarshipsRules()}
"""The rules of the help card with no optional rule; options are added by word."""

MANOEUVRE_LIMIT = 12
"""§15.3: ships that may start outside the port."""


def with_words(rules: WarshipsRules, words: Sequence[str]) -> WarshipsRules:
    """``rules`` with each option word's rule turned on; unknown words are refused."""
    for word in words:
        name = OPTION_WORDS.get(word.strip().lower())
        if name is None:
            known = ", ".join(f"`{w}`" for w in dict.fromkeys(OPTION_WORDS.values()))
            raise GameError(f"Warships has no option `{shorten(word)}`; choose from {known}.")
        rules = replace(rules, **{name: True})
    return rules


def option_suggestions(rules: WarshipsRules, typed: str, limit: int = 25) -> list[str]:
    """Option strings extending what was typed with one more word not yet chosen."""
    words = typed.lower().replace(",", " ").split()
    done, partial = (words, "") if typed.endswith((" ", ",")) or not words else (
        words[:-1],
        words[-1],
    )
    chosen = {OPTION_WORDS.get(word) for word in done}
    options = [
        " ".join([*done, word])
        for word in dict.fromkeys(OPTION_WORDS.values())
        if word not in chosen and word.startswith(partial)
    ]
    if not partial and done:
        options.insert(0, " ".join(done))
    return options[:limit]
