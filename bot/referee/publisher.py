"""The referee announces: every change it stores is published once, from one place.

A change to a game is stored by the unit of work (``bot.referee.unit_of_work``) and then
published here, so whoever acts on stored changes subscribes once instead of every caller
of the referee having to remember to tell them: the deliverer sends the notices the change
holds, and the computer looks whether its seat may move. Nothing here knows who listens.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.logs import fields
from bot.storage import GameRecord

log = logging.getLogger("referee.publisher")


@dataclass(frozen=True)
class StoredChange:
    """A change just stored: the game as it now stands and who was told something."""

    game: GameRecord
    told: tuple[int | None, ...]
    """The audiences (seats, None for the channel) the change holds notices for."""
    answered_seat: int | None = None
    """The seat whose notice the caller sends itself, as the answer to that player's own
    command (``bot.delivery``): the deliverer leaves that seat's notices to it."""


Subscriber = Callable[[StoredChange], None]
"""Called with each stored change; it only starts work (a task), it never waits."""


class ChangePublisher:
    """Hands every stored change to each subscriber, in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def publish(self, change: StoredChange) -> None:
        """Tell every subscriber. Each runs outside the caller's context, so the tasks it
        starts carry nothing of the caller's (a worker's held claim on the game's lock);
        one that fails is logged and the others are told all the same: the change is
        stored, and what was not sent goes after the next start."""
        for subscriber in self._subscribers:
            try:
                contextvars.Context().run(subscriber, change)
            except Exception:
                game_id = change.game.id
                log.exception("game %s: a subscriber failed", game_id, extra=fields(game_id))
