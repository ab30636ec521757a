"""How many times a move makes the database answer: PostgreSQL on a real server, and the
SQLite file's thread.

Each statement sent is a round trip that wakes a server process, and on a machine that
shares its processors with the database those wake-ups are most of the database's cost
of a move. These counts are upper bounds, so a change that adds a statement to the path
of every move is caught here rather than in the benchmark's figures.

Counted: every statement a store's connections send (``add_query_logger``), from a move
queued by a gateway to its notices delivered by the worker that played it. Prepared
statements are cached per connection, so after the first move a statement costs one
round trip; the first move warms the caches and is not counted, nor are the questions
asyncpg asks a new connection about a type (``LEARNING_A_TYPE``).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.delivery.deliverer import Deliverer
from bot.referee import Referee
from bot.storage import SqliteRepository
from bot.storage.postgres import PostgresRepository
from tests.delivery.test_deliverer import Transport
from tests.referee.test_referee import random_move, set_fleets, start_game, state_of
from tests.storage.processes import DM, Process

QUEUEING_A_MOVE = 1
"""The gateway's statements to queue a move and wake the workers."""

STORING_A_MOVE = 2
"""A worker's statements from claiming a queued move to storing it: the claim, which
takes the game's lock and reads the game, and the move's transaction, which takes the
lock over and releases it when committed (``MoveQueue.claim_held``)."""

TELLING_THREE_AUDIENCES = 1
"""A worker's statements to deliver a move's three notices: only the releases, which also
say whether each backlog is empty, and go together (``bot.storage.groups``). The
move's own call claimed the notices and the store handed them to their backlogs with the
game as stored, for the board (``bot.storage.outbox.Prefetch``)."""

SQLITE_TRIPS_PER_MOVE = 0
"""Trips to the SQLite thread for one move through the referee and the deliverer: none.
The game's read under its lock, the move's transaction (which claims its notices) and the
releases of the audiences told run at once on the loop's thread
(``bot.storage.sqlite_at_once``)."""


LEARNING_A_TYPE = ("typeinfo_tree", "'jit'")
"""What asyncpg asks a new connection the first time a statement uses a type it has not
met (arrays, here): once per connection, not per move, so it is not counted."""


class Statements:
    """Counts the statements every connection of the stores opened here sends."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def __call__(self, record: Any) -> None:
        if not any(word in record.query for word in LEARNING_A_TYPE):
            self.sent.append(record.query)

    def since(self, mark: int) -> list[str]:
        return self.sent[mark:]


@pytest.fixture
async def counted(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Process, Statements]]:
    statements = Statements()
    create_pool: Callable[..., Any] = asyncpg.create_pool

    def counting_pool(*args: Any, **kwargs: Any) -> Any:
        async def init(connection: asyncpg.Connection) -> None:
            connection.add_query_logger(statements)

        return create_pool(*args, init=init, **kwargs)

    monkeypatch.setattr(asyncpg, "create_pool", counting_pool)
    # Each step is counted apart, so the deliverer looks only when the test says.
    process = Process(await PostgresRepository.open(postgres_url), delivering=False)
    yield process, statements
    await process.deliverer.close()
    await process.store.close()


async def play_one_shot(process: Process, statements: Statements) -> tuple[int, int, int, int]:
    """Queue, play and deliver one shot; the statements of each step, and notices sent."""
    game = await process.store.get_game(1)
    assert game is not None
    shooter, shot = random_move(random.Random(game.ply), game, state_of(game))
    mark = len(statements.sent)
    move_id = await process.store.queue.put(game.id, shooter, shot, DM)
    queued = len(statements.since(mark))

    mark = len(statements.sent)
    held = await process.store.queue.claim_held()
    assert held is not None and held.move.id == move_id
    async with process.store.queue.holding(held) as claimed:
        report = await process.worker.apply(claimed)
    assert report is not None and report.game.ply == game.ply + 1
    stored = len(statements.since(mark))

    mark, before = len(statements.sent), len(process.transport.sent)
    process.deliverer.wake(game.id)
    await process.deliverer.drained()
    told = len(process.transport.sent) - before
    return queued, stored, len(statements.since(mark)), told


async def test_a_move_costs_a_few_round_trips_to_queue_store_and_deliver(
    counted: tuple[Process, Statements],
) -> None:
    process, statements = counted
    game = await set_fleets(process.referee, await start_game(process.referee))
    assert game.id == 1
    process.deliverer.wake(game.id)
    await process.deliverer.drained()
    await play_one_shot(process, statements)  # warms the connections' statement caches

    queued, stored, delivered, told = await play_one_shot(process, statements)

    assert told == 3  # both players and the channel
    sent = statements.sent[-(stored + delivered) :]
    assert queued <= QUEUEING_A_MOVE
    assert stored <= STORING_A_MOVE, sent[:stored]
    assert delivered <= TELLING_THREE_AUDIENCES, sent[stored:]


async def test_a_move_on_sqlite_makes_no_trip_to_the_database_thread(
    tmp_path: Path,
) -> None:
    """Each trip to aiosqlite's thread costs the event loop far more than SQLite's own
    work for a move, so they are counted here, as PostgreSQL's statements are above."""
    store = await SqliteRepository.open(tmp_path / "referee.sqlite3")
    trips = 0
    execute = store._db._execute

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal trips
        trips += 1
        return await execute(*args, **kwargs)

    try:
        referee = Referee(store)
        transport = Transport()
        deliverer = Deliverer(store.outbox, referee, transport)
        game = await set_fleets(referee, await start_game(referee))
        deliverer.wake(game.id)
        await deliverer.drained()
        rng = random.Random(3)
        for _ in range(2):  # the first a warm-up, like the statements' caches above
            game = await store.get_game(game.id) or game
            shooter, shot = random_move(rng, game, state_of(game))
            store._db._execute = counted  # type: ignore[method-assign]
            trips, before = 0, sum(len(sent) for sent in transport.sent.values())
            report = await referee.act(shooter, f"#{game.id} {shot}")
            deliverer.wake(game.id)
            await deliverer.drained()
            store._db._execute = execute  # type: ignore[method-assign]
        told = sum(len(sent) for sent in transport.sent.values()) - before
        assert told == len(report.notices) == 3
        assert trips <= SQLITE_TRIPS_PER_MOVE
        await deliverer.close()
    finally:
        await store.close()
