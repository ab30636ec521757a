"""A worker process's own part: it plays the moves the gateway processes queued.

Everything a worker says goes over Discord's REST API with the bot's token: boards by the
deliverer's Discord sender, and the answer to a move's player where they sent it, as the
follow-up of their command or into their DM channel (``bot.delivery.discord_answers``,
the same answer a move played where it was received gets).
"""

from __future__ import annotations

from discord.ext import commands

from bot.client import RefereeBot
from bot.delivery.discord_answers import QueuedAnswers
from bot.delivery.discord_sender import DiscordSender
from bot.worker import AT_ONCE, STANDBY_SECONDS, MoveWorker
from cogs.buttons import BUTTONS

STANDBY_AT_ONCE = 2
"""Moves a gateway's standby plays side by side: enough to keep players served, few
enough to leave the gateway's processor to receiving moves."""


class Work(commands.Cog):
    """A worker's moves; on a gateway, its standby, which plays the moves that waited
    too long for a worker (``bot.worker.STANDBY_SECONDS``)."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.answers = QueuedAnswers(DiscordSender(bot, BUTTONS))
        queue = bot.move_queue
        assert queue is not None, "a worker plays queued moves: it needs PostgreSQL"
        on_standby = bot.settings.role != "worker"
        self.worker = MoveWorker(
            queue,
            bot.referee,
            self.answers,
            at_once=STANDBY_AT_ONCE if on_standby else AT_ONCE,
            standby=STANDBY_SECONDS if on_standby else None,
        )

    async def cog_load(self) -> None:
        await self.worker.start()

    async def cog_unload(self) -> None:
        await self.worker.close()


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Work(bot))
