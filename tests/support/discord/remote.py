"""Discord and its users for a bot that runs in another process, as ``python -m bot`` runs it.

:class:`RemoteDriver` is the :class:`~tests.support.discord.driver.DiscordDriver` without a
client in the test's process: the bot connects on its own to the loopback server's REST API
and gateway, slash commands are built from what the bot synced (as Discord's client builds
them), and "settled" means Discord has heard nothing from the bot for a short quiet spell
during which the bot process was seen asleep, not computing or waiting for a core.
:class:`BotProcess` starts, kills and restarts the bot process itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import discord

from .accounts import FakeUser, Where
from .driver import DiscordDriver
from .results import InteractionResult
from .server import FakeDiscord
from .settling import SettleTimeout

__all__ = ["BotProcess", "RemoteDriver", "StopTimeout"]

JSONDict = dict[str, Any]
REPOSITORY = Path(__file__).resolve().parents[3]

PR_SET_PDEATHSIG = 1
STOP_PATIENCE = 15.0
"""Seconds a stopping bot may take before it is killed and the stop reported as a hang;
it needs well under 2 s, so only a hang (or a machine frozen for seconds) comes near."""

# Application command option types.
STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6


class RemoteDriver(DiscordDriver):
    """Users acting on a bot in another process; only Discord's side lives in the test."""

    def __init__(
        self,
        intents: discord.Intents,
        *,
        server: FakeDiscord | None = None,
        token: str = "e2e-token",
        quiet: float = 0.25,
        settle_timeout: float = 20.0,
    ) -> None:
        super().__init__(
            None,  # type: ignore[arg-type]  # the client runs in the bot process
            server=server,
            token=token,
            settle_timeout=settle_timeout,
        )
        self._intents = intents
        self.quiet = quiet
        """Seconds without any request from the bot, and with its process asleep, after
        which it counts as idle."""
        self.bot_pid: int | None = None
        """The bot process while it runs (set by :class:`BotProcess`), watched by settle."""

    @property
    def intents(self) -> discord.Intents:
        return self._intents

    async def open(self) -> None:
        """Start the loopback server; the bot process connects to it by itself."""
        if self._opened:
            raise RuntimeError("driver already opened")
        self._opened = True
        if not self.server.running:
            await self.server.start()
        self.gateway.token = self.token
        self.gateway.guild_payload = self._guild_payload
        self._connected = True

    async def close(self, *, check: bool = True) -> None:
        if self._closed:
            return
        self._closed = True
        await self.server.stop()

    async def settle(self, timeout: float | None = None) -> None:
        """Until the bot is connected (with several processes, one per shard: every shard
        that identified) and has sent nothing for :attr:`quiet` seconds.

        The bot answers every DM and every interaction, so after a user acted it must also
        have made a request since; a bot slow to start on a busy machine is not idle. A bot
        waiting out a 429 sends nothing either, so that wait counts as busy. Silence alone
        is not idleness: on a loaded machine the bot may spend longer than the quiet spell
        rendering a board or waiting for a core between two requests, so every look that
        finds one of its threads running or runnable starts the quiet spell again.
        """
        limit = self.settle_timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        busy_at = 0.0
        while True:
            if _running(self.bot_pid):
                busy_at = time.monotonic()
            now = time.monotonic()
            last = max(
                self.server.last_request_at,
                self.gateway.last_dispatch_at,
                self.server.retry_due_at,
                busy_at,
            )
            answered = self.server.last_request_at >= self.gateway.last_prompt_at
            if self.gateway.connected and answered and now - last >= self.quiet:
                break
            if now > deadline:
                raise SettleTimeout(f"the bot was still busy or away after {limit}s")
            await asyncio.sleep(0.02)
        self._raise_pending_errors()

    async def autocomplete_result(self, *args: Any, **kwargs: Any) -> InteractionResult:
        raise NotImplementedError("autocomplete needs the bot's command tree in this process")

    async def slash(
        self,
        user: FakeUser,
        name: str,
        *,
        guild: bool | Any = True,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """``user`` runs ``/name``, built from the command as the bot synced it."""
        where = self._where(user, guild, channel_id)
        guild_id = where.guild.id if where.guild else None
        synced = self.server.commands.get(guild_id, []) + self.server.commands.get(None, [])
        command = next((c for c in synced if c["name"] == name), None)
        if command is None:
            raise LookupError(f"the bot never synced /{name}")
        values = {**(options or {}), **kwargs}
        data: JSONDict = {"id": command["id"], "name": name, "type": 1}
        if guild_id is not None and command.get("guild_id"):
            data["guild_id"] = str(guild_id)
        given, resolved = self._options(command, values, where)
        if given:
            data["options"] = given
        if resolved:
            data["resolved"] = resolved
        return await self._interact(2, user, where, data, command_name=name)

    def _options(
        self, command: JSONDict, values: Mapping[str, Any], where: Where
    ) -> tuple[list[JSONDict], JSONDict]:
        declared = {o["name"]: o for o in command.get("options", [])}
        unknown = set(values) - set(declared)
        if unknown:
            raise TypeError(f"/{command['name']} has no options {sorted(unknown)}")
        missing = [n for n, o in declared.items() if o.get("required") and n not in values]
        if missing:
            raise ValueError(f"/{command['name']} requires {missing}")
        given: list[JSONDict] = []
        resolved: JSONDict = {}
        for name, value in values.items():
            kind = declared[name]["type"]
            if kind == USER:
                user = value if isinstance(value, FakeUser) else self.users[int(value)]
                resolved.setdefault("users", {})[str(user.id)] = user.payload
                if where.guild is not None:
                    member = self.server.member_payload(where.guild.id, user.id, with_user=False)
                    member["permissions"] = str(user.permissions.value)
                    resolved.setdefault("members", {})[str(user.id)] = member
                value = str(user.id)
            elif kind == INTEGER:
                value = int(value)
            elif kind == STRING:
                value = str(value)
            given.append({"name": name, "type": kind, "value": value})
        return given, resolved


class StopTimeout(AssertionError):
    """The bot did not exit by itself after it was told to stop."""


def _running(pid: int | None) -> bool:
    """Whether a thread of process ``pid`` is running, waiting for a core or for the disk.

    Linux shows each thread's state in ``/proc``; elsewhere (or once the process is gone)
    nothing is known and the quiet spell alone decides.
    """
    if pid is None:
        return False
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/stat", encoding="ascii") as stat:
                fields = stat.read()
        except OSError:
            continue  # the thread ended meanwhile
        state = fields.rpartition(")")[2].split()[0]  # the name in brackets may hold spaces
        if state in ("R", "D"):
            return True
    return False


def _die_with_parent() -> None:
    """On Linux, the bot is killed when the test process dies, so no run leaves one behind.

    Without this a bot whose test runner was killed would retry its gateway forever.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class BotProcess:
    """``python -m bot`` in a subprocess, configured only through its environment."""

    def __init__(
        self,
        driver: RemoteDriver,
        database: Path,
        *,
        arguments: tuple[str, ...] = ("--sync-global",),
        **settings: str,
    ) -> None:
        self.driver = driver
        self.arguments = arguments
        """Command-line arguments; by default the commands are published everywhere, so
        they also work in DMs."""
        self.database = database
        self.settings = settings
        self.lines: list[str] = []
        """Everything the bot process wrote (its log), over every start."""
        self.worker = "--worker" in arguments
        """A worker process: no gateway connection; ready once it says it started."""
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def shards(self) -> tuple[int, ...]:
        """The gateway shards this process serves (``SHARD_IDS``, or all ``SHARD_COUNT``)."""
        if "SHARD_IDS" in self.settings:
            return tuple(int(n) for n in self.settings["SHARD_IDS"].split(","))
        return tuple(range(int(self.settings.get("SHARD_COUNT") or 1)))

    def connected(self) -> bool:
        """Whether any of this process's shards has a live gateway connection."""
        if self.worker:
            return False
        return any(self.driver.gateway.shard_connected(shard) for shard in self.shards)

    def environment(self) -> dict[str, str]:
        """Every setting given, empty where the default applies, so that a developer's own
        ``.env`` (read for settings missing from the environment) cannot leak in."""
        server = self.driver.server
        env = dict(os.environ)
        env.update(
            DISCORD_TOKEN=self.driver.token,
            DATABASE_PATH=str(self.database),
            DEV_GUILD_ID="",
            DISCORD_PROXY="",
            REMIND_AFTER_HOURS="",
            FORFEIT_AFTER_HOURS="",
            CHALLENGE_EXPIRY_HOURS="",
            LOG_LEVEL="INFO",
            DISCORD_API_BASE=server.api_base,
            DISCORD_GATEWAY_URL=server.gateway.url,
            PYTHONUNBUFFERED="1",
        )
        env.update(self.settings)
        return env

    async def start(self, timeout: float = 30.0) -> None:
        """Start the bot and wait until it has connected and said it is ready."""
        identified = -1 if self.worker else self.driver.gateway.identifies
        ready_line = "worker started" if self.worker else "connected as"
        ready_lines = sum(ready_line in line for line in self.lines)
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *self.arguments,
            cwd=REPOSITORY,
            env=self.environment(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        self._reader = asyncio.get_running_loop().create_task(self._read(self._process))
        self.driver.bot_pid = self._process.pid
        deadline = time.monotonic() + timeout
        while (
            self.driver.gateway.identifies == identified
            or sum(ready_line in line for line in self.lines) == ready_lines
        ):
            if self._process.returncode is not None:
                await self._reader
                raise RuntimeError("the bot exited at start:\n" + "\n".join(self.lines[-30:]))
            if time.monotonic() > deadline:
                raise SettleTimeout("the bot did not get ready:\n" + "\n".join(self.lines[-30:]))
            await asyncio.sleep(0.05)
        await self.driver.settle()

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as when a machine loses power."""
        await self._end(signal.SIGKILL)

    async def stop(self, how: signal.Signals = signal.SIGINT) -> float:
        """Ctrl-C (or ``how``, e.g. SIGTERM from a service manager), the way an operator
        stops the bot: the seconds it took to exit. A bot that does not exit by itself
        within ``STOP_PATIENCE`` is killed and the stop fails, so a hang never hides; so
        does one that dies of the signal instead of closing its connections and exiting 0."""
        process = self._process
        if process is None or process.returncode is not None:
            return 0.0  # not running (killed, or never started)
        took = await self._end(how)
        if took is None:
            raise StopTimeout(
                f"the bot did not stop within {STOP_PATIENCE:.0f} s of {how.name}:\n"
                + "\n".join(self.lines[-30:])
            )
        if process.returncode != 0:
            raise StopTimeout(
                f"the bot ended with {process.returncode} on {how.name}, not a clean stop:\n"
                + "\n".join(self.lines[-30:])
            )
        return took

    async def _end(self, how: signal.Signals) -> float | None:
        """Signal the process and wait for it: seconds until it exited, None if it had
        to be killed after ``STOP_PATIENCE``."""
        process = self._process
        if process is None or process.returncode is not None:
            return 0.0
        started = time.monotonic()
        process.send_signal(how)
        took: float | None
        try:
            await asyncio.wait_for(process.wait(), STOP_PATIENCE)
            took = time.monotonic() - started
        except TimeoutError:
            process.kill()
            await process.wait()
            took = None
        if self._reader is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._reader, 5)
        self.driver.server.retry_due_at = 0.0  # no one is left to retry
        if self.driver.bot_pid == process.pid:
            self.driver.bot_pid = None
        # The server notices the dropped websocket on its own; wait so tests see it.
        deadline = time.monotonic() + 5
        while self.connected() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return took
