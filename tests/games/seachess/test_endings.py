"""How a Seachess game ends and what is told (Seachess rules §7, §8, §9): check, mate
and stalemate on the true position, the draws, and each audience's texts.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.core import EndReason
from tests.support.seachess_positions import (
    BOAT_UNDER_A_MINE,
    LONE_CRUISER,
    act,
    position,
    refused,
    said,
)
from tests.support.seachess_positions import ENGINE as E

# -- §7 check, mate, stalemate ----------------------------------------------------------------


def test_7_1_checkmate_by_a_hidden_submarine_move() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      5 . . . . . . . . . . . .
      2 . . B B . . . . . . . .
      1 . . K D . . . . . . . .
        """,
        subs={"a5": (1, 3)},
        turn=1,
    )
    mate = act(state, "sub a5-b3")
    assert mate.state.outcome is not None and mate.state.outcome.winner == 1
    assert mate.state.outcome.detail == "checkmate" and mate.state.outcome.reason is EndReason.RULES
    assert "Checkmate: Black wins." in said(mate, 0)
    assert "sSa5-b3(h)" in said(mate, None)


def test_7_1_stalemate_decided_on_the_true_position() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      9 . . . c . . . . . . . .
      1 . . K . . . . . . . . .
        """,
        subs={"a3": (1, 3)},
        turn=1,
    )
    stale = act(state, "d9-d8").state
    assert stale.outcome is not None and stale.outcome.winner is None
    assert stale.outcome.detail == "stalemate"


def test_7_4_in_check_while_airborne_only_an_aircraft_capture_answers() -> None:
    diagram = """
        a b c d e f g h i j k l
     12 . . . . . . . . . k . .
     10 . . . . . . . c . . . .
      8 . . . . . . . c . . . .
      5 . . . . . A . . . . . .
        """
    state = position(
        diagram.replace("10 . . . . . . . c", "10 . . . . . . . ."), turn=1, airborne=("f5", None)
    )
    answer = act(state, "h8-g8").state
    assert {str(a) for a in E.legal_actions(answer, 0)} - {"offer draw"} == {"air f5xg8"}
    mate = act(
        position(
            diagram.replace("8 . . . . . . . c", "8 . . . . . . . ."), turn=1, airborne=("f5", None)
        ),
        "h10-g10",
    ).state
    assert mate.outcome is not None and mate.outcome.winner == 1


# -- §8 draws ---------------------------------------------------------------------------------


def test_8_only_the_two_commando_ships_left_is_a_draw() -> None:
    state = position(BOAT_UNDER_A_MINE)
    end = act(state, "e4-e5").state
    assert end.outcome is not None and end.outcome.detail == "only the commando ships are left"


def test_8_a_hundred_quiet_turns_draw() -> None:
    state = replace(position(LONE_CRUISER), quiet=99)
    end = act(state, "e5-e6").state
    assert end.outcome is not None and "100 turns" in end.outcome.detail
    assert act(replace(position(LONE_CRUISER), quiet=98), "e5-e6").state.outcome is None


def test_8_the_same_true_position_a_fourth_time_draws() -> None:
    state = position(LONE_CRUISER)
    shuffle = ["g1-h1", "g12-h12", "h1-g1", "h12-g12"] * 3
    for number, text in enumerate(shuffle, 1):
        state = act(state, text).state
        assert (state.outcome is None) == (number < 12)
    assert state.outcome is not None and "fourth time" in state.outcome.detail


def test_8_a_draw_by_agreement() -> None:
    state = position(LONE_CRUISER)
    offered = act(state, "offer draw")
    assert offered.state.turn == 0 and "offers a draw" in said(offered, 1)
    refused(offered.state, "accept draw", "no draw offer")
    state = act(offered.state, "e5-e6").state
    end = act(state, "accept draw").state
    assert end.outcome is not None and end.outcome.detail == "draw agreed"
    lapsed = act(act(state, "g12-h12").state, "e6-e7").state
    assert lapsed.draw_offer is None


# -- §9 what each audience is told -------------------------------------------------------------


def test_9_1_an_ordinary_move_is_told_to_everyone_alike() -> None:
    moved = act(E.new_game(E.presets["standard"], 1), "e2-e4")
    assert said(moved, 0).startswith("White: boat e2-e4.")
    assert said(moved, 1) == said(moved, None) == "White: boat e2-e4."


def test_9_4_the_final_move_list_names_the_hidden_moves() -> None:
    state = position(LONE_CRUISER, castling=(False, False, False, False))
    state = act(state, "mine e5").state
    end = act(state, "offer draw").state
    done = act(act(end, "g12-h12").state, "accept draw")
    listing = said(done, None)
    assert "All moves, hidden ones filled in: 1. Ce5-M(h) Kg12-h12" in listing
