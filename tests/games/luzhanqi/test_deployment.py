"""Luzhanqi before the first move (Luzhanqi rules §4, §10.2): each side's secret
deployment and its swaps, and the flip game's face-down deal and flips.
"""

from __future__ import annotations

import pytest

from bot.games.core import Phase
from bot.games.luzhanqi.board import Colour, half, name, parse_station
from bot.games.luzhanqi.deployment import SLOTS, check_layout
from bot.games.luzhanqi.pieces import ARMY, Kind
from tests.support.luzhanqi_positions import (
    CLASSIC,
    FLIP,
    new_setup,
    play,
    position,
    refused,
    targets,
    texts,
)
from tests.support.luzhanqi_positions import ENGINE as E

# -- 10.2: the flip game ------------------------------------------------------------------------

DEALT = """
12 . . . . b3-
 3 . r5- . . .
 1 b4- . . . r3-
"""


@pytest.mark.parametrize(("flipped", "colour"), [("b3", Colour.RED), ("a1", Colour.BLUE)])
def test_a3_the_first_flip_fixes_the_first_players_colour(flipped: str, colour: Colour) -> None:
    state = position(DEALT, FLIP, red_seat=None)
    assert refused(state, "b3-b4")  # nothing of one's own is face up yet
    transition = play(state, f"flip {flipped}")
    after = transition.state
    assert after.colour_of(0) is colour and after.colour_of(1) is colour.opponent
    assert f"You play {colour.value.title()}" in texts(transition, 0)


FLAG_BEHIND_MINE = """
12 . . bF . b3
11 . . r5 . .
 2 . . . . bL-
 1 r3 . . . .
"""


def test_a7_the_flag_is_immune_while_its_side_has_a_landmine_even_face_down() -> None:
    state = position(FLAG_BEHIND_MINE, FLIP)
    assert "rule A7" in refused(state, "c11-c12")
    cleared = position(FLAG_BEHIND_MINE.replace("bL-", "b2-"), FLIP)
    outcome = play(cleared, "c11-c12").state.outcome
    assert outcome is not None and outcome.winner == 0


def test_a4_a_face_down_piece_cannot_be_attacked_and_blocks_runs() -> None:
    state = position(
        """
12 . . . . b3
 9 b9- . . . .
 3 r5 . . . .
 1 . . . . r3
""",
        FLIP,
    )
    assert "rule A4" in refused(state, "a3-a9")
    assert "a10" not in targets(state, "a3")


def test_a6_a_bomb_never_attacks_the_flag_in_the_flip_game() -> None:
    state = position(FLAG_BEHIND_MINE.replace("r5", "rB").replace("bL-", "b2-"), FLIP)
    assert "rule A6" in refused(state, "c11-c12")


def test_a2_flipping_is_a_whole_turn_and_shows_the_piece_to_everyone() -> None:
    state = position(DEALT, FLIP)
    transition = play(state, "flip a1")
    assert transition.state.turn == 1
    for audience in (0, 1, None):
        assert "blue major" in texts(transition, audience)
        piece = E.view(transition.state, audience).pieces[parse_station("a1")]
        assert piece is not None and piece.kind is Kind.MAJOR


def test_a11_a_flip_restarts_the_no_attack_count() -> None:
    state = position(DEALT, FLIP, quiet=59)
    assert play(state, "flip a1").state.quiet == 0


# -- 4: deployment ------------------------------------------------------------------------------


def test_4_1_a_game_starts_from_a_legal_random_deployment_for_each_side() -> None:
    state = new_setup()
    for seat in (0, 1):
        colour = state.colour_of(seat)
        assert colour is not None
        check_layout(state.sides[seat].layout, colour)
        assert sorted(state.sides[seat].layout, key=str) == sorted(ARMY, key=str)


@pytest.mark.parametrize(
    ("kind", "slot_station", "rule"),
    [
        (Kind.FLAG, "a1", "one of your two HQs"),
        (Kind.LANDMINE, "a3", "your last two ranks"),
        (Kind.BOMB, "a6", "your front rank"),
    ],
)
def test_4_2_to_4_4_a_swap_that_breaks_a_rule_is_refused_naming_it(
    kind: Kind, slot_station: str, rule: str
) -> None:
    state = new_setup()
    seat = state.red_seat
    assert seat is not None
    layout = state.sides[seat].layout
    source = next(s for s, k in zip(half(Colour.RED), layout, strict=True) if k is kind)
    if name(source) == slot_station:
        pytest.skip("the piece already stands there")
    target_kind = layout[half(Colour.RED).index(parse_station(slot_station))]
    if target_kind is kind:
        pytest.skip("same kind")
    assert rule in refused(state, f"swap {name(source)} {slot_station}", seat)


def test_4_1_a_swap_names_only_own_posts_and_hqs() -> None:
    state = new_setup()
    seat = state.red_seat
    assert seat is not None
    assert "camp" in refused(state, "swap b3 a1", seat)
    assert "not on your half, which is ranks 1-6" in refused(state, "swap a12 a1", seat)
    blue = 1 - seat
    assert "not on your half, which is ranks 7-12" in refused(state, "swap a1 a12", blue)


@pytest.mark.parametrize("seed", range(20))
def test_4_1_the_swap_example_players_are_shown_works_for_both_colours(seed: int) -> None:
    """Every text that shows a swap names one the reader can make in any deployment."""
    state = new_setup(seed)
    for seat in (0, 1):
        colour = state.colour_of(seat)
        assert colour is not None
        dealt = E.act(state, seat, "random")
        (said,) = dealt.events
        example = said.text.split("`")[1]
        assert example == ("swap a1 e1" if colour is Colour.RED else "swap a12 e12")
        E.act(dealt.state, seat, example)  # raises if the example cannot be played


def test_4_1_a_deployment_with_the_wrong_pieces_is_refused() -> None:
    state = new_setup()
    wrong = "deploy " + "9" * 25
    assert "exactly your 25 pieces" in refused(state, wrong, 0)


def test_4_5_a_saved_deployment_loads_on_either_colour() -> None:
    state = new_setup()
    red, blue = state.red_seat, 1 - (state.red_seat or 0)
    text = E.setup_text(E.view(state, red))
    assert text is not None and str(E.parse_action(state, red, text)) == text
    loaded = E.act(state, blue, text).state
    assert loaded.sides[blue].layout == state.sides[red].layout


def test_4_5_the_opponent_sees_no_deployment_and_play_starts_with_red() -> None:
    state = new_setup()
    red = state.red_seat
    assert red is not None
    after = E.act(state, red, "ready")
    assert texts(after, None).endswith("has deployed their army.")
    assert not texts(after, 1 - red)
    started = E.act(after.state, 1 - red, "ready")
    assert started.state.phase is Phase.PLAY and started.state.turn == red
    assert "You play Red and move first" in texts(started, red)
    assert "can no longer change" in refused(started.state, "swap a1 a2", red)


def test_4_6_colours_come_from_the_seed() -> None:
    colours = {E.new_game(CLASSIC, seed).red_seat for seed in range(20)}
    assert colours == {0, 1}


def test_a1_the_flip_game_deals_every_piece_face_down_off_the_camps() -> None:
    state = E.new_game(FLIP, 5)
    assert state.phase is Phase.PLAY and state.red_seat is None
    pieces = [p for p in state.board if p is not None]
    assert len(pieces) == 50 and not any(p.face_up for p in pieces)
    assert len(SLOTS) * 2 == 50
