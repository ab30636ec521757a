"""One test per clause of rules/seachess.md, on named positions drawn as small diagrams."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.core import EndReason, IllegalActionError, NotationError, Transition
from bot.games.seachess import board
from bot.games.seachess.actions import parse
from bot.games.seachess.pieces import Kind
from bot.games.seachess.state import SeachessState
from tests.seachess_positions import ENGINE as E
from tests.seachess_positions import code_at, piece_at, position, sq


def act(state: SeachessState, text: str) -> Transition:
    return E.act(state, state.turn, text)


def said(transition: Transition, audience: int | None) -> str:
    return " ".join(e.text for e in transition.for_audience(audience))


def refused(state: SeachessState, text: str, words: str) -> None:
    """A private refusal (§7.2): a sentence with ``words``, nothing changes, nobody else hears."""
    with pytest.raises(IllegalActionError) as error:
        act(state, text)
    assert words in str(error.value)


def legal(state: SeachessState) -> set[str]:
    return {str(a) for a in E.legal_actions(state, state.turn)}


# -- §1 board ---------------------------------------------------------------------------------


def test_1_1_the_board_has_128_squares_and_16_missing_corners() -> None:
    assert len(board.SQUARES) == 128 and len(board.MISSING) == 16
    for corner in ("a1", "b2", "k1", "l2", "a11", "b12", "k12", "l11"):
        with pytest.raises(NotationError, match="not on the board"):
            parse(f"c3-{corner}")


def test_1_1_nothing_moves_through_a_missing_corner() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      3 . . D . . . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    moves = legal(state)
    assert "c3-b4" in moves and "c3-a5" in moves and "c3-d2" in moves
    assert not any(m.startswith("c3-") and m[3:] in ("b2", "a1") for m in moves)


def test_1_3_the_start_position_and_white_moves_first() -> None:
    state = E.new_game(E.presets["standard"], 1)
    assert state.turn == 0
    assert code_at(state, "g1") == "K" and code_at(state, "f1") == "A"
    assert code_at(state, "c12") == "c" and code_at(state, "j12") == "t"
    assert code_at(state, "c2") == "B" and code_at(state, "j11") == "b"
    assert len(state.pieces) == 32
    assert len(legal(state)) == 38  # 32 boat moves, 4 submarine moves, a mine, a draw offer


# -- §2–3 pieces -------------------------------------------------------------------------------


def test_2_1_submerged_submarines_never_block_a_path() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . C . . . . . . .
      4 . . . . u . . . . . . .
      3 . . . . U . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    assert "e5-e3" in legal(state)  # passes over d4's submerged enemy and onto its own sub


def test_3_1_a_commando_ship_is_never_captured() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . k . . . . . . .
      5 . . . . C . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    refused(state, "e5-e12", "never captured")
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      5 . . . . C . . . . . . .
      4 . . . . k . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    refused(state, "e5-e4", "never captured")


def test_3_2_and_3_3_cruiser_moves_as_a_rook_destroyer_as_a_bishop() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      6 . . . . . . . . . . . .
      5 . . . . C . . . . . . .
      4 . . . . . D . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    moves = legal(state)
    assert {"e5-e10", "e5-a5", "e5-l5", "e5-e3", "e5-e1"} <= moves
    assert "e5-f6" not in moves
    assert {"f4-i7", "f4-d2", "f4-h2", "f4-g3"} <= moves
    assert "f4-e5" not in moves and "f4-f5" not in moves


def test_3_4_torpedo_fires_diagonally_ahead_one_or_two_squares() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      7 . . . . . . . b . . . .
      6 . . . . . . . . . . . .
      5 . . . . . . . . . T . .
      4 . . . . . . . . . . . .
      3 . . . . . . . . . . . b
      1 . . . . . . K . . . . .
        """,
        facing={"j5": "N"},
    )
    assert "torpedo j5xh7" in legal(state)
    assert "torpedo j5xl3" not in legal(state)  # behind its facing
    after = act(state, "torpedo j5xh7")
    assert code_at(after.state, "h7") is None and code_at(after.state, "j5") == "T"
    assert piece_at(after.state, "j5").loaded is False  # type: ignore[union-attr]
    assert "torpedoed Black's boat on h7" in said(after, 1)
    assert "Tj5xt h7" in after.state.record[-1]
    turned = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      7 . . . . . . . b . . . .
      5 . . . . . . . . . T . .
      3 . . . . . . . . . . . b
      1 . . . . . . K . . . . .
        """,
        facing={"j5": "E"},
    )
    assert "torpedo j5xl3" in legal(turned) and "torpedo j5xh7" not in legal(turned)


def test_3_4_torpedo_is_stopped_by_a_piece_and_by_mines() -> None:
    diagram = """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      7 . . . . . . . b . . . .
      6 . . . . . . . . X . . .
      5 . . . . . . . . . T . .
      1 . . . . . . K . . . . .
        """
    blocked = position(diagram.replace("X", "B"))
    assert "torpedo j5xh7" not in legal(blocked)
    own = position(diagram.replace("X", "M"))
    refused(own, "torpedo j5xh7", "cannot torpedo")
    enemy = position(diagram.replace("X", "m"))
    hit = act(enemy, "torpedo j5xh7")
    assert code_at(hit.state, "h7") == "b" and not hit.state.mines
    assert "hit a mine on i6" in said(hit, 1) and "hit a mine on i6" in said(hit, 0)
    assert "hit a mine on i6" in said(hit, None)


def test_3_4_torpedo_reloads_by_moving_in_its_haven_and_faces_its_last_move() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      3 . . . . . . . . . T . .
      1 . . . . . . K . . . . .
        """,
        empty="j3",
    )
    moved = act(state, "j3-j2").state
    boat = piece_at(moved, "j2")
    assert boat is not None and boat.loaded and boat.facing == board.SOUTH
    assert "reloads" in said(act(state, "j3-j2"), 1)
    sideways = act(state, "j3-e3").state
    assert piece_at(sideways, "e3").facing == board.WEST  # type: ignore[union-attr]
    assert not piece_at(sideways, "e3").loaded  # type: ignore[union-attr]


