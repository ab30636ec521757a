"""The draw by agreement, in the games whose rules let players agree one (Luzhanqi 8.5,
Warships §14.4, the Marine Game §8.1, Seachess §8): the two words, which of them a seat may
say now, and the offer and its acceptance as every such game plays them.

A draw is offered during one's own turn and the turn goes on; the offer stands until the
opponent's turn ends, and playing on declines it. One module, so the games agree on how a
draw is offered and answered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from bot.games.actions import Word
from bot.games.core import (
    EndReason,
    Event,
    IllegalActionError,
    Outcome,
    Transition,
    name_of,
    other,
)

AGREED = "agreed to a draw"
"""The ``Outcome.detail`` of a draw by agreement."""


class OfferDraw(Word):
    """A draw offered during one's own turn, in the games whose rules let players agree one
    (``Engine.agreed_draws``); the turn goes on."""

    word = "offer draw"


class AcceptDraw(Word):
    """The opponent's standing draw offer accepted: the game ends drawn."""

    word = "accept draw"


DRAW_WORDS: Mapping[str, DrawAction] = {
    "offer draw": OfferDraw(),
    "accept draw": AcceptDraw(),
}
"""The draw actions by their words, as every game with agreed draws reads them."""

DrawAction = OfferDraw | AcceptDraw


def draw_words(draw_offer: int | None, seat: int) -> Iterator[DrawAction]:
    """The draw word open to ``seat`` on its turn, given the seat whose offer stands:
    accepting the opponent's offer, or offering one when none stands."""
    if draw_offer == other(seat):
        yield AcceptDraw()
    elif draw_offer is None:
        yield OfferDraw()


def draw_offered(seat: int) -> tuple[Event, Event, Event]:
    """What offering a draw tells each audience where the offer stands until the
    opponent's turn ends (Luzhanqi 8.5, Warships §14.4, the Marine Game §8.1)."""
    return (
        Event(
            seat,
            "You offer a draw. Now make your move; the offer stands until your "
            "opponent's turn ends.",
        ),
        Event(
            other(seat),
            "Your opponent offers a draw: write `accept draw` on your turn to end the "
            "game as a draw, or simply play on to decline.",
        ),
        Event(None, f"{name_of(seat)} offers a draw."),
    )


class DrawState(Protocol):
    """A game state (a frozen dataclass) that keeps the seat whose draw offer stands."""

    @property
    def draw_offer(self) -> int | None: ...


S = TypeVar("S", bound=DrawState)

Finish = Callable[[S, Sequence[Event], Outcome], Transition]
"""How a game ends itself: the state, what was said before the end, and the outcome."""


def check_acceptable(state: DrawState, seat: int) -> None:
    """Refuse accepting a draw that the opponent has not offered."""
    if state.draw_offer != other(seat):
        raise IllegalActionError("There is no draw offer from your opponent to accept.")


def play_draw(state: S, seat: int, action: DrawAction, finish: Finish[S]) -> Transition:
    """Offer a draw (the turn goes on), or accept the opponent's standing offer, which
    ``finish`` ends as a draw at once."""
    if isinstance(action, OfferDraw):
        if state.draw_offer is not None:
            raise IllegalActionError("A draw offer already stands; play on or wait for the answer.")
        offered: Any = state
        return Transition(replace(offered, draw_offer=seat), draw_offered(seat))
    check_acceptable(state, seat)
    said = (Event(None, f"{name_of(seat)} accepts the draw."),)
    return finish(state, said, Outcome(None, EndReason.RULES, AGREED))
