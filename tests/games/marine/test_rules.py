"""One test per clause of the Marine Game rules, on named positions
(tests/support/marine_positions.py).

Every taking and suicide combination of §6 has its own position: each mover type taking, being
taken, and both at once, plus the examples the specification gives.
"""

from __future__ import annotations

import pytest

from bot.games.core import (
    EndReason,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Phase,
    Transition,
)
from bot.games.marine import moves
from bot.games.marine.actions import BoatMove, ShipMove
from bot.games.marine.pieces import OPENING, Kind, Piece
from bot.games.marine.state import MarineState
from bot.games.marine.turns import HARBOUR, STUCK
from tests.support.marine_positions import ENGINE as E
from tests.support.marine_positions import NORTH, SOUTH, piece, position, with_turn


def act(state: MarineState, text: str, seat: int | None = None) -> Transition:
    """``text`` played by ``seat`` (by default whoever is to move)."""
    return E.act(state, state.turn if seat is None else seat, text)  # type: ignore[arg-type]


def refused(state: MarineState, text: str, words: str, seat: int | None = None) -> None:
    with pytest.raises(IllegalActionError) as error:
        act(state, text, seat)
    assert words in str(error.value)


def pieces(state: MarineState) -> set[str]:
    """The board as position words, e.g. ``{"C41", "d35", "uM"}``."""
    return {
        (p.kind.value if p.side == SOUTH else p.kind.value.lower()) + str(p.point)
        for p in state.pieces
    }


def taken(transition: Transition) -> set[str]:
    last = transition.state.last
    assert last is not None
    return {
        (p.kind.value if p.side == SOUTH else p.kind.value.lower()) + str(p.point)
        for p in last.taken
    }


# -- §3 points and occupancy -------------------------------------------------------------------


def test_3_1_battleships_stand_on_corners_and_u_boats_in_hexes() -> None:
    with pytest.raises(ValueError):
        Piece(Kind.CRUISER, SOUTH, "Q")
    with pytest.raises(ValueError):
        Piece(Kind.U_BOAT, SOUTH, 41)
    assert piece("uQ") == Piece(Kind.U_BOAT, NORTH, "Q")


def test_3_2_a_corner_holds_one_battleship_of_either_side() -> None:
    state = position("D46 C45 US / d41 uB")
    refused(state, "46-41", "occupied")  # an enemy
    refused(state, "46-45", "occupied")  # an own piece


def test_3_3_a_hex_holds_one_u_boat_of_either_side() -> None:
    state = position("UP UM US / uQ uB")
    refused(state, "P-Q", "already holds a U-boat")  # an enemy
    refused(state, "P-M", "already holds a U-boat")  # an own piece


def test_3_4_u_boats_and_battleships_of_either_side_share_a_hex_and_its_corners() -> None:
    own = act(position("UP C41 D42 US / uB"), "P-Q")
    assert pieces(own.state) == {"UQ", "C41", "D42", "US", "uB"}
    corner = act(position("D48 UP / uB uQ"), "48-47")  # 47 is a corner of P and Q
    assert "D47" in pieces(corner.state) and "UP" in pieces(corner.state)


# -- §4 opening setup --------------------------------------------------------------------------


def test_4_opening_position_and_south_moves_first() -> None:
    state = E.new_game(E.presets["classic"], 7)
    assert state.phase is Phase.PLAY and state.turn == state.south
    assert pieces(state) == {
        "UR", "US", "UT", "C50", "C51", "D45", "D46", "D47", "D48",
        "uA", "uB", "uC", "c8", "c9", "d11", "d12", "d13", "d14",
    }  # fmt: skip
    assert set(state.pieces) == set(OPENING) and len(state.pieces) == 18


def test_4_who_plays_south_is_drawn_from_the_seed() -> None:
    souths = {E.new_game(E.presets["classic"], seed).south for seed in range(12)}
    assert souths == {0, 1}


@pytest.mark.parametrize("side", [SOUTH, NORTH])
def test_4_each_side_has_27_first_moves_and_none_takes_or_loses_a_piece(side: int) -> None:
    opening = E.new_game(E.presets["classic"], 1)
    opening = with_turn(opening, opening.seat_of(side))
    seat = opening.seat_of(side)
    first = list(moves.legal_moves(opening.at, side))
    assert len(first) == 27
    for move in first:
        after = E.apply(opening, seat, move).state
        assert after.losses == () and after.phase is Phase.PLAY


# -- §5 moving ---------------------------------------------------------------------------------


