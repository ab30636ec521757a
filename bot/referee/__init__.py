"""The referee: every use case of the bot, in terms of user ids and texts only.

Each act follows one path: take the game's lock, load, apply one log step
(``bot.log_step``), store atomically, publish the stored change (``changes``: the
deliverer and the computer subscribe), then return ``Notice`` values saying what each
audience learns. The referee knows nothing of Discord objects, so it is tested by playing
whole games without Discord, and a cog only has to deliver what it returns.

The path is kept once, in the unit of work (``bot.referee.unit_of_work``: lock, load,
commit); the use cases are small services handed that one unit of work, one module each
(challenges, moves, endings, the computer's seat, queries). ``Referee`` is what callers
hold: it puts the services together and answers each request with the service it is for.
Everything a caller needs is imported from here.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from bot.announcements import status_line
from bot.referee.access import DIRECT_MESSAGE, Place
from bot.referee.challenges import ChallengeService, in_seats
from bot.referee.closed_dms import is_note, noted_seat
from bot.referee.computer_seat import ComputerSeatService, ComputerTurn
from bot.referee.endings import EndingService
from bot.referee.game_numbers import GAME_NUMBER_FORMAT, game_number
from bot.referee.moves import (
    DRAW_WORDS,
    MAX_MOVE_LENGTH,
    MAX_SAVED_SETUPS,
    MoveService,
    draw_button,
)
from bot.referee.publisher import ChangePublisher, StoredChange
from bot.referee.queries import QueryService, replay
from bot.referee.reports import GameFault, Notice, RefereeError, Report, StaleMoveError
from bot.referee.states import STATE_CACHE_SIZE
from bot.referee.unit_of_work import UnitOfWork, game_label
from bot.storage import Repository
from bot.storage.results import ResultQueries

__all__ = [
    "DIRECT_MESSAGE",
    "DRAW_WORDS",
    "GAME_NUMBER_FORMAT",
    "MAX_MOVE_LENGTH",
    "MAX_SAVED_SETUPS",
    "STATE_CACHE_SIZE",
    "ChangePublisher",
    "ComputerTurn",
    "GameFault",
    "Notice",
    "Place",
    "Referee",
    "RefereeError",
    "Report",
    "StaleMoveError",
    "StoredChange",
    "draw_button",
    "game_label",
    "game_number",
    "in_seats",
    "is_note",
    "noted_seat",
    "replay",
    "status_line",
]

P = ParamSpec("P")
T = TypeVar("T")
Service = TypeVar("Service")


def delegate(
    service: str, method: Callable[Concatenate[Service, P], Awaitable[T]]
) -> Callable[Concatenate[Any, P], Awaitable[T]]:
    """A method of ``Referee`` that is ``method`` of its service named ``service``: the same
    signature, docstring and answer, so callers and type checks see the service's own."""

    async def call(referee: Any, *args: P.args, **kwargs: P.kwargs) -> T:
        return await method(getattr(referee, service), *args, **kwargs)

    functools.update_wrapper(call, method)
    return call


class Referee:
    """The bot's referee: challenges, moves, endings, the computer's seat and queries.

    One object per process, holding the one unit of work (the store, the per-game locks and
    the cache of decoded states) that every service shares. Each request is answered by the
    method of the same name of the service it is for; its docstring is there.
    """

    def __init__(
        self, repository: Repository, seed_source: Callable[[], int] = lambda: secrets.randbits(62)
    ) -> None:
        self.repository = repository
        self.work = UnitOfWork(repository, seed_source)
        self.challenges = ChallengeService(self.work)
        self.moves = MoveService(self.work)
        self.endings = EndingService(self.work)
        self.computer_seat = ComputerSeatService(self.work)
        self.queries = QueryService(self.work)
        self.changes: ChangePublisher = self.work.changes
        """Every stored change, published once: the deliverer and the computer subscribe."""

    game_of = delegate("work", UnitOfWork.game_of)

    challenge = delegate("challenges", ChallengeService.challenge)
    open_challenge = delegate("challenges", ChallengeService.open_challenge)
    rematch = delegate("challenges", ChallengeService.rematch)
    decline = delegate("challenges", ChallengeService.decline)
    accept = delegate("challenges", ChallengeService.accept)
    play_computer = delegate("challenges", ChallengeService.play_computer)
    computer_game_allowed = delegate("challenges", ChallengeService.computer_game_allowed)
    expire = delegate("challenges", ChallengeService.expire)
    challenge_posted = delegate("challenges", ChallengeService.challenge_posted)

    aim = delegate("moves", MoveService.aim)
    act = delegate("moves", MoveService.act)
    suggestions = delegate("moves", MoveService.suggestions)

    resign = delegate("endings", EndingService.resign)
    abort = delegate("endings", EndingService.abort)
    call_off = delegate("endings", EndingService.call_off)
    dms_closed = delegate("endings", EndingService.dms_closed)
    time_out = delegate("endings", EndingService.time_out)
    reminders = delegate("endings", EndingService.reminders)

    computer_turn = delegate("computer_seat", ComputerSeatService.computer_turn)
    computer_games = delegate("computer_seat", ComputerSeatService.computer_games)

    board = delegate("queries", QueryService.board)
    help = delegate("queries", QueryService.help)
    finished = delegate("queries", QueryService.finished)
    replay_of = delegate("queries", QueryService.replay_of)
    variants_of = delegate("queries", QueryService.variants_of)
    games_in = delegate("queries", QueryService.games_in)
    export = delegate("queries", QueryService.export)
    batch_report = delegate("queries", QueryService.batch_report)
    running_games_of = delegate("queries", QueryService.running_games_of)
    players_in_games = delegate("queries", QueryService.players_in_games)
    last_dm_read = delegate("queries", QueryService.last_dm_read)
    dm_read = delegate("queries", QueryService.dm_read)

    @property
    def records(self) -> ResultQueries:
        """Leaderboards, profiles and histories (``QueryService.records``)."""
        return self.queries.records
