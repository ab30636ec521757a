"""The referee: every use case of the bot, in terms of user ids and texts only.

Each act follows one path: take the game's lock, load, apply one log step
(``bot.log_step``), store atomically, then return ``Notice`` values saying what each
audience learns. The referee knows nothing of Discord objects, so it is tested by playing
whole games without Discord, and a cog only has to deliver what it returns.

The path is kept once, in the unit of work (``bot.referee.unit_of_work``: lock, load,
commit); the use cases are small services handed that one unit of work, one module each
(challenges, moves, endings, the computer's seat, queries). ``Referee`` is what callers
hold: it puts the services together and answers each request with the service it is for.
Everything a caller needs is imported from here.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from bot.announcements import status_line
from bot.games.core import View
from bot.outbox import Parcel
from bot.referee.access import DIRECT_MESSAGE, Place
from bot.referee.challenges import ChallengeService, in_seats
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
from bot.referee.queries import QueryService, replay
from bot.referee.reports import GameFault, Notice, RefereeError, Report, StaleMoveError
from bot.referee.unit_of_work import STATE_CACHE_SIZE, UnitOfWork, game_label
from bot.replays import Replay
from bot.storage import ChallengeRecord, GameRecord, Repository

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


class Referee:
    """The bot's referee: challenges, moves, endings, the computer's seat and queries.

    One object per process, holding the one unit of work (the store, the per-game locks and
    the cache of decoded states) that every service shares. Each method below is the
    service's of the same name; its docstring is there.
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

    # Challenges and the start of a game (``bot.referee.challenges``).

    async def challenge(
        self,
        *,
        game: str,
        variant: str | None,
        options: str | None = None,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        opponent_is_bot: bool = False,
        rated: bool = True,
        names: tuple[str | None, str | None] = (None, None),
    ) -> ChallengeRecord:
        return await self.challenges.challenge(
            game=game,
            variant=variant,
            options=options,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            opponent_id=opponent_id,
            opponent_is_bot=opponent_is_bot,
            rated=rated,
            names=names,
        )

    async def open_challenge(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        return await self.challenges.open_challenge(challenge_id, user_id)

    async def rematch(self, game_id: int, user_id: int) -> ChallengeRecord:
        return await self.challenges.rematch(game_id, user_id)

    async def decline(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        return await self.challenges.decline(challenge_id, user_id)

    async def accept(self, challenge_id: int, user_id: int, name: str | None = None) -> Report:
        return await self.challenges.accept(challenge_id, user_id, name)

    async def play_computer(
        self,
        *,
        game: str,
        variant: str | None,
        options: str | None = None,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        computer_id: int,
        level: str,
        name: str | None = None,
    ) -> Report:
        return await self.challenges.play_computer(
            game=game,
            variant=variant,
            options=options,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            computer_id=computer_id,
            level=level,
            name=name,
        )

    async def computer_game_allowed(self, user_id: int) -> None:
        await self.challenges.computer_game_allowed(user_id)

    async def expire(self, challenge_id: int) -> ChallengeRecord | None:
        return await self.challenges.expire(challenge_id)

    # Moves (``bot.referee.moves``).

    async def aim(self, user_id: int, text: str, game_id: int | None = None) -> int:
        return await self.moves.aim(user_id, text, game_id)

    async def act(
        self,
        user_id: int,
        text: str,
        game_id: int | None = None,
        *,
        at_ply: int | None = None,
        queued: int | None = None,
    ) -> Report:
        return await self.moves.act(user_id, text, game_id, at_ply=at_ply, queued=queued)

    async def suggestions(self, user_id: int, typed: str) -> list[str]:
        return await self.moves.suggestions(user_id, typed)

    # Ends from outside the rules, and the clock (``bot.referee.endings``).

    async def resign(self, user_id: int, game_id: int | None = None) -> Report:
        return await self.endings.resign(user_id, game_id)

    async def abort(self, user_id: int, game_id: int | None = None) -> Report:
        return await self.endings.abort(user_id, game_id)

    async def call_off(self, game_id: int, seat: int) -> Report | None:
        return await self.endings.call_off(game_id, seat)

    async def time_out(self, game_id: int, changed_at: float) -> Report | None:
        return await self.endings.time_out(game_id, changed_at)

    async def reminders(self, game_id: int, changed_at: float, text: str) -> tuple[Notice, ...]:
        return await self.endings.reminders(game_id, changed_at, text)

    # The computer's seat (``bot.referee.computer_seat``).

    async def computer_turn(self, game_id: int) -> ComputerTurn | None:
        return await self.computer_seat.computer_turn(game_id)

    async def computer_games(self) -> list[GameRecord]:
        return await self.computer_seat.computer_games()

    # Reading games without changing them (``bot.referee.queries``).

    async def game_of(self, user_id: int, game_id: int | None, *, purpose: str) -> GameRecord:
        return await self.work.game_of(user_id, game_id, purpose=purpose)

    async def board(
        self, user_id: int, game_id: int | None = None, place: Place = DIRECT_MESSAGE
    ) -> Notice:
        return await self.queries.board(user_id, game_id, place)

    async def help(self, user_id: int) -> str:
        return await self.queries.help(user_id)

    async def finished(
        self, game_id: int, user_id: int, place: Place = DIRECT_MESSAGE
    ) -> tuple[GameRecord, View, str]:
        return await self.queries.finished(game_id, user_id, place)

    async def replay_of(
        self,
        game_id: int,
        user_id: int,
        audience: str | None = None,
        place: Place = DIRECT_MESSAGE,
    ) -> Replay:
        return await self.queries.replay_of(game_id, user_id, audience, place)

    async def variants_of(self, game_ids: list[int]) -> dict[int, str]:
        return await self.queries.variants_of(game_ids)

    async def games_in(self, user_id: int, place: Place) -> list[tuple[GameRecord, str]]:
        return await self.queries.games_in(user_id, place)

    async def export(
        self, game_id: int, user_id: int, place: Place = DIRECT_MESSAGE
    ) -> dict[str, object]:
        return await self.queries.export(game_id, user_id, place)

    async def parcel_report(self, parcel: Parcel) -> Report | None:
        return await self.queries.parcel_report(parcel)
