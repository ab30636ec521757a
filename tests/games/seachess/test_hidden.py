"""Seachess's hidden moves (Seachess rules §4, §5, §7.3): mines planted under cruisers and
submarines diving, surfacing and giving check unseen, on named positions.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.seachess_positions import (
    BOAT_UNDER_A_MINE,
    LONE_CRUISER,
    act,
    code_at,
    legal,
    piece_at,
    position,
    refused,
    said,
    sq,
)

# -- §4 mines ---------------------------------------------------------------------------------


def test_4_1_planting_is_a_hidden_move_under_the_cruiser() -> None:
    planted = act(position(LONE_CRUISER), "mine e5")
    assert planted.state.mines == ((sq("e5"), 0),)
    assert not piece_at(planted.state, "e5").loaded  # type: ignore[union-attr]
    assert "You planted a mine on e5" in said(planted, 0)
    assert said(planted, 1).startswith("White made a hidden move.")
    assert said(planted, None).startswith("White made a hidden move.")
    assert "e5" not in said(planted, 1) and "e5" not in said(planted, None)
    assert planted.state.record[-1] == "Ce5-M(h)"


def test_4_1_no_mine_on_an_own_submarine_and_an_enemy_one_is_caught() -> None:
    refused(position(LONE_CRUISER, subs={"e5": (0, 3)}), "mine e5", "Your own submarine")
    caught = act(position(LONE_CRUISER, subs={"e5": (1, 3)}), "mine e5")
    assert not caught.state.subs and not caught.state.mines
    assert "destroyed Black's submerged submarine" in said(caught, 1)


def test_4_2_cruiser_reloads_silently_by_moving_into_its_haven_never_by_planting() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      3 . . . . C . . . . . . .
        """,
        empty="e3",
    )
    home = act(state, "e3-e2")
    assert piece_at(home.state, "e2").loaded  # type: ignore[union-attr]
    assert "reloaded" in said(home, 0) and "reload" not in said(home, 1)
    in_haven = position(LONE_CRUISER.replace("5 . . . . C", "5 . . . . .") + "2 . . . . C")
    planted = act(in_haven, "mine e2").state
    assert not piece_at(planted, "e2").loaded  # type: ignore[union-attr]


def test_4_3_a_mine_takes_the_piece_that_moves_onto_it() -> None:
    state = position(BOAT_UNDER_A_MINE)
    boom = act(state, "e4-e5")
    assert code_at(boom.state, "e5") is None and not boom.state.mines
    for audience in (0, 1, None):
        assert "a mine on e5 destroyed the boat" in said(boom, audience)


def test_4_3_capturing_the_planting_cruiser_on_its_mine_costs_the_capturer() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      5 . . . . c . . . . . . .
      4 . . . D . . . . . . . .
        """,
        empty="e5",
        mines={"e5": 1},
    )
    both = act(state, "d4-e5")
    assert code_at(both.state, "e5") is None and not both.state.mines
    assert "taking Black's cruiser" in said(both, 1) and "mine on e5" in said(both, 1)


def test_4_4_own_mine_bars_the_path_enemy_mine_stops_the_piece() -> None:
    diagram = """
        a b c d e f g h i j k l
      5 . . . . X . . . . . . .
      3 . . . . C . . . . . . .
        """
    refused(position(diagram.replace("X", "M")), "e3-e8", "cannot move")
    stopped = act(position(diagram.replace("X", "m")), "e3-e8")
    assert code_at(stopped.state, "e8") is None and code_at(stopped.state, "e3") is None
    assert not stopped.state.mines
    assert "ran onto a mine on e5" in said(stopped, 1)


def test_4_5_a_submerged_submarine_on_an_enemy_mine_is_lost_and_never_enters_its_own() -> None:
    diagram = """
        a b c d e f g h i j k l
      6 . . . . . X . . . . . .
        """
    refused(position(diagram.replace("X", "M"), subs={"e4": (0, 3)}), "sub e4-f6", "cannot move")
    lost = act(position(diagram.replace("X", "m"), subs={"e4": (0, 3)}), "sub e4-f6")
    assert not lost.state.subs and not lost.state.mines
    assert "A mine on f6 destroyed White's submerged submarine" in said(lost, 1)


@pytest.mark.parametrize("mine", ["M", "m"])
def test_4_6_mines_block_check(mine: str) -> None:
    diagram = """
        a b c d e f g h i j k l
     12 . . . . . . . . . k . .
      8 . . . . . . c . . . . .
      5 . . . . . . X . . . . .
        """
    assert position(diagram.replace("X", ".")).checks == (True, False)
    assert position(diagram.replace("X", mine)).checks == (False, False)


def test_4_7_commando_ship_and_an_enemy_mine_public_refusal_then_silent() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      2 . . . . . . m . . . . .
        """
    )
    refusal = act(state, "g1-g2")
    assert refusal.state.refused == ("g1-g2",) and refusal.state.turn == 0
    assert refusal.state.pieces == state.pieces and refusal.state.ply == 0
    assert "Impossible: a mine blocks the commando ship" in said(refusal, 0)
    assert "White tried `g1-g2`; it was refused" in said(refusal, 1)
    assert said(refusal, None) == said(refusal, 1)
    refused(refusal.state, "g1-g2", "already refused")
    moved = act(refusal.state, "g1-h1").state
    assert moved.refused == () and moved.turn == 1
    own = position(
        """
        a b c d e f g h i j k l
      2 . . . . . . M . . . . .
        """
    )
    refused(own, "g1-g2", "cannot move")