def test_3_4_a_launch_from_the_haven_does_not_reload() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      3 . . . . . . . . b . . .
      2 . . . . . . . . . T . .
      1 . . . . . . K . . . . .
        """
    )
    after = act(state, "torpedo j2xi3").state
    assert not piece_at(after, "j2").loaded  # type: ignore[union-attr]


def test_3_4_a_loaded_torpedo_boat_gives_check() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      7 . . . . . . . k . . . .
      6 . . . . . . . . . . . .
      5 . . . . . . . . . T . .
      1 . . . . . . K . . . . .
        """
    )
    assert state.checks == (False, True)
    empty = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      7 . . . . . . . k . . . .
      5 . . . . . . . . . T . .
      1 . . . . . . K . . . . .
        """,
        empty="j5",
    )
    assert empty.checks == (False, False)


def test_3_5_submarine_moves_as_a_knight() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      6 . . . B B B . . . . . .
      5 . . . B S B . . . . . .
      4 . . . B B B . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    jumps = {m for m in legal(state) if m.startswith("e5-")}
    assert jumps == {f"e5-{t}" for t in ("d7", "f7", "g6", "g4", "f3", "d3", "c4", "c6")}


def test_3_6_carrier_steps_and_its_blockable_horse_move() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      7 . . . . . . . . . . . .
      6 . . . . . . . . . . . .
      5 . . . . B A . . . . . .
      4 . . . . . . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    moves = {m for m in legal(state) if m.startswith("f5-")}
    assert {"f5-f7", "f5-h7", "f5-h5", "f5-g7", "f5-h6", "f5-e7", "f5-e3", "f5-d3"} <= moves
    # west is blocked by the boat on e5: d5, d4, d6 and d7? d7 goes north first
    assert not {"f5-d5", "f5-d4", "f5-d6"} & moves
    assert "f5-d7" in moves and "f5-d3" in moves  # via f6, f7 / f4, f3: clear


def test_3_7_aircraft_strikes_the_ring_and_alone_may_act_while_airborne() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      8 . . c . . . . . . . . .
      7 . . . . . . . . . . . .
      6 . . . . . . . b . . . .
      5 . . . . . A . . . . . .
      2 . . . . . . . . b . . .
      1 . . . . . . K . . . . .
        """,
    )
    moves = legal(state)
    assert {"air f5xc8", "air f5xi2"} <= moves and "air f5xh6" not in moves
    launched = act(state, "air f5xc8")
    after = launched.state
    assert after.airborne == (sq("f5"), None) and code_at(after, "c8") is None
    assert "airborne" in said(launched, 1)
    after = act(after, "h6-h5").state  # Black's reply
    assert legal(after) == {"air f5xi2", "land", "offer draw"}
    refused(after, "g1-g2", "airborne")
    again = act(after, "air f5xi2").state
    landed = act(act(again, "h5-h4").state, "land").state
    assert landed.airborne == (None, None) and piece_at(landed, "f5").loaded  # type: ignore[union-attr]
    assert "Af5xa c8" in landed.record and "Af5<a" in landed.record


