"""Waiting until the bot under test is idle, and catching every error it raised meanwhile.

Tests assert on what Discord received, so each user action must wait until the bot has
received its events and finished reacting. "Finished" is read off the event loop: every
task the bot started is either done or *parked* (only time or a user could wake it).
Errors the bot logged, or that killed its tasks, surface as :class:`BotError` at the next
settle, so a test cannot pass over a bot that crashed behind its back.

The few private discord.py attributes the driver reads are touched in
:class:`ClientInternals` and nowhere else, so an upgrade of discord.py has a single place
to check.
"""

from __future__ import annotations

import asyncio
import logging
import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType
from typing import Any

import aiohttp
import discord
from discord import app_commands

from .gateway import FakeGateway
from .gateway_protocol import TASK_PREFIX
from .server import FakeDiscord

TaskPredicate = Callable[[asyncio.Task[Any]], bool]

_DISCORD_DIR = os.path.dirname(discord.__file__)
_AIOHTTP_DIR = os.path.dirname(aiohttp.__file__)
_ASYNCIO_DIR = os.path.dirname(asyncio.__file__)


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


class ClientInternals:
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


class TaskInspector:
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


class ErrorLogCapture(logging.Handler):
    """Collects ERROR log records, which is how discord.py reports exceptions in handlers."""

    def __init__(self, sink: Callable[[CapturedError], None]) -> None:
        super().__init__(level=logging.ERROR)
        self._sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        exception = record.exc_info[1] if record.exc_info else None
        self._sink(CapturedError(record.name, record.getMessage(), exception))


class Settling:
    """The driver's :meth:`settle` and the errors it surfaces."""

    server: FakeDiscord
    gateway: FakeGateway
    settle_timeout: float
    raise_bot_errors: bool
    errors: list[CapturedError]
    _internals: ClientInternals
    _inspector: TaskInspector | None
    _connected: bool
    _ignore: list[TaskPredicate]
    _baseline: set[asyncio.Task[Any]]
    _watched: set[asyncio.Task[Any]]
    _reported: int
    _server_errors_reported: int

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
        return TaskInspector.describe(task)

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot finished everything it started, then surface its errors.

        Busy means any task (other than the caller, tasks that predate the driver, the fake
        server's own, and ignored ones) that is not parked; see :class:`TaskInspector`.
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
