"""A move's notices claimed by the transaction that stores it, and handed to their backlogs.

Storing a move claims each audience's notice whose backlog holds nothing else, and the store
hands the batch to the backlog's next claim in the same process, so delivering it costs only
its release. These tests hold that shortcut to the outbox's promises: a batch goes out
once, never beside a claim that asked the database meanwhile, and a process killed right
after storing a move (before it sent anything) leaves every notice to go out once after
the restart.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.delivery.deliverer import Deliverer
from bot.referee import Referee
from bot.storage import LogKind, PostgresRepository, SqliteRepository
from bot.storage.outbox import Backlog, Batch, Prefetch
from tests.conftest import fresh_schema
from tests.delivery.test_deliverer import Transport
from tests.referee.test_referee import set_fleets, start_game, state_of

SEATS_AND_CHANNEL = (0, 1, None)


def batch(game_id: int, audience: int | None, ply: int) -> Batch:
    return Batch(Backlog(game_id, audience), (ply,), ((f"ply {ply}",),), False)


# -- the prefetch on its own ---------------------------------------------------------------------


def test_a_handed_batch_is_taken_once() -> None:
    prefetch = Prefetch()
    with prefetch.storing(7) as hand:
        hand((batch(7, 0, 3), batch(7, None, 3)))
    assert prefetch.take(Backlog(7, 0)) == batch(7, 0, 3)
    assert prefetch.take(Backlog(7, 0)) is None
    assert prefetch.take(Backlog(7, 1)) is None
    assert prefetch.take(Backlog(7, None)) == batch(7, None, 3)


def test_a_claim_asking_the_database_while_a_change_is_stored_spoils_the_prefetch() -> None:
    """That claim may have read the new notice already claimed and taken it as a retry."""
    prefetch = Prefetch()
    with prefetch.storing(7) as hand:
        with prefetch.claiming(Backlog(7, None)):
            pass
        hand((batch(7, 0, 3),))
    assert prefetch.take(Backlog(7, 0)) is None
    with prefetch.storing(8) as hand:  # another game is not spoilt by it
        hand((batch(8, 0, 1),))
    assert prefetch.take(Backlog(8, 0)) == batch(8, 0, 1)


def test_a_claim_still_running_when_the_change_is_committed_spoils_the_prefetch() -> None:
    prefetch = Prefetch()
    # The claim began before the change and ends after it.
    with prefetch.claiming(Backlog(7, 1)), prefetch.storing(7) as hand:
        hand((batch(7, 0, 3),))
    assert prefetch.take(Backlog(7, 0)) is None
    with prefetch.storing(7) as hand:  # the spoilt change is over: the next one hands
        hand((batch(7, 0, 4),))
    assert prefetch.take(Backlog(7, 0)) == batch(7, 0, 4)


def test_a_later_change_drops_what_the_earlier_one_handed() -> None:
    """The channel's claim then asks the database and takes the newer notice in too."""
    prefetch = Prefetch()
    with prefetch.storing(7) as hand:
        hand((batch(7, None, 3),))
    with prefetch.storing(7) as hand:
        hand(())
    assert prefetch.take(Backlog(7, None)) is None


def test_the_prefetch_keeps_a_bounded_number_of_games() -> None:
    prefetch = Prefetch(at_most=2)
    for game_id in (1, 2, 3):
        with prefetch.storing(game_id) as hand:
            hand((batch(game_id, 0, 1),))
    assert prefetch.take(Backlog(1, 0)) is None
    assert prefetch.take(Backlog(3, 0)) == batch(3, 0, 1)


