"""The move queue on a real PostgreSQL server: gateway processes queue the moves they
receive, worker processes claim and play them.

Each "process" here is its own store (its own connections) with its own referee, as in
``test_shared``; a worker that dies is one whose claim is simply never finished.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import cast

import asyncpg
import pytest

from bot.delivery.deliverer import Deliverer
from bot.games.core import GameError
from bot.referee import Referee, RefereeError, Report
from bot.storage.outbox import Batch
from bot.storage.postgres import PostgresRepository
from bot.storage.postgres_queue import Held, MoveQueue, QueuedMove
from bot.worker import LATE_LOOK_SECONDS, MoveWorker
from tests.referee.test_referee import ALICE, BOB, set_fleets, start_game, state_of

DM = {"dm": 4242}


class Clock:
    """A clock the test moves by hand, shared by the processes."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Answers:
    """What a worker told the players of queued moves."""

    def __init__(self) -> None:
        self.refused: list[tuple[int, str]] = []
        self.answered: list[tuple[int, Report]] = []

    def answers_notices(self, move: QueuedMove) -> bool:
        return False

    async def refuse(self, move: QueuedMove, text: str) -> None:
        self.refused.append((move.id, text))

    async def answer(self, move: QueuedMove, report: Report) -> None:
        self.answered.append((move.id, report))


