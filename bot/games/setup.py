"""The setup phase shared by the games that have one (Sea Battle, Luzhanqi, Warships): the
``ready`` word and the handshake that starts play once both seats have confirmed.

Each game checks its own setup before a seat may confirm it and says how play begins; the
handshake between the two is the same everywhere: the first seat to confirm waits, and
only that seat and the channel hear of it (the opponent learns nothing of the setup).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol, Self, TypeVar

from bot.games.actions import Word
from bot.games.core import SEATS, Event, IllegalActionError, Phase, Transition, other


class Ready(Word):
    """A seat confirms its setup: ``ready``."""

    word = "ready"


class SetupSide(Protocol):
    """One seat's side of a game with a setup phase (a frozen dataclass)."""

    @property
    def ready(self) -> bool: ...


class SetupState(Protocol):
    """A game state with a side per seat, each confirmed or not."""

    @property
    def phase(self) -> Phase: ...

    @property
    def turn(self) -> int | None: ...

    @property
    def sides(self) -> tuple[Any, Any]: ...

    def with_side(self, seat: int, side: Any) -> Self: ...


S = TypeVar("S", bound=SetupState)


def confirm_ready(
    state: S,
    seat: int,
    waiting: tuple[str, str],
    start_play: Callable[[S], Transition],
) -> Transition:
    """Mark ``seat``'s checked setup as confirmed. While the opponent has not confirmed,
    ``waiting`` is what the seat and the channel are told; once both have, ``start_play``
    turns the state with both sides ready into the first position of play."""
    new = state.with_side(seat, replace(state.sides[seat], ready=True))
    if not new.sides[other(seat)].ready:
        mine, public = waiting
        return Transition(new, (Event(seat, mine), Event(None, public)))
    return start_play(new)


def check_open(state: SetupState, seat: int, closed: str, noun: str) -> None:
    """Refuse a setup move once play has begun (``closed`` says so in the game's words) or
    once ``seat`` has confirmed its setup (its ``noun``: deployment, fleet, setup)."""
    if state.phase is not Phase.SETUP:
        raise IllegalActionError(f"{closed} and can no longer change.")
    if state.sides[seat].ready:
        raise IllegalActionError(
            f"You have confirmed your {noun}; it can no longer change. "
            "Wait for your opponent to confirm theirs."
        )


def private(state: S, seat: int, text: str) -> Transition:
    """A setup move is secret: only its player hears what it did."""
    return Transition(state, (Event(seat, text),))


def movers(state: SetupState) -> frozenset[int]:
    """Seats that may act now (see ``seats_to_move``)."""
    ready = (state.sides[0].ready, state.sides[1].ready)
    return seats_to_move(state.phase, ready, state.turn)


def seats_to_move(phase: Phase, ready: tuple[bool, bool], turn: int | None) -> frozenset[int]:
    """Seats that may act now, from public facts alone (so a view answers it as the state
    does): during setup both until each has confirmed, in play the seat whose turn it is,
    none when the game is over."""
    if phase is Phase.SETUP:
        return frozenset(seat for seat in SEATS if not ready[seat])
    if phase is Phase.PLAY and turn is not None:
        return frozenset({turn})
    return frozenset()