# -- on both stores -----------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
async def database(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: str
) -> AsyncIterator[str]:
    """A SQLite file's path, or a PostgreSQL schema's URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "referee.sqlite3")
        return
    async with fresh_schema(postgres_server) as url:
        yield url


async def open_store(database: str) -> SqliteRepository | PostgresRepository:
    if database.startswith("postgresql"):
        return await PostgresRepository.open(database)
    return await SqliteRepository.open(database)


async def test_a_moves_notices_are_handed_to_their_backlogs_as_the_database_holds_them(
    database: str,
) -> None:
    """Each handed batch is the message a claim of the database gives (another process,
    retrying the backlog), and its release leaves the backlog empty."""
    store, other = await open_store(database), await open_store(database)
    try:
        referee = Referee(store)
        game = await set_fleets(referee, await start_game(referee))
        for backlog in await store.outbox.backlogs():
            first = await store.outbox.claim(backlog)
            assert first is not None
            await store.outbox.release(first)
        shooter = game.seats[state_of(game).turn or 0]
        report = await referee.act(shooter, f"#{game.id} A1")  # told to everyone

        for audience in SEATS_AND_CHANNEL:
            backlog = Backlog(game.id, audience)
            handed = store.outbox.prefetch.take(backlog)
            told = report.to(audience)
            assert handed is not None and told is not None
            assert handed.plies == (report.game.ply,) and handed.texts == (told.texts,)
            assert handed.game == report.game, "the board is drawn from the stored game"
            assert await other.outbox.claim(backlog) == handed, "claimed in the database too"
            assert not await store.outbox.release(handed)
        assert await store.outbox.waiting() == 0
    finally:
        await other.close()
        await store.close()


async def test_a_backlog_with_notices_waiting_gets_nothing_handed(database: str) -> None:
    """A player's older notice still waits: the new one is not claimed with its move, so
    the backlog's next claim keeps the order and merges the backlog as before."""
    store = await open_store(database)
    try:
        referee = Referee(store)
        game = await start_game(referee)  # the start's notices wait, unclaimed
        record = await store.get_game(game.id)
        assert record is not None
        await store.append(
            record,
            seat=0,
            kind=LogKind.MOVE,
            text="random",
            state=record.state,
            audience_texts=((0, ("Later.",)),),
        )
        assert store.outbox.prefetch.take(Backlog(game.id, 0)) is None
        claimed = await store.outbox.claim(Backlog(game.id, 0))
        assert claimed is not None and claimed.plies == (0, 1)
    finally:
        await store.close()


KILLED_AFTER_STORING = """
import asyncio, os, signal, sys
from bot.storage.outbox import Backlog
from bot.referee import Referee
from bot.storage import PostgresRepository, SqliteRepository

async def main(database: str, game_id: int, shooter: int) -> None:
    if database.startswith("postgresql"):
        store = await PostgresRepository.open(database)
    else:
        store = await SqliteRepository.open(database)
    report = await Referee(store).act(shooter, f"#{game_id} A1")
    assert store.outbox.prefetch.take(Backlog(game_id, 0)) is not None
    print(report.game.ply, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # stored and claimed; nothing sent or released

try:
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
finally:
    os._exit(3)  # not killed: the test fails at once rather than wait on open stores
"""
"""A process that stores one shot (its notices claimed with it), takes one handed batch
as its backlog would, and is killed before sending anything."""


async def test_a_process_killed_right_after_storing_a_move_leaves_each_notice_to_go_once(
    database: str,
) -> None:
    store = await open_store(database)
    try:
        referee = Referee(store)
        game = await set_fleets(referee, await start_game(referee))
        transport = Transport()
        deliverer = Deliverer(store.outbox, referee, transport)
        deliverer.wake(game.id)
        await asyncio.wait_for(deliverer.drained(), 10)
        transport.sent.clear()

        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            KILLED_AFTER_STORING,
            database,
            str(game.id),
            str(game.seats[state_of(game).turn or 0]),
            cwd=Path(__file__).parents[2],
            stdout=asyncio.subprocess.PIPE,
        )
        output, _ = await asyncio.wait_for(child.communicate(), 60)
        assert child.returncode == -signal.SIGKILL, output
        ply = int(output.split()[-1])
        assert ply == game.ply + 1
        waiting = await store.outbox.backlogs()
        assert waiting == [Backlog(game.id, a) for a in SEATS_AND_CHANNEL]

        await deliverer.resume()  # the restart
        await asyncio.wait_for(deliverer.drained(), 10)
        await deliverer.resume()
        await asyncio.wait_for(deliverer.drained(), 10)
        await deliverer.close()

        assert sorted(transport.sent, key=str) == sorted(
            [(game.id, a) for a in SEATS_AND_CHANNEL], key=str
        )
        for audience in SEATS_AND_CHANNEL:
            [(sent_ply, texts)] = transport.sent[(game.id, audience)]
            assert sent_ply == ply and texts
        assert await store.outbox.waiting() == 0
        assert (await store.log(game.id))[-1].text == "A1"
    finally:
        await store.close()