def test_5_1_one_piece_a_turn_in_turn_and_no_passing() -> None:
    state = position("D46 US / uB")
    with pytest.raises(NotYourTurnError):
        act(state, "B-A", seat=NORTH)
    after = act(state, "46-41").state
    assert after.turn == NORTH and pieces(after) == {"D41", "US", "uB"}
    with pytest.raises(NotationError):
        act(after, "pass")
    refused(after, "41-42", "no piece on 41", seat=NORTH)


def test_5_2_a_battleship_moves_one_or_two_sides_to_an_empty_corner() -> None:
    state = position("D46 US / uB")
    assert set(moves.ship_destinations(state.at, 46)) == {41, 45, 50, 35, 42, 40, 49, 51, 54}
    assert act(state, "46-35").state.last.via == 41  # type: ignore[union-attr]
    assert act(state, "46-41").state.last.via is None  # type: ignore[union-attr]


def test_5_2_the_middle_corner_must_be_empty_and_the_start_is_no_destination() -> None:
    state = position("D46 C41 US / uB")
    refused(state, "46-35", "passes corner 41, which is occupied")
    refused(state, "46-46", "must leave its corner")
    refused(state, "46-29", "not one or two hex sides")
    assert 46 not in moves.ship_destinations(state.at, 46)


def test_5_3_a_u_boat_moves_to_a_neighbouring_hex() -> None:
    state = position("UR C41 US / uB")
    assert moves.boat_destinations(state.at, "R") == {"O", "Q", "T"}
    refused(state, "R-M", "not next to R")
    assert pieces(act(state, "r-o").state) == {"UO", "C41", "US", "uB"}


def test_5_notation_is_corner_to_corner_or_hex_to_hex() -> None:
    state = position("UR D46 US / uB")
    for text, canonical in (("46-41", "46-41"), (" 46 - 41 ", "46-41"), ("r-o", "R-O")):
        action = E.parse_action(state, SOUTH, text)
        assert str(action) == canonical
        assert str(E.parse_action(state, SOUTH, canonical)) == canonical
    assert E.parse_action(state, SOUTH, "46-35") == ShipMove(46, 35)
    assert E.parse_action(state, SOUTH, "R-Q") == BoatMove("R", "Q")
    for text in ("46-O", "R-41", "46", "Z-Q", "46-99", "46x41", "", "pass"):
        with pytest.raises(NotationError):
            E.parse_action(state, SOUTH, text)


def test_5_4_nothing_is_taken_by_moving_onto_it() -> None:
    state = position("C46 US / d41 uB")
    refused(state, "46-41", "occupied")
    assert E.to_json(state) == E.to_json(position("C46 US / d41 uB"))


# -- §6 taking: every combination ------------------------------------------------------------


TAKINGS = [
    # A cruiser takes every enemy destroyer one side away.
    ("C36 US / d35 d46 uB", "36-41", "d35 d46", "C41 US uB"),
    # A cruiser moving onto a corner of an enemy U-boat's hex is taken (cruisers never take
    # U-boats).
    ("C43 US / uK uB", "43-37", "C37", "US uK uB"),
    # A cruiser takes a destroyer and is taken in the same move.
    ("C43 US / uK d31 uB", "43-37", "d31 C37", "US uK uB"),
    # A destroyer takes every enemy U-boat in a hex it is a corner of.
    ("D46 US / uM uO uB", "46-41", "uM uO", "D41 US uB"),
    # A destroyer moving one side from an enemy cruiser is taken (destroyers never take cruisers).
    ("D46 US / c35 uB", "46-41", "D41", "US c35 uB"),
    # A destroyer takes a U-boat and is taken in the same move.
    ("D46 US / c35 uM uB", "46-41", "uM D41", "US c35 uB"),
    # A U-boat takes every enemy cruiser on its new hex's corners.
    ("UP US / c41 c47 uB", "P-Q", "c41 c47", "UQ US uB"),
    # A U-boat entering a hex with an enemy destroyer on a corner is taken (U-boats never take
    # destroyers).
    ("UP US / d50 uB", "P-Q", "UQ", "US d50 uB"),
    # A U-boat takes a cruiser and is taken in the same move.
    ("UP US / c41 d50 uB", "P-Q", "c41 UQ", "US d50 uB"),
]
"""Each taking of §6: a position, a move, the pieces it takes and the pieces left."""


@pytest.mark.parametrize(("start", "move", "lost", "left"), TAKINGS)
def test_6_taking(start: str, move: str, lost: str, left: str) -> None:
    moved = act(position(start), move)
    assert taken(moved) == set(lost.split())
    assert pieces(moved.state) == set(left.split())


