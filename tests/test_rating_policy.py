"""The rating policy around openskill's mathematics: a win moves both players by the same
display points, a draw pulls unequal players together, a rating is provisional for its first
games only, and which ends count for rating at all.
"""

from __future__ import annotations

import pytest

from bot.games.core import EndReason, Outcome
from bot.ratings import PROVISIONAL_SIGMA, Skill, counts_for_rating, rate


def test_a_win_raises_the_winner_and_lowers_the_loser_by_the_same_display_points() -> None:
    fresh = (Skill(), Skill())
    winner, loser = rate(fresh, 0)
    assert Skill().display == 1500
    assert winner.display > 1500 > loser.display
    assert winner.display - 1500 == 1500 - loser.display
    assert winner.sigma < Skill().sigma and loser.sigma < Skill().sigma
    assert rate(fresh, 1) == (loser, winner)


def test_a_draw_between_equals_changes_no_figure_and_pulls_unequals_together() -> None:
    first, second = rate((Skill(), Skill()), None)
    assert first.display == second.display == 1500
    strong, weak = rate((Skill(30.0, 5.0), Skill(20.0, 5.0)), None)
    assert strong.mu < 30.0 and weak.mu > 20.0


def test_a_rating_is_provisional_for_its_first_games_only() -> None:
    player, rival = Skill(), Skill()
    provisional = []
    for game in range(12):
        player, rival = rate((player, rival), game % 2)
        provisional.append(player.provisional)
    assert provisional[0] and not provisional[-1]
    assert provisional == sorted(provisional, reverse=True), "settled ratings stay settled"
    assert Skill(25.0, PROVISIONAL_SIGMA).provisional and not Skill(25.0, 6.99).provisional


@pytest.mark.parametrize(
    ("rated", "reason", "started", "counts"),
    [
        (True, EndReason.RULES, True, True),
        (True, EndReason.RESIGNATION, True, True),
        (True, EndReason.TIMEOUT, True, True),
        (True, EndReason.ABORTED, False, False),
        (True, EndReason.RESIGNATION, False, False),
        (True, EndReason.TIMEOUT, False, False),
        (False, EndReason.RULES, True, False),
    ],
)
def test_which_ends_count_for_rating(
    rated: bool, reason: EndReason, started: bool, counts: bool
) -> None:
    assert counts_for_rating(rated, Outcome(0, reason), started) is counts
