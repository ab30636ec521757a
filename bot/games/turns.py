"""Turn bookkeeping every game shares: whether a seat may play now, and the three sentences
a move is told in (to the mover, to the opponent, to the channel).

The refusals are the same words in every game, so a player who knows one game's answer to
a move out of turn knows them all.
"""

from __future__ import annotations

from typing import Protocol

from bot.games.core import Event, IllegalActionError, NotYourTurnError, Phase, other


class TurnState(Protocol):
    """A game state that knows its phase and whose turn it is."""

    @property
    def phase(self) -> Phase: ...

    @property
    def turn(self) -> int | None: ...


def check_turn(
    state: TurnState, seat: int, *, not_started: str = "", waiting_for: str = "move"
) -> None:
    """Refuse a move when the game is over, still in its setup (``not_started`` says why it
    has not started), or the opponent's turn (``waiting_for``: what the opponent makes)."""
    if state.phase is Phase.FINISHED:
        raise IllegalActionError("This game is over.")
    if state.phase is Phase.SETUP:
        raise IllegalActionError(f"The game has not started: {not_started}")
    if state.turn != seat:
        raise NotYourTurnError(f"It is your opponent's turn; wait for their {waiting_for}.")


def told(seat: int, mine: str, theirs: str, public: str) -> tuple[Event, Event, Event]:
    """What one move tells ``seat`` (``mine``), the opponent (``theirs``) and the channel
    (``public``), in that order."""
    return Event(seat, mine), Event(other(seat), theirs), Event(None, public)
