"""A move's notices claimed by the transaction that stores it, and handed to their lanes.

Storing a move claims each audience's notice whose lane holds nothing else, and the store
hands the parcel to the lane's next claim in the same process, so delivering it costs only
its release. These tests hold that shortcut to the outbox's promises: a parcel goes out
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
from bot.storage.outbox import Handover, Lane, Parcel
from tests.conftest import fresh_schema
from tests.test_deliverer import Transport
from tests.test_referee import set_fleets, start_game, state_of

SEATS_AND_CHANNEL = (0, 1, None)


def parcel(game_id: int, audience: int | None, ply: int) -> Parcel:
    return Parcel(Lane(game_id, audience), (ply,), ((f"ply {ply}",),), False)


# -- the handover on its own ---------------------------------------------------------------------


def test_a_handed_parcel_is_taken_once() -> None:
    handover = Handover()
    with handover.storing(7) as hand:
        hand((parcel(7, 0, 3), parcel(7, None, 3)))
    assert handover.take(Lane(7, 0)) == parcel(7, 0, 3)
    assert handover.take(Lane(7, 0)) is None
    assert handover.take(Lane(7, 1)) is None
    assert handover.take(Lane(7, None)) == parcel(7, None, 3)


def test_a_claim_asking_the_database_while_a_change_is_stored_spoils_the_handover() -> None:
    """That claim may have read the new notice already claimed and taken it as a retry."""
    handover = Handover()
    with handover.storing(7) as hand:
        with handover.claiming(Lane(7, None)):
            pass
        hand((parcel(7, 0, 3),))
    assert handover.take(Lane(7, 0)) is None
    with handover.storing(8) as hand:  # another game is not spoilt by it
        hand((parcel(8, 0, 1),))
    assert handover.take(Lane(8, 0)) == parcel(8, 0, 1)


def test_a_claim_still_running_when_the_change_is_committed_spoils_the_handover() -> None:
    handover = Handover()
    # The claim began before the change and ends after it.
    with handover.claiming(Lane(7, 1)), handover.storing(7) as hand:
        hand((parcel(7, 0, 3),))
    assert handover.take(Lane(7, 0)) is None
    with handover.storing(7) as hand:  # the spoilt change is over: the next one hands
        hand((parcel(7, 0, 4),))
    assert handover.take(Lane(7, 0)) == parcel(7, 0, 4)


def test_a_later_change_drops_what_the_earlier_one_handed() -> None:
    """The channel's claim then asks the database and takes the newer notice in too."""
    handover = Handover()
    with handover.storing(7) as hand:
        hand((parcel(7, None, 3),))
    with handover.storing(7) as hand:
        hand(())
    assert handover.take(Lane(7, None)) is None


def test_the_handover_keeps_a_bounded_number_of_games() -> None:
    handover = Handover(at_most=2)
    for game_id in (1, 2, 3):
        with handover.storing(game_id) as hand:
            hand((parcel(game_id, 0, 1),))
    assert handover.take(Lane(1, 0)) is None
    assert handover.take(Lane(3, 0)) == parcel(3, 0, 1)


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


async def test_a_moves_notices_are_handed_to_their_lanes_as_the_database_holds_them(
    database: str,
) -> None:
    """Each handed parcel is the message a claim of the database gives (another process,
    retrying the lane), and its release leaves the lane empty."""
    store, other = await open_store(database), await open_store(database)
    try:
        referee = Referee(store)
        game = await set_fleets(referee, await start_game(referee))
        for lane in await store.outbox.lanes():
            first = await store.outbox.claim(lane)
            assert first is not None
            await store.outbox.release(first)
        shooter = game.seats[state_of(game).turn or 0]
        report = await referee.act(shooter, f"#{game.id} A1")  # told to everyone

        for audience in SEATS_AND_CHANNEL:
            lane = Lane(game.id, audience)
            handed = store.outbox.handover.take(lane)
            told = report.to(audience)
            assert handed is not None and told is not None
            assert handed.plies == (report.game.ply,) and handed.texts == (told.texts,)
            assert handed.game == report.game, "the board is drawn from the stored game"
            assert await other.outbox.claim(lane) == handed, "claimed in the database too"
            assert not await store.outbox.release(handed)
        assert await store.outbox.waiting() == 0
    finally:
        await other.close()
        await store.close()


async def test_a_lane_with_notices_waiting_gets_nothing_handed(database: str) -> None:
    """A player's older notice still waits: the new one is not claimed with its move, so
    the lane's next claim keeps the order and merges the backlog as before."""
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
            tidings=((0, ("Later.",)),),
        )
        assert store.outbox.handover.take(Lane(game.id, 0)) is None
        claimed = await store.outbox.claim(Lane(game.id, 0))
        assert claimed is not None and claimed.plies == (0, 1)
    finally:
        await store.close()


KILLED_AFTER_STORING = """
import asyncio, os, signal, sys
from bot.storage.outbox import Lane
from bot.referee import Referee
from bot.storage import PostgresRepository, SqliteRepository

async def main(database: str, game_id: int, shooter: int) -> None:
    if database.startswith("postgresql"):
        store = await PostgresRepository.open(database)
    else:
        store = await SqliteRepository.open(database)
    report = await Referee(store).act(shooter, f"#{game_id} A1")
    assert store.outbox.handover.take(Lane(game_id, 0)) is not None
    print(report.game.ply, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # stored and claimed; nothing sent or released

try:
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
finally:
    os._exit(3)  # not killed: the test fails at once rather than wait on open stores
"""
"""A process that stores one shot (its notices claimed with it), takes one handed parcel
as its lane would, and is killed before sending anything."""


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
            cwd=Path(__file__).parent.parent,
            stdout=asyncio.subprocess.PIPE,
        )
        output, _ = await asyncio.wait_for(child.communicate(), 60)
        assert child.returncode == -signal.SIGKILL, output
        ply = int(output.split()[-1])
        assert ply == game.ply + 1
        waiting = await store.outbox.lanes()
        assert waiting == [Lane(game.id, a) for a in SEATS_AND_CHANNEL]

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
