"""Waiting times: players who stop moving are reminded, then lose on time; challenges expire.

Every time involved is stored with the game (its last change, and when and for which ply
the players were last reminded) or the challenge (when it was made), so a restart neither
forgets a wait nor reminds twice. A loss on time always comes the full ``forfeit_after``
after a reminder, so a bot that was down for days reminds first instead of ending games.
The clock is the repository's, so tests move time by hand instead of sleeping.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.referee import Notice, Referee, Report
from bot.storage import ChallengeRecord, SqliteRepository

HOUR = 3600.0


@dataclass(frozen=True)
class Deadlines:
    """How long the bot waits, in seconds."""

    remind_after: float = 24 * HOUR
    """Without a move for this long, the players to move are reminded by DM."""
    forfeit_after: float = 24 * HOUR
    """This long after the reminder without a move, the game is lost on time."""
    challenge_expiry: float = 24 * HOUR
    """An unanswered challenge is closed after this long."""


@dataclass(frozen=True)
class Due:
    """What the time that passed calls for, for the cogs to deliver."""

    reminders: tuple[Notice, ...] = ()
    endings: tuple[Report, ...] = ()
    expired: tuple[ChallengeRecord, ...] = ()


class Timekeeper:
    def __init__(
        self, referee: Referee, repository: SqliteRepository, deadlines: Deadlines
    ) -> None:
        self.referee = referee
        self.repository = repository
        self.deadlines = deadlines

    async def due(self) -> Due:
        """Expire old challenges and forget long-closed ones, end games on time, and list
        the reminders to send."""
        now = self.repository.clock()
        deadlines = self.deadlines
        expired = []
        for challenge in await self.repository.unanswered_challenges(
            now - deadlines.challenge_expiry
        ):
            closed = await self.referee.expire(challenge.id)
            if closed is not None:
                expired.append(closed)
        # A closed challenge is kept one more expiry period for late clicks, then forgotten.
        await self.repository.forget_closed_challenges(now - 2 * deadlines.challenge_expiry)
        reminders: list[Notice] = []
        endings: list[Report] = []
        for idle in await self.repository.idle_games(now - deadlines.remind_after):
            game, reminded = idle.game, idle.reminded_since
            if reminded is None:
                reminders.extend(self.referee.reminders(game, self.reminder_text()))
            elif reminded <= now - deadlines.forfeit_after:
                report = await self.referee.time_out(game.id, game.ply)
                if report is not None:
                    endings.append(report)
        return Due(tuple(reminders), tuple(endings), tuple(expired))

    def reminder_text(self) -> str:
        span = _span(self.deadlines.forfeit_after)
        return f"This game is waiting for your move. Move within {span}, or you lose on time."

    async def reminded(self, notice: Notice) -> None:
        """A reminder went out: the same wait reminds no one again, even after a restart."""
        await self.repository.set_reminded(
            notice.game.id, notice.game.ply, self.repository.clock()
        )


def _span(seconds: float) -> str:
    """A duration as a player reads it: "24 hours", "an hour", "10 minutes"."""
    if seconds >= 2 * HOUR:
        return f"{round(seconds / HOUR)} hours"
    if seconds >= HOUR:
        return "an hour"
    return f"{max(1, round(seconds / 60))} minutes"
