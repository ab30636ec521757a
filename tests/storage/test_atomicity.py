"""The SQLite store keeps a move whole: a snapshot and its log entry change together or not
at all, a write given up or cancelled leaves nothing half done and the store unwedged, and a
move waits for another process's write off the event loop.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.referee import GameFault, Referee
from bot.storage import SqliteRepository
from bot.storage.outbox import Backlog
from tests.referee.test_referee import ALICE, BOB, CAROL, start_game
from tests.storage.helpers import challenge, sql, sqlite_only


@sqlite_only
async def test_a_move_that_fails_to_log_leaves_the_snapshot_untouched(
    repo: SqliteRepository, path: Path
) -> None:
    """Snapshot and log change together or not at all: a failed INSERT rolls the UPDATE back."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    game = (await referee.act(ALICE, "random")).game
    sql(
        path,
        "INSERT INTO actions (game_id, ply, seat, kind, text, created_at)"
        " VALUES (?, ?, 1, 'move', 'squatter', 0)",
        game.id,
        game.ply + 1,
    )
    with pytest.raises(GameFault) as raised:
        await referee.act(BOB, "random")
    assert isinstance(raised.value.__cause__, sqlite3.IntegrityError)

    assert await repo.get_game(game.id) == game, "the snapshot moved without its log entry"
    [(ply, state)] = sql(path, "SELECT ply, state FROM games WHERE id = ?", game.id)
    assert ply == game.ply and json.loads(state) == game.state, "the failed move was committed"
    assert [entry.text for entry in await repo.log(game.id)] == ["random", "squatter"]

    sql(path, "DELETE FROM actions WHERE text = 'squatter'")
    report = await referee.act(BOB, "random")
    assert report.game.ply == game.ply + 1, "the store is stuck after a failed move"
    assert [entry.text for entry in await repo.log(game.id)] == ["random", "random"]


@sqlite_only
async def test_a_write_cancelled_while_waiting_for_the_lock_does_not_wedge_the_store(
    repo: SqliteRepository, path: Path
) -> None:
    """A caller that gives up (a timeout, a cancelled task) must not break every later write.

    aiosqlite runs statements on its own thread: a BEGIN whose caller was cancelled still
    runs, and must be rolled back rather than leave the connection inside a transaction.
    """
    await challenge(repo)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # a backup or a second process is writing
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.2):
                await challenge(repo)
        other.execute("COMMIT")

    assert await challenge(repo, ALICE, CAROL) > 0, "the store refuses every write after one"
    assert sql(path, "SELECT count(*) FROM challenges") == [(2,)]


@sqlite_only
async def test_a_move_whose_caller_gave_up_is_rolled_back_not_stored_untold(
    repo: SqliteRepository, path: Path
) -> None:
    """A move runs on the database thread in one go; if its caller is cancelled while it
    waits there (another process holds the write lock), it must not commit later on its
    own: the player was never told of it, and its audience texts would wait for a restart."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    for backlog in await repo.outbox.backlogs():
        batch = await repo.outbox.claim(backlog)
        assert batch is not None
        await repo.outbox.release(batch)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.2):
                await referee.act(ALICE, "random")
        other.execute("COMMIT")

    assert await repo.get_game(game.id) == game, "the abandoned move was stored"
    assert await repo.log(game.id) == [] and await repo.outbox.waiting() == 0
    report = await referee.act(ALICE, "random")
    assert report.game.ply == game.ply + 1, "the store is stuck after an abandoned move"


@sqlite_only
async def test_a_move_and_its_delivery_make_no_trip_to_the_database_thread(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each trip to aiosqlite's thread costs the event loop more than SQLite's own work
    (a move's statements take it a few hundredths of a millisecond), so the game's read,
    the move's transaction, a backlog's claim and its release run at once on the loop."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    trips: list[object] = []
    run = repo._db._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(fn)
        return await run(fn, *args, **kwargs)

    monkeypatch.setattr(repo._db, "_execute", counted)
    report = await referee.act(ALICE, f"#{game.id} random")
    batch = await repo.outbox.claim(Backlog(game.id, 0))  # the setup and the move, merged
    assert batch is not None and batch.last_ply == report.game.ply
    assert await repo.outbox.release(batch) is False  # nothing more for that backlog
    assert trips == []
    assert await repo.get_game(game.id) == report.game
    assert await repo.outbox.waiting() == 2  # the other player's backlog and the channel's


@sqlite_only
async def test_a_move_waits_off_the_loop_while_another_process_writes(
    repo: SqliteRepository, path: Path
) -> None:
    """Statements run at once only when SQLite can take the write lock at once: while
    another process (a backup, an operator's shell) holds it, the move waits on the
    database thread as before, and the loop goes on serving everything else."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        ticker = asyncio.create_task(tick())
        move = asyncio.create_task(referee.act(ALICE, f"#{game.id} random"))
        await asyncio.sleep(0.3)
        assert not move.done() and ticks >= 3, "the loop stood still while the move waited"
        other.execute("COMMIT")
        report = await asyncio.wait_for(move, 5)
        ticker.cancel()
    assert report.game.ply == game.ply + 1
    assert await repo.get_game(game.id) == report.game
