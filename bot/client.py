"""The Discord client: wires settings, storage and the referee to the cogs."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from typing import Any

import discord
from discord.ext import commands

from bot.computer import Computer
from bot.delivery.deliverer import Deliverer, Transport
from bot.inbox import Answers, InProcessInbox, MoveInbox, QueuedInbox
from bot.referee import Referee
from bot.settings import Settings
from bot.storage import Clock, PostgresRepository, SqliteRepository, open_repository
from bot.storage.postgres_queue import MoveQueue
from bot.timekeeping import Timekeeper

log = logging.getLogger("referee.client")

ORPHANED_SECONDS = 60.0
"""How long notices wait on a shared database before any process delivers them: the
process that stored them delivers them at once, unless it stopped."""

EXTENSIONS = (
    "cogs.delivery",
    "cogs.errors",
    "cogs.challenges",
    "cogs.moves",
    "cogs.info",
    "cogs.records",
    "cogs.replays",
    "cogs.timekeeping",
)

WORKER_EXTENSIONS = ("cogs.delivery", "cogs.work")
"""A worker's: it plays queued moves and delivers them, and serves no command."""


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
    """The bot process. ``referee``, ``repository`` and ``deliverer`` exist once
    ``setup_hook`` has run (the deliverer's cog sets it, with its way to Discord)."""

    referee: Referee
    repository: SqliteRepository | PostgresRepository
    deliverer: Deliverer
    computer: Computer

    def __init__(
        self,
        settings: Settings,
        *,
        sync_global: bool = False,
        clock: Clock = time.time,
        **options: Any,
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
            **options,
        )
        self.settings = settings
        self.sync_global = sync_global
        self.clock = clock
        self.newest_dm: dict[int, int] = {}
        """The newest message this process posted in each DM channel (by id, which Discord
        hands out in time order): a deferred answer must not be filled in above it."""

    async def setup_hook(self) -> None:
        """Open the database, load the cogs and publish the slash commands if they changed."""
        self.repository = await open_repository(
            self.settings.database_url, self.settings.database_path, self.clock
        )
        self.referee = Referee(self.repository)
        self.computer = Computer(self.referee)
        self.referee.changes.subscribe(self.computer.published)
        if self.settings.role == "worker":
            for extension in WORKER_EXTENSIONS:
                await self.load_extension(extension)
            return
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.move_queue is not None:  # a gateway: its standby plays what waits too long
            await self.load_extension("cogs.work")
        await self.sync_commands()

    def start_delivery(self, transport: Transport) -> Deliverer:
        """The deliverer, sending through ``transport`` every change the referee publishes."""
        self.deliverer = Deliverer(self.repository.outbox, self.referee, transport)
        self.referee.changes.subscribe(self.deliverer.published)
        return self.deliverer

    async def deliver_orphans(self) -> None:
        """On a shared database: what a process that stopped left undelivered for
        ``ORPHANED_SECONDS`` goes now, and the computer looks again at those games (that
        process may have stopped before the computer moved)."""
        if not self.repository.shared:
            return
        backlogs = await self.deliverer.resume(before=self.repository.clock() - ORPHANED_SECONDS)
        for game_id in sorted(
            {backlog.game_id for backlog in backlogs if backlog.audience is not None}
        ):
            self.computer.look_at(game_id)

    def timekeeper(self) -> Timekeeper:
        """The clock's keeper over this process's referee and store."""
        return Timekeeper(self.referee, self.repository, self.settings.deadlines)

    def move_inbox(self, answers: Answers) -> MoveInbox:
        """Where the cogs hand in every move: played at once here, or queued for the
        workers when this process hands moves on (``move_queue``)."""
        at_once = InProcessInbox(self.referee, answers)
        queue = self.move_queue
        return at_once if queue is None else QueuedInbox(queue, self.referee, at_once)

    @property
    def move_queue(self) -> MoveQueue | None:
        """Where moves go for the workers, when this process hands them on."""
        if self.settings.role == "all" or not isinstance(self.repository, PostgresRepository):
            return None
        return self.repository.queue

    async def sync_commands(self) -> None:
        """Publish the command tree where it is used, when it differs from the last sync.

        With ``DEV_GUILD_ID`` the commands go to that server (they show at once);
        otherwise everywhere (Discord may take up to an hour). The tree's hash is kept in
        the database per target, so a first start publishes the commands by itself, a
        restart with the same commands costs no call to Discord, and ``--sync-global``
        publishes everywhere regardless.
        """
        targets: list[discord.Object | None] = []
        if self.settings.dev_guild_id:
            server = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=server)
            targets.append(server)
        if self.sync_global or not self.settings.dev_guild_id:
            targets.append(None)
        for guild in targets:
            where = "globally" if guild is None else f"to server {guild.id}"
            key = "commands:global" if guild is None else f"commands:server:{guild.id}"
            digest = self.command_hash(guild)
            forced = guild is None and self.sync_global
            if not forced and await self.repository.fact(key) == digest:
                log.info("commands unchanged since the last sync %s: not synced", where)
                continue
            synced = await self.tree.sync(guild=guild)
            await self.repository.set_fact(key, digest)
            names = ", ".join(sorted(f"/{command.name}" for command in synced))
            later = " (Discord may take up to an hour to show them)" if guild is None else ""
            log.info("synced %d commands %s%s: %s", len(synced), where, later, names)

    def command_hash(self, guild: discord.Object | None) -> str:
        """A fingerprint of the commands as they would be sent to Discord for ``guild``."""
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        text = json.dumps(sorted(payload, key=lambda c: c["name"]), sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

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


class ShardedRefereeBot(RefereeBot, commands.AutoShardedBot):
    """A process serving some of the bot's gateway shards (``SHARD_COUNT``, ``SHARD_IDS``).

    Discord sends each server's events to one shard (``(guild_id >> 22) % shard_count``)
    and every DM to shard 0; any process may still act on any game, as the database holds
    the games and their locks.
    """

    def __init__(self, settings: Settings, **options: Any) -> None:
        shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
        super().__init__(settings, shard_count=settings.shard_count, shard_ids=shard_ids, **options)


async def run_worker(bot: RefereeBot, token: str, stop: asyncio.Event) -> None:
    """A worker process: log in over REST only (no gateway connection, no shard), play
    queued moves and deliver them until ``stop`` is set."""
    async with bot:
        await bot.login(token)
        log.info("worker started: playing queued moves")
        await stop.wait()


def build_bot(settings: Settings, **options: Any) -> RefereeBot:
    """The client ``settings`` call for: sharded when ``SHARD_COUNT`` is set."""
    if settings.shard_count is not None and settings.role != "worker":
        return ShardedRefereeBot(settings, **options)
    return RefereeBot(settings, **options)
