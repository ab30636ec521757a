"""A game's number written before a move, ``#12 B5``: read whole, or refused as written.

A ``#`` at the start of a move always begins a game number, and the number ends at a
space; nothing else counts as one. Reading it any other way would take a digit of a
longer number, or a second ``#``, for part of the move (``#1234567890 A1`` as game
123456789 with the move ``0 A1``), and play something the player never meant.
"""

from __future__ import annotations

import re

from bot.games.core import shorten
from bot.referee.reports import RefereeError

GAME_NUMBER_FORMAT = (
    "A game number is `#` and a whole number, then a space and your move, like `#12 B5`."
)
"""The refusal of a move that starts with ``#`` but names no game the way it should."""

LARGEST_GAME_ID = 2**63 - 1
"""The largest id either store can hold: a larger number names no game."""

_NAMED = re.compile(r"\s*#\s*([0-9]+)\s+(\S.*)", re.S)
"""``#``, the number, one or more spaces (or line breaks), then the move."""

_BEING_TYPED = re.compile(r"\s*#\s*([0-9]+)\s*()", re.S)
"""A game number with no move after it yet: while ``/move`` is typed, the move follows."""


def split_game_number(text: str, *, typing: bool = False) -> tuple[int | None, str]:
    """The game a move names first, and the move; (None, text) when it names none.

    ``typing``: the text is still being typed (autocomplete), so a number with nothing
    after it yet names its game, with the move still to come."""
    if not text.lstrip().startswith("#"):
        return None, text
    named = _NAMED.fullmatch(text) or (_BEING_TYPED.fullmatch(text) if typing else None)
    if named is None:
        raise RefereeError(GAME_NUMBER_FORMAT)
    return game_number(named.group(1)), named.group(2)


def game_number(digits: str) -> int:
    """A game's number as typed; one too large to be any game's is refused as such."""
    if len(digits) > len(str(LARGEST_GAME_ID)) or int(digits) > LARGEST_GAME_ID:
        raise RefereeError(f"You are not playing in game #{shorten(digits)}.")
    return int(digits)
