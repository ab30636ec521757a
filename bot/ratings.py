"""Rating policy: which games count, when a rating is settled, and the figure players see.

The mathematics is openskill's Plackett-Luce model (a Bayesian rating with a skill ``mu``
and an uncertainty ``sigma`` per player); this module only decides how the bot uses it.
Pure: no storage, no Discord.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.games.core import Outcome

MODEL = PlackettLuce()
"""openskill's defaults: a new player has mu 25 and sigma 25/3."""

DISPLAY_SCALE = 60
"""Display figure = mu × 60, so a new player shows the familiar 1500."""

PROVISIONAL_SIGMA = 7.0
"""A rating is provisional while its uncertainty is this high: about the first six games."""


@dataclass(frozen=True)
class Skill:
    """One player's rating in one game, as the model keeps it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def display(self) -> int:
        """The figure players see."""
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA


def display(mu: float) -> int:
    return round(mu * DISPLAY_SCALE)


def counts_for_rating(rated: bool, outcome: Outcome, started: bool) -> bool:
    """Whether a finished game changes ratings.

    Only games played as rated, with a result (an aborted game has none), and past the
    first real move: a game resigned or timed out during setup was never really played.
    Resignation and loss on time count like any other result once play has begun.
    """
    return rated and outcome.has_result and started


def rate(skills: tuple[Skill, Skill], winner: int | None) -> tuple[Skill, Skill]:
    """Both seats' new ratings after a game won by ``winner`` (``None``: a draw)."""
    first, second = (MODEL.rating(mu=s.mu, sigma=s.sigma) for s in skills)
    ranks = [0.0, 0.0] if winner is None else [float(winner != 0), float(winner != 1)]
    [[new_first], [new_second]] = MODEL.rate([[first], [second]], ranks=ranks)
    return Skill(new_first.mu, new_first.sigma), Skill(new_second.mu, new_second.sigma)
