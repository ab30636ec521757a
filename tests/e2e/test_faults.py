"""Faults as players and operators meet them, against the bot as ``python -m bot`` runs it.

A killed process, a dropped gateway, Discord's rate limits, closed DMs, strangers, racing
moves: every game goes on, nothing is lost, nothing counts twice, everyone gets an answer.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import GameStatus
from tests.support import e2e_world
from tests.support.cog_helpers import open_water, ship_cells, state_of
from tests.support.discord import Sent
from tests.support.e2e_world import World, running_bot


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with running_bot(tmp_path) as running:
        yield running


def sent_since(world: World, seq: int) -> list[Sent]:
    return [s for s in world.driver.server.sent if s.seq > seq]


until = functools.partial(e2e_world.until, timeout=15.0, every=0.02)
"""Polls as often as the delivery tests need to see each step."""


async def test_sigkill_mid_game_then_restart_loses_and_doubles_nothing(world: World) -> None:
    driver = world.driver
    record = await world.game_in_play()
    carol, dave = driver.add_user("carol"), driver.add_user("dave")
    await world.accept(dave, await world.challenge(carol, dave))  # a second game, in setup
    await driver.dm(carol, "random")
    await world.shoot(record.id, hit=False)
    live_id = (await world.game()).public_message_id
    assert live_id is not None
    # The channel's edit stalls on a long rate limit, so the bot dies after storing the
    # move and telling the players, before the channel heard of it.
    driver.server.fail_next("PATCH", rf"^/channels/\d+/messages/{live_id}$", 429, retry_after=60)
    stored_before = await world.game()
    shown_before = driver.message(live_id).content
    seat = state_of(stored_before).turn
    assert seat is not None
    target = open_water(stored_before, 1 - seat)[0]
    dm = driver.dm_channel_id(world.seated(stored_before, seat))
    move = driver.server.store_user_message(dm, stored_before.seats[seat], target)
    driver.gateway.dispatch_message("MESSAGE_CREATE", move)
    await until(lambda: _ply_is(world, stored_before.ply + 1))
    await asyncio.sleep(0.3)
    assert driver.message(live_id).content == shown_before

    await world.bot.kill()
    await world.bot.start()

    await until(lambda: _changed(world, live_id, shown_before))  # delivered after the restart
    after = await world.game()
    assert after.ply == stored_before.ply + 1 and after.status is GameStatus.ACTIVE
    board = await driver.click(world.alice, live_id, f"board:{record.id}")  # an old button
    assert board.ephemeral and board.original is not None and board.original.attachments
    final = await world.play_out(record.id)
    log = await world.log()
    assert [entry.ply for entry in log] == list(range(1, final.ply + 1))
    assert log[stored_before.ply].text == target  # the stalled move, stored once
    assert final.status is GameStatus.FINISHED

    for user, move in ((dave, "random"), (dave, "ready"), (carol, "ready")):
        await driver.dm(user, move)
    second = await world.game(2)
    assert [entry.text for entry in await world.log(2)] == ["random", "random", "ready", "ready"]
    assert state_of(second).phase.value == "play"


async def _ply_is(world: World, ply: int) -> bool:
    return (await world.game()).ply == ply


async def _changed(world: World, message_id: int, text: str) -> bool:
    return world.driver.message(message_id).content != text


async def test_the_gateway_drops_and_the_bot_resumes_with_the_missed_move(world: World) -> None:
    driver = world.driver
    record = await world.game_in_play()
    seat, shooter = world.shooter(record)
    target = open_water(record, 1 - seat)[0]

    driver.gateway.drop()
    await driver.dm(shooter, target)  # sent while the bot is away: replayed on RESUME

    assert (driver.gateway.identifies, driver.gateway.resumes) == (1, 1)
    assert (await world.game()).ply == record.ply + 1
    assert target in driver.dms_to(shooter)[-1].content


async def test_a_429_makes_the_bot_wait_and_the_message_arrives_once(world: World) -> None:
    driver = world.driver
    record = await world.game_in_play()
    seat, shooter = world.shooter(record)
    target = open_water(record, 1 - seat)[0]
    channel = driver.dm_channel_id(shooter)
    driver.server.fail_next("POST", rf"^/channels/{channel}/messages$", 429, retry_after=0.5)
    seq = driver.server.last_seq

    await driver.dm(shooter, target)

    assert [f.status for f in driver.server.fired_failures] == [429]
    to_shooter = [s for s in sent_since(world, seq) if s.channel_id == channel]
    assert len(to_shooter) == 1 and target in (to_shooter[0].content or "")
    assert (await world.game()).ply == record.ply + 1


async def test_two_moves_at_the_same_instant_exactly_one_applies(world: World) -> None:
    driver = world.driver
    record = await world.game_in_play()
    seat = state_of(record).turn
    assert seat is not None
    shooter = world.seated(record, seat)
    first, second = open_water(record, 1 - seat)[:2]  # two misses: only one can be played
    dm = driver.dm_channel_id(shooter)
    for text in (first, second):
        message = driver.server.store_user_message(dm, shooter.id, text)
        driver.gateway.dispatch_message("MESSAGE_CREATE", message)
    await driver.settle()

    after = await world.game()
    assert after.ply == record.ply + 1
    log = await world.log()
    assert log[-1].text in (first, second)
    assert "opponent" in driver.dms_to(shooter)[-1].content.lower()


async def test_strangers_get_a_private_answer_and_change_nothing(world: World) -> None:
    driver = world.driver
    carol = driver.add_user("carol")
    challenge = await world.challenge(world.alice, world.bob)
    answer = await driver.click(carol, challenge.id, f"challenge:accept:{1}")
    assert answer.ephemeral and answer.content == "This challenge is not addressed to you."
    await world.accept(world.bob, challenge)
    for user in (world.alice, world.bob):
        await driver.dm(user, "random")
        await driver.dm(user, "ready")
    record = await world.game()
    live_id = record.public_message_id
    assert live_id is not None
    seq = driver.server.last_seq

    clicked = await driver.click(carol, live_id, f"board:{record.id}")
    assert clicked.ephemeral and clicked.content is not None
    assert f"You are not playing in game #{record.id}, so here is its public" in clicked.content
    await driver.dm(carol, "A1")
    assert driver.dms_to(carol)[-1].content.startswith("You have no game running.")
    await driver.dm(carol, f"#{record.id} A1")
    assert driver.dms_to(carol)[-1].content == f"You are not playing in game #{record.id}."
    after = await world.game()
    assert (after.ply, after.state) == (record.ply, record.state)
    told = sent_since(world, seq)
    assert len(told) == 3 and all(s.user_id == carol.id for s in told)
    assert all(s.ephemeral or s.channel_id == driver.dm_channel_id(carol) for s in told)


async def test_closed_dms_at_the_start_call_the_game_off(world: World) -> None:
    driver = world.driver
    driver.close_dms(world.bob)
    challenge = await world.challenge(world.alice, world.bob)
    await world.accept(world.bob, challenge)
    await driver.settle()

    record = await world.game(1)
    assert (record.status, record.end_reason) == (GameStatus.FINISHED, "aborted")
    ended = [m.content or "" for m in driver.server.messages_in(driver.channel_id)]
    assert any(
        f"I cannot send <@{world.bob.id}> direct messages, so the game is called off" in text
        for text in ended
    )
    assert driver.dms_to(world.bob) == []


async def test_closed_dms_mid_game_keep_the_move_and_say_who_must_open_them(
    world: World,
) -> None:
    driver = world.driver
    record = await world.game_in_play()
    seat = state_of(record).turn
    assert seat is not None
    rival = world.seated(record, 1 - seat)
    driver.close_dms(rival)
    target = ship_cells(record, 1 - seat)[0]
    seq = driver.server.last_seq

    await driver.dm(world.seated(record, seat), target)

    assert (await world.game()).ply == record.ply + 1  # the move stands
    in_channel = [s for s in sent_since(world, seq) if s.channel_id == driver.channel_id]
    warning = next(s for s in in_channel if "I cannot send you your board" in (s.content or ""))
    assert warning.mentioned_user_ids == [rival.id]
    driver.open_dms(rival)
    board = await driver.slash(rival, "board", guild=False)
    assert board.original is not None and board.original.attachments
