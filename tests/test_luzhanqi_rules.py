"""One test per clause of docs/rules/luzhanqi.md, on named positions drawn as text diagrams.

Each test cites its clause. Positions are built by ``tests/luzhanqi_positions.py``; moves
are typed in the engine's own notation. In every diagram seat 0 plays Red (bottom, ranks
1-6) and seat 1 Blue, and each side keeps a spare piece so that no game ends by accident.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from bot.games.core import (
    EndReason,
    GameError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Outcome,
    Phase,
    Transition,
    name_of,
)
from bot.games.luzhanqi.actions import parse
from bot.games.luzhanqi.board import Colour, half, name, parse_station
from bot.games.luzhanqi.deployment import SLOTS, check_layout
from bot.games.luzhanqi.pieces import ARMY, Kind, Piece
from bot.games.luzhanqi.rules import LuzhanqiRules
from bot.games.luzhanqi.state import LuzhanqiState
from tests.luzhanqi_positions import (
    CLASSIC,
    ENGINE,
    FLIP,
    VARIANT_C,
    at,
    play,
    position,
    refused,
    targets,
    texts,
)

E = ENGINE

# -- 2 and 5: moving ---------------------------------------------------------------------------

ROAD = """
12 . . . . b3
 3 . . r5 . .
 1 r3 . . . .
"""


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


def test_5_4_a_run_may_not_turn_from_one_line_onto_another() -> None:
    colonel = position("""
12 . . . . b3
 7 r5 . . . .
 1 . . . . r3
""")
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
    alone = position("""
12 . . . . b3
 2 r1 . . . .
 1 . . . . r3
""")
    reached = targets(alone, "a2")
    assert {"e11", "c7", "e6", "d11", "a11", "c6"} <= reached
    colonel = position("""
12 . . . . b3
 2 r5 . . . .
 1 . . . . r3
""")
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
    assert "rule 5.7" in refused(state, "b4-b5")


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
    assert "rule 5.2" in refused(position(FROZEN), "b1-b2")


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
    assert "rule 5.2" in refused(after, "b12-c12")


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
    assert "rule 5.8" in refused(state, "c12-b12")
    assert "rule 5.8" in refused(state, "c12-d12")  # an empty enemy HQ too


def test_c4_a_bomb_takes_the_flag_in_variant_c() -> None:
    state = position(BOMB_AT_HQ.replace("r.", "rB"), VARIANT_C)
    transition = play(state, "c12-b12")
    after = transition.state
    assert after.phase is Phase.FINISHED and after.outcome is not None
    assert after.outcome.winner == 0 and at(after, "b12") is None  # the bomb is removed too


def code(piece: Piece | None) -> str | None:
    """A piece as a diagram token, like ``r7``."""
    if piece is None or piece.colour is None or piece.kind is None:
        return None
    return f"{piece.colour.value[0]}{piece.kind.value}"


# -- 6: clashes --------------------------------------------------------------------------------

DUEL = """
12 . . . . b3
 8 b{D} . . . .
 7 r{A} . . . .
 1 . . . . r3
"""


def duel(attacker: str, defender: str, rules: LuzhanqiRules = CLASSIC) -> Transition:
    state = position(DUEL.replace("{A}", attacker).replace("{D}", defender), rules)
    return play(state, "a7-a8")


@pytest.mark.parametrize(
    ("attacker", "defender", "a7", "a8"),
    [
        ("6", "5", None, "r6"),  # 6.4 higher rank wins and occupies
        ("4", "5", None, "b5"),  # 6.4 lower rank is removed
        ("5", "5", None, None),  # 6.4 equal ranks: both removed
        ("B", "9", None, None),  # 6.2 a bomb removes both
        ("9", "B", None, None),
        ("1", "B", None, None),
    ],
)
def test_6_clash_lines(attacker: str, defender: str, a7: None, a8: str | None) -> None:
    after = duel(attacker, defender).state
    assert at(after, "a7") is a7
    assert code(at(after, "a8")) == a8


MINED = """
12 . . bL . b3
11 . . r{A} . .
 1 r3 . . . .
"""


@pytest.mark.parametrize(
    ("option", "attacker", "c12"),
    [
        ("m1", "1", "r1"),  # engineer clears the mine
        ("m1", "5", "bL"),  # the mine stays, the colonel is removed
        ("m1", "B", None),  # a bomb and a mine remove each other
        ("m2", "1", "r1"),
        ("m2", "5", None),  # exchange
        ("m3", "1", None),  # bomb mine: even the engineer dies
        ("m3", "9", None),
    ],
)
def test_6_3_and_10_4_landmine_options(option: str, attacker: str, c12: str | None) -> None:
    rules = E.configure("classic", option)
    after = play(position(MINED.replace("{A}", attacker), rules), "c11-c12").state
    assert at(after, "c11") is None
    assert code(at(after, "c12")) == c12


def test_c3_variant_c_uses_the_exchange_rule() -> None:
    after = play(position(MINED.replace("{A}", "7"), VARIANT_C), "c11-c12").state
    assert at(after, "c12") is None and at(after, "c11") is None


def test_6_1_and_8_1_capturing_the_flag_wins() -> None:
    state = position("""
