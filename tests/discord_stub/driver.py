"""The humans using Discord, for tests of a real discord.py client in the test's process.

:class:`DiscordDriver` logs a real ``discord.Client`` (or ``commands.Bot``) in against
:class:`~tests.discord_stub.server.FakeDiscord` and connects it to the server's gateway
exactly as ``Client.start`` does, so the client receives every event (READY, GUILD_CREATE,
INTERACTION_CREATE, MESSAGE_CREATE...) over a compressed websocket and command trees,
views, ``DynamicItem`` templates and event listeners run as in production. Every action
waits until the bot has received its events and finished reacting
(:meth:`DiscordDriver.settle`) so tests can then assert on what Discord received.

The few private discord.py attributes the driver reads are touched in
:class:`_ClientInternals` and nowhere else, so an upgrade of discord.py has a single place
to check.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import traceback
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands

from .gateway import TASK_PREFIX, Intent, shard_of
from .server import (
    DM,
    ChannelInfo,
    FakeDiscord,
    InteractionState,
    Sent,
    StoredMessage,
    snowflake_iso,
    user_payload,
)

__all__ = [
    "DEFAULT_APP_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "BotError",
    "CapturedError",
    "DiscordDriver",
    "FakeGuild",
    "FakeUser",
    "InteractionResult",
    "SettleTimeout",
]

JSONDict = dict[str, Any]
TaskPredicate = Callable[[asyncio.Task[Any]], bool]

# What an ordinary member may do in the test guild; drives ``interaction.permissions``.
DEFAULT_MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    add_reactions=True,
    attach_files=True,
    embed_links=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
    connect=True,
    speak=True,
)

# What the bot itself may do: the usual permissions of an invite link for a game bot.
DEFAULT_APP_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    add_reactions=True,
    attach_files=True,
    embed_links=True,
    use_external_emojis=True,
    use_application_commands=True,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
_DISCORD_DIR = os.path.dirname(discord.__file__)
_AIOHTTP_DIR = os.path.dirname(aiohttp.__file__)
_ASYNCIO_DIR = os.path.dirname(asyncio.__file__)


class _SameAsName(enum.Enum):
    """Default marker for ``add_user(global_name=...)``: None is a meaningful value there."""

    TOKEN = enum.auto()


class SettleTimeout(AssertionError):
    """The bot was still busy when the settle deadline passed (likely a hang or a loop)."""


class BotError(AssertionError):
    """The bot logged an error or a task it spawned died with an exception."""


@dataclass
class CapturedError:
    """One error raised inside the bot while the driver was watching."""

    source: str
    message: str
    exception: BaseException | None = None

    def format(self) -> str:
        """Human-readable text with the traceback, for assertion messages."""
        text = f"[{self.source}] {self.message}"
        if self.exception is not None:
            text += "\n" + "".join(traceback.format_exception(self.exception))
        return text


@dataclass
class FakeUser:
    """A human (or other bot) account that can use the bot."""

    id: int
    name: str
    global_name: str | None
    bot: bool = False
    permissions: discord.Permissions = field(default_factory=lambda: DEFAULT_MEMBER_PERMISSIONS)
    locale: str = "en-US"

    @property
    def payload(self) -> JSONDict:
        """The user object Discord sends for this account."""
        return user_payload(self.id, self.name, self.global_name, bot=self.bot)

    @property
    def mention(self) -> str:
        """``<@id>``, as a user would type it."""
        return f"<@{self.id}>"


@dataclass
class FakeGuild:
    """A guild with a single text channel, every added user being a member."""

    id: int
    name: str
    channel_id: int
    owner_id: int
    bot_role_id: int

    @property
    def everyone_role_id(self) -> int:
        """The @everyone role shares the guild's id."""
        return self.id


@dataclass
class _Where:
    guild: FakeGuild | None
    channel_id: int


