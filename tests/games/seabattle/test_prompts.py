"""What Sea Battle tells a player to type, checked against what each variant takes.

Every help text, prompt and hint offers moves between backticks; each one must be a move
that variant accepts, for every preset and every combination of options ``/play`` allows
(rules/sea-battle.md §4.9). And two prompts players met: the Flying Dutchman's last deck
(§5.4), and a shot at a cell the shooter's own board shows empty (§2.9).
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache

import pytest

from bot.games.core import GameError, Phase, Transition
from bot.games.grid import cell_name
from bot.games.seabattle import dutchman, texts
from bot.games.seabattle.mines import Pending
from bot.games.seabattle.rules import ALLOWED, OPTION_WORDS, PRESETS, SeaBattleRules
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.turns import MINE, SHIP, owed_sentence
from tests.support.seabattle_positions import ENGINE, MODES, refused, seed_where_first, texts_for

E = ENGINE
EXAMPLE = re.compile(r"`([^`]+)`")


def _combinations() -> Iterator[tuple[str, str]]:
    """Every preset with every set of option words ``/play`` accepts for it."""
    for name, preset in PRESETS.items():
        words = sorted(ALLOWED[preset.ruleset])
        for count in range(len(words) + 1):
            for chosen in itertools.combinations(words, count):
                try:
                    E.configure(name, " ".join(chosen))
                except GameError:
                    continue
                yield name, " ".join(chosen)


COMBINATIONS = list(_combinations())


def _act(state: SeaBattleState, seat: int, text: str, said: list[str]) -> SeaBattleState:
    transition: Transition = E.act(state, seat, text)
    said.extend(event.text for event in transition.events)
    return transition.state  # type: ignore[return-value]


@cache
def _situations(rules: SeaBattleRules) -> tuple[list[tuple[SeaBattleState, int]], list[str]]:
    """States where each kind of move is due, with the seat to make it, and every text
    the bot said on the way to them."""
    said = [E.describe(rules), E.setup_instructions(rules)]
    empty = E.new_game(rules, seed_where_first(0, _preset_of(rules)))
    said.append(refused(empty, 0, "nonsense", GameError).removeprefix("`nonsense`"))
    dealt = _act(empty, 0, "random", said)
    states = [(empty, 0), (dealt, 0)]
    for example, _ in texts.setup_words(rules):
        with contextlib.suppress(GameError):  # a move the check below refuses
            states.append((_act(empty, 0, example, said), 0))
    for view in (E.view(empty, 0), E.view(dealt, 0)):
        said.extend(command for _, command in E.quick_moves(view))
    game = _act(_act(dealt, 0, "ready", said), 1, "random", said)
    game = _act(game, 1, "ready", said)
    assert game.phase is Phase.PLAY and game.turn == 0
    states.append((game, 0))
    said.append(refused(game, 0, "random", GameError))
    if rules.dutchman:
        deck = game.sides[1].ships[0].cells[0]
        hit = _act(game, 0, cell_name(deck), said)
        states.append((hit, 1))
        said.extend(command for _, command in E.quick_moves(E.view(hit, 1)))
    for owed, count in ((SHIP, rules.mines), (MINE, rules.sweepers)):
        if count:
            owing = replace(game, pending=Pending(owed, 0, 1))
            states.append((owing, 0))
            said.append(owed_sentence(owing))
    return states, said


def _preset_of(rules: SeaBattleRules) -> str:
    return next(name for name, preset in PRESETS.items() if preset.ruleset is rules.ruleset)


COMPLETIONS = {
    "move": lambda state: f"move {dutchman.example(len(state.sides[1].ships[0].cells))}",
    "remove": lambda state: "remove A1",
    "reveal": lambda state: next(
        f"reveal {cell_name(cell)}" for cell in state.sides[0].ships[0].cells
    ),
}
"""What completes a command word a sentence names on its own (`move` and the cells)."""


def _accepted(states: list[tuple[SeaBattleState, int]], example: str) -> bool:
    for state, seat in states:
        try:
            text = COMPLETIONS[example](state) if example in COMPLETIONS else example
            E.act(state, seat, text)
        except (GameError, StopIteration, IndexError):
            continue
        return True
    return False


@pytest.mark.parametrize(("preset", "options"), COMBINATIONS)
def test_every_move_a_help_or_prompt_offers_is_one_the_variant_takes(
    preset: str, options: str
) -> None:
    rules = E.configure(preset, options)
    states, said = _situations(rules)
    offered = {
        example
        for text in said
        for example in EXAMPLE.findall(text)
        if "<" not in example and not example.startswith("/")
    }
    assert {"random", "ready"} <= offered
    refused_examples = sorted(ex for ex in offered if not _accepted(states, ex))
    assert refused_examples == [], f"{preset} {options}: {said}"


def test_every_variant_and_option_is_checked() -> None:
    assert {preset for preset, _ in COMBINATIONS} == set(PRESETS)
    checked = {word for _, options in COMBINATIONS for word in options.split()}
    assert checked == set(OPTION_WORDS)


@pytest.mark.parametrize(
    ("mode", "absent"),
    [
        ("mines", "`sweeper"),
        ("milton-bradley", "`J10`"),
        ("dutchman", "`remove"),
        ("classic", "`sub "),
    ],
)
def test_a_help_never_names_a_piece_the_variant_lacks(mode: str, absent: str) -> None:
    rules = MODES[mode]
    for text in (E.describe(rules), E.setup_instructions(rules), texts.setup_help(rules)):
        assert absent not in text


# -- the Flying Dutchman's last deck (§5.4) ----------------------------------------------------


def test_a_dutchman_with_one_deck_left_is_asked_for_one_new_cell() -> None:
    rules = E.configure("dutchman", "decks5")
    state = E.new_game(rules, seed_where_first(0, "dutchman"))
    for seat, ship in ((0, "A1 B2 C3 D4 E5"), (1, "P16 Q16 R16 S16 T16")):
        state = E.act(E.act(state, seat, ship).state, seat, "ready").state
    for deck in ("P16", "Q16", "R16"):
        state = E.act(E.act(state, 0, deck).state, 1, "stay").state
    transition = E.act(state, 0, "S16")
    (told,) = texts_for(transition.events, 1)
    assert "1 cells" not in told and "cells joined" not in told
    assert "`move` and its new cell" in told
    example = re.findall(r"`(move [^`]+)`", told)[0]
    moved = E.act(transition.state, 1, example).state
    assert len(moved.sides[1].ships[0].cells) == 1