def test_3_7_aircraft_never_takes_a_commando_ship_but_checks_it_and_is_lost_with_carrier() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      8 . . k . . . . . . . . .
      5 . . . . . A . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    assert state.checks == (False, True) and "air f5xc8" not in legal(state)
    hit = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . . A . . c . . .
      1 . . . . . . K . . . . .
        """,
        turn=1,
        airborne=("f5", None),
    )
    after = act(hit, "i5-f5")
    assert after.state.airborne == (None, None) and code_at(after.state, "f5") == "c"
    assert "land" not in legal(after.state)


def test_3_8_boats_first_move_two_to_four_and_captures_diagonally() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      4 . . . . . . . . . . . .
      3 . . . . . b . . . . . .
      2 . . . . B . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    moves = legal(state)
    assert {"e2-e3", "e2-e4", "e2-e5", "e2-e6", "e2-f3"} <= moves and "e2-e7" not in moves
    later = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      4 . . . . B . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    assert {m for m in legal(later) if m.startswith("e4")} == {"e4-e5"}


def test_3_8_en_passant_only_on_the_third_rank() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      4 . . . . . b . . . . . .
      2 . . . . B . . . . . . .
      1 . . . . . . K . . . . .
        """,
        turn=0,
    )
    far = act(state, "e2-e6").state  # passes e3, e4, e5: only e3 gives en passant
    assert "f4-e3" in legal(far)
    taken = act(far, "f4-e3")
    assert code_at(taken.state, "e6") is None and code_at(taken.state, "e3") == "b"
    assert "en passant" in said(taken, 0)
    assert "f4-e5" not in legal(far)
    later = act(act(far, "g12-h12").state, "g1-h1").state
    assert "f4-e3" not in legal(later)  # the very next move only


def test_3_8_side_step_towards_the_centre_on_edge_files() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
     11 . . . . . . . . . . . .
     10 . B . . . . . . . . B .
      1 . . . . . . K . . . . .
        """
    )
    moves = legal(state)
    assert "b10-c10" in moves and "k10-j10" in moves
    assert "b10-a10" not in moves and "k10-l10" not in moves


def test_3_8_promotion_to_a_loaded_piece_of_the_owners_choice() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
     11 . . . B . . . . . . . .
      9 . . . . . . . . . . . k
      1 . . . . . . K . . . . .
        """
    )
    refused(state, "d11-d12", "Name what the boat becomes")
    for kind in ("C", "T", "S", "D", "A"):
        promoted = act(state, f"d11-d12={kind}").state
        piece = piece_at(promoted, "d12")
        assert piece is not None and piece.kind is Kind(kind) and piece.owner == 0
        if kind in "CTA":
            assert piece.loaded
    with pytest.raises(NotationError, match="not a Seachess move"):
        act(state, "d11-d12=K")


# -- §4 mines ---------------------------------------------------------------------------------

LONE_CRUISER = """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . C . . . . . . .
      1 . . . . . . K . . . . .
"""


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
     12 . . . . . . k . . . . .
      3 . . . . C . . . . . . .
      1 . . . . . . K . . . . .
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
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . m . . . . . . .
      4 . . . . B . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    boom = act(state, "e4-e5")
    assert code_at(boom.state, "e5") is None and not boom.state.mines
    for audience in (0, 1, None):
        assert "a mine on e5 destroyed the boat" in said(boom, audience)


def test_4_3_capturing_the_planting_cruiser_on_its_mine_costs_the_capturer() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . c . . . . . . .
      4 . . . D . . . . . . . .
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      5 . . . . X . . . . . . .
      3 . . . . C . . . . . . .
      1 . . . . . . K . . . . .
        """
    refused(position(diagram.replace("X", "M")), "e3-e8", "cannot move")
    stopped = act(position(diagram.replace("X", "m")), "e3-e8")
    assert code_at(stopped.state, "e8") is None and code_at(stopped.state, "e3") is None
    assert not stopped.state.mines
    assert "ran onto a mine on e5" in said(stopped, 1)


def test_4_5_a_submerged_submarine_on_an_enemy_mine_is_lost_and_never_enters_its_own() -> None:
    diagram = """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      6 . . . . . X . . . . . .
      1 . . . . . . K . . . . .
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
      1 . . . . . . K . . . . .
        """
    assert position(diagram.replace("X", ".")).checks == (True, False)
    assert position(diagram.replace("X", mine)).checks == (False, False)


def test_4_7_commando_ship_and_an_enemy_mine_public_refusal_then_silent() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      2 . . . . . . m . . . . .
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      2 . . . . . . M . . . . .
      1 . . . . . . K . . . . .
        """
    )
    refused(own, "g1-g2", "cannot move")


