"""Ends from outside the rules, as pure functions: resignation, abort, call-off, time-out.

The referee ends games with these (``bot.referee.endings``), and every reader of a log
(``bot.log_step``: replays, the computer's seat, ``python -m bot.verify``) rebuilds every
logged end with the very same functions, so an export whose end the referee would not
have made (a resignation that makes the resigner win, a time-out for a player who was
not to move, an abort after the first move) is refused. Standard library and the
engines only.
"""

from __future__ import annotations

from dataclasses import replace

from bot.announcements import CALLED_OFF, aborted, called_off, resigned, timed_out
from bot.games.core import EndReason, Engine, Event, Outcome, other
from bot.games.words import with_article

Ended = tuple[Outcome, tuple[Event, ...]]
"""An end's outcome and what each audience is told of it."""

KINDS = {
    EndReason.RESIGNATION: "resignation",
    EndReason.TIMEOUT: "time-out",
    EndReason.ABORTED: "abort",
}
"""What each end from outside the rules is called where the verifier names one."""


def resignation(seat: int) -> Ended:
    return Outcome(other(seat), EndReason.RESIGNATION, "by resignation"), resigned(seat)


def abort(seat: int) -> Ended:
    return Outcome(None, EndReason.ABORTED, "aborted"), aborted(seat)


def call_off(seat: int) -> Ended:
    """The referee's own abort: ``seat`` cannot be sent direct messages."""
    return Outcome(None, EndReason.ABORTED, CALLED_OFF), called_off(seat)


def late_seats(engine: Engine, state: object, computer_seat: int | None) -> list[int]:
    """The seats the game waits for, which lose if time runs out; never the computer's,
    which is only ever resumed."""
    return [s for s in sorted(engine.view(state, None).movers) if s != computer_seat]


def concluded(engine: Engine, state: object, outcome: Outcome) -> tuple[Outcome, object]:
    """``outcome`` as logged, and the state it ends ``state`` in.

    A game ended before its first real move is marked unplayed, so its views go on keeping
    every secret of the phase it was in (``core.secrecy``).
    """
    if not engine.has_started(state):
        outcome = replace(outcome, unplayed=engine.view(state, None).phase)
    return outcome, engine.conclude(state, outcome)


def remade(
    engine: Engine, state: object, seat: int, logged: Outcome, computer_seat: int | None
) -> Ended:
    """The end the referee makes of the kind ``logged`` is, by ``seat``, in ``state``:
    what a logged end must equal. Raises ValueError saying why no such end can happen."""
    kind = f"{KINDS.get(logged.reason, logged.reason.value)} by seat{seat}"
    if logged.reason is EndReason.RESIGNATION:
        return resignation(seat)
    if logged.reason is EndReason.ABORTED:
        if engine.has_started(state):
            raise ValueError(f"an {kind} after the first move cannot be: only a game not begun can")
        return call_off(seat) if logged.detail == CALLED_OFF else abort(seat)
    if logged.reason is EndReason.TIMEOUT:
        late = late_seats(engine, state, computer_seat)
        if not late or late[0] != seat:
            raise ValueError(f"{with_article(kind)} cannot be: seat{seat} is not to move")
        return timed_out(late)
    raise ValueError("the rules end a game with a move, never with an end entry of their own")
