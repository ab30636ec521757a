"""One entry of a game's log applied to its state, and what the change announces.

A game is stored as its seed and its log: a move in the game's notation, or an end from
outside the rules (a resignation, a time-out, an abort, a call-off) logged as its outcome.
Everything that reads the log takes the same step per entry: the referee when it plays a
move or ends a game, ``bot.replays`` when it tells a finished game again, the computer's
seat when it rebuilds what it was told, and ``python -m bot.verify`` when it checks an
export. Because they share this step, the published verifier cannot drift from the
referee: a change the referee makes is exactly the change the verifier replays.

Standard library, the engines and the pure modules of the bot only, so the verifier can
run on them alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.announcements import AudienceTexts, audience_texts
from bot.conclusions import concluded, remade
from bot.fairness import Seal, opened_events, sealed_events
from bot.games.core import Engine, Event, GameError, Outcome, View

MOVE = "move"
"""A log entry holding a move in the game's notation."""
END = "end"
"""A log entry holding an end from outside the rules: its outcome, as JSON."""


class EntryError(ValueError):
    """An end entry that cannot be applied; the message says why, for the verifier."""


@dataclass(frozen=True)
class Step:
    """One change to a game: the state it leaves, and the events it announces."""

    state: object
    events: tuple[Event, ...]
    outcome: Outcome | None = None
    """For an end: the outcome it ends the game with, as the referee logs it."""
    logged: Outcome | None = None
    """For an end read from a log: the outcome the entry holds."""


def played(engine: Engine, state: object, seat: int, action: object) -> Step:
    """A move ``seat`` plays: the rules apply it, or refuse it with a GameError."""
    transition = engine.apply(state, seat, action)
    return Step(transition.state, tuple(transition.events))


def ended(engine: Engine, state: object, outcome: Outcome, told: tuple[Event, ...]) -> Step:
    """An end from outside the rules (``bot.conclusions``): the outcome as logged, marked
    unplayed before the first real move, and what the game adds when it ends so."""
    outcome, final = concluded(engine, state, outcome)
    return Step(final, told + engine.epilogue(final), outcome)


def apply_entry(
    engine: Engine,
    state: object,
    seat: int,
    kind: str,
    text: str,
    computer_seat: int | None,
) -> Step:
    """One logged entry of ``seat``'s applied to ``state``, as the referee made it.

    A move is parsed and applied by the rules (their errors pass through as they are). An
    end is made again from its kind and its seat by the referee's own functions
    (``bot.conclusions.remade``), so the step's outcome is the one the referee would have
    logged; ``Step.logged`` keeps the one the entry holds. Raises EntryError for an end
    that is no outcome or that the referee could not have made.
    """
    if kind == MOVE:
        return played(engine, state, seat, engine.parse_action(state, seat, text))
    try:
        logged = Outcome.from_json(json.loads(text))
    except (GameError, LookupError, TypeError, ValueError) as error:
        raise EntryError(f"the end `{text[:60]}` is not an outcome: {error}") from None
    try:
        outcome, told = remade(engine, state, seat, logged, computer_seat)
    except ValueError as error:
        raise EntryError(str(error)) from None
    made = ended(engine, state, outcome, told)
    return Step(made.state, made.events, made.outcome, logged)


def announced(
    engine: Engine,
    state: object,
    events: Sequence[Event],
    *,
    sealed: Sequence[Seal] = (),
    opened: Sequence[Seal] = (),
    view_for: Callable[[int | None], View] | None = None,
) -> AudienceTexts:
    """What each audience is told of a change that left the game in ``state``.

    The change's events; the seals, when it began play (``sealed``); and their salts, when
    it ended the game with a result (``opened``): a game ended before its first real move
    stays sealed. ``view_for`` as in ``bot.announcements.audience_texts``.
    """
    told = tuple(events) + sealed_events(sealed)
    outcome = engine.outcome(state)
    if outcome is not None and outcome.unplayed is None and opened:
        told += opened_events(opened)
    return audience_texts(engine, state, told, view_for)
