"""Two ``python -m bot`` processes on shards 0 and 1 of 2, sharing one PostgreSQL database.

Discord sends each server's events to its shard's process and every DM to shard 0, so a
game challenged in a server on shard 1 is set up and played by DM through the other
process: any process acts on any game, a move that reaches both at once counts once, and
a process killed mid-delivery loses and doubles nothing, whether it comes back to deliver
what it left or the other process delivers it first.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import NamedTuple

import pytest
import pytest_asyncio

from bot.storage import GameRecord, GameStatus
from tests.conftest import fresh_schema
from tests.support.cog_helpers import names, open_water, ship_cells
from tests.support.discord import FakeUser, InteractionResult
from tests.support.e2e_world import ShardedWorld, dms_naming, running_shards, until

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shards(
    tmp_path_factory: pytest.TempPathFactory, postgres_server: str
) -> AsyncIterator[ShardedWorld]:
    """One pair of processes for the module (starting two bots is most of a test's cost);
    each test plays games of its own between players of its own."""
    async with (
        fresh_schema(postgres_server) as url,
        running_shards(tmp_path_factory.mktemp("shards"), url) as running,
    ):
        yield running


def newcomers(world: ShardedWorld, *names: str) -> tuple[FakeUser, FakeUser]:
    """Two players with no game yet."""
    first, second = (world.driver.add_user(name) for name in names)
    return first, second


def heard_on(world: ShardedWorld, shard: int, interaction: InteractionResult) -> bool:
    """Whether the interaction reached the process serving ``shard`` (over any of the
    sessions that shard had)."""
    sessions = world.driver.gateway.sessions.values()
    return any(
        e["t"] == "INTERACTION_CREATE" and e["d"]["id"] == str(interaction.id)
        for session in sessions
        if session.shard[0] == shard
        for e in session.events
    )


async def test_games_in_servers_on_both_shards_are_played_through_either_process(
    shards: ShardedWorld,
) -> None:
    driver = shards.driver
    harbour, lagoon = shards.servers
    first = await shards.game_in_play((shards.alice, shards.bob), harbour)
    second = await shards.game_in_play(newcomers(shards, "carol", "dave"), lagoon)
    assert (first.guild_id, second.guild_id) == (harbour.id, lagoon.id)

    seat, shooter = shards.shooter(second)
    target = ship_cells(second, 1 - seat)[0]
    shot = await driver.slash(shooter, "move", guild=lagoon, text=target)  # to shard 1
    assert heard_on(shards, 1, shot) and not heard_on(shards, 0, shot)
    assert shot.ephemeral
    moved = await shards.game(second.id)
    assert moved.ply == second.ply + 1 and (await shards.log(second.id))[-1].text == target
    seat, shooter = shards.shooter(moved)
    follow = open_water(moved, 1 - seat)[0]
    since = driver.server.last_seq
    await driver.dm(shooter, follow)  # a DM: to shard 0, for a game of shard 1's server
    assert (await shards.game(second.id)).ply == moved.ply + 1
    assert len(dms_naming(shards, shooter, follow, since)) == 1

    seat, shooter = shards.shooter(first)
    await driver.dm(shooter, open_water(first, 1 - seat)[0])
    assert (await shards.game(first.id)).ply == first.ply + 1
    for record in (first, second):
        live = (await shards.game(record.id)).public_message_id
        assert live is not None
        assert driver.server.channels[driver.message(live).channel_id].guild_id == record.guild_id
    assert sorted(driver.gateway.shards) == [0, 1]
    assert {s.shard for s in driver.gateway.sessions.values()} == {(0, 2), (1, 2)}


async def test_one_move_sent_to_both_processes_at_once_applies_once(
    shards: ShardedWorld,
) -> None:
    driver = shards.driver
    lagoon = shards.servers[1]
    record = await shards.game_in_play(newcomers(shards, "erin", "frank"), lagoon)
    seat, shooter = shards.shooter(record)
    target = open_water(record, 1 - seat)[0]
    await driver.settle()
    since = driver.server.last_seq
    known = set(driver.server.interactions)

    by_command = asyncio.create_task(driver.slash(shooter, "move", guild=lagoon, text=target))
    while set(driver.server.interactions) == known:  # the interaction is on its way
        await asyncio.sleep(0)
    typed = driver.server.store_user_message(driver.dm_channel_id(shooter), shooter.id, target)
    driver.gateway.dispatch_message("MESSAGE_CREATE", typed)  # and the same move by DM
    answer = await by_command
    await driver.settle()

    assert heard_on(shards, 1, answer)
    after = await shards.game(record.id)
    assert after.ply == record.ply + 1
    assert [entry.text for entry in await shards.log(record.id)].count(target) == 1
    refusals = [
        text
        for text in [answer.content, *(s.content for s in dms_naming(shards, shooter, "", since))]
        if text and "opponent's turn" in text
    ]
    assert len(refusals) == 1, refusals


class StalledShot(NamedTuple):
    record: GameRecord
    live_id: int
    seat: int
    shooter: FakeUser
    rival: FakeUser
    target: str
    shown_before: str
    since: int
    shot: asyncio.Task[InteractionResult]


async def shot_with_the_channel_stalled(shards: ShardedWorld, *players: str) -> StalledShot:
    """Two newcomers' game in a server on shard 1, whose shooter fires by ``/move`` there
    while the channel's edit stalls on a long rate limit: the move is stored and told to
    the players, but the channel has not heard of it yet."""
    driver = shards.driver
    lagoon = shards.servers[1]
    record = await shards.game_in_play(newcomers(shards, *players), lagoon)
    live_id = record.public_message_id
    assert live_id is not None
    seat, shooter = shards.shooter(record)
    rival = shards.seated(record, 1 - seat)
    target = open_water(record, 1 - seat)[0]
    shown_before = driver.message(live_id).content
    since = driver.server.last_seq
    driver.server.fail_next("PATCH", rf"^/channels/\d+/messages/{live_id}$", 429, retry_after=60)
    shot = asyncio.create_task(driver.slash(shooter, "move", guild=lagoon, text=target))
    return StalledShot(record, live_id, seat, shooter, rival, target, shown_before, since, shot)


async def test_sigkill_of_one_process_mid_delivery_loses_and_doubles_nothing(
    shards: ShardedWorld,
) -> None:
    driver = shards.driver
    # The channel's edit stalls on a long rate limit, so the shard-1 process dies after
    # storing the move and telling the players, before the channel heard of it.
    stalled = await shot_with_the_channel_stalled(shards, "grace", "heidi")
    record, live_id, seat, shooter, rival, target, shown_before, since, shot = stalled
    await until(lambda: _ply_is(shards, record.id, record.ply + 1))
    await until(lambda: _dm_count_is(shards, rival, target, since, 1))
    await asyncio.sleep(0.3)
    assert driver.message(live_id).content == shown_before

    await shards.second.kill()
    assert driver.gateway.shard_connected(0) and not driver.gateway.shard_connected(1)
    await shards.second.start()

    await until(lambda: _changed(shards, live_id, shown_before))  # delivered after the restart
    assert (await shot).ephemeral and heard_on(shards, 1, await shot)
    await driver.settle()
    after = await shards.game(record.id)
    assert after.ply == record.ply + 1 and after.status is GameStatus.ACTIVE
    assert [entry.text for entry in await shards.log(record.id)].count(target) == 1
    edits = [s for s in driver.server.sent if s.seq > since and s.message_id == live_id]
    assert len([s for s in edits if s.kind == "edit"]) == 1
    told = [s for s in driver.private_to(shooter) if s.seq > since and names(s.content, target)]
    assert [s.kind for s in told] == ["response"]  # the answer to /move, and no DM besides
    assert len(dms_naming(shards, rival, target, since)) == 1
    async with shards.store() as repository:
        assert await repository.outbox.waiting() == 0

    seat, shooter = shards.shooter(after)  # the game goes on, by DM through shard 0
    await driver.dm(shooter, open_water(after, 1 - seat)[0])
    assert (await shards.game(record.id)).ply == after.ply + 1


async def test_while_one_process_is_down_the_other_delivers_what_it_left_once(
    shards: ShardedWorld,
) -> None:
    driver = shards.driver
    stalled = await shot_with_the_channel_stalled(shards, "ivan", "judy")
    record, live_id, seat, shooter, rival, target, shown_before, since, shot = stalled
    await until(lambda: _dm_count_is(shards, rival, target, since, 1))
    await asyncio.sleep(0.3)
    await shards.second.kill()  # it claimed the channel's notice and never sent it

    # The rival answers by DM while the shard-1 process is down: the shard-0 process
    # stores the answer and tells the channel both moves in one edit.
    answer = open_water(await shards.game(record.id), seat)[0]
    typed = driver.server.store_user_message(driver.dm_channel_id(rival), rival.id, answer)
    driver.gateway.dispatch_message("MESSAGE_CREATE", typed)
    await until(lambda: _ply_is(shards, record.id, record.ply + 2))
    await until(lambda: _changed(shards, live_id, shown_before))
    shown = driver.message(live_id).content

    await shards.second.start()
    await shot
    await driver.settle()
    assert driver.message(live_id).content == shown
    edits = [s for s in driver.server.sent if s.seq > since and s.message_id == live_id]
    assert [s.kind for s in edits] == ["edit"]
    # The rival heard of the shot and of her own answer, the shooter of the answer: once each.
    assert len(dms_naming(shards, rival, "", since)) == 2
    assert len(dms_naming(shards, shooter, "", since)) == 1
    assert [entry.text for entry in await shards.log(record.id)][-2:] == [target, answer]
    async with shards.store() as repository:
        assert await repository.outbox.waiting() == 0


async def _changed(world: ShardedWorld, message_id: int, text: str) -> bool:
    return world.driver.message(message_id).content != text


async def _ply_is(world: ShardedWorld, game_id: int, ply: int) -> bool:
    return (await world.game(game_id)).ply == ply


async def _dm_count_is(
    world: ShardedWorld, user: FakeUser, text: str, since: int, count: int
) -> bool:
    return len(dms_naming(world, user, text, since)) == count
