"""A shot at a cell the shooter's own board shows empty, beside a sunk ship (rules/sea-battle.md
§2.6, §2.9): allowed, but asked to be confirmed, as a shot at a known mine is (§4.7)."""

from __future__ import annotations

import pytest

from bot.games.core import IllegalActionError
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from tests.support.seabattle_positions import ENGINE, MODES, refused, seed_where_first, texts_for

E = ENGINE


def _sunk_torpedo_boat(mode: str) -> SeaBattleState:
    """Seat 0 has sunk seat 1's one-cell ship on E5; the cells around it show empty."""
    rules = MODES[mode]
    state = E.new_game(rules, seed_where_first(0, mode))
    own = ("A1 A4", "C1 C3", "E1 E3", "G1 G2", "I1 I2", "A6 B6", "J4", "J6", "J8", "J10")
    theirs = ("A10 D10", "A8 C8", "F10 H10", "A1 B1", "D1 E1", "G1 H1", "E5", "J1", "J3", "J7")
    for seat, fleet in ((0, own), (1, theirs)):
        for ship in fleet:
            state = E.act(state, seat, ship).state
        state = E.act(state, seat, "ready").state
    state = E.act(state, 0, "E5").state
    assert state.turn == 0 and state.sunk(1)
    return state


@pytest.mark.parametrize("mode", ["classic", "corners"])
def test_a_shot_beside_a_sunk_ship_asks_for_confirm(mode: str) -> None:
    state = _sunk_torpedo_boat(mode)
    assert E.view(state, 0).fields[1].mark((4, 5)) is Mark.CLEAR  # E6
    said = refused(state, 0, "E6", IllegalActionError)
    assert "E6 confirm" in said and "sunk ship" in said
    offered = [str(action) for action in E.legal_actions(state, 0)]
    assert "E6 confirm" in offered and "E6" not in offered
    transition = E.act(state, 0, "E6 confirm")
    assert texts_for(transition.events, 0) == ["E6: miss. Your opponent shoots next."]
    assert transition.state.turn == 1


def test_a_cell_not_shown_empty_is_shot_at_once() -> None:
    state = _sunk_torpedo_boat("corners")
    # With corners allowed, the diagonal F6 is not proven empty: no question is asked.
    assert E.view(state, 0).fields[1].mark((5, 5)) is Mark.SEA
    assert E.act(state, 0, "F6").state.turn == 1


def test_the_confirm_question_comes_from_the_shooters_view_not_the_hidden_mines() -> None:
    """With free mines a mine may lie beside a sunk ship: the question is asked all the
    same, and the same words, whether or not one lies there."""
    rules = MODES["free-mines"]
    answers = []
    for mine in ("E6", "A5"):
        state = E.new_game(rules, seed_where_first(0, "free-mines"))
        fleets = (
            ("A1 A4", "C1 C3", "E1 E3", "G1 G2", "I1 I2", "A6 B6", "J4", "J6", "J8", "J10"),
            ("A10 D10", "A8 C8", "F10 H10", "A1 B1", "D1 E1", "G1 H1", "E5", "J1", "J3", "J7"),
        )
        for seat, fleet in enumerate(fleets):
            for ship in fleet:
                state = E.act(state, seat, ship).state
            for cell in (mine, "H5", "H7") if seat else ("C5", "H5", "H7"):
                state = E.act(state, seat, f"mine {cell}").state
            state = E.act(state, seat, "ready").state
        state = E.act(state, 0, "E5").state
        answers.append(refused(state, 0, "E6", IllegalActionError))
    assert answers[0] == answers[1]
