"""What a Sea Battle board says is to do next: the header line, the setup footer and the
quick buttons say the same as the engine, in every variant (rules/sea-battle.md §4.6-4.7,
§5.4)."""

from __future__ import annotations

import pytest

from bot.games.core import EndReason, Outcome, Phase
from bot.games.grid import cell_name
from bot.games.seabattle.state import SeaBattleState
from renderers import seabattle_words as render_module
from renderers.seabattle import alt_text, render
from renderers.seabattle_layout import legend_labels
from tests.support.samples import save_sample
from tests.support.seabattle_positions import ENGINE, MODES, seed_where_first

MINE_MODES = ("mines", "free-mines", "submarine-mines", "16x16", "18x18")


def _dutchman_hit(how: str) -> SeaBattleState:
    """Seat 0 has just hit a deck of seat 1's Flying Dutchman, whose captain must choose."""
    state = ENGINE.new_game(MODES["dutchman"], seed_where_first(0, "dutchman"))
    for seat, ship in ((0, "A1 B2 C3 D3 E4 F5"), (1, "T20 S19 R18 Q17 P16 O15")):
        state = ENGINE.act(state, seat, "random" if how == "random" else ship).state
        state = ENGINE.act(state, seat, "ready").state
    assert state.phase is Phase.PLAY and state.turn == 0
    deck = state.sides[1].ships[0].cells[0]
    state = ENGINE.act(state, 0, cell_name(deck)).state
    assert state.pending is not None and state.turn == 1
    return state


@pytest.mark.parametrize("how", ["random", "ready"])
def test_the_dutchman_captain_is_asked_to_move_or_stay_not_to_disclose_a_mine(how: str) -> None:
    state = _dutchman_hit(how)
    lines = {seat: alt_text(ENGINE.view(state, seat)) for seat in (0, 1, None)}
    for line in lines.values():
        assert "isclos" not in line and "mine" not in line
    assert "Move or stay" in lines[1]
    assert "captain" in lines[0] and "captain" in lines[None]
    assert ENGINE.quick_moves(ENGINE.view(state, 1)) == (("Stay", "stay"),)
    for seat in (1, None):
        save_sample(f"prompt-dutchman-{how}-{seat}", render(ENGINE.view(state, seat)))


def _fleet_without_mines(mode: str) -> SeaBattleState:
    """Seat 0 lays out a saved fleet from a game without mines (``load wall``): the ships
    are placed, the mines are not."""
    rules = MODES[mode]
    dealt = ENGINE.act(ENGINE.new_game(rules, 4), 0, "random").state
    fleet = ENGINE.setup_text(ENGINE.view(dealt, 0))
    assert fleet is not None
    ships_only = ", ".join(
        part for part in fleet[len("fleet ") :].split(", ") if not part.startswith(("mine", "sw"))
    )
    state = ENGINE.act(ENGINE.new_game(rules, 4), 0, f"fleet {ships_only}").state
    view = ENGINE.view(state, 0)
    assert not view.to_place and any(view.items_left)
    return state


@pytest.mark.parametrize("mode", MINE_MODES)
def test_with_mines_still_to_lay_the_board_does_not_ask_for_ready(mode: str) -> None:
    state = _fleet_without_mines(mode)
    view = ENGINE.view(state, 0)
    assert render_module.setup_line(view) == "All ships placed; lay the rest"
    assert "send ready" not in alt_text(view)
    assert "still to lay" in alt_text(view)
    assert ("Ready", "ready") not in ENGINE.quick_moves(view)
    save_sample(f"prompt-mines-to-lay-{mode}", render(view))
    complete = ENGINE.act(state, 0, "random").state
    view = ENGINE.view(complete, 0)
    assert render_module.setup_line(view) == "All ships placed: send ready"
    assert "send ready" in alt_text(view)
    assert ("Ready", "ready") in ENGINE.quick_moves(view)


@pytest.mark.parametrize("mode", ["classic", "mines", "16x16", "dutchman", "salvo"])
def test_a_game_aborted_in_setup_counts_no_ships_afloat(mode: str) -> None:
    state = ENGINE.act(ENGINE.new_game(MODES[mode], 1), 1, "random").state
    aborted = ENGINE.conclude(state, Outcome(None, EndReason.ABORTED, unplayed=Phase.SETUP))
    for seat in (0, 1, None):
        view = ENGINE.view(aborted, seat)
        assert "afloat" not in alt_text(view) and "afloat" not in view.text()
        assert "lost" not in view.text()
        assert render_module.field_counts(view) == (None, None)
    save_sample(f"prompt-aborted-{mode}", render(ENGINE.view(aborted, 0)))


def test_a_game_aborted_in_play_still_counts_ships_afloat() -> None:
    state = ENGINE.new_game(MODES["classic"], 1)
    for seat in (0, 1):
        state = ENGINE.act(ENGINE.act(state, seat, "random").state, seat, "ready").state
    aborted = ENGINE.conclude(state, Outcome(None, EndReason.ABORTED, unplayed=Phase.PLAY))
    view = ENGINE.view(aborted, 0)
    assert render_module.field_counts(view) == ("10 afloat", "10 afloat")
    assert "10 ships afloat" in view.text()


@pytest.mark.parametrize("mode", MINE_MODES)
def test_the_legend_names_minesweepers_only_where_the_game_has_them(mode: str) -> None:
    """Classic mines games have no minesweepers (Sea Battle rules §4.6); the 16x16 and
    18x18 fields do (§4.7). Neither the image's legend nor the board's text twin offers a
    mark the game cannot show."""
    state = ENGINE.new_game(MODES[mode], seed_where_first(0, mode))
    has_sweepers = MODES[mode].sweepers > 0
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        assert ("Minesweeper" in legend_labels(view)) is has_sweepers
        assert "Mine" in legend_labels(view)
        assert ("minesweeper" in view.text()) is has_sweepers
        assert "mine" in view.text()
