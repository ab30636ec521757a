"""Perft: the number of move sequences to depth 3, counted by the engine and by an
independent, deliberately simple generator (tests/support/seachess_simple.py), must agree."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.games.core import Phase
from bot.games.seachess.state import SeachessState
from tests.support import seachess_middlegames as middle
from tests.support.seachess_positions import ENGINE as E
from tests.support.seachess_simple import accepted, from_state, perft

POSITIONS: dict[str, Callable[[], SeachessState]] = {
    "start": lambda: E.new_game(E.presets["standard"], 1),
    "minefield": middle.minefield,
    "hidden check": middle.hidden_check,
    "airborne": middle.airborne,
    "boats and torpedoes": middle.boats_and_torpedoes,
    "promotion over submarines": middle.promotion_over_submarines,
}
EXPECTED = {
    "start": (37, 1369, 52731),
    "minefield": (56, 1540, 74548),
    "hidden check": (4, 252, 8909),
    "airborne": (4, 206, 3431),
    "boats and torpedoes": (38, 1152, 35783),
    "promotion over submarines": (24, 347, 7559),
}
"""Counts both generators agree on; kept so that a change to either one shows here too."""


def engine_perft(state: SeachessState, depth: int) -> int:
    if state.phase is not Phase.PLAY:
        return 0
    moves = [a for a in E.legal_actions(state, state.turn) if "draw" not in str(a)]
    if depth == 1:
        return len(moves)
    return sum(engine_perft(E.apply(state, state.turn, a).state, depth - 1) for a in moves)


@pytest.mark.parametrize("named", list(POSITIONS))
def test_the_first_moves_are_the_same_moves(named: str) -> None:
    state = POSITIONS[named]()
    engine = {str(a) for a in E.legal_actions(state, state.turn)} - {"offer draw"}
    assert {text for text, _ in accepted(from_state(state), state.turn)} == engine


@pytest.mark.parametrize("named", list(POSITIONS))
def test_perft_to_depth_three_agrees_with_the_simple_generator(named: str) -> None:
    state = POSITIONS[named]()
    simple = from_state(state)
    counts = tuple(engine_perft(state, depth) for depth in (1, 2, 3))
    assert counts == tuple(perft(simple, depth) for depth in (1, 2, 3))
    assert counts == EXPECTED[named]


def test_the_middle_games_hold_mines_and_submerged_submarines() -> None:
    for make in (
        middle.minefield,
        middle.hidden_check,
        middle.airborne,
        middle.boats_and_torpedoes,
        middle.promotion_over_submarines,
    ):
        state = make()
        assert state.mines and state.subs
        assert {owner for _, owner in state.mines} == {0, 1}