def test_4_8_a_torpedo_takes_the_planting_cruiser_and_leaves_its_mine() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      7 . . . . . . . c . . . .
      5 . . . . . . . . . T . .
        """,
        empty="h7",
        mines={"h7": 1},
    )
    after = act(state, "torpedo j5xh7").state
    assert code_at(after, "h7") is None and after.mines == ((sq("h7"), 1),)


# -- §5 submarines ----------------------------------------------------------------------------

LONE_SUB = """
        a b c d e f g h i j k l
      4 . . . . S . . . . . . .
"""


def test_5_1_and_5_2_a_dive_needs_two_visible_turns_and_lasts_half_of_them() -> None:
    refused(position(LONE_SUB, counts={"e4": 1}), "dive e4-f6", "may dive after 2")
    dive = act(position(LONE_SUB, counts={"e4": 3}), "dive e4-f6")
    (sub,) = dive.state.subs
    assert sub.square == sq("f6") and sub.surfaces_at == 2 and code_at(dive.state, "e4") is None
    assert "under f6" in said(dive, 0)
    assert "the submarine on e4 submerged (hidden move)" in said(dive, 1)
    assert "f6" not in said(dive, 1) and "f6" not in said(dive, None)
    assert dive.state.record[-1] == "Se4v-f6(h)"
    long = act(position(LONE_SUB, counts={"e4": 8}), "dive e4-f6").state
    assert long.subs[0].surfaces_at == 8


def test_5_1_visible_turns_are_counted_at_the_end_of_each_own_turn() -> None:
    state = position(LONE_SUB)
    state = act(act(state, "g1-h1").state, "g12-h12").state
    assert piece_at(state, "e4").count == 1  # type: ignore[union-attr]


def test_5_3_hidden_moves_go_under_anything_but_a_destroyer_or_an_own_submarine() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      6 . . . d . b . . . . . .
        """,
        subs={"e4": (0, 3), "g5": (0, 3), "g3": (1, 3)},
    )
    under = act(state, "sub e4-f6")
    assert code_at(under.state, "f6") == "b"
    assert any(s.square == sq("f6") and s.owner == 0 for s in under.state.subs)
    assert said(under, 1).startswith("White made a hidden move.")
    refused(state, "sub e4-d6", "not under a destroyer")
    refused(state, "sub e4-g5", "your other submarine")
    shared = act(state, "sub e4-g3").state  # an enemy submarine there changes nothing
    assert sum(1 for s in shared.subs if s.square == sq("g3")) == 2


def test_5_4_a_submarine_surfaces_when_its_dive_is_over_taking_what_is_above() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      4 . . . . b . . . . . . .
        """,
        subs={"e4": (0, 1)},
    )
    state = act(state, "g1-h1").state
    up = act(state, "g12-h12")
    assert code_at(up.state, "e4") == "S" and not up.state.subs
    assert "White's submarine surfaced on e4 (its dive is over), taking Black's boat" in said(up, 0)
    assert said(up, 1) and "surfaced on e4" in said(up, None)


def test_5_5_emergence_in_place_or_by_a_knight_move_capturing() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      6 . . . d . c . . . . . .
      4 . . . . b . . . . . . .
        """,
        subs={"e4": (0, 3)},
    )
    moves = legal(state)
    assert {"emerge e4", "emerge e4xf6"} <= moves
    assert "emerge e4xd6" not in moves  # never onto a destroyer
    up = act(state, "emerge e4xf6")
    assert code_at(up.state, "f6") == "S" and code_at(up.state, "e4") == "b"
    assert "a submarine emerged from under e4 onto f6, taking Black's cruiser" in said(up, 1)
    assert up.state.record[-1] == "sSe4-f6^x"
    here = act(state, "emerge e4").state
    assert code_at(here, "e4") == "S"
    own = position(LONE_SUB.replace("S", "B"), subs={"e4": (0, 3)})
    refused(own, "emerge e4", "cannot emerge")


