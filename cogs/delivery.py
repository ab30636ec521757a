"""Starts the deliverer with the Discord sender as its way to Discord, and stops it with the bot."""

from __future__ import annotations

from discord.ext import commands

from bot.client import RefereeBot
from bot.delivery.discord_sender import DiscordSender
from cogs.buttons import BUTTONS


class Delivery(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.discord_sender = DiscordSender(bot, BUTTONS)
        bot.start_delivery(self.discord_sender)

    async def cog_load(self) -> None:
        """What a stopped process left unsent goes out in the background, from the start,
        and the computer looks again at every game it plays."""
        await self.bot.deliverer.resume()
        await self.bot.computer.resume()

    async def cog_unload(self) -> None:
        await self.bot.deliverer.close()


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Delivery(bot))
