"""One test per clause of the Luzhanqi rules, on named positions drawn as text diagrams:
moving, turn order and notation. Clashes and the end are in ``test_clashes``,
deployment and the flip game in ``test_deployment``.

Each test cites its clause. Positions are built by ``tests/support/luzhanqi_positions.py``; moves
are typed in the engine's own notation. In every diagram seat 0 plays Red (bottom, ranks
1-6) and seat 1 Blue, and each side keeps a spare piece so that no game ends by accident.
"""

from __future__ import annotations

import pytest

from bot.games.core import GameError, IllegalActionError, NotationError, NotYourTurnError, Phase
from bot.games.luzhanqi.actions import parse
from bot.games.luzhanqi.pieces import Kind
from bot.games.luzhanqi.state import LuzhanqiState
from tests.support.luzhanqi_positions import (
    CLASSIC,
    FLIP,
    ROAD,
    VARIANT_C,
    at,
    new_setup,
    play,
    position,
    refused,
    targets,
)
from tests.support.luzhanqi_positions import ENGINE as E

# -- 2 and 5: moving ---------------------------------------------------------------------------


def test_5_3_a_step_follows_one_edge_and_roads_have_no_diagonals_off_camps() -> None:
    assert targets(position(ROAD), "c3") == {"b3", "d3", "c2", "c4"}


RAIL_RUN = """
12 . . . . b3
 9 b2 . . . .
 3 r5 . . . .
 1 . . . . r3
"""


def test_5_4_a_rail_run_goes_straight_until_the_first_piece_which_it_may_attack() -> None:
    reached = targets(position(RAIL_RUN), "a3")
    assert reached == {"a2", "a4", "a5", "a6", "a7", "a8", "a9", "b3"}
    assert "a10" not in reached  # never past the enemy it meets
    assert "b2" not in reached  # no turning from file a onto rank 2


def test_5_4_a_rail_run_is_blocked_by_an_own_piece_too() -> None:
    blocked = position(RAIL_RUN.replace(" 3 r5 . . . .", " 6 r2 . . . .\n 3 r5 . . . ."))
    assert targets(blocked, "a3") == {"a2", "a4", "a5", "b3"}
    assert "cannot reach a7" in refused(blocked, "a3-a7")


def between_the_threes(rows: str) -> LuzhanqiState:
    """The diagram ``rows`` between Blue's 3 on e12 and Red's 3 on e1, which stand there only
    so that each side has a piece that moves."""
    return position(f"12 . . . . b3\n{rows}\n 1 . . . . r3")


def test_5_4_a_run_may_not_turn_from_one_line_onto_another() -> None:
    colonel = between_the_threes(" 7 r5 . . . .")
    reached = targets(colonel, "a7")
    assert {"a2", "e7", "a11"} <= reached
    assert "c2" not in reached and "b11" not in reached and "b6" not in reached


ENGINEER = """
12 . . . . b3
 3 r3 . . . .
 2 r1 . b4 . .
 1 . . . . r3
"""


def test_5_5_an_engineer_turns_corners_on_railroads() -> None:
    alone = between_the_threes(" 2 r1 . . . .")
    reached = targets(alone, "a2")
    assert {"e11", "c7", "e6", "d11", "a11", "c6"} <= reached
    colonel = between_the_threes(" 2 r5 . . . .")
    assert "e6" not in targets(colonel, "a2") and "c7" not in targets(colonel, "a2")


def test_5_5_an_engineer_never_passes_over_a_piece_of_either_colour() -> None:
    # a3 (own) and c2 (enemy) block both ways off a2; the engineer may attack c2 only.
    assert targets(position(ENGINEER), "a2") == {"a1", "b2", "c2", "b3"}
    assert "rule" not in refused(position(ENGINEER), "a2-d2")


def test_5_6_an_own_piece_is_never_a_destination() -> None:
    state = position(ROAD.replace(" 3 . . r5 . .", " 3 . . r5 r4 ."))
    assert "d3" not in targets(state, "c3")
    assert "Your own piece" in refused(state, "c3-d3")


CAMPED = """
12 . . . . b3
 5 . b7 . . .
 4 . r9 . . .
 1 r3 . . . .
"""


def test_5_7_a_piece_in_a_camp_cannot_be_attacked() -> None:
    state = position(CAMPED)
    assert "b5" not in targets(state, "b4")
    assert "stands in a camp" in refused(state, "b4-b5")


def test_5_7_any_piece_may_enter_an_empty_camp() -> None:
    state = position(ROAD)
    after = play(state, "c3-b3").state
    assert at(after, "b3") is not None and at(after, "c3") is None


def test_c2_camps_give_no_protection_in_variant_c() -> None:
    after = play(position(CAMPED, VARIANT_C), "b4-b5").state
    piece = at(after, "b5")
    assert piece is not None and piece.kind is Kind.MARSHAL


FROZEN = """
12 . . . . b3
 2 . . . . .
 1 . r5 . . r3
"""


