"""What every computer player is: a function of what its seat may know, and a seed.

A computer player is a seat like any other. It is handed exactly what a person in that
seat would have: the game's rules (public, chosen at ``/play``), ``view(state, seat)`` and
every text the referee has addressed to that seat so far (a person remembers their DMs).
It never receives a state, so it cannot read what its seat may not know. Its randomness
comes from the game's recorded seed and the move number, so a game against it replays
exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.games.core import View


@dataclass(frozen=True)
class Seen:
    """Everything a computer seat knows when it is asked for a move."""

    rules: Any
    """The game's rules value (public: both players chose them at ``/play``)."""
    view: View
    """``view(state, seat)``: the one door to the board."""
    heard: tuple[str, ...]
    """Every text the referee addressed to this seat so far, oldest first."""
    seed: int
    """The game's recorded seed."""
    ply: int
    """How many entries the game's log holds: with the seed it makes each decision's dice."""

    @property
    def seat(self) -> int:
        seat = self.view.seat
        assert seat is not None, "a computer player always sits in a seat"
        return seat

    def dice(self, purpose: str = "move") -> random.Random:
        """Randomness for one decision, fixed by the game's seed, the ply and the seat."""
        return random.Random(f"computer:{self.seed}:{self.ply}:{self.seat}:{purpose}")


class Player(Protocol):
    """A computer player: one move, in the game's own notation, for what it has seen."""

    def decide(self, seen: Seen) -> str: ...


LEVELS: tuple[str, ...] = ("casual", "strong")
"""The levels a player may choose at ``/play``; the first is the default."""

DEFAULT_LEVEL = "strong"


def describe_levels(players: Mapping[str, Player]) -> str:
    return ", ".join(f"`{level}`" for level in players)
