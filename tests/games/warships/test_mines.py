"""Warships mines (Warships rules §12): laying them beside a minesweeper, announcing them,
ships that attack them, defusing, and mines in the way, one test per clause on named
positions drawn as small diagrams."""

from __future__ import annotations

import pytest

from bot.games.warships import moves
from bot.games.warships.units import Kind
from tests.support.warships_positions import ENGINE as E
from tests.support.warships_positions import act, f, kind_at, position, refused, two_tokens


def test_12_1_a_mine_is_laid_next_to_an_own_minesweeper_without_ending_the_turn() -> None:
    state = two_tokens("MW")
    new = act(state, "mine G6").state
    assert kind_at(new, "G6") is Kind.MINE and new.turn == 0 and new.sides[0].reserve == 5
    refused(state, "mine H7", "one step from one of your minesweepers")


def test_12_1_no_mines_from_neutral_water_or_in_enemy_zones() -> None:
    refused(
        position(
            """
               E  F
            8  MW .
            7  .  .
            """
        ),
        "mine F7",
        "outside enemy battery zones",
    )
    refused(
        position(
            """
               H  I
            13 MW .
            12 .  .
            """
        ),
        "mine H14",
        "outside enemy battery zones",
    )


def test_12_1_mines_after_the_action_and_12_2_they_are_announced() -> None:
    state = two_tokens("MW")
    transition = act(state, "F5-F6 mine G6")
    assert kind_at(transition.state, "G6") is Kind.MINE and transition.state.turn == 1
    opponent = E.view(transition.state, 1).token_at(f("G6"))
    assert opponent is not None and opponent.kind is Kind.MINE
    assert any("laid a mine on G6" in e.text for e in transition.events if e.audience is None)


@pytest.mark.parametrize(
    ("f5", "g6", "move", "left_on_f5", "left_on_g6"),
    [
        # §12.3: a ship attacking a mine goes down with it.
        pytest.param("BS", "mn", "F5xG6", None, None, id="ship_attacking_a_mine"),
        # §12.4: defusing removes the mine and keeps the minesweeper.
        pytest.param("MW", "mn", "F5 defuse G6", Kind.MINESWEEPER, None, id="defusing_a_mine"),
        # §12.4: defusing a ship costs the minesweeper.
        pytest.param("MW", "ls", "F5 defuse G6", None, Kind.LANDING_SHIP, id="defusing_a_ship"),
    ],
)
def test_12_3_and_12_4_what_an_attack_on_a_mine_or_a_defusal_leaves(
    f5: str, g6: str, move: str, left_on_f5: Kind | None, left_on_g6: Kind | None
) -> None:
    new = act(two_tokens(f5, g6), move).state
    assert kind_at(new, "F5") is left_on_f5 and kind_at(new, "G6") is left_on_g6


def test_12_4_own_mines_cannot_be_defused_and_only_minesweepers_defuse() -> None:
    state = position(
        """
           F  G
        6  BS MN
        5  MW .
        """
    )
    refused(state, "F5 defuse G6", "no enemy token")
    refused(state, "F6 defuse G6", "Only a minesweeper")


def test_12_5_mines_block_movement() -> None:
    state = position(
        """
           F  G  H
        5  CR mn .
        """
    )
    assert f("G5") not in moves.destinations(state, state.at[f("F5")])