def test_6_example_a_north_u_boat_entering_q_takes_both_cruisers_and_is_taken() -> None:
    state = position("C50 C51 D46 D47 US / uP uB", turn=NORTH)
    moved = act(state, "P-Q")
    assert taken(moved) == {"C50", "C51", "uQ"}
    assert pieces(moved.state) == {"D46", "D47", "US", "uB"}


@pytest.mark.parametrize("guard", ["M", "O", "Q"])
def test_6_example_a_north_cruiser_reaching_41_takes_46_and_falls_to_a_u_boat(guard: str) -> None:
    alone = act(position("D46 US / c35 uB", turn=NORTH), "35-41")
    assert taken(alone) == {"D46"} and "c41" in pieces(alone.state)
    guarded = act(position(f"D46 U{guard} US / c35 uB", turn=NORTH), "35-41")
    assert taken(guarded) == {"D46", "c41"}


def test_6_3_own_pieces_and_pieces_of_the_same_type_are_never_affected() -> None:
    own = act(position("C43 D31 UK US / uB"), "43-37")
    assert taken(own) == set()
    same = act(position("C43 D36 US / c31 d38 uB"), "43-37")  # cruiser next to a cruiser
    assert taken(same) == set()
    destroyers = act(position("D43 US / d31 uB"), "43-37")
    assert taken(destroyers) == set()
    boats = act(position("UP US / uK uN uB"), "P-Q")  # next to enemy U-boats: nothing
    assert taken(boats) == set()


def test_6_3_the_corner_passed_in_a_two_side_move_triggers_nothing() -> None:
    # 46 is one side from the cruiser on 50 and a corner of R, where a U-boat lies.
    moved = act(position("D45 US / c50 uR uB"), "45-41")
    assert moved.state.last.via == 46  # type: ignore[union-attr]
    assert taken(moved) == set() and "D41" in pieces(moved.state)


def test_6_3_pieces_that_did_not_move_never_take() -> None:
    """A cruiser already beside an enemy destroyer takes nothing when another piece moves."""
    moved = act(position("C36 UR / d37 uB"), "R-O")
    assert taken(moved) == set() and {"C36", "d37"} <= pieces(moved.state)


# -- §7 winning --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "text", "turn"),
    [
        ("D13 US / uI", "13-9", SOUTH),
        ("C12 US / uI", "12-8", SOUTH),
        ("UD US / uI", "D-A", SOUTH),
        ("US / c46 uB", "46-50", NORTH),
        ("US / d55 uB", "55-51", NORTH),
        ("UB / uQ", "Q-T", NORTH),
    ],
)
def test_7_1_reaching_the_enemy_harbour_wins(where: str, text: str, turn: int) -> None:
    ended = act(position(where, turn=turn), text)
    assert ended.state.phase is Phase.FINISHED and ended.state.turn is None
    outcome = E.outcome(ended.state)
    assert outcome is not None and outcome.winner == turn and outcome.detail == HARBOUR
    assert outcome.reason is EndReason.RULES
    assert any("enemy harbour" in e.text for e in ended.for_audience(None))


def test_7_1_a_piece_taken_on_arrival_does_not_win() -> None:
    for where, text in (("D13 US / c8 uI", "13-9"), ("UD US / d4 uI", "D-A")):
        after = act(position(where), text).state
        assert after.phase is Phase.PLAY and E.outcome(after) is None


def test_7_1_taking_on_arrival_still_wins() -> None:
    ended = act(position("C13 US / d5 uI"), "13-9")
    assert taken(ended) == {"d5"} and ended.state.outcome.winner == SOUTH  # type: ignore[union-attr]


def test_7_3_the_own_harbour_is_an_ordinary_point() -> None:
    for where, text in (("C46 US / uB", "46-50"), ("UQ US / uB", "Q-T")):
        after = act(position(where), text).state
        assert after.phase is Phase.PLAY


def test_7_2_taking_the_last_enemy_piece_leaves_the_enemy_without_a_move() -> None:
    ended = act(position("D46 / uM"), "46-41").state
    assert ended.outcome is not None and ended.outcome.winner == SOUTH
    assert ended.outcome.detail == STUCK


def test_7_2_a_player_whose_pieces_cannot_move_loses() -> None:
    ended = act(position("UB UC UE / uA"), "E-D").state
    assert ended.outcome is not None and ended.outcome.winner == SOUTH
    assert ended.outcome.detail == STUCK