class Transport:
    """The deliverer's way out: records each batch's audience and ply."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int | None, int]] = []

    async def ready(self, report: Report) -> bool:
        return False

    async def send(self, report: Report, batch: Batch) -> None:
        self.sent.append((batch.game_id, batch.audience, batch.last_ply))


class Process:
    """One bot process on the shared database: its store, referee, deliverer and worker."""

    def __init__(self, store: PostgresRepository, *, delivering: bool = True) -> None:
        self.store = store
        self.referee = Referee(store)
        self.answers = Answers()
        self.transport = Transport()
        self.deliverer = Deliverer(store.outbox, self.referee, self.transport)
        if delivering:  # else the test has the deliverer look itself (``Deliverer.wake``)
            self.referee.changes.subscribe(self.deliverer.published)
        self.worker = MoveWorker(store.queue, self.referee, self.answers, poll=30.0)


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def processes(postgres_url: str, clock: Clock) -> AsyncIterator[tuple[Process, Process]]:
    one = Process(await PostgresRepository.open(postgres_url, clock))
    two = Process(await PostgresRepository.open(postgres_url, clock))
    yield one, two
    for process in (one, two):
        await process.worker.close()
        await process.deliverer.close()
        await process.store.close()


async def test_moves_are_claimed_oldest_first_and_one_game_at_a_time(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    queue = one.store.queue
    first = await start_game(one.referee)
    second = await start_game(one.referee, challenger=1005, opponent=1006)
    a1 = await queue.put(first.id, ALICE, "random", DM)
    b1 = await queue.put(second.id, 1005, "random", DM)
    a2 = await queue.put(first.id, ALICE, "ready", DM)

    claimed = await queue.claim()
    assert claimed is not None and claimed.id == a1
    # The first game's next move waits behind the one being played; the other game's
    # move goes to another worker meanwhile.
    other = await two.store.queue.claim()
    assert other is not None and other.id == b1
    assert await two.store.queue.claim() is None

    await one.worker.apply(claimed)
    later = await two.store.queue.claim()
    assert later is not None and later.id == a2 and later.text == "ready"
    assert later.reply == DM and later.attempts == 1


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


async def test_two_workers_racing_for_one_move_play_it_once(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    one, two = processes
    game = await set_fleets(one.referee, await start_game(one.referee))
    shooter = game.seats[state_of(game).turn or 0]
    move_id = await one.store.queue.put(game.id, shooter, "F6", DM)

    claims = await asyncio.gather(one.store.queue.claim(), two.store.queue.claim())
    assert sorted(claim is None for claim in claims) == [False, True]
    (claimed,) = [claim for claim in claims if claim is not None]

    # The first worker is slow: its claim runs out and the second claims the move too.
    clock.now += 31
    again = await two.store.queue.claim()
    assert again is not None and again.id == move_id and again.attempts == 2
    reports = await asyncio.gather(one.worker.apply(claimed), two.worker.apply(again))

    assert sum(report is not None for report in reports) == 1
    stored = await one.store.get_game(game.id)
    assert stored is not None and stored.ply == game.ply + 1
    assert [entry.text for entry in await one.store.log(game.id)].count("F6") == 1
    # The move was played, so neither worker tells its player it was refused.
    assert one.answers.refused == two.answers.refused == []
    assert await one.store.queue.waiting() == 0


async def test_a_move_whose_worker_died_is_played_by_another_once_its_claim_runs_out(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    one, two = processes
    game = await start_game(one.referee)
    await one.store.queue.put(game.id, ALICE, "random", DM)
    dead = await one.store.queue.claim()  # and its process is killed before playing it
    assert dead is not None
    assert await two.store.queue.claim() is None  # the claim still holds

    clock.now += 31
    revived = await two.store.queue.claim()
    assert revived is not None and revived.id == dead.id
    report = await two.worker.apply(revived)
    assert report is not None and report.game.ply == 1
    assert await two.store.queue.waiting() == 0
    assert [entry.text for entry in await two.store.log(game.id)] == ["random"]


async def test_a_worker_killed_between_storing_and_answering_stores_the_move_once(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    """The move leaves the queue with the stored move, so nothing can play it again."""
    one, two = processes
    game = await start_game(one.referee)
    await one.store.queue.put(game.id, ALICE, "random", DM)
    claimed = await one.store.queue.claim()
    assert claimed is not None
    await one.referee.act(ALICE, "random", game.id, queued=claimed.id)  # then killed
    clock.now += 31
    assert await two.store.queue.claim() is None
    stored = await two.store.get_game(game.id)
    assert stored is not None and stored.ply == 1


async def advisory_locks(store: PostgresRepository) -> int:
    """Advisory locks held right now, by any process."""
    rows = await store._rows("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
    return int(rows[0][0])


async def test_a_claim_holds_its_games_lock_until_the_move_is_committed(
    processes: tuple[Process, Process],
) -> None:
    """A worker's claim takes the game's lock with it, and the store hands the lock to its
    own transaction: another process waiting for the game reads it only once the move is
    stored, and nothing is left locked after."""
    one, two = processes
    game = await start_game(one.referee)
    await one.store.queue.put(game.id, ALICE, "random", DM)
    held = await one.store.queue.claim_held()
    assert held is not None and held.move.text == "random"
    assert await two.store.queue.claim_held() is None  # claimed, as by ``claim``

    async def read_under_lock() -> int:
        async with two.store.game_lock(game.id):
            seen = await two.store.get_game(game.id)
            assert seen is not None
            return seen.ply

    waiting = asyncio.create_task(read_under_lock())
    await asyncio.sleep(0.3)
    assert not waiting.done(), "the claim holds the game's lock"
    async with one.store.queue.holding(held) as move:
        report = await one.worker.apply(move)
    assert report is not None and report.game.ply == 1
    async with asyncio.timeout(5):
        assert await waiting == 1  # the stored move, never the game as it was
    assert await advisory_locks(one.store) == 0
    assert await one.store.queue.waiting() == 0


async def test_a_refused_claimed_move_leaves_its_game_unlocked(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    game = await set_fleets(one.referee, await start_game(one.referee))
    waiting = game.seats[1 - (state_of(game).turn or 0)]
    await one.store.queue.put(game.id, waiting, "F6", DM)  # out of turn
    held = await one.store.queue.claim_held()
    assert held is not None
    async with one.store.queue.holding(held) as move:
        assert await one.worker.apply(move) is None
    assert [move_id for move_id, _ in one.answers.refused] == [held.move.id]
    assert await advisory_locks(one.store) == 0
    async with asyncio.timeout(5), two.store.game_lock(game.id):
        pass


async def test_a_worker_killed_holding_a_claim_frees_the_game_and_leaves_the_move(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    """A killed worker's connections close: its game lock goes at once, and its move is
    claimed again when the claim runs out, and played once."""
    one, two = processes
    game = await start_game(one.referee)
    await one.store.queue.put(game.id, ALICE, "random", DM)
    dead = await one.store.queue.claim_held()
    assert dead is not None
    dead.connection.terminate()  # the server ends the killed process's session
    with pytest.raises(asyncpg.InterfaceError):  # (what the dead process would do next)
        async with one.store.queue.holding(dead):
            pass
    async with asyncio.timeout(5), two.store.game_lock(game.id):
        pass
    assert await two.store.queue.claim_held() is None  # the claim still holds

    clock.now += 31
    revived = await two.store.queue.claim_held()
    assert revived is not None and revived.move.id == dead.move.id
    assert revived.move.attempts == 2
    async with two.store.queue.holding(revived) as move:
        report = await two.worker.apply(move)
    assert report is not None and report.game.ply == 1
    assert [entry.text for entry in await two.store.log(game.id)] == ["random"]
    assert await advisory_locks(two.store) == 0


async def test_a_refused_move_is_answered_once_with_the_referees_sentence(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    game = await set_fleets(one.referee, await start_game(one.referee))
    waiting = game.seats[1 - (state_of(game).turn or 0)]
    with pytest.raises(GameError) as direct:
        await one.referee.act(waiting, f"#{game.id} F6")
    await one.store.queue.put(game.id, waiting, "F6", DM)
    claimed = await one.store.queue.claim()
    assert claimed is not None
    assert await one.worker.apply(claimed) is None

    assert one.answers.refused == [(claimed.id, str(direct.value))]
    assert await one.store.queue.waiting() == 0
    assert await two.worker.apply(claimed) is None  # a second claimant stays silent
    assert two.answers.refused == []


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
