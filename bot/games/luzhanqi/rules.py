"""Luzhanqi variants as data (rules section 10): presets and the option words of 10.4."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from bot.games.core import CorruptStateError, GameError
from bot.games.grid import shorten


class MineRule(Enum):
    """Who may attack a landmine and what happens (10.4)."""

    M1 = "m1"  # spring mine: engineer clears it, other ranked attackers die, mine stays
    M2 = "m2"  # exchange: engineer clears it, any other attacker dies with the mine
    M3 = "m3"  # bomb mine: every attacker dies with the mine


class WinRule(Enum):
    W1 = "w1"  # capture the flag (or leave the opponent without a move)
    W2 = "w2"  # ... or remove all of the opponent's movable pieces


@dataclass(frozen=True)
class LuzhanqiRules:
    flip: bool = False
    """Variant A: pieces dealt face down, no deployment, everything public (10.2)."""
    camps_protect: bool = True
    """5.7: a piece on a camp cannot be attacked (off in variant C)."""
    engineer_turns: bool = True
    """5.5: engineers turn corners on railroads (off in variant C)."""
    bomb_enters_enemy_hq: bool = False
    """5.8 forbids it in the base game; variant C allows it."""
    bomb_takes_flag: bool = False
    """C4: a bomb attacking the flag captures it; otherwise bombs never attack the flag."""
    hq_freezes: bool = True
    """5.2: a piece on an HQ never moves again (off in variant A, R-11)."""
    marshal_reveals_flag: bool = True
    """Section 7 (not in variant A, where everything is public)."""
    mines: MineRule = MineRule.M1
    win: WinRule = WinRule.W1
    quiet_limit: int = 60
    """8.4 / R-6: plies without an attack (or a flip) before the game is drawn."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        data["mines"] = self.mines.value
        data["win"] = self.win.value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LuzhanqiRules:
        try:
            flags = {f.name: bool(data[f.name]) for f in fields(cls) if f.type in ("bool", bool)}
            rules = cls(
                **flags,
                mines=MineRule(data["mines"]),
                win=WinRule(data["win"]),
                quiet_limit=int(data["quiet_limit"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise CorruptStateError(f"The stored Luzhanqi rules are unreadable: {error}.") from None
        if not 2 <= rules.quiet_limit <= 1000:
            raise CorruptStateError("The stored Luzhanqi rules have an impossible draw limit.")
        return rules


CLASSIC = LuzhanqiRules()
FLIP = LuzhanqiRules(
    flip=True,
    bomb_enters_enemy_hq=True,
    hq_freezes=False,
    marshal_reveals_flag=False,
    win=WinRule.W2,
)
VARIANT_C = LuzhanqiRules(
    camps_protect=False,
    engineer_turns=False,
    bomb_enters_enemy_hq=True,
    bomb_takes_flag=True,
    mines=MineRule.M2,
)

PRESETS: dict[str, LuzhanqiRules] = {"classic": CLASSIC, "flip": FLIP, "variant-c": VARIANT_C}
"""Variant B (the default, 10.1), variant A (10.2) and variant C (10.3)."""

OPTION_WORDS: dict[str, tuple[str, object]] = {
    "m1": ("mines", MineRule.M1),
    "m2": ("mines", MineRule.M2),
    "m3": ("mines", MineRule.M3),
    "w1": ("win", WinRule.W1),
    "w2": ("win", WinRule.W2),
    "turns": ("engineer_turns", True),
    "straight": ("engineer_turns", False),
}
"""10.4's landmine and win options, and R-13's engineer setting, as words typed at /play."""

VARIANT_NOTES: dict[str, str] = {
    "classic": "variant B: each side gets a hidden random deployment to edit by swaps; "
    "capture the flag (10.1).",
    "flip": "variant A: all 50 pieces start face down; each turn flip one or move one of "
    "yours, and the first flip gives the first player their colour (10.2).",
    "variant-c": "camps give no protection, engineers run straight, bombs may enter the "
    "enemy headquarters and take the flag, and landmines exchange (10.3).",
}
"""One line on each variant, for ``/rules``."""

OPTION_NOTES: dict[str, str] = {
    "m1": "spring mine: an engineer clears a landmine, any other attacker dies (10.4).",
    "m2": "exchange: an engineer clears a landmine, any other attacker dies with it (10.4).",
    "m3": "bomb mine: every attacker dies with the landmine (10.4).",
    "w1": "win only by capturing the flag (10.4).",
    "w2": "win also by removing all 21 movable enemy pieces (10.4).",
    "turns": "engineers may turn corners on the railroads (R-13).",
    "straight": "engineers run only straight along the railroads (R-13).",
}
"""One line on each option word, for ``/rules``."""


def with_options(rules: LuzhanqiRules, words: Sequence[str]) -> LuzhanqiRules:
    """``rules`` changed by option words; refuses unknown and contradicting words."""
    chosen: dict[str, tuple[str, object]] = {}
    for word in words:
        if word not in OPTION_WORDS:
            listed = ", ".join(f"`{w}`" for w in OPTION_WORDS)
            raise GameError(f"Luzhanqi has no option `{shorten(word)}`; the options are {listed}.")
        setting, value = OPTION_WORDS[word]
        if setting in chosen and chosen[setting][1] != value:
            raise GameError(
                f"The options `{chosen[setting][0]}` and `{word}` contradict each other; "
                "choose one."
            )
        chosen[setting] = (word, value)
    changes: dict[str, Any] = {setting: value for setting, (_, value) in chosen.items()}
    return replace(rules, **changes)


def option_words(rules: LuzhanqiRules, preset: LuzhanqiRules) -> list[str]:
    """The words that turn ``preset`` into ``rules``, for naming a game's variant."""
    words = []
    for word, (setting, value) in OPTION_WORDS.items():
        if getattr(rules, setting) == value and getattr(preset, setting) != value:
            words.append(word)
    return words
