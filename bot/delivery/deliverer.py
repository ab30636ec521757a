"""The deliverer: the one place a stored notice leaves for its audience, all the time.

Each audience of each game (a seat, or the channel) is a backlog. A backlog sends its notices
one message at a time, in order, and only it or the answer to its own player's command
sends them, so a player's messages never overtake each other and the channel's live
message is never edited by two hands at once: an older board cannot land after a newer
one. Different backlogs run side by side, so the three messages of a move go out together.

A backlog runs while its audience has notices waiting and retries with growing pauses until
they are out: Discord's rate limits, 5xx answers and dropped connections are passing faults, not
failures. What Discord will never accept (a deleted channel, a player who blocks the bot)
is retired with one log line. At start every backlog with notices waiting resumes in the
background, a few at a time, so the bot serves moves at once however long the backlog.

Nothing here knows Discord: a ``Transport`` sends a report, and says ``Undeliverable``
when Discord refuses for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol
from weakref import WeakValueDictionary

from bot.logs import fields
from bot.referee import Referee, Report, StoredChange
from bot.storage.outbox import Backlog, Batch, Outbox

log = logging.getLogger("referee.deliverer")

SEATS_AND_CHANNEL: tuple[int | None, ...] = (0, 1, None)


class Undeliverable(Exception):
    """Discord refuses this notice for good; ``reason`` names why (a Discord error code)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AnswerOutOfOrder(Exception):
    """A command's answer would sit above notices its player already has (a deferred
    answer fills the placeholder Discord showed when it was deferred): the batch goes
    the backlog's usual way instead, after them."""


Sender = Callable[[Report, Batch], Awaitable[None]]
"""Sends one batch's report somewhere (a DM, the live message, a command's answer)."""


class Transport(Protocol):
    async def ready(self, report: Report) -> bool:
        """Wait until Discord has room for this audience's next message; True if it waited
        (the game may have moved on meanwhile, so the message is built anew)."""
        ...

    async def send(self, report: Report, batch: Batch) -> None:
        """Send the batch's one notice; raise ``Undeliverable`` when it can never go."""
        ...


@dataclass(frozen=True)
class Backoff:
    """Pauses between retries of one backlog: growing, capped, and jittered so that backlogs
    refused together do not all come back at the same instant."""

    first: float = 0.5
    factor: float = 2.0
    longest: float = 60.0

    def pause(self, attempt: int) -> float:
        return min(self.longest, self.first * self.factor**attempt) * random.uniform(0.8, 1.2)


class _BacklogRun:
    """A running backlog; ``again`` is set when new notices may have arrived meanwhile."""

    def __init__(self, urgent: bool) -> None:
        self.again = False
        self.urgent = urgent
        """Woken by a change just made: it sends without queueing behind the backlog."""
        self.task: asyncio.Task[None] | None = None


