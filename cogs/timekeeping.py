"""The clock: reminders to players who stopped moving, losses on time, expired challenges."""

from __future__ import annotations

from discord.ext import commands, tasks

from bot.client import RefereeBot
from bot.delivery.discord_sender import DiscordSender
from bot.referee import Notice, Report
from bot.storage import ChallengeRecord
from cogs.buttons import BUTTONS
from cogs.challenges import challenge_text
from cogs.replies import answering_errors, nobody_asked

TICK_SECONDS = 60.0
"""How often the clock is read; deadlines are hours, so a minute late is on time."""


class Timekeeping(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.clock_actions = DiscordClockActions(bot, DiscordSender(bot, BUTTONS))
        self.timekeeper = bot.timekeeper()

    async def cog_load(self) -> None:
        self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    @tasks.loop(seconds=TICK_SECONDS)
    async def tick(self) -> None:
        async with answering_errors(nobody_asked, "timekeeping"):
            await self.sweep()

    @tick.before_loop
    async def _after_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def sweep(self) -> None:
        """Act on everything the time that passed calls for; on a shared database, also
        deliver what a process that stopped left undelivered (``RefereeBot.deliver_orphans``)."""
        await self.timekeeper.sweep(self.clock_actions)
        await self.bot.deliver_orphans()


class DiscordClockActions:
    """Sends what the clock calls for (``bot.timekeeping.ClockActions``) on Discord."""

    def __init__(self, bot: RefereeBot, discord_sender: DiscordSender) -> None:
        self.bot = bot
        self.discord_sender = discord_sender

    async def remind(self, notice: Notice) -> None:
        await self.discord_sender.remind(notice)

    async def end(self, report: Report) -> None:
        """Nothing to do: the referee published the end, and the deliverer sends it."""

    async def expired(self, challenge: ChallengeRecord) -> None:
        await self.discord_sender.close_challenge(
            challenge,
            challenge_text(challenge, "⌛ Nobody answered in time: the challenge expired."),
        )


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Timekeeping(bot))