def test_7_2_a_suicide_of_the_last_piece_loses_at_the_players_next_turn() -> None:
    after = act(position("D46 / c35 uB"), "46-41").state
    assert after.phase is Phase.PLAY and after.turn == NORTH
    ended = act(after, "B-E").state
    assert ended.outcome is not None and ended.outcome.winner == NORTH


# -- §8 draws ----------------------------------------------------------------------------------


def test_8_1_a_draw_is_offered_in_turn_and_accepted_in_the_next() -> None:
    state = position("D46 US / uB")
    refused(state, "accept draw", "no draw offer")
    offered = act(state, "offer draw")
    assert offered.state.turn == SOUTH and offered.state.draw_offer == SOUTH
    assert any("offers a draw" in e.text for e in offered.for_audience(NORTH))
    refused(offered.state, "offer draw", "already stands")
    moved = act(offered.state, "46-41").state
    assert E.parse_action(moved, NORTH, "accept draw") in list(E.legal_actions(moved, NORTH))
    ended = act(moved, "accept draw").state
    assert ended.outcome is not None and ended.outcome.winner is None
    assert ended.phase is Phase.FINISHED and ended.draw_offer is None


def test_8_1_playing_on_declines_the_draw() -> None:
    state = position("D46 US / uB")
    offered = act(act(state, "offer draw").state, "46-41").state
    declined = act(offered, "B-E").state
    assert declined.draw_offer is None
    refused(declined, "accept draw", "no draw offer")
    assert "accept draw" not in E.suggestions(E.view(declined, SOUTH), "")


def test_8_1_autocomplete_offers_accepting_a_standing_draw() -> None:
    offered = act(act(position("D46 US / uB"), "offer draw").state, "46-41").state
    assert E.suggestions(E.view(offered, NORTH), "acc") == ["accept draw"]
    assert "offer draw" not in E.suggestions(E.view(offered, NORTH), "")


def test_8_2_sixty_plies_without_a_piece_taken_draw() -> None:
    almost = position("D46 US / uB", quiet=58)
    assert act(almost, "46-41").state.phase is Phase.PLAY
    ended = act(position("D46 US / uB", quiet=59), "46-41").state
    assert ended.outcome is not None and ended.outcome.winner is None
    assert ended.outcome.detail.startswith("60 plies")


def test_8_2_a_piece_taken_restarts_the_count_and_a_win_comes_first() -> None:
    after = act(position("D46 US / uM uB", quiet=59), "46-41").state
    assert after.phase is Phase.PLAY and after.quiet == 0
    won = act(position("D13 US / uI", quiet=59), "13-9").state
    assert won.outcome is not None and won.outcome.winner == SOUTH


def test_8_3_a_sixtieth_quiet_ply_that_leaves_the_opponent_stuck_is_a_draw() -> None:
    """§8.3: the draw of §8.2 ends the game at once; §7.2 would only apply on the
    opponent's turn, which never comes."""
    ended = act(position("UB UC UE / uA", quiet=59), "E-D")
    assert ended.state.outcome is not None and ended.state.outcome.winner is None
    assert ended.state.outcome.detail.startswith("60 plies")
    assert "60 plies in a row without a piece taken" in " ".join(
        e.text for e in ended.for_audience(None)
    )
    stuck = act(position("UB UC UE / uA", quiet=58), "E-D").state
    assert stuck.outcome is not None and stuck.outcome.winner == SOUTH


# -- §9 information ----------------------------------------------------------------------------


def test_9_the_move_and_every_piece_taken_is_told_to_everyone_with_its_owner() -> None:
    moved = act(position("D46 US / c35 uM uB"), "46-41")
    mover, opponent, channel = (
        " ".join(e.text for e in moved.for_audience(a)) for a in (SOUTH, NORTH, None)
    )
    assert "You moved your destroyer 46-41" in mover and "the enemy U-boat in M" in mover
    assert "taken on arrival by an enemy cruiser" in mover
    assert "your U-boat in M" in opponent and "by your cruiser" in opponent
    assert "{seat0} (South) moved a destroyer 46-41" in channel
    assert "North's U-boat in M" in channel and "taken on arrival by a cruiser" in channel


def test_9_every_audience_gets_the_same_board() -> None:
    state = act(position("D46 US / c35 uM uB"), "46-41").state
    views = [E.view(state, audience) for audience in (SOUTH, NORTH, None)]
    assert len({view.board for view in views}) == 1
    assert len({view.text() for view in views}) == 1