class Deliverer:
    def __init__(
        self,
        outbox: Outbox,
        referee: Referee,
        transport: Transport,
        *,
        backoff: Backoff | None = None,
        at_once: int = 6,
    ) -> None:
        self.outbox = outbox
        self.referee = referee
        self.transport = transport
        self.backoff = backoff or Backoff()
        self._runs: dict[Backlog, _BacklogRun] = {}
        self._locks: WeakValueDictionary[Backlog, asyncio.Lock] = WeakValueDictionary()
        """A backlog's lock lives while someone holds or awaits it."""
        self._slots = asyncio.Semaphore(at_once)
        """Backlogs sending at one time, so a long backlog leaves the event loop to moves."""
        self._drained = asyncio.Event()
        self._drained.set()
        self._closed = False

    # -- waking backlogs ---------------------------------------------------------------------------

    async def resume(self, before: float | None = None) -> list[Backlog]:
        """At start: every backlog with notices waiting goes back to work, in the background.

        With ``before``, only backlogs waiting since then: on a database shared by several
        processes, what a process that stopped left undelivered. Answers the backlogs."""
        backlogs = await self.outbox.backlogs(before)
        if backlogs:
            log.info("resuming delivery on %d backlogs", len(backlogs))
        for backlog in backlogs:
            self.wake_backlog(backlog, urgent=False)
        return backlogs

    def published(self, change: StoredChange) -> None:
        """The referee stored a change (the deliverer subscribes to ``Referee.changes``): its
        backlogs look for new notices, but for the seat its caller answers itself, whose backlog
        goes on after that answer (``answer``)."""
        answered = change.answered_seat
        for audience in SEATS_AND_CHANNEL:
            if answered is None or audience != answered:
                self.wake_backlog(Backlog(change.game.id, audience))

    def wake(self, game_id: int, audiences: tuple[int | None, ...] = SEATS_AND_CHANNEL) -> None:
        """Have ``game_id``'s backlogs look for new notices (a published change does it)."""
        for audience in audiences:
            self.wake_backlog(Backlog(game_id, audience))

    def wake_backlog(self, backlog: Backlog, *, urgent: bool = True) -> None:
        """Start the backlog, or have it look again; a backlog backlog woken by a new change
        stops queueing behind the rest of the backlog."""
        if self._closed:
            return
        run = self._runs.get(backlog)
        if run is not None:
            run.again = True
            run.urgent = run.urgent or urgent
            return
        run = self._runs[backlog] = _BacklogRun(urgent)
        self._drained.clear()
        run.task = asyncio.get_running_loop().create_task(
            self._run(backlog, run), name=f"delivery backlog {backlog.game_id}/{backlog.audience}"
        )

    async def drained(self) -> None:
        """Until no backlog has anything in hand (for tests, benchmarks and a clean stop)."""
        await self._drained.wait()

    async def close(self) -> None:
        """Stop every backlog; whatever is unsent stays stored and goes after the next start."""
        self._closed = True
        tasks = [run.task for run in self._runs.values() if run.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- sending --------------------------------------------------------------------------------

    async def answer(self, backlog: Backlog, sender: Sender | None) -> bool:
        """Send the backlog's next message as the answer to its player's own command, then let
        the backlog go on its usual way: the change was published with this seat answered by
        its caller (``StoredChange.answered_seat``), so the backlog waited for this call.
        False if nothing went through ``sender`` (None: the notice goes by DM)."""
        try:
            return sender is not None and await self.deliver_now(backlog, sender)
        finally:
            self.wake_backlog(backlog)

    async def deliver_now(self, backlog: Backlog, sender: Sender) -> bool:
        """Send the backlog's next message through ``sender`` (the answer to a player's own
        command) instead of the backlog's usual way. False if nothing went through it: then
        the backlog sends it its usual way, so the player is told all the same."""
        try:
            async with self._lock(backlog):
                return await self._send_next(backlog, sender) is not None
        except (Undeliverable, AnswerOutOfOrder):
            return False
        except Exception:
            log.info(
                "game %s: answer to seat %s failed; it goes by the usual way",
                backlog.game_id,
                backlog.audience,
                extra=fields(backlog.game_id),
            )
            return False

    async def _run(self, backlog: Backlog, run: _BacklogRun) -> None:
        attempt = 0
        try:
            while True:
                run.again = False
                try:
                    async with self._lock(backlog):
                        await self._send_or_retire(backlog, run)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    pause = self.backoff.pause(attempt)
                    attempt += 1
                    log.warning(
                        "game %s: delivery to %s failed (%s), retrying in %.1f s",
                        backlog.game_id,
                        _named(backlog.audience),
                        _why(error),
                        pause,
                        extra=fields(backlog.game_id, attempt=attempt),
                    )
                    await asyncio.sleep(pause)
                    continue
                attempt = 0
                if not run.again:  # nothing was sent, or the release found the backlog empty
                    return
        finally:
            if self._runs.get(backlog) is run:
                del self._runs[backlog]
            if not self._runs:
                self._drained.set()

    async def _send_or_retire(self, backlog: Backlog, run: _BacklogRun) -> Batch | None:
        """Send the backlog's next message; retire it with one log line if it can never go."""
        try:
            return await self._send_next(backlog, self.transport.send, run)
        except Undeliverable as refused:
            batch = await self.outbox.claim(backlog)
            if batch is None:
                return None
            log.warning(
                "game %s: notices to %s up to ply %d retired: Discord refuses them (%s)",
                backlog.game_id,
                _named(backlog.audience),
                batch.last_ply,
                refused.reason,
                extra=fields(backlog.game_id, ply=batch.last_ply),
            )
            run.again = await self.outbox.release(batch) or run.again
            return batch

    async def _send_next(
        self, backlog: Backlog, sender: Sender, run: _BacklogRun | None = None
    ) -> Batch | None:
        """Claim, build and send the backlog's next message, then release it; the release
        tells the backlog's run whether to go on.

        A backlog first waits for Discord to have room (so the board is rendered when it can
        be sent, not before a wait), then, unless urgent, for one of the few sending slots
        a backlog shares. What came meanwhile joins the channel's claim: its live message
        then shows the newest board.
        """
        batch = await self.outbox.claim(backlog)
        if batch is None:
            return None
        report = await self.referee.batch_report(batch)
        if run is not None and report is not None and await self.transport.ready(report):
            batch = await self.outbox.claim(backlog)
            if batch is None:
                return None
            report = await self.referee.batch_report(batch)
        slot = self._slots if run is not None and not run.urgent else contextlib.nullcontext()
        async with slot:
            if report is not None:
                await sender(report, batch)
            more = await self.outbox.release(batch)
        if run is not None:
            run.again = more or run.again  # else the backlog is done, without another look
        return batch

    def _lock(self, backlog: Backlog) -> asyncio.Lock:
        lock = self._locks.get(backlog)
        if lock is None:
            lock = self._locks[backlog] = asyncio.Lock()
        return lock


def _named(audience: int | None) -> str:
    return "the channel" if audience is None else f"seat {audience}"


def _why(error: BaseException) -> str:
    """An error's kind and Discord status, never its text (which may quote a message)."""
    status = getattr(error, "status", None)
    code = getattr(error, "code", None)
    parts = [type(error).__name__]
    if status:
        parts.append(f"status {status}")
    if code:
        parts.append(f"code {code}")
    return ", ".join(parts)