12 . bF . . b3
11 . r2 . . .
 1 r3 . . . .
""")
    transition = play(state, "b11-b12")
    assert transition.state.outcome is not None and transition.state.outcome.winner == 0
    assert "captured the flag" in texts(transition, None)
    assert f"{name_of(0)} wins" in texts(transition, None)


# -- 9.3 and 7: what a clash tells --------------------------------------------------------------


def test_9_3_a_clash_names_no_piece_to_the_opponent_or_the_channel() -> None:
    transition = duel("5", "4")
    channel, mover, defender = texts(transition, None), texts(transition, 0), texts(transition, 1)
    assert "a7-a8: defender removed" in channel
    assert "colonel" not in channel and "major" not in channel
    assert "colonel" in mover and "major" not in mover
    assert "major" in defender and "colonel" not in defender
    engineer_on_mine = play(position(MINED.replace("{A}", "1")), "c11-c12")
    assert "defender removed" in texts(engineer_on_mine, None)
    colonel_on_mine = play(position(MINED.replace("{A}", "5")), "c11-c12")
    assert "attacker removed" in texts(colonel_on_mine, None)


MARSHAL = """
12 . bF . . b3
 8 b9 . . . .
 7 rB . . . .
 1 r3 rF . . .
"""


def test_7_a_fallen_marshal_shows_both_players_the_flag() -> None:
    transition = play(position(MARSHAL), "a7-a8")
    after = transition.state
    assert "their flag stands on b12" in texts(transition, 0)
    assert "your flag on b12" in texts(transition, 1)
    assert "b12" not in texts(transition, None)
    red_view = E.view(after, 0)
    flag = red_view.pieces[parse_station("b12")]
    assert flag is not None and flag.kind is Kind.FLAG
    public_flag = E.view(after, None).pieces[parse_station("b12")]
    assert public_flag is not None and public_flag.kind is None


def test_7_does_not_apply_in_the_flip_game() -> None:
    transition = play(position(MARSHAL, FLIP), "a7-a8")
    assert "flag" not in texts(transition, 0).lower()


# -- 8: the end ----------------------------------------------------------------------------------


def test_8_2_a_player_without_a_legal_move_loses() -> None:
    state = position("""
12 bL bF . . .
11 b3 . . . .
10 r5 . . . .
 1 r3 . . . .
""")
    transition = play(state, "a10-a11")
    outcome = transition.state.outcome
    assert outcome is not None and outcome.winner == 0 and "no legal move" in outcome.detail


def test_8_3_neither_side_able_to_move_is_a_draw() -> None:
    state = position("""
12 . . . bF bL
11 . r5 . . .
 1 rL rF . . .
""")
    outcome = play(state, "b11-b12").state.outcome
    assert outcome is not None and outcome.winner is None and "neither" in outcome.detail


def test_8_4_sixty_plies_without_an_attack_draw() -> None:
    state = position(ROAD, quiet=58)
    after = play(state, "c3-c4").state
    assert after.outcome is None and after.quiet == 59
    final = play(after, "e12-d12").state
    assert final.outcome is not None and final.outcome.winner is None
    assert "60 plies" in final.outcome.detail


def test_8_4_an_attack_restarts_the_count() -> None:
    state = position(DUEL.replace("{A}", "6").replace("{D}", "5"), quiet=59)
    after = play(state, "a7-a8").state
    assert after.outcome is None and after.quiet == 0


def test_8_6_the_end_shows_everyone_the_whole_position() -> None:
    state = position(MARSHAL)
    assert code(E.view(state, None).pieces[parse_station("a8")]) is None
    over = E.conclude(state, Outcome(0, EndReason.RESIGNATION))
    for audience in (0, 1, None):
        assert code(E.view(over, audience).pieces[parse_station("a8")]) == "b9"


def test_w2_removing_every_movable_enemy_piece_wins() -> None:
    state = position(
        """
12 . bF . . .
 8 b2 . . . .
 7 r5 . . . .
 1 r3 . . . .
""",
        E.configure("classic", "w2"),
    )
    outcome = play(state, "a7-a8").state.outcome
    assert outcome is not None and outcome.winner == 0 and "movable" in outcome.detail


def test_w2_losing_ones_own_last_movable_piece_loses() -> None:
    """10.4, A10: W2 is checked for both sides after every ply, so the mover whose attack
    costs him his last movable piece has lost, while the other side can still move."""
    state = position(
        """
12 . bF . . .
 8 b5 . . . .
 7 r3 . . . .
 1 . rF . . .
""",
        E.configure("classic", "w2"),
    )
    transition = play(state, "a7-a8")
    outcome = transition.state.outcome
    assert outcome is not None and outcome.winner == 1 and "movable" in outcome.detail
    assert "you lose" in texts(transition, 0)


def test_w2_a_clash_that_removes_both_last_movable_pieces_is_a_draw() -> None:
    state = position(
        """
