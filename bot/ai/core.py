"""What every computer player is: a function of what its seat may know, and a seed.

A computer player is a seat like any other. It is handed exactly what a person in that
seat would have: the game's rules (public, chosen at ``/play``), ``view(state, seat)`` and
every text the referee has addressed to that seat so far (a person remembers their DMs).
It never receives a state, so it cannot read what its seat may not know.

Nor does it receive the game's seed: every random secret of the game (a dealt fleet,
deployment or setup, the whole face-down board of the Luzhanqi flip game) is drawn from
that seed, so whoever holds it can rebuild them all. The computer is handed dice of its
own instead, ``dice_seed_for(seed, seat)``: reproducible, so a restarted bot decides as
the first one would, and one-way, so neither the seed nor the game's secrets can be
rebuilt from it.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.games.core import View

DICE_LABEL = b"computer dice"
"""What the computer's dice are keyed for, so they are no other use of the seed's."""


def dice_seed_for(game_seed: int, seat: int) -> int:
    """The computer's own dice for ``seat``: HMAC-SHA-256 of the seat, keyed by the seed.

    The referee calls this; the player only ever sees the result. Being one-way, it gives
    away neither the seed nor anything drawn from it, so the person's dealt setup cannot be
    rebuilt from the computer's dice.

    The computer's own random setup (its fleet, its deployment, its Warships setup, or the
    setup the engine dealt it) must be reproducible, since a bot restarted mid-setup has to
    decide as the first one would; so it comes from the game. And it must be as secret as a
    person's, so it comes from what the person cannot know: the seed, drawn by the bot,
    shown only as a seal until the game ends. Dice made from public facts alone (the game's
    number, the move number, the rules) would let the person rebuild the computer's setup.
    """
    key = str(game_seed).encode()
    message = DICE_LABEL + b":seat " + str(seat).encode()
    return int.from_bytes(hmac.new(key, message, hashlib.sha256).digest(), "big")


@dataclass(frozen=True)
class Seen:
    """Everything a computer seat knows when it is asked for a move."""

    rules: Any
    """The game's rules value (public: both players chose them at ``/play``)."""
    view: View
    """``view(state, seat)``: the one door to the board."""
    heard: tuple[str, ...]
    """Every text the referee addressed to this seat so far, oldest first."""
    dice_seed: int
    """The seat's own dice, ``dice_seed_for(seed, seat)``: never the game's seed."""
    ply: int
    """How many entries the game's log holds: with the dice seed it makes each decision's dice."""

    @property
    def seat(self) -> int:
        seat = self.view.seat
        assert seat is not None, "a computer player always sits in a seat"
        return seat

    def dice(self, purpose: str = "move") -> random.Random:
        """Randomness for one decision, fixed by the seat's dice seed and the ply."""
        return random.Random(f"computer:{self.dice_seed}:{self.ply}:{purpose}")

    def setup_dice(self, purpose: str) -> random.Random:
        """Randomness for the seat's own setup: the same at every ply of the setup.

        A setup is planned once and played over several decisions (place it, then confirm
        it), each of which must find the same plan, so the ply is left out.
        """
        return random.Random(f"computer:{self.dice_seed}:setup:{purpose}")


class Player(Protocol):
    """A computer player: one move, in the game's own notation, for what it has seen."""

    def decide(self, seen: Seen) -> str: ...


LEVELS: tuple[str, ...] = ("casual", "strong")
"""The levels a player may choose at ``/play``; the first is the default."""

DEFAULT_LEVEL = "strong"


def describe_levels(players: Mapping[str, Player]) -> str:
    return ", ".join(f"`{level}`" for level in players)
