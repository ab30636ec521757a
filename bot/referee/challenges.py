"""Challenges and the start of a game: asked, answered, expired; or a game against the
computer, which starts at once without one.

A challenge is a record of its own until its opponent accepts it; only then is a game
created, seeded and sealed, and its first notices (the reachability check of both
players' DMs) handed out.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.ai import LEVELS
from bot.announcements import game_begun
from bot.fairness import Seal
from bot.games.core import other
from bot.games.grid import shorten
from bot.log_step import announced
from bot.names import clean as clean_name
from bot.referee.reports import RefereeError, Report
from bot.referee.states import Views, engine_for
from bot.referee.unit_of_work import UnitOfWork
from bot.storage import (
    OPEN_TO_ANYONE,
    AudienceTexts,
    ChallengeRecord,
    ChallengeStatus,
    NewGame,
    OpenChallengeError,
)

T = TypeVar("T")

COMPUTER_GAMES_AT_ONCE = 3
"""Games against the computer one player may have running at once. The computer thinks on
the bot's few processor threads, shared by every game: three lets a player try games side
by side, and keeps one player's burst of ``/play`` from taking the computer from others."""

STILL_WAITING = (
    "You already challenged this player and they have not answered yet; wait for their "
    "answer, or withdraw that challenge with its **Decline** button."
)
"""The refusal of a second challenge (or rematch) to a player who has not answered one."""

ENOUGH_COMPUTER_GAMES = (
    f"You already have {COMPUTER_GAMES_AT_ONCE} games against me running, as many as one "
    "player may have at once; finish or resign one of them first."
)


