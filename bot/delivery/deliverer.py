"""The deliverer: the one place a stored notice leaves for its audience, all the time.

Each audience of each game (a seat, or the channel) is a lane. A lane sends its notices
one message at a time, in order, and only it or the answer to its own player's command
sends them, so a player's messages never overtake each other and the channel's live
message is never edited by two hands at once: an older board cannot land after a newer
one. Different lanes run side by side, so the three messages of a move go out together.

A lane runs while its audience has notices waiting and retries with growing pauses until
they are out: Discord's rate limits, 5xx answers and dropped connections are weather, not
failures. What Discord will never accept (a deleted channel, a player who blocks the bot)
is retired with one log line. At start every lane with notices waiting resumes in the
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
from bot.storage.outbox import Lane, Outbox, Parcel

log = logging.getLogger("referee.deliverer")

SEATS_AND_CHANNEL: tuple[int | None, ...] = (0, 1, None)


class Undeliverable(Exception):
    """Discord refuses this notice for good; ``reason`` names why (a Discord error code)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AnswerOutOfOrder(Exception):
    """A command's answer would sit above notices its player already has (a deferred
    answer fills the placeholder Discord showed when it was deferred): the parcel goes
    the lane's usual way instead, after them."""


Sender = Callable[[Report, Parcel], Awaitable[None]]
"""Sends one parcel's report somewhere (a DM, the live message, a command's answer)."""


class Transport(Protocol):
    async def ready(self, report: Report) -> bool:
        """Wait until Discord has room for this audience's next message; True if it waited
        (the game may have moved on meanwhile, so the message is built anew)."""
        ...

    async def send(self, report: Report, parcel: Parcel) -> None:
        """Send the parcel's one notice; raise ``Undeliverable`` when it can never go."""
        ...


@dataclass(frozen=True)
class Backoff:
    """Pauses between retries of one lane: growing, capped, and jittered so that lanes
    refused together do not all come back at the same instant."""

    first: float = 0.5
    factor: float = 2.0
    longest: float = 60.0

    def pause(self, attempt: int) -> float:
        return min(self.longest, self.first * self.factor**attempt) * random.uniform(0.8, 1.2)