class InteractionResult:
    """What came of one interaction; a live view over the server's records."""

    def __init__(self, server: FakeDiscord, state: InteractionState, start_seq: int, end_seq: int):
        self._server = server
        self.state = state
        self._start_seq = start_seq
        self._end_seq = end_seq

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} type={self.state.type} "
            f"callback_type={self.callback_type} sent={len(self.sent)}>"
        )

    @property
    def id(self) -> int:
        """Interaction id."""
        return self.state.id

    @property
    def user_id(self) -> int:
        """Who triggered it."""
        return self.state.user_id

    @property
    def channel_id(self) -> int:
        """Where it happened."""
        return self.state.channel_id

    @property
    def callback_type(self) -> int | None:
        """The initial response type (4 message, 5/6 defer, 7 update, 8 choices, 9 modal)."""
        return self.state.callback_type

    @property
    def acknowledged(self) -> bool:
        """False means the user saw "The application did not respond"."""
        return self.state.acknowledged

    @property
    def sent(self) -> list[Sent]:
        """Every record that answered this interaction (response, follow-ups, edits)."""
        return [s for s in self._server.sent if s.interaction_id == self.id]

    @property
    def during(self) -> list[Sent]:
        """Everything the bot sent while this interaction was being handled."""
        return [s for s in self._server.sent if self._start_seq < s.seq <= self._end_seq]

    @property
    def response(self) -> Sent | None:
        """The record of the initial callback, if any."""
        return next((s for s in self.sent if s.callback_type is not None), None)

    @property
    def followups(self) -> list[Sent]:
        """Follow-up messages, in order."""
        return [s for s in self.sent if s.kind == "followup"]

    @property
    def original(self) -> StoredMessage | None:
        """Current state of the ``@original`` message (None for autocomplete/modal/none)."""
        message_id = self.state.original_message_id
        return self._server.messages.get(message_id) if message_id is not None else None

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is visible only to the user."""
        original = self.original
        return original.ephemeral if original is not None else False

    @property
    def content(self) -> str | None:
        """Current text of the original response."""
        original = self.original
        return original.content if original is not None else None

    @property
    def choices(self) -> list[JSONDict] | None:
        """Autocomplete choices the bot answered with."""
        return self.state.choices

    @property
    def modal(self) -> JSONDict | None:
        """The modal the bot opened (``custom_id``, ``title``, ``components``)."""
        return self.state.modal


class _ClientInternals:
    """The only place that touches discord.py private state."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    @property
    def state(self) -> Any:
        """``client._connection``: the ConnectionState owning caches and parsers."""
        return self.client._connection

    def received_seqs(self) -> dict[int, int]:
        """The sequence number of the last gateway event parsed on each of the client's
        connections, by shard id (an unsharded client has one connection, shard 0)."""
        if isinstance(self.client, discord.AutoShardedClient):
            shards = self.client._AutoShardedClient__shards  # type: ignore[attr-defined]
            sockets = {shard_id: shard.ws for shard_id, shard in shards.items()}
        else:
            ws = self.client.ws
            sockets = {getattr(ws, "shard_id", None) or 0: ws} if ws is not None else {}
        return {
            shard_id: int(getattr(ws, "sequence", None) or 0) for shard_id, ws in sockets.items()
        }

    @staticmethod
    def is_shard_reader(task: asyncio.Task[Any]) -> bool:
        """An AutoShardedClient's ``Shard.worker``: it reads one shard's websocket for as
        long as the client runs, as ``Client.connect`` does for an unsharded client."""
        code = getattr(task.get_coro(), "cr_code", None)
        return (
            code is not None
            and code.co_qualname == "Shard.worker"
            and code.co_filename == os.path.join(_DISCORD_DIR, "shard.py")
        )

    def command_tree(self) -> app_commands.CommandTree[Any] | None:
        """The tree attached to this client (works for Client + CommandTree and Bot)."""
        tree: app_commands.CommandTree[Any] | None = self.state._command_tree
        return tree

    def swap_guild_ready_timeout(self, value: float) -> float:
        """READY waits this long for trailing GUILD_CREATEs (default 2 s, too slow here)."""
        old = float(self.state.guild_ready_timeout)
        self.state.guild_ready_timeout = value
        return old