@dataclass
class ChallengeService:
    """Challenging, rematches, answering a challenge, and starting the game it asks for."""

    work: UnitOfWork

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
        """Record a challenge; ``names`` are the challenger's and the opponent's display
        names, kept (cleaned) for the game's board images. Without ``opponent_id`` the
        challenge is open: anyone in the channel but the challenger may accept it."""
        engine = engine_for(game)
        if opponent_id is None:
            opponent_id = OPEN_TO_ANYONE
        if opponent_id == challenger_id:
            raise RefereeError("You cannot challenge yourself; pick another player.")
        if opponent_is_bot:
            raise RefereeError(
                "Other bots cannot play; challenge a person, or choose me to play the computer."
            )
        rules = engine.configure(variant, options or "")
        with one_open_challenge_per_pair():
            return await self.work.repository.create_challenge(
                game=game,
                rules=rules.to_json(),
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                rated=rated,
                names=(clean_name(names[0]), clean_name(names[1])),
            )

    async def open_challenge(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        """The challenge the opponent may answer; refuses anyone else and closed ones."""
        challenge = await self.work.repository.get_challenge(challenge_id)
        if challenge is None:
            raise RefereeError("That challenge no longer exists.")
        if challenge.status is not ChallengeStatus.OPEN:
            raise RefereeError(f"That challenge is already {challenge.status.value}.")
        if user_id != challenge.opponent_id:
            if user_id == challenge.challenger_id:
                if challenge.open_to_anyone:
                    raise RefereeError(
                        "You sent this challenge; wait for someone to accept it "
                        "(**Decline** withdraws it)."
                    )
                raise RefereeError("You sent this challenge; only your opponent can answer it.")
            if not challenge.open_to_anyone:
                raise RefereeError("This challenge is not addressed to you.")
        return challenge

    async def challenge_posted(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows a challenge in its channel, so that the clock
        can edit it when the challenge expires unanswered."""
        await self.work.repository.set_challenge_message(challenge_id, message_id)

    async def rematch(self, game_id: int, user_id: int) -> ChallengeRecord:
        """A challenge to the same game, variant and options, with the seats turned round.

        Only a player of the finished game may ask, and the opponent answers it like any
        challenge. Seat 0 and seat 1 change places, so colours and sides change; where the
        rules draw the first player at random, the new game draws anew.
        """
        record = await self.work.repository.get_game(game_id)
        if record is None:
            raise RefereeError(f"There is no game #{game_id}.")
        seat = record.seat_of(user_id)
        if seat is None:
            raise RefereeError(f"Only the players of game #{game_id} can ask for a rematch.")
        if record.end_reason is None:
            raise RefereeError(f"Game #{game_id} is still being played.")
        if record.computer_level is not None:
            raise RefereeError(
                "For another game against me, use `/play` with me as the opponent: it starts "
                "at once."
            )
        with one_open_challenge_per_pair():
            return await self.work.repository.create_challenge(
                game=record.game,
                rules=record.rules,
                guild_id=record.guild_id,
                channel_id=record.channel_id,
                challenger_id=user_id,
                opponent_id=record.seats[other(seat)],
                rated=record.rated,
                names=(record.names[seat], record.names[other(seat)]),
                swapped=seat == 0,  # the asker was first: now the opponent is
            )

    async def decline(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        challenge = await self.work.repository.get_challenge(challenge_id)
        if challenge is not None and user_id == challenge.challenger_id:
            status = ChallengeStatus.WITHDRAWN
        else:
            challenge = await self.open_challenge(challenge_id, user_id)
            if challenge.open_to_anyone:
                raise RefereeError(
                    "This challenge is open to anyone: accept it, or leave it for someone else."
                )
            status = ChallengeStatus.DECLINED
        if (
            challenge.status is not ChallengeStatus.OPEN
            or not await self.work.repository.close_challenge(challenge_id, status)
        ):
            raise RefereeError("That challenge is already closed.")
        refreshed = await self.work.repository.get_challenge(challenge_id)
        assert refreshed is not None
        return refreshed

    async def accept(self, challenge_id: int, user_id: int, name: str | None = None) -> Report:
        """Create the game from an open challenge. Its first DMs are its reachability
        check: a player whose DMs are closed has the game called off (``call_off``).

        ``name`` is the accepting player's display name now, if the caller knows it."""
        challenge = await self.open_challenge(challenge_id, user_id)
        names = (challenge.names[0], clean_name(name) or challenge.names[1])
        return await self._start(challenge, user_id, names)

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
        """Start a game against the computer at once: the person first, the computer second.

        It is never rated: a person's rating measures them against people.
        """
        engine = engine_for(game)
        if level not in LEVELS:
            listed = ", ".join(f"`{name}`" for name in LEVELS)
            raise RefereeError(f"The computer has no level `{shorten(level)}`; choose {listed}.")
        rules = engine.configure(variant, options or "").to_json()
        names = (clean_name(name), f"Computer ({level})")
        seats = (user_id, computer_id)
        seed, views, seals, audience_texts = self._opening(game, rules, seats)
        new = NewGame(
            game=game,
            rules=rules,
            guild_id=guild_id,
            channel_id=channel_id,
            rated=False,
            seed=seed,
            seats=seats,
            state=views.engine.to_json(views.state),
            names=names,
            computer_level=level,
        )
        record = await self.work.repository.start_computer_game(
            new, at_most=COMPUTER_GAMES_AT_ONCE, audience_texts=audience_texts, seals=seals
        )
        if record is None:
            raise RefereeError(ENOUGH_COMPUTER_GAMES)
        self.work.published(record, audience_texts)
        return Report(record, self.work.notices(record, views, audience_texts))

    async def computer_game_allowed(self, user_id: int) -> None:
        """Refuse at once a player who already plays as many games against the computer as
        one may; the store has the last word, when the game is created."""
        running = await self.work.repository.active_games_of(user_id)
        if sum(game.computer_level is not None for game in running) >= COMPUTER_GAMES_AT_ONCE:
            raise RefereeError(ENOUGH_COMPUTER_GAMES)

    async def _start(
        self,
        challenge: ChallengeRecord,
        opponent_id: int,
        names: tuple[str, str],
    ) -> Report:
        """Create the game from a challenge its opponent (a person, or the computer) took."""
        seats = in_seats(challenge, (challenge.challenger_id, opponent_id))
        seed, views, seals, audience_texts = self._opening(challenge.game, challenge.rules, seats)
        game = await self.work.repository.accept_challenge(
            challenge.id,
            seed=seed,
            seats=seats,
            state=views.engine.to_json(views.state),
            audience_texts=audience_texts,
            seals=seals,
            names=in_seats(challenge, names),
        )
        if game is None:
            raise RefereeError("That challenge is already closed.")
        self.work.published(game, audience_texts)
        return Report(game, self.work.notices(game, views, audience_texts))

    def _opening(
        self, game: str, rules: dict[str, Any], seats: tuple[int, int]
    ) -> tuple[int, Views, tuple[Seal, ...], AudienceTexts]:
        """A new game's seed, its first views, the seals made of its secrets (who sits
        where among them), and what each audience is told of its start."""
        engine = engine_for(game)
        seed = self.work.seed_source()
        played_by = engine.rules_from_json(rules)
        state = engine.new_game(played_by, seed)
        views = Views(engine, state)
        seals = self.work.new_seals(engine, None, views, seed, seats)
        told = announced(
            engine,
            state,
            game_begun(engine, played_by, state),
            sealed=seals,
            view_for=views.__getitem__,
        )
        return seed, views, seals, told

    async def expire(self, challenge_id: int) -> ChallengeRecord | None:
        """Close a challenge nobody answered; None if it was answered meanwhile."""
        if not await self.work.repository.close_challenge(challenge_id, ChallengeStatus.EXPIRED):
            return None
        return await self.work.repository.get_challenge(challenge_id)


@contextmanager
def one_open_challenge_per_pair() -> Iterator[None]:
    """A second challenge to a player who has not answered the first is refused with a
    sentence; the store decides, so a burst of clicks gets exactly one challenge."""
    try:
        yield
    except OpenChallengeError:
        raise RefereeError(STILL_WAITING) from None


def in_seats(challenge: ChallengeRecord, pair: tuple[T, T]) -> tuple[T, T]:
    """The challenger's and the accepter's ids (or names) in seat order: the challenger
    first, unless the challenge turns the seats round (a rematch)."""
    return (pair[1], pair[0]) if challenge.swapped else pair
