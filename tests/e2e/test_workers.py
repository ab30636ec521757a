"""A gateway process and a worker process, as an operator runs them, on one PostgreSQL.

The gateway (``ROLE=gateway``) holds the Discord connection and queues every move it
receives; the worker (``python -m bot --worker``) plays, renders and delivers them over
REST. A worker killed mid-game and started again loses and doubles nothing; while no
worker runs, the gateway's standby plays the moves that waited too long and its log says
what to start.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.client import intents
from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.storage import GameRecord, GameStatus, PostgresRepository
from bot.worker import STANDBY_SECONDS
from tests.conftest import fresh_schema
from tests.support.cog_helpers import names, open_water, ship_cells, state_of
from tests.support.discord import FakeUser, Sent
from tests.support.discord.remote import BotProcess, RemoteDriver
from tests.support.e2e_world import TOKEN, World, dms_naming, until

pytestmark = pytest.mark.asyncio(loop_scope="module")


class Crew(World):
    """The players and the gateway (``bot``), with the ``worker`` beside it."""

    worker: BotProcess


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def crew(
    tmp_path_factory: pytest.TempPathFactory, postgres_server: str
) -> AsyncIterator[Crew]:
    async with fresh_schema(postgres_server) as url:
        driver = RemoteDriver(intents(), token=TOKEN)
        await driver.open()
        try:
            driver.add_guild("Harbour")
            alice, bob = driver.add_user("alice"), driver.add_user("bob")
            unused = tmp_path_factory.mktemp("workers") / "unused.sqlite3"
            gateway = BotProcess(driver, unused, DATABASE_URL=url, ROLE="gateway")
            worker = BotProcess(driver, unused, arguments=("--worker",), DATABASE_URL=url)
            await gateway.start()
            await worker.start()
            world = Crew(driver, gateway, alice, bob, unused, url)
            world.worker = worker
            try:
                yield world
            finally:
                await worker.stop()
                await gateway.stop()
            assert not unused.exists(), "a process wrote to SQLite instead of PostgreSQL"
            assert driver.server.unhandled == [], "the bot called routes the stand-in lacks"
            assert driver.server.internal_errors == []
        finally:
            await driver.close()


def answers_naming(world: World, user: FakeUser, text: str, since: int) -> list[Sent]:
    """Everything only ``user`` sees after ``since`` (DMs, private answers) naming ``text``."""
    return [s for s in world.driver.private_to(user) if s.seq > since and names(s.content, text)]


async def ply_of(world: World, game_id: int) -> int:
    return (await world.game(game_id)).ply


async def set_up(world: Crew, challenger: FakeUser, opponent: FakeUser) -> GameRecord:
    """A game challenged in the server and set up by DM, every move played by the worker."""
    challenge = await world.challenge(challenger, opponent)
    await world.accept(opponent, challenge)
    accepted = re.search(r"game #(\d+) is on", world.driver.message(challenge.id).content)
    assert accepted is not None, world.driver.message(challenge.id).content
    game_id = int(accepted[1])
    for word in ("random", "ready"):
        for user in (challenger, opponent):
            ply = await ply_of(world, game_id)
            await world.driver.dm(user, word)
            await until(lambda ply=ply: _moved_past(world, game_id, ply))
    record = await world.game(game_id)
    assert state_of(record).phase is Phase.PLAY
    return record


async def shoot(
    world: Crew, game_id: int, *, by_command: bool, hit: bool = True, stalling: bool = False
) -> str:
    """Whoever is to move fires at a known hit (or miss); until the worker stored it."""
    record = await world.game(game_id)
    seat, shooter = world.shooter(record)
    fired = {cell_name(c) for c in state_of(record).shots[seat]}
    if hit:
        target = next(c for c in ship_cells(record, 1 - seat) if c not in fired)
    else:
        target = open_water(record, 1 - seat)[0]
    driver = world.driver
    if by_command:
        await driver.slash(shooter, "move", guild=False, text=target)
    elif stalling:  # a delivery waits out a rate limit: the bot is never idle meanwhile
        typed = driver.server.store_user_message(driver.dm_channel_id(shooter), shooter.id, target)
        driver.gateway.dispatch_message("MESSAGE_CREATE", typed)
    else:
        await driver.dm(shooter, target)
    await until(lambda: _moved_past(world, game_id, record.ply))
    return target


async def test_a_worker_killed_mid_game_and_restarted_loses_and_doubles_nothing(
    crew: Crew,
) -> None:
    driver = crew.driver
    record = await set_up(crew, crew.alice, crew.bob)
    live_id = record.public_message_id
    assert live_id is not None
    first = await shoot(crew, record.id, by_command=False)
    second = await shoot(crew, record.id, by_command=True)

    # The worker stores a shot and tells both players; the channel's edit stalls on a
    # long rate limit, and the worker is killed before the channel heard of the shot.
    record = await crew.game(record.id)
    seat, shooter = crew.shooter(record)
    rival = crew.seated(record, 1 - seat)
    shown_before = driver.message(live_id).content
    since = driver.server.last_seq
    driver.server.fail_next("PATCH", rf"^/channels/\d+/messages/{live_id}$", 429, retry_after=60)
    stalled = await shoot(crew, record.id, by_command=False, stalling=True)
    await until(lambda: _count_is(dms_naming(crew, rival, stalled, since), 1))
    await asyncio.sleep(0.3)
    assert driver.message(live_id).content == shown_before
    await crew.worker.kill()
    await crew.worker.start()

    await until(lambda: _changed(crew, live_id, shown_before))  # delivered after the restart
    rest = []
    while (await crew.game(record.id)).status is GameStatus.ACTIVE:  # DM and /move in turn
        rest.append(await shoot(crew, record.id, by_command=len(rest) % 2 == 1))
    await until(lambda: _all_told(crew))

    entries = [entry.text for entry in await crew.log(record.id)]
    shots = entries[4:]  # after both fleets dealt and confirmed
    assert shots == [first, second, stalled, *rest]
    edits = [s for s in driver.server.sent if s.seq > since and s.message_id == live_id]
    assert 1 <= len([s for s in edits if s.kind == "edit"]) <= len(rest) + 1  # may coalesce
    assert len(dms_naming(crew, rival, stalled, since)) == 1
    assert len(answers_naming(crew, shooter, stalled, since)) == 1
    assert (await crew.game(record.id)).status is GameStatus.FINISHED


async def test_without_a_worker_the_gateway_plays_waiting_moves_and_says_what_to_start(
    crew: Crew,
) -> None:
    carol, dave = crew.driver.add_user("carol"), crew.driver.add_user("dave")
    record = await set_up(crew, carol, dave)
    await crew.worker.kill()  # and no worker runs
    seat, shooter = crew.shooter(record)
    target = open_water(record, 1 - seat)[0]
    since = crew.driver.server.last_seq
    sent_at = time.monotonic()
    await crew.driver.dm(shooter, target)

    await until(lambda: _moved_past(crew, record.id, record.ply), timeout=STANDBY_SECONDS + 20)
    assert time.monotonic() - sent_at >= STANDBY_SECONDS * 0.9  # a worker would come first
    await until(lambda: _count_is(answers_naming(crew, shooter, target, since), 1))
    warnings = [line for line in crew.bot.lines if "python -m bot --worker" in line]
    assert len(warnings) == 1 and "WARNING" in warnings[0], warnings
    assert [entry.text for entry in await crew.log(record.id)].count(target) == 1
    await crew.worker.start()


async def _moved_past(world: World, game_id: int, ply: int) -> bool:
    return await ply_of(world, game_id) > ply


async def _count_is(found: list[Sent], count: int) -> bool:
    return len(found) == count


async def _changed(world: World, message_id: int, text: str) -> bool:
    return world.driver.message(message_id).content != text


async def _all_told(world: World) -> bool:
    async with world.store() as repository:
        assert isinstance(repository, PostgresRepository)
        return await repository.outbox.waiting() == 0 and await repository.queue.waiting() == 0
