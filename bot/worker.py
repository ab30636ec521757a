"""The worker: plays the moves other processes queued, then has them delivered.

On a shared database a gateway process may hand the moves it receives to the move queue
(``bot.storage.postgres_queue``) instead of playing them itself; worker processes, which
need no gateway connection, play them: claim a move, act through the referee exactly as
the receiving process would have (``bot.inbox``), and answer its player the same way; the
referee publishes the stored move, and the deliverer renders the boards and sends them.
So adding a worker adds moves per second, wherever the moves arrive.

The receiving process has already told the player what it can tell without playing the
move (no game, several games, a game that is over: ``Referee.aim``). What only playing
it can tell (an illegal move, a shot out of turn) the worker answers, with the referee's
same sentences, through ``Answers``: into the player's DMs, or as the follow-up of their
command. A refusal is answered once: only by the worker that takes the move off the
queue. A worker that dies mid-move leaves its claim to run out; the move is then claimed
again, and played once, since it leaves the queue in the transaction that stores it. A
claim takes the move's game lock with it, and the store hands it on (``claim_held``), so
a move costs the database two statements from its claim to its stored state.

A gateway keeps a standby worker (``standby``) that plays only moves that have waited
``STANDBY_SECONDS``: should no worker run (none was started, or all died), players
still get their moves played, a few seconds late, and the log says what to start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Protocol

from bot.games.core import GameError
from bot.logs import fields
from bot.referee import Referee, Report
from bot.storage.postgres_queue import LEASE_SECONDS, Held, MoveQueue, QueuedMove

log = logging.getLogger("referee.worker")

POLL_SECONDS = 1.0
"""How often an idle worker looks at the queue without being woken: for moves whose
worker died (their claim runs out) and a notification lost with a dropped connection."""

AT_ONCE = 8
"""Moves one worker plays side by side: one's database trips overlap another's rules
and boards, so a worker keeps its processor busy."""

LATE_LOOK_SECONDS = 0.05
"""How long a worker in the middle of a move leaves a queued move to the idle workers
before it looks itself, unless its move is done first: a move waits no longer than this
behind a worker whose own move waits on Discord."""

STANDBY_SECONDS = 5.0
"""How long a queued move waits before the gateway that holds a standby plays it
itself: no worker runs, or the workers are far behind."""

WARN_AGAIN_SECONDS = 600.0
"""A standby that stepped in warns again only after this long without stepping in."""

NO_WORKER = (
    "moves waited over %.0f s for a worker, so this gateway plays them itself; "
    "start a worker (`python -m bot --worker` with the same DATABASE_URL), "
    "or another one if some run"
)


class Answers(Protocol):
    """The way back to the player who sent a queued move (``reply`` of the move)."""

    def answers_notices(self, move: QueuedMove) -> bool:
        """Whether the mover's own notice goes as the answer to their command, rather than
        by the deliverer's usual way (``Referee.act``'s ``answering``)."""
        ...

    async def refuse(self, move: QueuedMove, text: str) -> None:
        """Tell the player why their move was not played."""
        ...

    async def answer(self, move: QueuedMove, report: Report) -> None:
        """Answer the player of a played move (``bot.inbox.Answers``, the same answer a
        move played where it was received gets)."""
        ...


class MoveWorker:
    def __init__(
        self,
        queue: MoveQueue,
        referee: Referee,
        answers: Answers,
        *,
        at_once: int = AT_ONCE,
        lease: float = LEASE_SECONDS,
        poll: float = POLL_SECONDS,
        standby: float | None = None,
    ) -> None:
        self.queue = queue
        self.referee = referee
        self.answers = answers
        self.at_once = at_once
        self.lease = lease
        self.poll = poll
        self.standby = standby
        """Seconds a move must have waited before this worker takes it, or None: a
        gateway's standby, which only polls (workers are woken by notification)."""
        self._stepped_in_at: float | None = None
        self._woken = asyncio.Event()
        self._slots = asyncio.Semaphore(at_once)
        self._claimer: asyncio.Task[None] | None = None
        self._playing: set[asyncio.Task[None]] = set()
        self._late_look: asyncio.TimerHandle | None = None

    async def start(self) -> None:
        """Listen for queued moves (a standby only polls) and start claiming them."""
        if self.standby is None:
            await self.queue.listen(self._notified)
        self._claimer = asyncio.get_running_loop().create_task(self._claiming(), name="move worker")

    async def close(self) -> None:
        """Stop claiming; a move being played is cancelled and rolled back, and its claim
        runs out for another worker."""
        self._no_late_look()
        tasks = [task for task in (self._claimer, *self._playing) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._claimer = None

    def _notified(self) -> None:
        """A move was queued: look for it now if no move is in play here, else a little
        later (``LATE_LOOK_SECONDS``) unless this worker's move is done first.

        Every worker hears every notification, and a move is claimed by one: were each
        to look at once, every move would cost the database a claim that finds nothing
        for each other worker. An idle worker takes the move at once; a worker playing a
        move looks again as soon as it is done (``_play_in_slot``), and the late look
        keeps a move from waiting behind a move that waits on Discord."""
        if not self._playing:
            self._woken.set()
        elif self._late_look is None:
            loop = asyncio.get_running_loop()
            self._late_look = loop.call_later(LATE_LOOK_SECONDS, self._look_late)

    def _look_late(self) -> None:
        self._late_look = None
        self._woken.set()

    def _no_late_look(self) -> None:
        """A look begins (or the worker stops): it finds whatever a late look would."""
        if self._late_look is not None:
            self._late_look.cancel()
            self._late_look = None

    async def _claiming(self) -> None:
        """Claim moves while a slot is free; when none is waiting, sleep until a move is
        queued (``_notified``: one claim per notification, however many slots are free),
        a move of this worker's is done, its late look is due, or the poll."""
        loop = asyncio.get_running_loop()
        while True:
            await self._slots.acquire()
            self._woken.clear()  # a move queued from here on wakes the wait below
            self._no_late_look()
            try:
                held = await self.queue.claim_held(self.lease, waited=self.standby)
            except Exception:
                log.exception("claiming a queued move failed")
                held = None
            if held is None:
                self._slots.release()
                # Not ``wait_for``: on Python 3.11 it drops a cancellation that arrives as
                # the event is set, and the worker would then never stop.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.poll):
                        await self._woken.wait()
                continue
            if self.standby is not None:
                self._stepping_in(loop.time())
            task = loop.create_task(self._play_in_slot(held), name=f"queued move {held.move.id}")
            self._playing.add(task)
            task.add_done_callback(self._playing.discard)

    def _stepping_in(self, now: float) -> None:
        """A standby took a move: say why and what fixes it, once per spell of them."""
        last = self._stepped_in_at
        if last is None or now - last > WARN_AGAIN_SECONDS:
            log.warning(NO_WORKER, self.standby)
        self._stepped_in_at = now

    async def _play_in_slot(self, held: Held) -> None:
        """Play a claimed move under the game lock its claim took (``MoveQueue.holding``)."""
        try:
            async with self.queue.holding(held) as move:
                await self.play(move)
        except Exception:  # the database went away meanwhile: the claim runs out
            log.exception("game %s: a queued move failed", held.move.game_id)
        finally:
            self._slots.release()
            self._woken.set()  # the game's next move may be claimed now

    async def play(self, move: QueuedMove) -> Report | None:
        """Play one claimed move and answer its player; the report when it was stored (and
        so published: the deliverer sends its notices)."""
        report = await self.apply(move)
        if report is not None:
            await self._answering(self.answers.answer(move, report), move)
        return report

    async def apply(self, move: QueuedMove) -> Report | None:
        """Play one claimed move; answer a refusal. The report when the move was stored.

        A failure that is no refusal (the database went away) leaves the move claimed:
        when the claim runs out, the move is played again, from the start.
        """
        try:
            report = await self.referee.act(
                move.user_id,
                move.text,
                move.game_id,
                queued=move.id,
                answering=self.answers.answers_notices(move),
            )
        except GameError as refusal:
            if await self.queue.done(move.id):
                await self._answering(self.answers.refuse(move, str(refusal)), move)
            return None
        except Exception:
            log.exception(
                "game %s: playing a queued move failed; it is played again later",
                move.game_id,
                extra=fields(move.game_id),
            )
            return None
        if not report.stored:
            if await self.queue.done(move.id):
                await self._answering(self.answers.answer(move, report), move)
            return None
        return report

    async def _answering(self, sending: Awaitable[None], move: QueuedMove) -> None:
        try:
            await sending
        except Exception:
            log.warning(
                "game %s: could not answer the player of a queued move",
                move.game_id,
                extra=fields(move.game_id),
            )
