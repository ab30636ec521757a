"""The move queue's workers: how they are woken, when they look for a move and when they
stop, a gateway's standby, and the receiving process's refusals before anything is queued
(the processes on a real PostgreSQL server: ``tests/storage/processes``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import cast

import asyncpg
import pytest

from bot.referee import Referee, RefereeError, Report
from bot.storage.postgres_queue import Held, MoveQueue, QueuedMove
from bot.worker import LATE_LOOK_SECONDS, MoveWorker
from tests.referee.test_referee import ALICE, BOB, start_game, state_of
from tests.storage.processes import DM, Answers, Clock, Process


async def test_two_moves_of_one_game_are_played_in_the_order_they_arrived(
    processes: tuple[Process, Process],
) -> None:
    """Two workers run side by side; the setup's ``random`` must come before ``ready``."""
    one, two = processes
    game = await start_game(one.referee)
    for user in (ALICE, BOB):
        await one.store.queue.put(game.id, user, "random", DM)
        await one.store.queue.put(game.id, user, "ready", DM)
    await one.worker.start()
    await two.worker.start()
    async with asyncio.timeout(20):  # until the last move's news went out
        while all(ply < 4 for _, _, ply in one.transport.sent + two.transport.sent):
            await asyncio.sleep(0.05)
    stored = await one.store.get_game(game.id)
    assert stored is not None and stored.ply == 4
    assert state_of(stored).phase.value == "play"
    assert one.answers.refused == two.answers.refused == []
    assert await one.store.queue.waiting() == 0


async def test_a_queued_move_wakes_an_idle_worker_at_once(
    processes: tuple[Process, Process],
) -> None:
    """Workers poll only every 30 s here: the notification is what wakes them."""
    one, two = processes
    await two.worker.start()
    await asyncio.sleep(0.2)  # both claimers found nothing and wait
    game = await start_game(one.referee)
    await one.deliverer.drained()  # the start is told by the process that stored it
    await one.store.queue.put(game.id, ALICE, "random", DM)
    async with asyncio.timeout(5):  # the poll alone would take 30 s
        while (game.id, 0, 1) not in two.transport.sent:  # seat 0 told of its ply 1
            await asyncio.sleep(0.02)
    stored = await one.store.get_game(game.id)
    assert stored is not None and stored.ply == 1


async def test_the_receiving_process_refuses_at_once_what_needs_no_playing(
    processes: tuple[Process, Process],
) -> None:
    one, _ = processes
    game = await start_game(one.referee)
    assert await one.referee.aim(ALICE, "random") == game.id
    assert await one.referee.aim(BOB, f"#{game.id} random") == game.id
    with pytest.raises(RefereeError, match="not playing in game"):
        await one.referee.aim(1009, f"#{game.id} random")
    with pytest.raises(RefereeError, match="no game running"):
        await one.referee.aim(1009, "random")
    await one.referee.resign(ALICE, game.id)
    with pytest.raises(RefereeError, match="is over"):
        await one.referee.aim(BOB, f"#{game.id} A1")


