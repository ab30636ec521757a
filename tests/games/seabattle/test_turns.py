"""Sea Battle turns and notation (Sea Battle rules §2.6, §2.7), and what lies outside the
rules: resignation, whether a game has started, autocomplete and echoed input."""

from __future__ import annotations

import pytest

from bot.games.core import (
    EndReason,
    GameError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Outcome,
    Phase,
)
from bot.games.grid import cell_name
from bot.games.seabattle import actions as act
from tests.support.seabattle_positions import (
    ALPHA,
    BRAVO,
    cell,
    classic_game,
    diagram_cells,
    new,
    place,
    refused,
    ship_marks,
    shoot,
)
from tests.support.seabattle_positions import ENGINE as E

# -- turns and notation -----------------------------------------------------------------------


def test_2_7_a_shot_out_of_turn_is_refused() -> None:
    """§2.7: only the player whose turn it is may shoot; the other is told to wait."""
    game = classic_game()
    message = refused(game, 1, "A1", NotYourTurnError)
    assert "opponent's turn" in message
    after_miss = shoot(game, 0, "A1")
    refused(after_miss, 0, "B1", NotYourTurnError)


@pytest.mark.parametrize("text", ["", "   ", "Z99", "hello", "B", "5", "A1 B2 C3"])
def test_2_6_malformed_text_is_not_a_move(text: str) -> None:
    """§2.6: an invalid cell is refused with no penalty, in setup and in play alike."""
    game = classic_game()
    refused(new(), 0, text, NotationError)
    refused(game, 0, text, NotationError)


@pytest.mark.parametrize("text", ["ready", "random", "remove A1", "A1 A4", "clear"])
def test_2_6_setup_moves_are_not_shots(text: str) -> None:
    """§2.4 / §2.6: once in play the fleets are fixed and only single cells are moves."""
    game = classic_game()
    assert "shoot by naming one cell" in refused(game, 0, text, NotationError)


def test_2_6_no_shooting_during_setup() -> None:
    """§2.4 / §2.6: nobody shoots until both fleets are confirmed."""
    state = place(new(), 0, ALPHA, ready=True)
    for seat in (0, 1):
        before = E.to_json(state)
        with pytest.raises(IllegalActionError, match="not started"):
            E.apply(state, seat, act.Shot(cell("B5")))
        assert E.to_json(state) == before
    assert E.parse_action(state, 1, "B5") == act.PlaceShip(cell("B5"), cell("B5"))


# -- outside the rules: resignation, start, autocomplete --------------------------------------


def test_conclude_finishes_the_game_and_reveals_both_fleets() -> None:
    """§3 at game end: a resignation ends the game and every view shows both fleets."""
    game = classic_game()
    state = shoot(game, 0, "B2")
    ended = E.conclude(state, Outcome(0, EndReason.RESIGNATION))
    assert ended.phase is Phase.FINISHED and E.outcome(ended) == Outcome(0, EndReason.RESIGNATION)
    assert E.to_move(ended) == frozenset()
    for viewer in (0, 1, None):
        view = E.view(ended, viewer)
        assert ship_marks(view, 0) == set(diagram_cells(ALPHA))
        assert ship_marks(view, 1) == set(diagram_cells(BRAVO)) - {cell("B2")}
    refused(ended, 0, "A1", GameError)


def test_has_started_only_after_the_first_shot() -> None:
    """Abort is allowed before the first real move: setup and a fresh game do not count."""
    game = classic_game()
    assert not E.has_started(new())
    assert not E.has_started(place(new(), 0, ALPHA, ready=True))
    assert not E.has_started(game)
    assert E.has_started(E.act(game, 0, "A1").state)


def test_suggestions_list_unshot_cells_near_hits_first() -> None:
    """Autocomplete offers only cells not yet shot that match what was typed, cells next to an
    unsunk hit first, and nothing to a player who may not move now."""
    game = classic_game()
    state = shoot(game, 0, "J1", "B2")  # sunk, then hit: seat 0 keeps the turn
    view = E.view(state, 0)
    shot = {cell_name(c) for c in state.shots[0]}
    everything = E.suggestions(view, "", limit=200)
    assert everything[:4] == ["B1", "A2", "C2", "B3"]
    assert not shot & set(everything)
    assert len(E.suggestions(view, "")) == 25
    assert all(name.startswith("B") for name in E.suggestions(view, "b", limit=200))
    assert sorted(E.suggestions(view, " b 1")) == ["B1", "B10"]
    assert "B2" not in E.suggestions(view, "B2")
    assert "J1" not in E.suggestions(view, "j")
    assert E.suggestions(E.view(state, 1), "") == []
    assert E.suggestions(E.view(state, None), "") == []


def test_suggestions_during_setup_offer_setup_words() -> None:
    """During setup only the seat still placing gets the setup words."""
    state = new()
    assert E.suggestions(E.view(state, 0), "r") == ["random", "ready"]
    confirmed = place(state, 0, ALPHA, ready=True)
    assert E.suggestions(E.view(confirmed, 0), "r") == []
    assert E.suggestions(E.view(confirmed, 1), "c") == ["clear"]


def test_an_echoed_input_drops_invisible_direction_and_width_marks() -> None:
    """A right-to-left override in a move must not turn the bot's answer backwards."""
    from bot.games.grid import shorten

    assert shorten("\u202eB5\u200b x\u2066y`z") == "B5 xy'z"
    assert shorten("a" * 30) == "a" * 23 + "…"