12 . bF . . .
 8 b3 . . . .
 7 r3 . . . .
 1 . rF . . .
""",
        E.configure("classic", "w2"),
    )
    outcome = play(state, "a7-a8").state.outcome
    assert outcome is not None and outcome.winner is None and "movable" in outcome.detail


def test_8_5_a_draw_is_offered_in_turn_and_accepted_in_the_next() -> None:
    state = position(ROAD)
    assert "no draw offer" in refused(state, "accept draw")
    offered = play(state, "offer draw")
    assert offered.state.turn == 0 and offered.state.draw_offer == 0  # the turn goes on
    assert "You offer a draw" in texts(offered, 0)
    assert "`accept draw`" in texts(offered, 1)
    assert texts(offered, None) == f"{name_of(0)} offers a draw."
    assert E.view(offered.state, None).draw_offer == 0  # a standing offer is public
    assert "already stands" in refused(offered.state, "offer draw")
    assert "no draw offer" in refused(offered.state, "accept draw")  # not one's own
    moved = play(offered.state, "c3-c4").state
    assert moved.draw_offer == 0 and E.view(moved, 1).draw_offer == 0
    assert E.parse_action(moved, 1, "accept draw") in list(E.legal_actions(moved, 1))
    assert "offer draw" not in texts_of(E.legal_actions(moved, 1))
    accepted = play(moved, "accept draw")
    ended = accepted.state
    assert ended.phase is Phase.FINISHED and ended.draw_offer is None
    assert ended.outcome == Outcome(None, EndReason.RULES, "agreed to a draw")
    assert "You accepted the draw" in texts(accepted, 1)
    assert "Your opponent accepted your draw offer" in texts(accepted, 0)
    assert "The game is drawn: agreed to a draw." in texts(accepted, None)
    assert E.from_json(E.to_json(moved)) == moved


def test_8_5_playing_on_declines_the_draw() -> None:
    offered = play(play(position(ROAD), "offer draw").state, "c3-c4").state
    declined = play(offered, "e12-d12").state
    assert declined.draw_offer is None and declined.outcome is None
    assert "no draw offer" in refused(declined, "accept draw")
    assert "offer draw" in texts_of(E.legal_actions(declined, 0))


def test_8_5_draw_words_out_of_turn_or_in_deployment_are_refused() -> None:
    state = position(ROAD)
    assert "opponent's turn" in refused(state, "offer draw", seat=1)
    assert list(E.legal_actions(state, 1)) == []
    deploying = E.new_game(CLASSIC, 3)
    for text in ("offer draw", "accept draw"):
        assert "deployed" in refused(deploying, text, seat=0)
    assert not any("draw" in t for t in texts_of(E.legal_actions(deploying, 0)))
    assert not any("draw" in t for t in E.suggestions(E.view(deploying, 0), ""))


def test_8_5_autocomplete_offers_what_the_viewer_may_say() -> None:
    state = position(ROAD)
    assert E.suggestions(E.view(state, 0), "off") == ["offer draw"]
    assert E.suggestions(E.view(state, 1), "") == []
    offered = play(play(state, "offer draw").state, "c3-c4").state
    assert E.suggestions(E.view(offered, 1), "acc") == ["accept draw"]
    assert "offer draw" not in E.suggestions(E.view(offered, 1), "")


def test_8_5_a_flip_game_may_be_drawn_by_agreement_before_any_flip() -> None:
    """A11: resignation and agreement as 8.5, whether or not colours are known yet."""
    state = E.new_game(FLIP, 5)
    first = state.turn
    assert first is not None
    offered = play(play(state, "offer draw").state, "flip c3").state
    ended = play(offered, "accept draw").state
    assert ended.outcome is not None and ended.outcome.winner is None


def test_8_5_an_old_stored_game_without_a_draw_offer_still_loads() -> None:
    data = E.to_json(position(ROAD))
    del data["draw_offer"]
    assert E.from_json(data).draw_offer is None


@pytest.mark.parametrize("offer", [2, "0", True])
def test_8_5_a_stored_draw_offer_must_name_a_seat(offer: object) -> None:
    data = E.to_json(position(ROAD))
    data["draw_offer"] = offer
    with pytest.raises(GameError):
        E.from_json(data)


def test_8_5_a_game_in_deployment_stores_no_draw_offer() -> None:
    data = E.to_json(E.new_game(CLASSIC, 3))
    data["draw_offer"] = 0
    with pytest.raises(GameError):
        E.from_json(data)


def texts_of(actions: Iterable[object]) -> list[str]:
    return [str(action) for action in actions]


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


# -- 4: deployment ------------------------------------------------------------------------------


def new_setup(seed: int = 3) -> LuzhanqiState:
    return E.new_game(CLASSIC, seed)


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
        (Kind.FLAG, "a1", "rule 4.2"),
        (Kind.LANDMINE, "a3", "rule 4.3"),
        (Kind.BOMB, "a6", "rule 4.4"),
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
    assert "rule 4.1" in refused(state, wrong, 0)


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
