"""The channel's note to a player whose direct messages are closed during play.

It is stored for the channel like any notice (``EndingService.dms_closed``), so it is
delivered once and in order with the channel's other posts, after a restart too; the
channel keeps it as a message of its own, with the player's mention, and it never shows
in the game's live message. It names only what everyone sees: the player and the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.core import SEATS, name_of
from bot.referee.states import engine_for
from bot.storage import GameRecord

ASKED = ", I cannot send you your board for "


def closed_dms_note(game: GameRecord, seat: int) -> str:
    """The note, with the seat's placeholder for the player's mention (``fill_names``)."""
    title = f"**{engine_for(game.game).title} #{game.id}**"
    return (
        f"{name_of(seat)}{ASKED}{title}: allow direct messages from this server's members, "
        "then use `/board`."
    )


def noted_seat(text: str) -> int | None:
    """The seat a channel text asks to open their DMs, if it is that note."""
    for seat in SEATS:
        if text.startswith(f"{name_of(seat)}{ASKED}"):
            return seat
    return None


def is_note(texts: Sequence[str]) -> bool:
    """Whether a channel notice's texts are that note (one text), not news of the game."""
    return len(texts) == 1 and noted_seat(texts[0]) is not None


def once_key(game_id: int, seat: int) -> str:
    """The fact that says at which public change the seat was last asked: once per change."""
    return f"closed dms:{game_id}.{seat}"