def test_5_2_a_piece_on_an_hq_never_moves() -> None:
    assert "can no longer move" in refused(position(FROZEN), "b1-b2")


def test_5_2_flags_and_landmines_never_move() -> None:
    state = position("""
12 . . . . b3
 2 . . rL . .
 1 . rF . . r3
""")
    assert "never moves" in refused(state, "c2-c3")
    assert "never moves" in refused(state, "b1-a1")


def test_5_9_entering_the_enemy_hq_is_legal_and_freezes_the_piece() -> None:
    state = position("""
12 . . . . b3
11 . r5 . . .
 1 r3 . . . .
""")
    after = play(state, "b11-b12").state
    after = play(after, "e12-e11").state
    assert "can no longer move" in refused(after, "b12-c12")


def test_r11_no_hq_freezing_in_the_flip_game() -> None:
    state = position(FROZEN, FLIP)
    assert "b2" in targets(state, "b1")


BOMB_AT_HQ = """
12 . bF r. . b3
11 . . . . .
 1 r3 . . . .
"""


def test_5_8_a_bomb_never_enters_the_enemy_hq() -> None:
    state = position(BOMB_AT_HQ.replace("r.", "rB"))
    assert "b12" not in targets(state, "c12")
    assert "onto the enemy HQ" in refused(state, "c12-b12")
    assert "onto the enemy HQ" in refused(state, "c12-d12")  # an empty enemy HQ too


def test_c4_a_bomb_takes_the_flag_in_variant_c() -> None:
    state = position(BOMB_AT_HQ.replace("r.", "rB"), VARIANT_C)
    transition = play(state, "c12-b12")
    after = transition.state
    assert after.phase is Phase.FINISHED and after.outcome is not None
    assert after.outcome.winner == 0 and at(after, "b12") is None  # the bomb is removed too


# -- 10.3: variant C engineers ------------------------------------------------------------------


def test_c5_engineers_run_straight_in_variant_c_unless_turns_is_chosen() -> None:
    diagram = """
12 . . . . b3
 2 r1 . . . .
 1 . . . . r3
"""
    assert "e6" not in targets(position(diagram, VARIANT_C), "a2")
    assert "e2" in targets(position(diagram, VARIANT_C), "a2")
    turning = E.configure("variant C", "turns")
    assert "e6" in targets(position(diagram, turning), "a2")


# -- turn order, notation ------------------------------------------------------------------------


def test_5_1_moving_out_of_turn_is_refused() -> None:
    with pytest.raises(NotYourTurnError):
        play(position(ROAD), "e12-e11", seat=1)


@pytest.mark.parametrize("text", ["a4-a5", "flip c3", "swap a1 b3", "ready", "random"])
def test_notation_round_trips(text: str) -> None:
    phase = Phase.SETUP if text in ("swap a1 b3", "ready", "random") else Phase.PLAY
    assert str(parse(text, phase, flip_game=True)) == text


def test_notation_accepts_loose_spelling_and_refuses_nonsense() -> None:
    assert str(parse(" A4 - A5 ", Phase.PLAY, flip_game=False)) == "a4-a5"
    for bad in ("f3-f4", "a13-a12", "hello", "flip c3"):
        with pytest.raises(NotationError):
            parse(bad, Phase.PLAY, flip_game=False)


def test_an_illegal_move_is_an_illegal_action_not_a_crash() -> None:
    with pytest.raises(IllegalActionError):
        play(position(ROAD), "c3-c5")
    with pytest.raises(GameError):
        play(position(ROAD), "a2-a3")


def test_options_are_words_typed_at_play() -> None:
    rules = E.configure("flip", "m3 w1")
    assert rules.flip and rules.mines.value == "m3" and rules.win.value == "w1"
    assert E.variant_name(rules) == "flip m3 w1"
    with pytest.raises(GameError, match="contradict"):
        E.configure("classic", "m1 m2")
    with pytest.raises(GameError, match="no option"):
        E.configure("classic", "m9")
    assert E.configure("Variant C") == VARIANT_C
    assert "m2" in E.option_suggestions(CLASSIC, "m")


def test_autocomplete_offers_the_allowed_swaps_and_the_legal_moves() -> None:
    state = new_setup()
    red = state.red_seat
    assert red is not None
    offered = E.suggestions(E.view(state, red), "swap a1", limit=500)
    legal = {str(a) for a in E.legal_actions(state, red)}
    assert offered and all(text.startswith("swap a1 ") for text in offered)
    assert set(offered) == {text for text in legal if text.startswith("swap a1 ")}
    assert E.suggestions(E.view(state, red), "r") == ["ready", "random"]
    assert E.suggestions(E.view(state, None), "") == []
    playing = position(RAIL_RUN)
    assert E.suggestions(E.view(playing, 0), "a3-a") == [
        "a3-a2",
        *(f"a3-a{r}" for r in range(4, 10)),
    ]
