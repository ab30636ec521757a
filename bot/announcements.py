"""What the referee says, as pure functions of the game: the texts each audience is told.

Everything a seat or the channel receives is built here from the engine's events and the
game's state, with no storage and no clock, so ``python -m bot.verify`` can rebuild every
announcement of an exported game and compare it with what was sent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.games.core import EndReason, Engine, Event, Outcome, Phase, View, name_of, other

AudienceTexts = tuple[tuple[int | None, tuple[str, ...]], ...]
"""What each audience (a seat, or ``None`` for the channel) is told of one change."""

AUDIENCES: tuple[int | None, ...] = (0, 1, None)


def status_line(view: View, outcome: Outcome | None) -> str:
    """Whose move it is, as ``view``'s audience sees it (the channel's keeps placeholders)."""
    seat = view.seat
    if outcome is not None:
        if outcome.winner is None:
            return (
                "The game ended without a winner."
                if outcome.has_result
                else "The game was aborted."
            )
        if seat is None:
            return f"{name_of(outcome.winner)} won ({outcome.detail})."
        return "You won!" if outcome.winner == seat else "You lost."
    movers = view.movers
    if view.phase is Phase.SETUP:
        if seat is None:
            waiting = " and ".join(name_of(s) for s in sorted(movers))
            return f"Setting up: waiting for {waiting}."
        if seat in movers:
            return "Set up your side, then write `ready`."
        return "Your side is set; waiting for your opponent."
    if seat is None:
        return " and ".join(name_of(s) for s in sorted(movers)) + " to move."
    return "Your move." if seat in movers else "Your opponent's move."


def audience_texts(
    engine: Engine,
    state: object,
    events: Sequence[Event],
    view_for: Callable[[int | None], View] | None = None,
) -> AudienceTexts:
    """What each audience the events speak to is told: the events and a status line.

    An audience with no event learns nothing new and is left alone: a ship placed in
    secret neither messages the opponent nor touches the channel. During setup a
    player's own events already say what to do next, so they get no status line.
    ``view_for`` gives an audience's view of ``state``, for a caller that builds them
    once for texts and boards alike.
    """
    view_for = view_for or (lambda audience: engine.view(state, audience))
    outcome = engine.outcome(state)
    told = []
    for audience in AUDIENCES:
        texts = [event.text for event in events if event.audience == audience]
        if not texts:
            continue
        view = view_for(audience)
        if audience is None or view.phase is not Phase.SETUP:
            texts.append(status_line(view, outcome))
        told.append((audience, tuple(texts)))
    return tuple(told)


def game_begun(engine: Engine, rules: object, state: object) -> tuple[Event, ...]:
    """The first word to both players and the channel when a challenge is accepted."""
    game = engine.title if engine.title.lower().endswith("game") else f"{engine.title} game"
    setup = engine.setup_instructions(rules)

    def welcome(seat: int) -> Event:
        """The same words for both, with the side this player plays, if the game has sides."""
        parts = (f"Your {game} has begun.", engine.side_sentence(state, seat), setup)
        return Event(seat, " ".join(part for part in parts if part))

    begun = (
        "both players are setting up in secret."
        if engine.view(state, None).phase is Phase.SETUP
        else "the game begins."  # a game without a setup, like Luzhanqi's flip game
    )
    return (welcome(0), welcome(1), Event(None, f"Challenge accepted: {begun}"))


def resigned(seat: int) -> tuple[Event, ...]:
    rival = other(seat)
    return (
        Event(seat, "You resigned. The game is over."),
        Event(rival, "Your opponent resigned: you win!"),
        Event(None, f"{name_of(seat)} resigned; {name_of(rival)} wins."),
    )


def aborted(seat: int) -> tuple[Event, ...]:
    return (
        Event(seat, "You aborted the game. It ends without a result."),
        Event(other(seat), "Your opponent aborted the game. It ends without a result."),
        Event(None, f"{name_of(seat)} aborted the game; it ends without a result."),
    )


CALLED_OFF = "called off"
"""The detail of an abort the referee made itself: a player it cannot send DMs to."""


def called_off(seat: int) -> tuple[Event, ...]:
    """A game the bot cannot referee, since ``seat``'s DMs are closed, ended before it began.

    The closed seat is told nothing (nothing can reach it); the channel names the player
    who must open their DMs, and a Rematch from the end announcement starts it again.
    """
    return (
        Event(
            other(seat),
            "I cannot send your opponent direct messages, so the game is called off before "
            "it began, without a result.",
        ),
        Event(
            None,
            f"I cannot send {name_of(seat)} direct messages, so the game is called off before "
            f"it began: {name_of(seat)} must allow direct messages from this server's members "
            "(server menu → Privacy Settings), then press **Rematch**.",
        ),
    )


def timed_out(late: Sequence[int]) -> tuple[Outcome, tuple[Event, ...]]:
    """How a game ends when ``late`` (the seats it waited for) ran out of time."""
    if len(late) == 1:
        loser, winner = late[0], other(late[0])
        return Outcome(winner, EndReason.TIMEOUT, "on time"), (
            Event(loser, "You ran out of time, so you lost this game."),
            Event(winner, "Your opponent ran out of time: you win!"),
            Event(None, f"{name_of(loser)} ran out of time; {name_of(winner)} wins."),
        )
    said = "Neither player was ready in time: the game ends without a winner."
    return Outcome(None, EndReason.TIMEOUT, "on time"), (
        Event(0, said),
        Event(1, said),
        Event(None, said),
    )
