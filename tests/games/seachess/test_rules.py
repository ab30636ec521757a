"""One test per clause of the Seachess rules, on named positions drawn as small diagrams:
the board, the pieces and castling. The torpedo boat is in ``test_torpedoes``, mines
and submarines in ``test_hidden``, check, mate, draws and what each audience is told
in ``test_endings``.
"""

from __future__ import annotations

import pytest

from bot.games.core import NotationError
from bot.games.seachess import board
from bot.games.seachess.actions import parse
from bot.games.seachess.pieces import Kind
from tests.support.seachess_positions import ENGINE as E
from tests.support.seachess_positions import (
    act,
    code_at,
    legal,
    piece_at,
    position,
    refused,
    said,
    sq,
)

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
      3 . . D . . . . . . . . .
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
      5 . . . . C . . . . . . .
      4 . . . . u . . . . . . .
      3 . . . . U . . . . . . .
        """
    )
    assert "e5-e3" in legal(state)  # passes over d4's submerged enemy and onto its own sub


def test_3_1_a_commando_ship_is_never_captured() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . k . . . . . . .
      5 . . . . C . . . . . . .
        """
    )
    refused(state, "e5-e12", "never captured")
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      5 . . . . C . . . . . . .
      4 . . . . k . . . . . . .
        """
    )
    refused(state, "e5-e4", "never captured")


def test_3_2_and_3_3_cruiser_moves_as_a_rook_destroyer_as_a_bishop() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      6 . . . . . . . . . . . .
      5 . . . . C . . . . . . .
      4 . . . . . D . . . . . .
        """
    )
    moves = legal(state)
    assert {"e5-e10", "e5-a5", "e5-l5", "e5-e3", "e5-e1"} <= moves
    assert "e5-f6" not in moves
    assert {"f4-i7", "f4-d2", "f4-h2", "f4-g3"} <= moves
    assert "f4-e5" not in moves and "f4-f5" not in moves


def test_3_5_submarine_moves_as_a_knight() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      6 . . . B B B . . . . . .
      5 . . . B S B . . . . . .
      4 . . . B B B . . . . . .
        """
    )
    jumps = {m for m in legal(state) if m.startswith("e5-")}
    assert jumps == {f"e5-{t}" for t in ("d7", "f7", "g6", "g4", "f3", "d3", "c4", "c6")}


def test_3_6_carrier_steps_and_its_blockable_horse_move() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      7 . . . . . . . . . . . .
      6 . . . . . . . . . . . .
      5 . . . . B A . . . . . .
      4 . . . . . . . . . . . .
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
      8 . . c . . . . . . . . .
      7 . . . . . . . . . . . .
      6 . . . . . . . b . . . .
      5 . . . . . A . . . . . .
      2 . . . . . . . . b . . .
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
        """
    )
    assert state.checks == (False, True) and "air f5xc8" not in legal(state)
    hit = position(
        """
        a b c d e f g h i j k l
      5 . . . . . A . . c . . .
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
      4 . . . . . . . . . . . .
      3 . . . . . b . . . . . .
      2 . . . . B . . . . . . .
        """
    )
    moves = legal(state)
    assert {"e2-e3", "e2-e4", "e2-e5", "e2-e6", "e2-f3"} <= moves and "e2-e7" not in moves
    later = position(
        """
        a b c d e f g h i j k l
      4 . . . . B . . . . . . .
        """
    )
    assert {m for m in legal(later) if m.startswith("e4")} == {"e4-e5"}


def test_3_8_en_passant_only_on_the_third_rank() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      4 . . . . . b . . . . . .
      2 . . . . B . . . . . . .
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
     11 . . . . . . . . . . . .
     10 . B . . . . . . . . B .
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