class _LaneRun:
    """A running lane; ``again`` is set when new notices may have arrived meanwhile."""

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
        self._runs: dict[Lane, _LaneRun] = {}
        self._locks: WeakValueDictionary[Lane, asyncio.Lock] = WeakValueDictionary()
        """A lane's lock lives while someone holds or awaits it."""
        self._slots = asyncio.Semaphore(at_once)
        """Lanes sending at one time, so a long backlog leaves the event loop to moves."""
        self._drained = asyncio.Event()
        self._drained.set()
        self._closed = False

    # -- waking lanes ---------------------------------------------------------------------------

    async def resume(self, before: float | None = None) -> list[Lane]:
        """At start: every lane with notices waiting goes back to work, in the background.

        With ``before``, only lanes waiting since then: on a database shared by several
        processes, what a process that stopped left undelivered. Answers the lanes."""
        lanes = await self.outbox.lanes(before)
        if lanes:
            log.info("resuming delivery on %d lanes", len(lanes))
        for lane in lanes:
            self.wake_lane(lane, urgent=False)
        return lanes

    def published(self, change: StoredChange) -> None:
        """The referee stored a change (the deliverer subscribes to ``Referee.changes``): its
        lanes look for new notices, but for the seat its caller answers itself, whose lane
        goes on after that answer (``answer``)."""
        answered = change.answered_seat
        for audience in SEATS_AND_CHANNEL:
            if answered is None or audience != answered:
                self.wake_lane(Lane(change.game.id, audience))

    def wake(self, game_id: int, audiences: tuple[int | None, ...] = SEATS_AND_CHANNEL) -> None:
        """Have ``game_id``'s lanes look for new notices (a published change does it)."""
        for audience in audiences:
            self.wake_lane(Lane(game_id, audience))

    def wake_lane(self, lane: Lane, *, urgent: bool = True) -> None:
        """Start the lane, or have it look again; a backlog lane woken by a new change
        stops queueing behind the rest of the backlog."""
        if self._closed:
            return
        run = self._runs.get(lane)
        if run is not None:
            run.again = True
            run.urgent = run.urgent or urgent
            return
        run = self._runs[lane] = _LaneRun(urgent)
        self._drained.clear()
        run.task = asyncio.get_running_loop().create_task(
            self._run(lane, run), name=f"delivery lane {lane.game_id}/{lane.audience}"
        )

    async def drained(self) -> None:
        """Until no lane has anything in hand (for tests, benchmarks and a clean stop)."""
        await self._drained.wait()

    async def close(self) -> None:
        """Stop every lane; whatever is unsent stays stored and goes after the next start."""
        self._closed = True
        tasks = [run.task for run in self._runs.values() if run.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- sending --------------------------------------------------------------------------------

    async def answer(self, lane: Lane, sender: Sender | None) -> bool:
        """Send the lane's next message as the answer to its player's own command, then let
        the lane go on its usual way: the change was published with this seat answered by
        its caller (``StoredChange.answered_seat``), so the lane waited for this call.
        False if nothing went through ``sender`` (None: the notice goes by DM)."""
        try:
            return sender is not None and await self.deliver_now(lane, sender)
        finally:
            self.wake_lane(lane)

    async def deliver_now(self, lane: Lane, sender: Sender) -> bool:
        """Send the lane's next message through ``sender`` (the answer to a player's own
        command) instead of the lane's usual way. False if nothing went through it: then
        the lane sends it its usual way, so the player is told all the same."""
        try:
            async with self._lock(lane):
                return await self._send_next(lane, sender) is not None
        except (Undeliverable, AnswerOutOfOrder):
            return False
        except Exception:
            log.info(
                "game %s: answer to seat %s failed; it goes by the usual way",
                lane.game_id,
                lane.audience,
                extra=fields(lane.game_id),
            )
            return False

    async def _run(self, lane: Lane, run: _LaneRun) -> None:
        attempt = 0
        try:
            while True:
                run.again = False
                try:
                    async with self._lock(lane):
                        await self._send_or_retire(lane, run)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    pause = self.backoff.pause(attempt)
                    attempt += 1
                    log.warning(
                        "game %s: delivery to %s failed (%s), retrying in %.1f s",
                        lane.game_id,
                        _named(lane.audience),
                        _why(error),
                        pause,
                        extra=fields(lane.game_id, attempt=attempt),
                    )
                    await asyncio.sleep(pause)
                    continue
                attempt = 0
                if not run.again:  # nothing was sent, or the release found the lane empty
                    return
        finally:
            if self._runs.get(lane) is run:
                del self._runs[lane]
            if not self._runs:
                self._drained.set()

    async def _send_or_retire(self, lane: Lane, run: _LaneRun) -> Parcel | None:
        """Send the lane's next message; retire it with one log line if it can never go."""
        try:
            return await self._send_next(lane, self.transport.send, run)
        except Undeliverable as refused:
            parcel = await self.outbox.claim(lane)
            if parcel is None:
                return None
            log.warning(
                "game %s: notices to %s up to ply %d retired: Discord refuses them (%s)",
                lane.game_id,
                _named(lane.audience),
                parcel.last_ply,
                refused.reason,
                extra=fields(lane.game_id, ply=parcel.last_ply),
            )
            run.again = await self.outbox.release(parcel) or run.again
            return parcel

    async def _send_next(
        self, lane: Lane, sender: Sender, run: _LaneRun | None = None
    ) -> Parcel | None:
        """Claim, build and send the lane's next message, then release it; the release
        tells the lane's run whether to go on.

        A lane first waits for Discord to have room (so the board is rendered when it can
        be sent, not before a wait), then, unless urgent, for one of the few sending slots
        a backlog shares. What came meanwhile joins the channel's claim: its live message
        then shows the newest board.
        """
        parcel = await self.outbox.claim(lane)
        if parcel is None:
            return None
        report = await self.referee.parcel_report(parcel)
        if run is not None and report is not None and await self.transport.ready(report):
            parcel = await self.outbox.claim(lane)
            if parcel is None:
                return None
            report = await self.referee.parcel_report(parcel)
        slot = self._slots if run is not None and not run.urgent else contextlib.nullcontext()
        async with slot:
            if report is not None:
                await sender(report, parcel)
            more = await self.outbox.release(parcel)
        if run is not None:
            run.again = more or run.again  # else the lane is done, without another look
        return parcel

    def _lock(self, lane: Lane) -> asyncio.Lock:
        lock = self._locks.get(lane)
        if lock is None:
            lock = self._locks[lane] = asyncio.Lock()
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
