"""The Sea Battle computer in every mode it can be offered: its every move is accepted.

Seeded games computer against computer, straight through the engine, in every preset with
no option, with each option it takes alone, and with the most options it takes at once.
Every move the computer chooses (its fleet, its shots and salvos, a disclosure it owes, the
Flying Dutchman captain's answer) must be accepted the first time: a refusal would leave
the bot to play one of the engine's suggestions instead, blind.
"""

from __future__ import annotations

import pytest

from bot.ai import LEVELS, Seen, dice_seed_for
from bot.catalog import player
from bot.games import ENGINES
from bot.games.core import GameError
from bot.games.seabattle.rules import ALLOWED, PRESETS, with_options

PLIES = 160
"""Moves per game at most: enough for setup, many shots and several hits in every mode."""


def _combinations() -> list[tuple[str, str]]:
    """Each preset bare, with each option it takes alone, and with the most it takes."""
    chosen: list[tuple[str, str]] = []
    for preset, rules in PRESETS.items():
        words = sorted(ALLOWED[rules.ruleset])
        singles = []
        for word in words:
            try:
                with_options(rules, [word])
            except GameError:
                continue
            singles.append(word)
        most: list[str] = []
        for word in singles:
            try:
                with_options(rules, [*most, word])
            except GameError:
                continue
            most.append(word)
        for options in ["", *singles, " ".join(most)]:
            if (preset, options) not in chosen:
                chosen.append((preset, options))
    chosen.append(("milton-bradley", "salvo blind-report"))
    chosen.append(("milton-bradley", "salvo equal-rounds"))
    return chosen


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("preset", "options"), _combinations())
def test_every_move_the_computer_chooses_is_accepted(preset: str, options: str, level: str) -> None:
    engine = ENGINES["seabattle"]
    rules = engine.configure(preset, options)
    computer = player("seabattle", level)
    for seed in range(2):
        state = engine.new_game(rules, seed)
        heard: dict[int, list[str]] = {0: [], 1: []}
        for ply in range(PLIES):
            if engine.outcome(state) is not None:
                break
            seat = min(engine.view(state, None).movers)
            seen = Seen(
                rules, engine.view(state, seat), tuple(heard[seat]), dice_seed_for(seed, seat), ply
            )
            text = computer.decide(seen)
            try:
                transition = engine.act(state, seat, text)
            except GameError as refused:
                pytest.fail(f"seed {seed}, ply {ply}: {text!r} was refused: {refused}")
            state = transition.state
            for listener in (0, 1):
                heard[listener].extend(e.text for e in transition.for_audience(listener))
