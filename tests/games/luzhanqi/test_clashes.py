"""Luzhanqi's clashes and how a game ends (Luzhanqi rules §6 to §9): who beats whom,
landmines, what a clash tells each audience, the lost flag, no moves left, quiet plies
and draws by agreement.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from bot.games.core import EndReason, GameError, Outcome, Phase, Transition, name_of
from bot.games.luzhanqi.board import parse_station
from bot.games.luzhanqi.pieces import Kind, Piece
from bot.games.luzhanqi.rules import LuzhanqiRules
from tests.support.luzhanqi_positions import (
    CLASSIC,
    FLIP,
    ROAD,
    VARIANT_C,
    at,
    play,
    position,
    refused,
    texts,
)
from tests.support.luzhanqi_positions import ENGINE as E


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


def last_movable_pieces_clash(blue: str) -> Transition:
    """Under W2, Red's 3 on a7 attacks Blue's ``blue`` on a8, each the last piece of its side
    that moves (the flags stay)."""
    state = position(
        f"""
12 . bF . . .
 8 {blue} . . . .
 7 r3 . . . .
 1 . rF . . .
""",
        E.configure("classic", "w2"),
    )
    return play(state, "a7-a8")


def test_w2_losing_ones_own_last_movable_piece_loses() -> None:
    """10.4, A10: W2 is checked for both sides after every ply, so the mover whose attack
    costs him his last movable piece has lost, while the other side can still move."""
    transition = last_movable_pieces_clash("b5")
    outcome = transition.state.outcome
    assert outcome is not None and outcome.winner == 1 and "movable" in outcome.detail
    assert "you lose" in texts(transition, 0)


def test_w2_a_clash_that_removes_both_last_movable_pieces_is_a_draw() -> None:
    outcome = last_movable_pieces_clash("b3").state.outcome
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
