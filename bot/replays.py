"""A finished game told again from its log: what one audience saw after each move.

Nothing here is stored beyond the game's seed and its action log: replaying the log
through the engine rebuilds every state, and ``view`` turns each state into what a seat,
the channel or (after the game) anyone may see. A replay for a seat is therefore exactly
what that player was shown, move by move, however the opponent set up or moved.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.announcements import CALLED_OFF
from bot.games.core import CorruptStateError, EndReason, Engine, Outcome, Phase, View, name_of
from bot.log_step import apply_entry
from bot.storage import GameRecord, LogEntry, LogKind

TRUTH: Literal["truth"] = "truth"
"""The audience that sees both seats' boards side by side: the whole truth."""

Audience = int | None | Literal["truth"]
"""A seat, ``None`` for the channel, or ``TRUTH``."""

AUDIENCE_WORDS = {"mine": "your own seat", "channel": "the channel", "truth": "both sides"}
"""The ``as`` choices of ``/replay``."""


@dataclass(frozen=True)
class Replay:
    """A finished game's moments as one audience saw them, and its whole move list."""

    game: GameRecord
    audience: Audience
    moments: tuple[tuple[View, ...], ...]
    """One entry per frame: a single view, or both seats' views for ``TRUTH``."""
    moves: str
    """The move list with every move, the hidden ones too; names as placeholders."""

    @property
    def audience_name(self) -> str:
        if self.audience is None:
            return "channel"
        if self.audience == TRUTH:
            return "truth"
        return f"seat{self.audience}"


def states_of(engine: Engine, game: GameRecord, entries: Sequence[LogEntry]) -> list[object]:
    """The state before the first entry and after each one, rebuilt from seed and log."""
    return list(replayed(engine, game, entries))


def replayed(engine: Engine, game: GameRecord, entries: Iterable[LogEntry]) -> Iterator[object]:
    """The states of ``states_of`` one by one, so the last can be had without keeping all.

    Each entry takes the one step of ``bot.log_step`` that the referee and the verifier take.
    """
    state = engine.new_game(engine.rules_from_json(game.rules), game.seed)
    yield state
    for entry in entries:
        if entry.seat is None:
            raise CorruptStateError(f"{entry.kind.value} {entry.ply} of game {game.id} has no seat")
        state = apply_entry(
            engine, state, entry.seat, entry.kind.value, entry.text, game.computer_seat
        ).state
        yield state


def moments(
    engine: Engine, states: Sequence[object], audience: Audience
) -> tuple[tuple[View, ...], ...]:
    """What ``audience`` saw at each state, a frame per change.

    A move that changed nothing ``audience`` could see (the opponent placing a ship in
    secret) makes no frame: the number of frames, like their content, depends only on
    what the audience was shown.
    """
    seats: tuple[int | None, ...] = (0, 1) if audience == TRUTH else (audience,)
    shown: list[tuple[View, ...]] = []
    for state in states:
        views = tuple(engine.view(state, seat) for seat in seats)
        if not shown or shown[-1] != views:
            shown.append(views)
    return tuple(shown)


def move_list(
    engine: Engine, game: GameRecord, entries: Sequence[LogEntry], states: Sequence[object]
) -> str:
    """Every entry of the log in the game's notation, numbered, with who played it.

    Setups made in secret (``random``, swaps) are filled in: where a player confirmed
    their setup, the line adds the whole setup in the notation that recreates it.
    """
    variant = engine.variant_name(engine.rules_from_json(game.rules))
    lines = [f"{engine.title} #{game.id} ({variant}): {name_of(0)} vs {name_of(1)}", ""]
    for entry, before, after in zip(entries, states, states[1:], strict=False):
        who = name_of(entry.seat) if entry.seat is not None else "the referee"
        if entry.kind is LogKind.MOVE:
            line = f"{entry.ply:>4}. {who}: {entry.text}"
            setup = _confirmed_setup(engine, before, after, entry.seat)
            lines.append(line if setup is None or setup == entry.text else f"{line}  [{setup}]")
        else:
            outcome = Outcome.from_json(json.loads(entry.text))
            ended = _ENDS.get(outcome.reason, outcome.detail)
            if outcome.detail == CALLED_OFF:
                ended = "cannot be sent direct messages: the game is called off"
            lines.append(f"{entry.ply:>4}. {who}: {ended}")
    return "\n".join(lines) + "\n"


def _confirmed_setup(engine: Engine, before: object, after: object, seat: int | None) -> str | None:
    """The setup ``seat`` confirmed with this move, if the move ended its setup."""
    if seat is None or engine.view(before, None).phase is not Phase.SETUP:
        return None
    still = engine.view(after, None)
    if seat not in engine.view(before, None).movers or (
        still.phase is Phase.SETUP and seat in still.movers
    ):
        return None
    return engine.setup_text(engine.view(before, seat))


_ENDS = {
    EndReason.RESIGNATION: "resigns",
    EndReason.TIMEOUT: "runs out of time",
    EndReason.ABORTED: "aborts the game",
}
