"""The referee: every use case of the bot, in terms of user ids and texts only.

Each act follows one path: take the game's lock, load, apply through the engine, store
atomically, then return ``Notice`` values saying what each audience learns. The referee
knows nothing of Discord objects, so it is tested by playing whole games without Discord,
and a cog only has to deliver what it returns.

The use cases are grouped by concern, one module each, on the common path of
``bot.referee.table``; ``Referee`` puts them together, and everything a caller needs is
imported from here.
"""

from __future__ import annotations

from bot.announcements import status_line
from bot.referee.access import DIRECT_MESSAGE, Place
from bot.referee.challenges import Challenges, in_seats
from bot.referee.computer_seat import ComputerSeat, ComputerTurn
from bot.referee.endings import Endings
from bot.referee.game_numbers import GAME_NUMBER_FORMAT, game_number
from bot.referee.moves import DRAW_WORDS, MAX_MOVE_LENGTH, MAX_SAVED_SETUPS, Moves, draw_button
from bot.referee.queries import Queries, replay
from bot.referee.reports import GameFault, Notice, RefereeError, Report, StaleMoveError
from bot.referee.table import STATE_CACHE_SIZE, game_label

__all__ = [
    "DIRECT_MESSAGE",
    "DRAW_WORDS",
    "GAME_NUMBER_FORMAT",
    "MAX_MOVE_LENGTH",
    "MAX_SAVED_SETUPS",
    "STATE_CACHE_SIZE",
    "ComputerTurn",
    "GameFault",
    "Notice",
    "Place",
    "Referee",
    "RefereeError",
    "Report",
    "StaleMoveError",
    "draw_button",
    "game_label",
    "game_number",
    "in_seats",
    "replay",
    "status_line",
]


class Referee(Challenges, Moves, Endings, ComputerSeat, Queries):
    """The bot's referee: challenges, moves, endings, the computer's seat and queries.

    One object per process, holding the cache of decoded states and the per-game locks
    that every use case shares (``RefereeBase``).
    """
