"""How a Luzhanqi game ends: the end itself, the W2 check and the draw by agreement (8.5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.core import (
    EndReason,
    Event,
    IllegalActionError,
    Outcome,
    Phase,
    Transition,
    name_of,
    other,
)
from bot.games.luzhanqi.state import LuzhanqiState

AGREED = "agreed to a draw"


def end_game(
    state: LuzhanqiState, outcome: Outcome, said: Sequence[Event], texts: Sequence[str]
) -> Transition:
    """Finish the game; ``texts`` are what the winner (or seat 0 in a draw) and the
    other seat are told. The channel gets the result with names."""
    new = replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome, draw_offer=None)
    winner = outcome.winner
    first = winner if winner is not None else 0
    events = list(said)
    events.append(Event(first, texts[0]))
    events.append(Event(other(first), texts[1]))
    if winner is None:
        events.append(Event(None, f"The game is drawn: {outcome.detail}."))
    else:
        events.append(Event(None, f"{name_of(winner)} wins: {outcome.detail}."))
    return Transition(new, tuple(events))


def offer_draw(state: LuzhanqiState, seat: int) -> Transition:
    """8.5: a draw offered during one's own turn; the turn goes on, and the offer stands
    until the opponent's next turn ends (playing on declines it)."""
    if state.draw_offer is not None:
        raise IllegalActionError("A draw offer already stands; play on or wait for the answer.")
    return Transition(
        replace(state, draw_offer=seat),
        (
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
        ),
    )


def accept_draw(state: LuzhanqiState, seat: int) -> Transition:
    """8.5: the opponent's standing offer accepted; the game ends drawn at once."""
    if state.draw_offer != other(seat):
        raise IllegalActionError("There is no draw offer from your opponent to accept.")
    mine = "You accepted the draw: the game is drawn (rule 8.5)."
    theirs = "Your opponent accepted your draw offer: the game is drawn (rule 8.5)."
    texts = (mine, theirs) if seat == 0 else (theirs, mine)
    said = [Event(None, f"{name_of(seat)} accepts the draw.")]
    return end_game(state, Outcome(None, EndReason.RULES, AGREED), said, texts)


def w2_end(mover: int, mover_can: bool, rival_can: bool) -> tuple[Outcome, tuple[str, str]] | None:
    """W2 after a ply: whoever has no movable piece left has lost, whether or not they
    moved; a clash that removes the last movable pieces of both sides is a draw. Returns
    the outcome and what the winner (or seat 0 in a draw) and the other seat are told."""
    if mover_can and rival_can:
        return None
    if not mover_can and not rival_can:
        said = "Neither side has a movable piece left: a draw."
        return Outcome(None, EndReason.RULES, "no movable pieces left"), (said, said)
    if mover_can:
        return Outcome(mover, EndReason.RULES, "removed every movable enemy piece"), (
            "You removed every movable enemy piece: you win!",
            "All your movable pieces are gone: you lose.",
        )
    return Outcome(other(mover), EndReason.RULES, "lost every movable piece of their own"), (
        "Your opponent lost their last movable piece: you win!",
        "Your last movable piece is gone: you lose.",
    )
