"""Who may look at a game they do not play: its public board, summary, replay and record.

A game lives in a server's channel, and a server may keep that channel private. What the
channel shows is then as private as the channel: someone who does not play in the game
sees it only from inside its server, and only if they can view its channel there. The
players themselves may always look at their own game, from anywhere.

Whoever may not look is told exactly what they would be told about a game number that
does not exist, so a guessed number confirms nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.storage import GameRecord


def _views_nothing(channel_id: int) -> bool:
    return False


@dataclass(frozen=True)
class Place:
    """Where a question about a game was asked: a server, and which of its channels the
    asker can view there. A direct message is no server and shows no channel."""

    guild_id: int | None = None
    can_view: Callable[[int], bool] = _views_nothing
    """Whether the asker can view a channel of ``guild_id``, by the channel's id."""


DIRECT_MESSAGE = Place()
"""A question asked in direct messages: only a game's own players may look at it there."""


def may_see(game: GameRecord, user_id: int, place: Place) -> bool:
    """Whether ``user_id``, asking at ``place``, may look at ``game`` at all."""
    if user_id in game.seats:
        return True
    return (
        game.guild_id is not None
        and place.guild_id == game.guild_id
        and place.can_view(game.channel_id)
    )
