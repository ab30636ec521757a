"""What the referee answers: the notices for each audience, and its refusals.

Every use case returns a ``Report`` (the game as stored, and a ``Notice`` per audience) or
raises a ``RefereeError`` whose message is a sentence for the person who asked. Cogs,
the deliverer and the clock all speak in these values, so they live apart from the use
cases that make them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.core import GameError, View
from bot.storage import GameRecord
from bot.storage.results import Result


class RefereeError(GameError):
    """A request the referee refuses; the message is a sentence for the person who asked."""


class StaleMoveError(RefereeError):
    """A move decided for a game that has moved on since: it was not played."""


class GameFault(RefereeError):
    """Something broke inside one game (a bug, a full disk): the game stays as it was."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"Something went wrong with game #{game_id} on my side, so your request changed "
            "nothing: the game is as it was. Try again later, or check it with `/board`."
        )
        self.game_id = game_id


@dataclass(frozen=True)
class Notice:
    """What one audience is told: texts, and the board as that audience may see it.

    ``audience`` is a seat or ``None`` for the channel; ``user_id`` is the seat's player.
    Channel texts still hold the ``{seat0}``/``{seat1}`` placeholders.
    """

    game: GameRecord
    audience: int | None
    texts: tuple[str, ...]
    view: View

    @property
    def user_id(self) -> int | None:
        return None if self.audience is None else self.game.seats[self.audience]


@dataclass(frozen=True)
class Report:
    """The result of a use case: the game as stored now, and the notices to deliver."""

    game: GameRecord
    notices: tuple[Notice, ...]
    stored: bool = True
    """False for an answer that changed no game (a saved setup): nothing to confirm."""
    results: tuple[Result, ...] = ()
    """For a finished game with a result: each seat's result and rating change."""

    @property
    def finished(self) -> bool:
        return self.game.end_reason is not None

    def to(self, audience: int | None) -> Notice | None:
        return next((n for n in self.notices if n.audience == audience), None)
