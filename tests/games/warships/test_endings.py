"""How a Warships game ends (Warships rules §13, §14, §6.3): neutral-water internment,
landing, lost ships, passes, quiet turns and draws by agreement.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.core import EndReason, Phase
from bot.games.warships.state import Cause
from bot.games.warships.units import Kind
from tests.support.warships_positions import ENGINE as E
from tests.support.warships_positions import act, f, kind_at, position, refused, two_tokens

# -- §13 neutral waters -------------------------------------------------------------------------


def test_13_2_a_unit_is_interned_at_the_end_of_its_fourth_turn_on_neutral_water() -> None:
    state = position(
        """
           E  F  G  H  I
        8  BS .  .  .  .
        5  .  .  .  .  cr
        """,
        neutral={"E8": 3},
    )
    new = act(state, "A1-A2").state  # the battleship stays on E8 for a fourth turn
    assert kind_at(new, "E8") is None
    loss = new.losses[-1]
    assert loss.cause is Cause.INTERNED and loss.kind is Kind.BATTLESHIP
    assert E.view(new, 1).losses[-1].kind is None


def test_13_2_the_counter_resets_on_leaving() -> None:
    state = position(
        """
           E
        8  BS
        7  .
        6  .
        """,
        neutral={"E8": 3},
    )
    new = act(state, "E8-E6").state
    assert new.at[f("E6")].neutral == 0


def test_14_2_an_interned_landing_ship_loses_the_game() -> None:
    state = position(
        """
           E
        8  LS
        """,
        neutral={"E8": 3},
    )
    new = act(state, "B1-B2").state
    assert new.outcome is not None and new.outcome.winner == 1


# -- §14 game end -------------------------------------------------------------------------------


def test_14_1_landing_in_the_enemy_port_wins() -> None:
    state = position(
        """
           J
        15 .
        14 LS
        """,
        without="I15 K15",
    )
    new = act(state, "J14-J15").state
    assert new.phase is Phase.FINISHED and new.outcome is not None and new.outcome.winner == 0


def test_14_2_destroying_the_landing_ship_wins() -> None:
    state = two_tokens("ES", "ls")
    new = act(state, "F5xG6").state
    assert new.outcome is not None and new.outcome.winner == 0
    assert new.outcome.reason is EndReason.RULES


def test_14_3_no_missile_ship_while_both_enemy_exits_are_guarded_loses() -> None:
    state = two_tokens("MS", "bs")
    state = state.with_pieces([p for p in state.pieces if p.cell != f("B1")])
    new = act(state, "F5xG6").state
    assert new.outcome is not None and new.outcome.winner == 1


def test_14_3_both_sides_without_missile_ships_is_a_draw() -> None:
    state = two_tokens("MS", "ms")
    state = state.with_pieces([p for p in state.pieces if p.cell not in (f("B1"), f("K18"))])
    new = act(state, "F5xG6").state
    assert new.outcome is not None and new.outcome.winner is None


def test_6_3_pass_only_without_a_legal_action_and_two_passes_draw() -> None:
    state = position(
        """
           F
        5  CR
        """
    )
    refused(state, "pass", "only when none")
    stuck = position(
        """
           A  B  C  J  K  L
        18 .  .  .  mn ms ls
        17 .  .  .  mn mn mn
        2  MN MN MN .  .  .
        1  LS MS MN .  .  .
        """
    )
    assert [str(a) for a in E.legal_actions(stuck, 0)] == ["offer draw", "pass"]
    first = act(stuck, "pass").state
    assert first.turn == 1 and first.phase is Phase.PLAY
    second = act(first, "pass", seat=1).state
    assert second.outcome is not None and second.outcome.winner is None


def test_14_4_two_hundred_quiet_turns_draw() -> None:
    state = replace(
        position(
            """
               F  G
            5  CR .
            """
        ),
        quiet=199,
    )
    new = act(state, "F5-G5").state
    assert new.outcome is not None and "200 turns" in new.outcome.detail


def test_14_3_losing_the_last_missile_ship_is_no_loss_once_an_enemy_exit_is_open() -> None:
    state = two_tokens("MS", "bs", without="I15 K15")
    state = state.with_pieces([p for p in state.pieces if p.cell != f("B1")])
    new = act(state, "F5xG6").state
    assert new.phase is Phase.PLAY and new.outcome is None


def test_14_4_a_draw_by_agreement_is_offered_in_turn_and_accepted_in_the_next() -> None:
    state = position(
        """
           F  G
        5  CR cr
        """
    )
    refused(state, "accept draw", "no draw offer")
    offered = act(state, "offer draw")
    assert offered.state.turn == 0 and offered.state.draw_offer == 0  # the turn goes on
    assert any("offers a draw" in e.text for e in offered.for_audience(1))
    refused(offered.state, "offer draw", "already stands")
    moved = act(offered.state, "F5-F6").state
    assert E.parse_action(moved, 1, "accept draw") in list(E.legal_actions(moved, 1))
    ended = act(moved, "accept draw", seat=1).state
    assert ended.outcome is not None and ended.outcome.winner is None
    assert "agreed" in ended.outcome.detail


def test_14_4_playing_on_declines_the_draw() -> None:
    state = position(
        """
           F  G
        5  CR cr
        7  .  .
        """
    )
    offered = act(act(state, "offer draw").state, "F5-F6").state
    declined = act(offered, "G5-G7", seat=1).state
    assert declined.draw_offer is None
    refused(declined, "accept draw", "no draw offer")


def test_14_4_autocomplete_offers_accepting_a_standing_draw() -> None:
    state = position(
        """
           F  G
        5  CR cr
        """
    )
    offered = act(act(state, "offer draw").state, "F5-F6").state
    assert "accept draw" in E.suggestions(E.view(offered, 1), "acc")
    assert "offer draw" not in E.suggestions(E.view(offered, 1), "")