async def test_a_standby_takes_only_moves_that_waited_and_says_once_what_to_start(
    processes: tuple[Process, Process], clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """A gateway's standby leaves fresh moves to the workers; a move that waited its
    ``standby`` seconds (no worker runs) it plays itself, and warns once per spell."""
    one, two = processes
    first = await start_game(one.referee)
    second = await start_game(one.referee, challenger=1005, opponent=1006)
    await one.store.queue.put(first.id, ALICE, "random", DM)
    assert await two.store.queue.claim(waited=5) is None  # a worker may still come
    clock.now += 5
    waited = await two.store.queue.claim(waited=5)
    assert waited is not None and waited.game_id == first.id
    assert await two.worker.apply(waited) is not None

    standby = MoveWorker(two.store.queue, two.referee, two.answers, poll=0.05, standby=5)
    await standby.start()
    try:
        await one.store.queue.put(second.id, 1005, "random", DM)
        await asyncio.sleep(0.3)
        assert await one.store.queue.waiting() == 1, "the standby took a fresh move"
        clock.now += 5
        async with asyncio.timeout(5):
            while await one.store.queue.waiting():
                await asyncio.sleep(0.02)
        await one.store.queue.put(second.id, 1006, "random", DM)
        clock.now += 5
        async with asyncio.timeout(5):
            while await one.store.queue.waiting():
                await asyncio.sleep(0.02)
    finally:
        await standby.close()
    stored = await one.store.get_game(second.id)
    assert stored is not None and stored.ply == 2
    warnings = [r for r in caplog.records if "python -m bot --worker" in r.getMessage()]
    assert [r.levelname for r in warnings] == ["WARNING"]


class EmptyQueue:
    """A queue with nothing to claim, whose notifications the test sends by hand."""

    def __init__(self) -> None:
        self.notify: Callable[[], None] | None = None

    async def listen(self, woken: Callable[[], None]) -> None:
        self.notify = woken

    async def claim_held(self, lease: float = 0, *, waited: float | None = None) -> None:
        return None


async def test_a_worker_told_to_stop_as_a_move_is_queued_stops() -> None:
    """A notification and the order to stop in the same instant (a SIGTERM while players
    play): the worker stops, it does not go on waiting for moves with its stop lost."""
    queue = EmptyQueue()
    worker = MoveWorker(cast(MoveQueue, queue), cast(Referee, None), Answers(), poll=30.0)
    await worker.start()
    for _ in range(3):  # the worker claims nothing and waits for a notification
        await asyncio.sleep(0)
    assert queue.notify is not None
    queue.notify()
    async with asyncio.timeout(2):
        await worker.close()


class CountingQueue:
    """A queue whose claims the test counts: the first finds a move, the others nothing."""

    def __init__(self) -> None:
        self.notify: Callable[[], None] | None = None
        self.claims = 0

    async def listen(self, woken: Callable[[], None]) -> None:
        self.notify = woken

    async def claim_held(self, lease: float = 0, *, waited: float | None = None) -> Held | None:
        self.claims += 1
        if self.claims > 1:
            return None
        move = QueuedMove(1, 1, ALICE, "random", DM, 0.0, 1)
        return Held(move, cast(asyncpg.Connection, None), None)

    @asynccontextmanager
    async def holding(self, held: Held) -> AsyncIterator[QueuedMove]:
        yield held.move


class HeldUpWorker(MoveWorker):
    """A worker whose moves take until the test lets them finish."""

    finish: asyncio.Event

    async def play(self, move: QueuedMove) -> Report | None:
        await self.finish.wait()
        return None


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_worker_playing_a_move_leaves_a_queued_move_to_an_idle_one() -> None:
    """Every worker hears of every queued move, and one claims it: a worker in the middle
    of a move does not look at once (it would find nothing, the idle ones being quicker,
    and each look is a statement the database serves for nothing); it looks once its move
    is done, or a moment later if its move takes long, and an idle worker looks at once."""
    queue = CountingQueue()
    worker = HeldUpWorker(cast(MoveQueue, queue), cast(Referee, None), Answers(), poll=30.0)
    worker.finish = asyncio.Event()
    await worker.start()
    await settle()
    assert queue.claims == 2  # a move, then nothing more: the worker waits, playing it
    assert queue.notify is not None
    queue.notify()
    queue.notify()
    await settle()
    assert queue.claims == 2, "a worker playing a move looked for another on being told"
    await asyncio.sleep(LATE_LOOK_SECONDS * 3)
    assert queue.claims == 3  # its move still in play, it looks once, a moment later
    queue.notify()
    await settle()
    worker.finish.set()
    await settle()
    assert queue.claims == 4  # its move done, it looks again
    await asyncio.sleep(LATE_LOOK_SECONDS * 3)
    assert queue.claims == 4  # that look found whatever the late one would have
    queue.notify()
    await settle()
    assert queue.claims == 5  # idle, it looks at once
    await worker.close()
