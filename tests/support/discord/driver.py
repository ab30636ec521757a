"""The humans using Discord, for tests of a real discord.py client in the test's process.

:class:`DiscordDriver` logs a real ``discord.Client`` (or ``commands.Bot``) in against
:class:`~tests.support.discord.server.FakeDiscord` and connects it to the server's gateway
exactly as ``Client.start`` does, so the client receives every event (READY, GUILD_CREATE,
INTERACTION_CREATE, MESSAGE_CREATE...) over a compressed websocket and command trees,
views, ``DynamicItem`` templates and event listeners run as in production. Every action
waits until the bot has received its events and finished reacting (``settle``) so tests
can then assert on what Discord received.

This module holds the driver's life (open, connect, close, undoing every global change)
and what users saw; the world it builds is in :mod:`.cast`, the users' actions in
:mod:`.actions`, and the waiting in :mod:`.settling`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
import yarl

from .accounts import DEFAULT_APP_PERMISSIONS, FakeGuild, FakeUser
from .actions import UserActions
from .gateway_protocol import Intent
from .server import FakeDiscord, Sent, StoredMessage
from .settling import (
    CapturedError,
    ClientInternals,
    ErrorLogCapture,
    SettleTimeout,
    TaskInspector,
    TaskPredicate,
)

__all__ = ["DiscordDriver"]


class DiscordDriver(UserActions):
    """Discord's gateway plus its users, driving one discord.py client under test.

    Use ``async with DiscordDriver.start(client) as driver:``. Guilds and users added
    before :meth:`open` arrive with READY (``on_guild_available``); later ones as joins.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        server: FakeDiscord | None = None,
        token: str = "test-token",
        settle_timeout: float = 10.0,
        background_horizon: float = 2.0,
        raise_bot_errors: bool = True,
        echo_own_messages: bool = True,
        require_synced_commands: bool = False,
        app_permissions: discord.Permissions = DEFAULT_APP_PERMISSIONS,
    ) -> None:
        self.client = client
        self.server = server or FakeDiscord()
        self.token = token
        self.settle_timeout = settle_timeout
        self.background_horizon = background_horizon
        self.raise_bot_errors = raise_bot_errors
        self.server.gateway.echo_own_messages = echo_own_messages
        self.require_synced_commands = require_synced_commands
        self.app_permissions = app_permissions
        self.guilds: list[FakeGuild] = []
        self.users: dict[int, FakeUser] = {}
        self.errors: list[CapturedError] = []
        self.gateway = self.server.gateway
        self._internals = ClientInternals(client)
        self._connection_task: asyncio.Task[None] | None = None
        self._saved_gateway: Any = None
        self._saved_ready_timeout: float | None = None
        self._ignore: list[TaskPredicate] = []
        self._baseline: set[asyncio.Task[Any]] = set()
        self._watched: set[asyncio.Task[Any]] = set()
        self._reported = 0
        self._server_errors_reported = 0
        self._connected = False
        self._opened = False
        self._closed = False
        self._saved_bases: tuple[str, str] | None = None
        self._log_capture = ErrorLogCapture(self.errors.append)
        self._saved_exception_handler: Any = None
        self._inspector: TaskInspector | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, client: discord.Client, **options: Any) -> AsyncIterator[DiscordDriver]:
        """Log ``client`` in against a fresh fake Discord; close everything on exit."""
        driver = cls(client, **options)
        await driver.open()
        try:
            yield driver
        except BaseException:
            await driver.close(check=False)
            raise
        else:
            await driver.close()

    async def __aenter__(self) -> DiscordDriver:
        await self.open()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        await self.close(check=exc_type is None)

    async def open(self) -> None:
        """Start the server, redirect discord.py to it, log in, and deliver READY."""
        if self._opened:
            raise RuntimeError("driver already opened")
        self._opened = True
        loop = asyncio.get_running_loop()
        self._inspector = TaskInspector(loop, self.background_horizon)
        self._baseline = set(asyncio.all_tasks(loop))
        if not self.server.running:
            await self.server.start()
        self._saved_bases = (discord.http.Route.BASE, discord.asset.Asset.BASE)
        discord.http.Route.BASE = self.server.api_base
        discord.asset.Asset.BASE = self.server.url
        self._saved_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)
        self.gateway.token = self.token
        self.gateway.privileged_intents = self.intents.value & Intent.PRIVILEGED
        self.gateway.guild_payload = self._guild_payload
        logging.getLogger().addHandler(self._log_capture)
        self._saved_exception_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._on_loop_exception)
        try:
            await self.client.login(self.token)
            await self._connect()
        except BaseException:
            await self.close(check=False)
            raise

    async def close(self, *, check: bool = True) -> None:
        """Settle, close the client, stop the server and undo every global change."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        try:
            if check:
                await self.settle()
        finally:
            with contextlib.suppress(Exception):
                await self.client.close()
            if self._connection_task is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(self._connection_task, 5)
            me = asyncio.current_task()
            leftovers = [
                t
                for t in asyncio.all_tasks(loop)
                if t is not me
                and t not in self._baseline
                and not t.done()
                and self._inspector is not None
                and not self._inspector.is_infrastructure(t)
            ]
            for task in leftovers:
                task.cancel()
            if leftovers:
                await asyncio.gather(*leftovers, return_exceptions=True)
            if self._saved_ready_timeout is not None:
                self._internals.swap_guild_ready_timeout(self._saved_ready_timeout)
            await self.server.stop()
            if self._saved_bases is not None:
                discord.http.Route.BASE, discord.asset.Asset.BASE = self._saved_bases
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved_gateway
            logging.getLogger().removeHandler(self._log_capture)
            loop.set_exception_handler(self._saved_exception_handler)

    async def _connect(self) -> None:
        """Run ``Client.connect`` as ``Client.start`` does, until READY has been handled."""
        # READY waits this long for trailing GUILD_CREATEs (default 2 s, too slow here).
        self._saved_ready_timeout = self._internals.swap_guild_ready_timeout(0.01)
        task = asyncio.get_running_loop().create_task(
            self.client.connect(reconnect=True), name="discord-client-connection"
        )
        self._connection_task = task
        self._ignore.append(lambda t: t is task)
        self._ignore.append(self._internals.is_shard_reader)
        ready = asyncio.ensure_future(self.client.wait_until_ready())
        try:
            done, _ = await asyncio.wait(
                {ready, task}, timeout=self.settle_timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            ready.cancel()
        if task in done:
            task.result()  # raises the reason the client could not connect
            raise RuntimeError("the client closed its gateway connection before READY")
        if ready not in done:
            raise SettleTimeout(f"no READY within {self.settle_timeout}s")
        self._connected = True
        await self.settle()

    # ------------------------------------------------------------------ what users saw

    def responses_to(self, user: FakeUser) -> list[Sent]:
        """Everything the bot showed ``user`` personally: DMs and answers to their interactions."""
        mine = {i.id for i in self.server.interactions.values() if i.user_id == user.id}
        dm_channel = self.server.dm_channel_id(user.id)
        return [
            s
            for s in self.server.sent
            if s.kind != "delete" and (s.interaction_id in mine or s.channel_id == dm_channel)
        ]

    def private_to(self, user: FakeUser) -> list[Sent]:
        """Only what nobody else could see: DMs and ephemeral answers."""
        dm_channel = self.server.dm_channel_id(user.id)
        return [s for s in self.responses_to(user) if s.ephemeral or s.channel_id == dm_channel]

    def dms_to(self, user: FakeUser) -> list[StoredMessage]:
        """Current bot messages in the user's DM channel, oldest first."""
        channel_id = self.server.dm_channel_id(user.id)
        return [m for m in self.server.messages_in(channel_id) if m.author_id == self.server.bot_id]

    def message(self, message_id: int) -> StoredMessage:
        """A message's current state (also works for deleted ones)."""
        found = self.server.messages.get(message_id) or self.server.deleted.get(message_id)
        if found is None:
            raise LookupError(f"unknown message {message_id}")
        return found

    def pngs(self, message_id: int) -> list[bytes]:
        """Bytes of every PNG attached to a message, in attachment order."""
        return [
            a.data for a in self.message(message_id).attachments if a.content_type == "image/png"
        ]

    def button_ids(self, message_id: int) -> list[str]:
        """custom_ids of the buttons on a message."""
        return [
            c["custom_id"]
            for c in self.message(message_id).iter_components()
            if c.get("type") == 2 and "custom_id" in c
        ]