def test_5_6_surfacing_under_a_commando_ship_loses_the_submarine() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      5 . . . . k . . . . . . .
        """,
        subs={"e4": (0, 1)},
        turn=1,
    )
    state = replace(state, subs=tuple(replace(s, surfaces_at=2) for s in state.subs))
    lost = act(state, "e5-e4")
    assert code_at(lost.state, "e4") == "k" and not lost.state.subs
    assert "surfaced on e4 (its dive is over) under a commando ship and was lost" in said(lost, 1)


def test_5_7_sonar_brings_up_a_submarine_next_to_an_enemy_destroyer() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      3 . . D . . . . . . . . .
        """,
        subs={"f5": (1, 3), "e6": (0, 3)},
    )
    found = act(state, "c3-e5")
    assert code_at(found.state, "f5") == "s"
    assert [s.square for s in found.state.subs] == [sq("e6")]  # own submarines stay down
    for audience in (0, 1, None):
        assert "Black's submarine surfaced on f5 (found by an enemy destroyer's sonar)" in said(
            found, audience
        )


def test_5_8_a_destroyer_landing_on_a_submerged_submarine_catches_it() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      2 . . D . . . . . . . . .
        """,
        subs={"f5": (1, 3)},
    )
    caught = act(state, "c2-f5")
    assert not caught.state.subs and code_at(caught.state, "f5") == "D"
    assert "caught Black's submerged submarine" in said(caught, 1)


@pytest.mark.parametrize("move", ["e11-e12=D", "d11xe12=D"])
def test_5_8_a_boat_promoted_to_a_destroyer_on_a_submerged_submarine_catches_it(move: str) -> None:
    """§3.8 makes the boat a destroyer on the square it ends on, and §5.8 has a destroyer
    ending its move there catch the submarine: none stays under it (§5.3)."""
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . c . k . . . . .
     11 . . . B B . . . . . . .
        """,
        subs={"e12": (1, 2)},
    )
    if move.startswith("e11"):
        state = replace(state, pieces=tuple(p for p in state.pieces if p[0] != sq("e12")))
    caught = act(state, move)
    assert not caught.state.subs and code_at(caught.state, "e12") == "D"
    for audience in (0, 1, None):
        assert "caught Black's submerged submarine there" in said(caught, audience)
    assert caught.state.record[-1].endswith("=Dxs")
    assert not any(text.startswith("emerge") for text in legal(caught.state))


def test_5_9_a_submerged_submarine_gives_check_announced_without_its_square() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      3 . . . . . . . . . . . .
        """,
        subs={"e5": (1, 3)},
        turn=1,
    )
    check = act(state, "sub e5-f3")
    assert check.state.checks == (True, False)
    assert "Check! Your commando ship is attacked by a submerged submarine." in said(check, 0)
    assert "f3" not in said(check, 0) and "f3" not in said(check, None)
    assert "by your submerged submarine under f3" in said(check, 1)


def test_7_3_moves_that_ignore_a_hidden_check_are_refused_publicly() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      3 . . . . . . . . . . . B
        """,
        subs={"f3": (1, 3)},
    )
    assert state.checks == (True, False)
    refusal = act(state, "l3-l4")
    assert "Impossible: your commando ship would be in check" in said(refusal, 0)
    assert "White tried `l3-l4`; it was refused" in said(refusal, 1)
    assert act(refusal.state, "g1-h1").state.turn == 1


def test_7_3_a_refused_hidden_move_is_told_only_as_a_hidden_move() -> None:
    state = position(LONE_CRUISER, subs={"f3": (1, 3)})
    refusal = act(state, "mine e5")
    assert said(refusal, 1).startswith("White tried a hidden move; it was refused")
    assert "e5" not in said(refusal, 1) and "mine" not in said(refusal, None)
