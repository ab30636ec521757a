"""Waiting times: players who stop moving are reminded, then lose on time; challenges expire.

A game's wait runs from its last public change: one the channel is told of, like a move,
a player getting ready or the game's start. A secret setup edit (a re-deal, a swap, a
placement, a saved setup loaded) restarts no one's clock, the editor's own included: the
other player's reminder, and the moment anyone loses on time, are there for others to see,
and must not tell whether, when or how often a player edited their setup.

Every time involved is stored with the game (its last public change, and when and at which
ply the players were last reminded) or the challenge (when it was made), so a restart
neither forgets a wait nor reminds twice. A loss on time always comes the full ``forfeit_after``
after a reminder, so a bot that was down for days reminds first instead of ending games.
The clock is the repository's, so tests move time by hand instead of sleeping.

A sweep must never hold up the bot, which answers interactions on the same event loop:
the database picks the games that are due (through indexes that hold only waiting
games), a batch at a time, and a game is read whole and decoded only when it is about to
be reminded or ended. Games that are merely waiting cost nothing at all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.logs import fields
from bot.referee import Notice, Referee, Report
from bot.storage import WAIT_BATCH, ChallengeRecord, Repository, Wait

log = logging.getLogger("referee.timekeeping")

HOUR = 3600.0


@dataclass(frozen=True)
class Deadlines:
    """How long the bot waits, in seconds."""

    remind_after: float = 24 * HOUR
    """Without a public change for this long, the players to move are reminded by DM."""
    forfeit_after: float = 24 * HOUR
    """This long after the reminder without a move, the game is lost on time."""
    challenge_expiry: float = 24 * HOUR
    """An unanswered challenge is closed after this long."""


class ClockActions(Protocol):
    """Delivery of what the time that passed calls for; the cogs send it on Discord."""

    async def remind(self, notice: Notice) -> None:
        """DM one player their reminder with their board (rendered now, as it is sent)."""

    async def end(self, report: Report) -> None:
        """Deliver a game lost on time."""

    async def expired(self, challenge: ChallengeRecord) -> None:
        """Show that a challenge expired."""


@dataclass
class Swept:
    """What one sweep did, for logs and benchmarks."""

    reminded: int = 0
    ended: int = 0
    expired: int = 0


class Timekeeper:
    def __init__(
        self,
        referee: Referee,
        repository: Repository,
        deadlines: Deadlines,
        batch: int = WAIT_BATCH,
    ) -> None:
        self.referee = referee
        self.repository = repository
        self.deadlines = deadlines
        self.batch = batch

    async def sweep(self, clock_actions: ClockActions) -> Swept:
        """Expire old challenges and forget long-closed ones, remind the players games wait
        for, end games on time.

        Each game is handled on its own: one that fails is logged and left for the next
        sweep, and the others go on. Of several processes sharing a database, one sweeps
        at a time (the store's ``clock`` duty); the others find nothing to do.
        """
        async with self.repository.duty("clock") as mine:
            if not mine:
                return Swept()
            return await self._sweep(clock_actions)

    async def _sweep(self, clock_actions: ClockActions) -> Swept:
        now = self.repository.clock()
        deadlines = self.deadlines
        swept = Swept()
        for challenge in await self.repository.unanswered_challenges(
            now - deadlines.challenge_expiry
        ):
            try:
                closed = await self.referee.expire(challenge.id)
                if closed is not None:
                    await clock_actions.expired(closed)
                    swept.expired += 1
            except Exception:
                log.exception("challenge %s: the clock failed on it", challenge.id)
        # A closed challenge is kept one more expiry period for late clicks, then forgotten.
        await self.repository.forget_closed_challenges(now - 2 * deadlines.challenge_expiry)
        text = self.reminder_text()

        async def remind(wait: Wait) -> None:
            for notice in await self.referee.reminders(wait.game_id, wait.changed_at, text):
                await clock_actions.remind(notice)
                await self.reminded(notice)
                swept.reminded += 1
                log.info(
                    "game %s: reminded seat %s",
                    wait.game_id,
                    notice.audience,
                    extra=fields(wait.game_id),
                )

        async def end(wait: Wait) -> None:
            report = await self.referee.time_out(wait.game_id, wait.changed_at)
            if report is not None:
                log.info("game %s: lost on time", wait.game_id, extra=fields(wait.game_id))
                await clock_actions.end(report)
                swept.ended += 1

        await self._each(self.repository.awaiting_reminder, now - deadlines.remind_after, remind)
        await self._each(self.repository.awaiting_forfeit, now - deadlines.forfeit_after, end)
        return swept

    async def _each(
        self,
        waits: Callable[[float, Wait | None, int], Awaitable[list[Wait]]],
        until: float,
        handle: Callable[[Wait], Awaitable[None]],
    ) -> None:
        """Handle every wait the query finds, a batch at a time, giving the loop its turn
        between games; pages by the last wait seen, so a game that fails is not retried
        within the same sweep."""
        after: Wait | None = None
        while batch := await waits(until, after, self.batch):
            for wait in batch:
                try:
                    await handle(wait)
                except Exception:
                    log.exception(
                        "game %s: the clock failed on it", wait.game_id, extra=fields(wait.game_id)
                    )
                await asyncio.sleep(0)
            after = batch[-1]

    def reminder_text(self) -> str:
        span = _span(self.deadlines.forfeit_after)
        return f"This game is waiting for your move. Move within {span}, or you lose on time."

    async def reminded(self, notice: Notice) -> None:
        """A reminder went out: the same wait reminds no one again, even after a restart."""
        await self.repository.set_reminded(
            notice.game.id, notice.game.updated_at, self.repository.clock()
        )


def _span(seconds: float) -> str:
    """A duration as a player reads it: "24 hours", "an hour", "10 minutes"."""
    if seconds >= 2 * HOUR:
        return f"{round(seconds / HOUR)} hours"
    if seconds >= HOUR:
        return "an hour"
    return f"{max(1, round(seconds / 60))} minutes"