class _TaskInspector:
    """Decides which tasks :meth:`DiscordDriver.settle` must wait for.

    A task counts as *parked* (not waited for) when only time or a user could wake it:
    a timer due beyond ``horizon`` seconds (view timeouts, ``wait_for(timeout=60)``, task
    loops), or a wait on an asyncio Event/Queue/Lock, ``Client.wait_for`` or
    ``View.wait``. Tasks inside an HTTP request are always busy, even while sleeping for
    a rate limit or a 5xx retry. Relies on ``Task._fut_waiter`` and ``loop._scheduled``.
    """

    _USER_WAITS = (
        (os.path.join(_DISCORD_DIR, "client.py"), "wait_for"),
        (os.path.join(_DISCORD_DIR, "ui", "view.py"), "wait"),
        (os.path.join(_DISCORD_DIR, "ui", "modal.py"), "wait"),
    )
    _IO_FILES = (
        os.path.join(_DISCORD_DIR, "http.py"),
        os.path.join(_DISCORD_DIR, "webhook", "async_.py"),
    )
    _SYNC_FILES = (os.path.join(_ASYNCIO_DIR, "locks.py"), os.path.join(_ASYNCIO_DIR, "queues.py"))

    def __init__(self, loop: asyncio.AbstractEventLoop, horizon: float) -> None:
        self.loop = loop
        self.horizon = horizon

    def timers(self) -> dict[int, float]:
        """Map id(future or task) to the time a scheduled callback will wake it."""
        found: dict[int, float] = {}
        for handle in getattr(self.loop, "_scheduled", []):
            if handle.cancelled():
                continue
            targets: list[Any] = list(getattr(handle, "_args", None) or ())
            owner = getattr(getattr(handle, "_callback", None), "__self__", None)
            if owner is not None:
                targets.append(owner)
                targets.append(getattr(owner, "_task", None))
            for target in targets:
                if isinstance(target, asyncio.Future):
                    found[id(target)] = min(found.get(id(target), handle.when()), handle.when())
        return found

    @staticmethod
    def chain(task: asyncio.Task[Any]) -> list[CodeType]:
        """Code objects of the coroutine stack, outermost first."""
        codes: list[CodeType] = []
        coro: Any = task.get_coro()
        while coro is not None and len(codes) < 100:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
            if frame is None:
                break
            codes.append(frame.f_code)
            coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        return codes

    def is_infrastructure(self, task: asyncio.Task[Any]) -> bool:
        """aiohttp's own tasks and the fake server's (connection handlers, gateway writers)."""
        if task.get_name().startswith(TASK_PREFIX):
            return True
        codes = self.chain(task)
        return bool(codes) and codes[0].co_filename.startswith(_AIOHTTP_DIR)

    def in_io(self, codes: list[CodeType]) -> bool:
        """Inside discord.py's HTTP layer or aiohttp's client."""
        return any(
            c.co_filename in self._IO_FILES or c.co_filename.startswith(_AIOHTTP_DIR) for c in codes
        )

    def is_parked(self, task: asyncio.Task[Any], timers: dict[int, float], depth: int = 0) -> bool:
        """True if ``task`` can only be woken by time passing or by a user acting."""
        codes = self.chain(task)
        if self.in_io(codes):
            return False
        waiter = getattr(task, "_fut_waiter", None)
        if waiter is None or waiter.done():
            return False
        when = timers.get(id(waiter), timers.get(id(task)))
        if when is not None:
            return when - self.loop.time() > self.horizon
        if isinstance(waiter, asyncio.Task):
            return depth < 8 and self.is_parked(waiter, timers, depth + 1)
        children = getattr(waiter, "_children", None)
        if children:
            return all(
                c.done() or (isinstance(c, asyncio.Task) and self.is_parked(c, timers, depth + 1))
                for c in children
            )
        if codes and codes[-1].co_filename in self._SYNC_FILES:
            return True
        return any((c.co_filename, c.co_name) in self._USER_WAITS for c in codes)

    @classmethod
    def describe(cls, task: asyncio.Task[Any]) -> str:
        """Task name and coroutine stack, for settle-timeout messages."""
        stack = " -> ".join(c.co_qualname for c in cls.chain(task))
        return f"{task.get_name()}: {stack} (waiting on {getattr(task, '_fut_waiter', None)!r})"


class _ErrorLogCapture(logging.Handler):
    """Collects ERROR log records, which is how discord.py reports exceptions in handlers."""

    def __init__(self, sink: Callable[[CapturedError], None]) -> None:
        super().__init__(level=logging.ERROR)
        self._sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        exception = record.exc_info[1] if record.exc_info else None
        self._sink(CapturedError(record.name, record.getMessage(), exception))


