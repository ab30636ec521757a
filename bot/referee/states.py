"""Decoded game states and the views built of them, kept per game and ply.

A ply number names one snapshot for good (the storage guard makes each ply unique), so a
state this process decoded or produced at that ply can be reused by every reader, with
the views already built of it: a game is decoded once per move, not once per reader.
"""

from __future__ import annotations

from bot.games import ENGINES
from bot.games.core import Engine, View
from bot.games.grid import shorten
from bot.referee.reports import RefereeError
from bot.storage import GameRecord

STATE_CACHE_SIZE = 1024
"""Games whose latest decoded state is kept in memory (oldest dropped first)."""


class StateCache:
    """Each game's latest decoded state with its views, by game, for its stored ply."""

    def __init__(self) -> None:
        self._states: dict[int, tuple[int, Views]] = {}

    def state_of(self, engine: Engine, record: GameRecord, *, keep: bool = True) -> object:
        """The game's state, decoded and validated once per stored ply.

        A ply number names one snapshot for good (the storage guard makes each ply unique),
        so a state this process decoded or produced at that ply can be reused as it is,
        with the views already built of it. Without ``keep``, a state decoded now is not
        kept: the clock reads idle games once, and after an outage over a thousand of them,
        which would only crowd the games being played out of memory and lengthen the
        garbage collector's walks over it.
        """
        cached = self._states.get(record.id)
        if cached is not None and cached[0] == record.ply:
            return cached[1].state
        state = engine.from_json(record.state)
        if keep:
            self.remember(record, Views(engine, state))
        return state

    def views_of(self, engine: Engine, record: GameRecord, state: object) -> Views:
        """The views of ``state``, the game's state at ``record``'s ply, built once."""
        cached = self._states.get(record.id)
        if cached is not None and cached[0] == record.ply and cached[1].state is state:
            return cached[1]
        return Views(engine, state)

    def remember(self, record: GameRecord, views: Views) -> None:
        """Keep ``views`` as the game's at ``record``'s ply; past the cache's size, the game
        remembered longest ago is dropped."""
        self._states[record.id] = (record.ply, views)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.pop(next(iter(self._states)))


class Views:
    """Each audience's view of one state, built once and shared by texts and boards."""

    def __init__(self, engine: Engine, state: object) -> None:
        self.engine = engine
        self.state = state
        self._built: dict[int | None, View] = {}
        self.outcome = engine.outcome(state)

    def __getitem__(self, audience: int | None) -> View:
        if audience not in self._built:
            self._built[audience] = self.engine.view(self.state, audience)
        return self._built[audience]


def engine_for(key: str) -> Engine:
    """The engine of the game called ``key``; a key no game has is refused in a sentence."""
    try:
        return ENGINES[key]
    except KeyError:
        raise RefereeError(f"There is no game called `{shorten(key)}`.") from None