def test_4_8_a_torpedo_takes_the_planting_cruiser_and_leaves_its_mine() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      7 . . . . . . . c . . . .
      5 . . . . . . . . . T . .
      1 . . . . . . K . . . . .
        """,
        empty="h7",
        mines={"h7": 1},
    )
    after = act(state, "torpedo j5xh7").state
    assert code_at(after, "h7") is None and after.mines == ((sq("h7"), 1),)


# -- §5 submarines ----------------------------------------------------------------------------

LONE_SUB = """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      4 . . . . S . . . . . . .
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      6 . . . d . b . . . . . .
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      4 . . . . b . . . . . . .
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      6 . . . d . c . . . . . .
      4 . . . . b . . . . . . .
      1 . . . . . . K . . . . .
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
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      3 . . D . . . . . . . . .
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      2 . . D . . . . . . . . .
      1 . . . . . . K . . . . .
        """,
        subs={"f5": (1, 3)},
    )
    caught = act(state, "c2-f5")
    assert not caught.state.subs and code_at(caught.state, "f5") == "D"
    assert "caught Black's submerged submarine" in said(caught, 1)


def test_5_9_a_submerged_submarine_gives_check_announced_without_its_square() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      3 . . . . . . . . . . . .
      1 . . . . . . K . . . . .
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
     12 . . . . . . k . . . . .
      3 . . . . . . . . . . . B
      1 . . . . . . K . . . . .
        """,
        subs={"f3": (1, 3)},
    )
    assert state.checks == (True, False)
    refusal = act(state, "l3-l4")
    assert "Impossible: your commando ship would be in check" in said(refusal, 0)
    assert "White tried `l3-l4`; it was refused" in said(refusal, 1)
    assert act(refusal.state, "g1-h1").state.turn == 1


def test_7_3_a_refused_hidden_move_is_told_only_as_a_hidden_move() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . C . . . . . . .
      1 . . . . . . K . . . . .
        """,
        subs={"f3": (1, 3)},
    )
    refusal = act(state, "mine e5")
    assert said(refusal, 1).startswith("White tried a hidden move; it was refused")
    assert "e5" not in said(refusal, 1) and "mine" not in said(refusal, None)


# -- §6 castling ------------------------------------------------------------------------------

CASTLE = """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      1 . . C . . . K . . T . .
"""
RIGHTS = (True, True, False, False)


def test_6_1_castling_long_with_the_cruiser_and_short_with_the_torpedo_boat() -> None:
    state = position(CASTLE, castling=RIGHTS)
    long = act(state, "O-O-O").state
    assert code_at(long, "e1") == "K" and code_at(long, "f1") == "C"
    short = act(state, "O-O")
    assert code_at(short.state, "i1") == "K" and code_at(short.state, "h1") == "T"
    assert piece_at(short.state, "h1").facing == board.WEST  # type: ignore[union-attr]
    assert short.state.castling[:2] == (False, False)
    assert "castles short" in said(short, 1)


def test_6_2_castling_needs_unmoved_pieces_and_a_clear_unattacked_way() -> None:
    refused(position(CASTLE), "O-O", "cannot castle")
    own_mine = position(CASTLE, castling=RIGHTS, mines={"d1": 0})
    refused(own_mine, "O-O-O", "cannot castle")
    enemy_mine = act(position(CASTLE, castling=RIGHTS, mines={"d1": 1}), "O-O-O")
    assert "a mine blocks the commando ship" in said(enemy_mine, 0)
    assert "White tried `O-O-O`" in said(enemy_mine, 1)
    watched = act(position(CASTLE, castling=RIGHTS, subs={"g3": (1, 3)}), "O-O")
    assert "would be in check" in said(watched, 0) and watched.state.turn == 0
    seen = position(CASTLE.replace("k . . .", "k . c ."), castling=RIGHTS)
    refused(seen, "O-O", "cannot castle")


def test_6_2_planting_and_launching_keep_the_castling_rights() -> None:
    state = position(CASTLE, castling=RIGHTS)
    state = act(state, "mine c1").state
    state = act(state, "g12-h12").state
    assert act(state, "O-O-O").state.castling[:2] == (False, False)


# -- §7 check, mate, stalemate ----------------------------------------------------------------


def test_7_1_checkmate_by_a_hidden_submarine_move() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
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
     12 . . . . . . k . . . . .
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
      1 . . . . . . K . . . . .
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
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . m . . . . . . .
      4 . . . . B . . . . . . .
      1 . . . . . . K . . . . .
        """
    )
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