class DiscordDriver:
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
        self._internals = _ClientInternals(client)
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
        self._log_capture = _ErrorLogCapture(self.errors.append)
        self._saved_exception_handler: Any = None
        self._inspector: _TaskInspector | None = None

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
        self._inspector = _TaskInspector(loop, self.background_horizon)
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

    # ------------------------------------------------------------------ world setup

    @property
    def intents(self) -> discord.Intents:
        """The client's intents; they decide which events Discord would deliver."""
        return self.client.intents

    @property
    def guild(self) -> FakeGuild:
        """The first guild (most tests need exactly one)."""
        if not self.guilds:
            raise LookupError("no guild: call driver.add_guild() first")
        return self.guilds[0]

    @property
    def guild_id(self) -> int:
        """Id of the first guild."""
        return self.guild.id

    @property
    def channel_id(self) -> int:
        """Id of the first guild's text channel."""
        return self.guild.channel_id

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        channel_name: str = "general",
        owner: FakeUser | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild with one text channel; all users (and the bot) are members.

        ``shard`` (``(shard_id, shard_count)``) picks an id that Discord routes to that
        shard. After READY this sends GUILD_CREATE (``on_guild_join``); the handlers run
        during the next action or :meth:`settle`.
        """
        server = self.server
        guild_id = server.next_id()
        if shard is not None:
            while shard_of(guild_id, shard[1]) != shard[0]:
                guild_id = server.next_id()
        owner_id = owner.id if owner else int(server.owner_user["id"])
        server.add_guild(guild_id, name, owner_id)
        channel = server.add_text_channel(guild_id, channel_name)
        guild = FakeGuild(guild_id, name, channel.id, owner_id, bot_role_id=server.next_id())
        server.add_member(guild_id, server.bot_id, roles=[guild.bot_role_id])
        for user in self.users.values():
            server.add_member(guild_id, user.id)
        self.guilds.append(guild)
        if self._connected:
            self.feed("GUILD_CREATE", self._guild_create_payload(guild, available=False))
        return guild

    def add_user(
        self,
        name: str,
        *,
        bot: bool = False,
        dms_open: bool = True,
        global_name: str | _SameAsName | None = _SameAsName.TOKEN,
        permissions: discord.Permissions | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        """Create an account; names are not validated so hostile strings can be tested.

        ``global_name`` (the display name) defaults to ``name``. The user joins every guild;
        with the members intent the bot is told via GUILD_MEMBER_ADD, as Discord would.
        """
        server = self.server
        user = FakeUser(
            id=server.next_id(),
            name=name,
            global_name=name if isinstance(global_name, _SameAsName) else global_name,
            bot=bot,
            permissions=permissions or DEFAULT_MEMBER_PERMISSIONS,
            locale=locale,
        )
        self.users[user.id] = user
        server.add_user(user.payload)
        if not dms_open:
            server.close_dms(user.id)
        for guild in self.guilds:
            server.add_member(guild.id, user.id)
            if self._connected and self.intents.members:
                payload = server.member_payload(guild.id, user.id)
                payload["guild_id"] = str(guild.id)
                self.feed("GUILD_MEMBER_ADD", payload)
        return user

    def bot_account(self) -> FakeUser:
        """The bot's own account, as players find it in the user picker (to play against it)."""
        server = self.server
        account = self.users.get(server.bot_id)
        if account is None:
            name = str(server.bot_user["username"])
            account = FakeUser(id=server.bot_id, name=name, global_name=None, bot=True)
            self.users[account.id] = account
        return account

    def set_nickname(
        self, user: FakeUser, nick: str | None, guild: FakeGuild | None = None
    ) -> None:
        """Give ``user`` a server nickname (``None`` clears it), as a member would set it.

        Discord sends the nickname in every member object of that server: an interaction's
        ``member``, a user option's resolved member. The change event needs the members
        intent, so a bot without it hears of the nickname only through those.
        """
        where = guild or self.guild
        self.server.guild_members[where.id][user.id]["nick"] = nick
        if self._connected and self.intents.members:
            payload = self.server.member_payload(where.id, user.id)
            payload["guild_id"] = str(where.id)
            self.feed("GUILD_MEMBER_UPDATE", payload)

    def close_dms(self, user: FakeUser) -> None:
        """From now on DMs to this user fail with 403 / 50007."""
        self.server.close_dms(user.id)

    def open_dms(self, user: FakeUser) -> None:
        """Allow DMs to this user again."""
        self.server.open_dms(user.id)

    def dm_channel_id(self, user: FakeUser) -> int:
        """The DM channel between the bot and ``user``."""
        return self.server.dm_channel_id(user.id)

    def _guild_payload(self, guild_id: int, intents: int) -> JSONDict:
        """GUILD_CREATE of a guild that was there at READY, for the gateway."""
        guild = self._guild_by_id(guild_id)
        return self._guild_create_payload(
            guild, available=True, members=bool(intents & Intent.GUILD_MEMBERS)
        )

    def _guild_create_payload(
        self, guild: FakeGuild, *, available: bool, members: bool | None = None
    ) -> JSONDict:
        server = self.server
        member_ids = list(server.guild_members[guild.id])
        # Without the members intent Discord only sends the bot's own member.
        with_members = self.intents.members if members is None else members
        listed = member_ids if with_members else [server.bot_id]
        channels = [
            c.payload(server.users) for c in server.channels.values() if c.guild_id == guild.id
        ]
        for channel in channels:
            channel.pop("guild_id", None)
        payload: JSONDict = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": str(guild.channel_id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "roles": [
                self._role_payload(guild.id, "@everyone", DEFAULT_MEMBER_PERMISSIONS, 0),
                {
                    **self._role_payload(
                        guild.bot_role_id, str(server.bot_user["username"]), self.app_permissions, 1
                    ),
                    "managed": True,
                    "tags": {"bot_id": str(server.bot_id)},
                },
            ],
            "emojis": [],
            "stickers": [],
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": snowflake_iso(guild.id),
            "large": False,
            "lazy": True,
            "member_count": len(member_ids),
            "channels": channels,
            "threads": [],
            "members": [server.member_payload(guild.id, uid) for uid in listed],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "incidents_data": None,
        }
        if available:
            payload["unavailable"] = False
        return payload

    @staticmethod
    def _role_payload(
        role_id: int, name: str, permissions: discord.Permissions, position: int
    ) -> JSONDict:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(permissions.value),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    # ------------------------------------------------------------------ gateway feed

    def feed(self, event: str, payload: JSONDict) -> None:
        """Send one gateway DISPATCH event to the bot over its websocket."""
        self.gateway.dispatch(event, payload)

    # ------------------------------------------------------------------ users acting

    async def dm(self, user: FakeUser, text: str) -> StoredMessage:
        """``user`` sends ``text`` to the bot in their DM channel."""
        await self.settle()
        channel_id = self.server.dm_channel_id(user.id)
        message = self.server.store_user_message(channel_id, user.id, text)
        self.gateway.dispatch_message("MESSAGE_CREATE", message)
        await self.settle()
        return message

    async def say(
        self, user: FakeUser, text: str, *, channel_id: int | None = None
    ) -> StoredMessage:
        """``user`` posts ``text`` in a guild channel (first guild's channel by default).

        Without the message content intent the bot receives an empty ``content`` unless it
        is mentioned, exactly as on Discord.
        """
        await self.settle()
        target = channel_id or self.channel_id
        channel = self.server.channels[target]
        if channel.guild_id is None or user.id not in self.server.guild_members[channel.guild_id]:
            raise PermissionError(f"{user.name!r} cannot post in channel {target}")
        message = self.server.store_user_message(target, user.id, text)
        self.gateway.dispatch_message("MESSAGE_CREATE", message)
        await self.settle()
        return message

    async def slash(
        self,
        user: FakeUser,
        name: str,
        *,
        guild: bool | FakeGuild | int = True,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """``user`` runs ``/name`` with the given options (by Python or display name).

        Values: USER options take a :class:`FakeUser` (or id), ATTACHMENT options a
        ``(filename, bytes)`` pair, choice options the value, an ``app_commands.Choice`` or
        an Enum member. Raises like the Discord client would refuse: unknown command or
        option, missing required option, value outside choices/range, command not
        available in DMs or to this member. Pass ``options=`` for option names that clash
        with this method's keywords.
        """
        values = {**(options or {}), **kwargs}
        where = self._where(user, guild, channel_id)
        command, command_guild_id = self._find_command(name, where, user)
        data = self._command_data(command, command_guild_id, where, values, focused=None)
        return await self._interact(2, user, where, data, command_name=command.name)

    async def autocomplete_result(
        self,
        user: FakeUser,
        name: str,
        focused: str,
        *,
        guild: bool | FakeGuild | int = True,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """Like :meth:`autocomplete` but returns the whole :class:`InteractionResult`."""
        values = {**(options or {}), **kwargs}
        where = self._where(user, guild, channel_id)
        command, command_guild_id = self._find_command(name, where, user)
        data = self._command_data(command, command_guild_id, where, values, focused=focused)
        return await self._interact(4, user, where, data, command_name=command.name)

    async def autocomplete(
        self,
        user: FakeUser,
        name: str,
        focused: str,
        *,
        guild: bool | FakeGuild | int = True,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[JSONDict]:
        """``user`` is typing option ``focused`` of ``/name``; returns the bot's choices.

        The focused option's value is what the user typed so far (``""`` if not given).
        """
        result = await self.autocomplete_result(
            user, name, focused, guild=guild, channel_id=channel_id, options=options, **kwargs
        )
        if result.choices is None:
            raise AssertionError(f"the bot did not answer autocomplete for /{name} {focused}")
        return result.choices

    async def click(
        self,
        user: FakeUser,
        message_id: int,
        custom_id: str,
        *,
        values: Iterable[str] | None = None,
    ) -> InteractionResult:
        """``user`` clicks a button (or picks ``values`` in a string select) on a message.

        Refuses what the Discord client would not allow: a component that is not on the
        message, a disabled one, or a message the user cannot see.
        """
        message = self.server.messages.get(message_id)
        if message is None:
            raise LookupError(f"message {message_id} does not exist (deleted?)")
        channel = self.server.channels[message.channel_id]
        self._check_can_see(user, message, channel)
        component = next(
            (c for c in message.iter_components() if c.get("custom_id") == custom_id), None
        )
        if component is None:
            raise LookupError(
                f"no component {custom_id!r} on message {message_id}; has {message.custom_ids}"
            )
        if component.get("disabled"):
            raise PermissionError(f"component {custom_id!r} is disabled")
        data: JSONDict = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 3:
            picked = list(values or [])
            allowed = {o["value"] for o in component.get("options", [])}
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not set(picked) <= allowed or not low <= len(picked) <= high:
                raise ValueError(f"invalid selection {picked} for {custom_id!r}")
            data["values"] = picked
        elif values is not None:
            raise ValueError("values only apply to string selects")
        elif component["type"] != 2:
            raise NotImplementedError(f"component type {component['type']} is not supported")
        guild = self._guild_by_id(channel.guild_id) if channel.guild_id is not None else None
        where = _Where(guild, channel.id)
        return await self._interact(3, user, where, data, message=message)

    async def submit_modal(
        self, user: FakeUser, opened: InteractionResult, values: Mapping[str, Any]
    ) -> InteractionResult:
        """``user`` fills in and submits the modal the bot opened in ``opened``.

        ``values`` maps text input custom_ids to strings (selects: lists of strings).
        """
        modal = opened.modal
        if modal is None:
            raise LookupError("that interaction did not open a modal")
        unused = set(values)
        components: list[JSONDict] = []
        for component in modal["components"]:
            if component["type"] == 1:
                inner = [
                    self._modal_value(c, values, unused) for c in component.get("components", [])
                ]
                components.append({"type": 1, "id": component.get("id"), "components": inner})
            elif component["type"] == 18:
                inner_value = self._modal_value(component["component"], values, unused)
                components.append({"type": 18, "id": component.get("id"), "component": inner_value})
        if unused:
            raise TypeError(f"modal has no inputs {sorted(unused)}")
        state = opened.state
        channel = self.server.channels[state.channel_id]
        guild = self._guild_by_id(channel.guild_id) if channel.guild_id is not None else None
        message = self.server.messages.get(state.message_id) if state.message_id else None
        data = {"custom_id": modal["custom_id"], "components": components}
        return await self._interact(5, user, _Where(guild, channel.id), data, message=message)

    @staticmethod
    def _modal_value(component: JSONDict, values: Mapping[str, Any], unused: set[str]) -> JSONDict:
        custom_id = component.get("custom_id")
        entry: JSONDict = {
            "type": component["type"],
            "id": component.get("id"),
            "custom_id": custom_id,
        }
        value = values.get(custom_id or "")
        unused.discard(custom_id or "")
        if component["type"] == 4:
            text = "" if value is None else str(value)
            if component.get("required", True) and not text:
                raise ValueError(f"text input {custom_id!r} is required")
            low, high = component.get("min_length") or 0, component.get("max_length") or 4000
            if text and not low <= len(text) <= high:
                raise ValueError(f"text input {custom_id!r} must be {low}..{high} characters")
            entry["value"] = text
        elif isinstance(value, bool):
            entry["value"] = value
        else:
            entry["values"] = [str(v) for v in value or []]
        return entry

    # ------------------------------------------------------------------ interaction building

    def _guild_by_id(self, guild_id: int) -> FakeGuild:
        for guild in self.guilds:
            if guild.id == guild_id:
                return guild
        raise LookupError(f"unknown guild {guild_id}")

    def _where(
        self, user: FakeUser, guild: bool | FakeGuild | int | None, channel_id: int | None
    ) -> _Where:
        if guild is False or guild is None:
            dm_id = self.server.dm_channel_id(user.id)
            if channel_id not in (None, dm_id):
                raise ValueError("a DM interaction happens in the user's DM channel")
            return _Where(None, dm_id)
        if guild is True:
            fake_guild = self.guild
        elif isinstance(guild, FakeGuild):
            fake_guild = guild
        else:
            fake_guild = self._guild_by_id(int(guild))
        target = channel_id or fake_guild.channel_id
        if self.server.channels[target].guild_id != fake_guild.id:
            raise ValueError(f"channel {target} is not in guild {fake_guild.id}")
        if user.id not in self.server.guild_members[fake_guild.id]:
            raise PermissionError(f"{user.name!r} is not a member of {fake_guild.name!r}")
        return _Where(fake_guild, target)

    def _check_can_see(self, user: FakeUser, message: StoredMessage, channel: ChannelInfo) -> None:
        if message.ephemeral and message.visible_to != user.id:
            raise PermissionError("that ephemeral message is only visible to another user")
        if channel.type == DM and channel.recipient_id != user.id:
            raise PermissionError("that message is in someone else's DMs")
        if (
            channel.guild_id is not None
            and user.id not in self.server.guild_members[channel.guild_id]
        ):
            raise PermissionError(f"{user.name!r} is not in that guild")

    def _find_command(
        self, name: str, where: _Where, user: FakeUser
    ) -> tuple[app_commands.Command[Any, ..., Any], int | None]:
        tree = self._internals.command_tree()
        if tree is None:
            raise LookupError("the client has no app_commands.CommandTree")
        command: Any = None
        command_guild_id: int | None = None
        if where.guild is not None:
            command = tree.get_command(name, guild=discord.Object(where.guild.id))
            if command is not None:
                command_guild_id = where.guild.id
        if command is None:
            command = tree.get_command(name)
        if not isinstance(command, app_commands.Command):
            raise LookupError(f"no slash command /{name} in the tree (groups are not supported)")
        if self.require_synced_commands:
            synced = {c["name"] for c in self.server.commands.get(command_guild_id, [])}
            if name not in synced:
                raise LookupError(f"/{name} was never synced, so Discord would not offer it")
        contexts = command.allowed_contexts
        if where.guild is None:
            if command.guild_only or (contexts is not None and not contexts.dm_channel):
                raise PermissionError(f"Discord does not offer /{name} in DMs")
        else:
            if contexts is not None and not contexts.guild:
                raise PermissionError(f"Discord does not offer /{name} in guilds")
            needed = command.default_permissions
            if (
                needed is not None
                and user.id != where.guild.owner_id
                and not user.permissions.administrator
                and not needed.is_subset(user.permissions)
            ):
                raise PermissionError(f"{user.name!r} lacks {needed!r} needed to see /{name}")
        return command, command_guild_id

    def _command_data(
        self,
        command: app_commands.Command[Any, ..., Any],
        command_guild_id: int | None,
        where: _Where,
        values: Mapping[str, Any],
        *,
        focused: str | None,
    ) -> JSONDict:
        params = {p.name: p for p in command.parameters}
        params.update({p.display_name: p for p in command.parameters})
        options: list[JSONDict] = []
        resolved: JSONDict = {}
        given: set[str] = set()
        focus_param = None
        if focused is not None:
            focus_param = params.get(focused)
            if focus_param is None:
                raise TypeError(f"/{command.name} has no option {focused!r}")
            if not focus_param.autocomplete:
                raise ValueError(f"option {focused!r} of /{command.name} has no autocomplete")
        for key, value in values.items():
            param = params.get(key)
            if param is None:
                names = sorted(p.display_name for p in command.parameters)
                raise TypeError(f"/{command.name} has no option {key!r}; options are {names}")
            if param is focus_param:
                continue
            option: JSONDict = {"name": param.display_name, "type": param.type.value}
            option["value"] = self._option_value(param, value, where, resolved)
            options.append(option)
            given.add(param.name)
        if focus_param is not None:
            typed = values.get(focus_param.name, values.get(focus_param.display_name, ""))
            options.append(
                {
                    "name": focus_param.display_name,
                    "type": focus_param.type.value,
                    "value": "" if typed is None else str(typed),
                    "focused": True,
                }
            )
        else:
            missing = [
                p.display_name for p in command.parameters if p.required and p.name not in given
            ]
            if missing:
                raise ValueError(f"/{command.name} requires {missing}")
        data: JSONDict = {
            "id": str(self.server.command_id(command.name, command_guild_id)),
            "name": command.name,
            "type": 1,
        }
        if command_guild_id is not None:
            data["guild_id"] = str(command_guild_id)
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(
        self, param: app_commands.Parameter, value: Any, where: _Where, resolved: JSONDict
    ) -> Any:
        kind = param.type
        option_type = discord.AppCommandOptionType
        if isinstance(value, app_commands.Choice):
            value = value.value
        elif isinstance(value, enum.Enum):
            match = next((c for c in param.choices if c.name == value.name), None)
            value = match.value if match is not None else value.value
        if kind in (option_type.user, option_type.mentionable):
            user = value if isinstance(value, FakeUser) else self.users.get(int(value))
            if user is None:
                raise LookupError(f"unknown user {value!r} for option {param.display_name!r}")
            resolved.setdefault("users", {})[str(user.id)] = user.payload
            if where.guild is not None and user.id in self.server.guild_members[where.guild.id]:
                member = self.server.member_payload(where.guild.id, user.id, with_user=False)
                member["permissions"] = str(self._member_permissions(user, where).value)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if kind is option_type.channel:
            channel = self.server.channels[int(value)]
            data = channel.payload(self.server.users)
            data["permissions"] = str(self.app_permissions.value)
            data.setdefault("name", "")
            resolved.setdefault("channels", {})[str(channel.id)] = data
            return str(channel.id)
        if kind is option_type.attachment:
            filename, content = value
            attachment = self.server.add_attachment(filename, content)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload(
                self.server.url, where.channel_id
            )
            return str(attachment.id)
        if kind is option_type.role:
            raise NotImplementedError("ROLE options are not supported by the fake guild")
        if kind is option_type.string:
            value = str(value)
            low, high = param.min_value, param.max_value
            if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                raise ValueError(f"{param.display_name!r} must be {low}..{high} characters")
        elif kind is option_type.integer:
            if isinstance(value, bool) or int(value) != value:
                raise ValueError(f"{param.display_name!r} needs an integer, got {value!r}")
            value = int(value)
        elif kind is option_type.number:
            value = float(value)
        elif kind is option_type.boolean and not isinstance(value, bool):
            raise ValueError(f"{param.display_name!r} needs a bool, got {value!r}")
        if kind in (option_type.integer, option_type.number):
            low, high = param.min_value, param.max_value
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"{param.display_name!r} must be within {low}..{high}")
        if param.choices and value not in [c.value for c in param.choices]:
            raise ValueError(f"{value!r} is not a choice of {param.display_name!r}")
        return value

    def _member_permissions(self, user: FakeUser, where: _Where) -> discord.Permissions:
        if where.guild is not None and user.id == where.guild.owner_id:
            return discord.Permissions.all()
        return user.permissions

    async def _interact(
        self,
        type: int,
        user: FakeUser,
        where: _Where,
        data: JSONDict,
        *,
        command_name: str | None = None,
        message: StoredMessage | None = None,
    ) -> InteractionResult:
        await self.settle()
        server = self.server
        state = server.new_interaction(
            type=type,
            channel_id=where.channel_id,
            guild_id=where.guild.id if where.guild else None,
            user_id=user.id,
            command_name=command_name,
            message_id=message.id if message else None,
        )
        channel = server.channels[where.channel_id]
        payload: JSONDict = {
            "id": str(state.id),
            "application_id": str(server.application_id),
            "type": type,
            "token": state.token,
            "version": 1,
            "locale": user.locale,
            "app_permissions": str(self.app_permissions.value),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(server.users),
        }
        if where.guild is not None:
            member = server.member_payload(where.guild.id, user.id)
            member["permissions"] = str(self._member_permissions(user, where).value)
            payload.update(
                guild_id=str(where.guild.id),
                guild={"id": str(where.guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member,
                context=0,
                authorizing_integration_owners={"0": str(where.guild.id)},
            )
        else:
            payload.update(user=user.payload, context=1, authorizing_integration_owners={"0": "0"})
        if message is not None:
            payload["message"] = message.payload(server.url)
        start = server.last_seq
        self.feed("INTERACTION_CREATE", payload)
        await self.settle()
        return InteractionResult(server, state, start, server.last_seq)

    # ------------------------------------------------------------------ settling

    def ignore_tasks(self, which: TaskPredicate | asyncio.Task[Any] | str) -> None:
        """Tell :meth:`settle` not to wait for some long-lived task(s) of the bot.

        ``which`` is a task, a predicate, or a substring of the task's name or of its
        coroutine stack (as shown in :class:`SettleTimeout` messages).
        """
        if isinstance(which, asyncio.Task):
            task = which
            self._ignore.append(lambda t: t is task)
        elif isinstance(which, str):
            text = which
            self._ignore.append(lambda t: text in self.describe_task(t))
        else:
            self._ignore.append(which)

    def describe_task(self, task: asyncio.Task[Any]) -> str:
        """Name and coroutine stack of a task, as used by settle diagnostics."""
        return _TaskInspector.describe(task)

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot finished everything it started, then surface its errors.

        Busy means any task (other than the caller, tasks that predate the driver, the fake
        server's own, and ignored ones) that is not parked; see :class:`_TaskInspector`.
        Raises :class:`SettleTimeout` after ``timeout`` (default ``settle_timeout``), and
        :class:`BotError` if the bot logged errors and ``raise_bot_errors`` is set.
        """
        loop = asyncio.get_running_loop()
        inspector = self._inspector
        if inspector is None:
            raise RuntimeError("driver is not open")
        me = asyncio.current_task()
        limit = self.settle_timeout if timeout is None else timeout
        deadline = loop.time() + limit
        quiet_rounds = 0
        while quiet_rounds < 2:
            for _ in range(5):
                await asyncio.sleep(0)
            timers = inspector.timers()
            behind = self._connected and self._behind()
            busy = [
                t
                for t in asyncio.all_tasks(loop)
                if t is not me
                and not t.done()
                and t not in self._baseline
                and not inspector.is_infrastructure(t)
                and not any(p(t) for p in self._ignore)
                and not inspector.is_parked(t, timers)
            ]
            self._watched.update(busy)
            self._harvest()
            if not busy and not behind:
                quiet_rounds += 1
                continue
            quiet_rounds = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                details = "\n  ".join(inspector.describe(t) for t in busy)
                if behind:
                    details += "\n  (the client has not received every gateway event yet)"
                raise SettleTimeout(
                    f"bot still busy after {limit}s:\n  {details}\n"
                    "(a hang, an endless loop, or a long-lived task to pass to ignore_tasks())"
                )
            if busy:
                await asyncio.wait(
                    busy, timeout=min(remaining, 0.1), return_when=asyncio.FIRST_COMPLETED
                )
            else:
                await asyncio.sleep(0.001)
        self._harvest()
        self._raise_pending_errors()

    def _behind(self) -> bool:
        """Whether some connection of the client has not yet parsed every event its shard
        was sent (each shard's connection numbers its events on its own)."""
        received = self._internals.received_seqs()
        return any(received.get(shard, 0) < seq for shard, seq in self.gateway.shard_seqs().items())

    def _harvest(self) -> None:
        for task in [t for t in self._watched if t.done()]:
            self._watched.discard(task)
            if task.cancelled():
                continue
            error = task.exception()
            if error is not None:
                self.errors.append(CapturedError(f"task {task.get_name()}", repr(error), error))

    def _on_loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.errors.append(
            CapturedError("event loop", str(context.get("message")), context.get("exception"))
        )

    def _raise_pending_errors(self) -> None:
        server_errors = self.server.internal_errors[self._server_errors_reported :]
        if server_errors:
            self._server_errors_reported = len(self.server.internal_errors)
            raise AssertionError("fake Discord failed internally:\n" + "\n".join(server_errors))
        new = self.errors[self._reported :]
        if new and self.raise_bot_errors:
            self._reported = len(self.errors)
            raise BotError("the bot raised:\n" + "\n".join(e.format() for e in new))

    def take_errors(self) -> list[CapturedError]:
        """Return and forget captured errors (for tests that provoke errors on purpose)."""
        taken = list(self.errors)
        self.errors.clear()
        self._reported = 0
        return taken

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
