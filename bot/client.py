"""The Discord client: wires settings, storage and the referee to the cogs."""

from __future__ import annotations

import logging
import time

import discord
from discord.ext import commands

from bot.computer import Computer
from bot.referee import Referee
from bot.settings import Settings
from bot.storage import Clock, SqliteRepository

log = logging.getLogger("referee.client")

EXTENSIONS = (
    "cogs.errors",
    "cogs.challenges",
    "cogs.moves",
    "cogs.info",
    "cogs.records",
    "cogs.timekeeping",
)


def intents() -> discord.Intents:
    """Only what the bot uses: guild events and direct messages. No privileged intent.

    Direct messages carry their text without the message-content intent, and every
    server interaction arrives through slash commands and buttons.
    """
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.dm_messages = True
    return chosen


class RefereeBot(commands.Bot):
    """The bot process. ``referee`` and ``repository`` exist once ``setup_hook`` has run."""

    referee: Referee
    repository: SqliteRepository
    computer: Computer

    def __init__(
        self, settings: Settings, *, sync_global: bool = False, clock: Clock = time.time
    ) -> None:
        # The bot never joins voice, so discord.py's warnings about missing voice
        # libraries would only worry operators.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            proxy=settings.proxy,
        )
        self.settings = settings
        self.sync_global = sync_global
        self.clock = clock

    async def setup_hook(self) -> None:
        """Open the database, load the cogs and, only where asked, sync slash commands."""
        self.repository = await SqliteRepository.open(self.settings.database_path, self.clock)
        self.referee = Referee(self.repository)
        self.computer = Computer(self.referee)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), guild.id)
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "connected as %s (%s) to %d servers",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
        )

    async def close(self) -> None:
        await super().close()
        computer = getattr(self, "computer", None)
        if computer is not None:
            computer.executor.shutdown(wait=False, cancel_futures=True)
        repository = getattr(self, "repository", None)
        if repository is not None:
            await repository.close()
