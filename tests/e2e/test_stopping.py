"""Stopping the bot as operators do (Ctrl-C, or SIGTERM from a service manager), in the
middle of whatever it is doing: it exits by itself at once, and nothing is lost.

Each test catches the bot in one state (a move in hand, a notice waiting out a long
Retry-After, the computer deep in thought), stops it, and starts it again: what was not
told is told once and in order, and what was not played is played. ``BotProcess.stop``
fails if the bot does not exit by itself, so a hang cannot pass for a slow stop.
"""

from __future__ import annotations

import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import COMPUTER_SEAT
from tests.e2e.test_computer import (
    PERSON,
    REPOSITORY,
    SLOW_COMPUTER,
    movers,
    restarted_until_the_computer_moves,
    the_computer_thinking,
)
from tests.e2e.test_delivery import all_delivered, next_shot, ply_passes, send_dm, shot_played
from tests.support.delivery_checks import assert_told_exactly_once_in_order
from tests.support.e2e_world import World, running_bot, until

SIGNALS = [pytest.param(signal.SIGINT, id="SIGINT"), pytest.param(signal.SIGTERM, id="SIGTERM")]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with running_bot(tmp_path) as running:
        yield running


@pytest.mark.parametrize("how", SIGNALS)
async def test_stopped_in_the_middle_of_moves_it_plays_and_tells_them_after_the_start(
    world: World, how: signal.Signals
) -> None:
    driver = world.driver
    record = await world.game_in_play()
    rng = random.Random(7)
    for _ in range(3):
        await shot_played(world, record.id, rng)
    seat, target = next_shot(await world.game(record.id), rng)
    before = await world.game(record.id)
    send_dm(world, world.seated(before, int(seat)), target)  # and stop while it is played
    took = await world.bot.stop(how)
    print(f"STOPPED in {took:.2f} s")

    await world.bot.start()
    await ply_passes(world, record.id, before.ply)  # played then, or read from the DMs now
    await all_delivered(world)
    final = await world.game(record.id)
    log = await world.log(record.id)
    assert log[-1].text == target and final.ply == before.ply + 1
    await assert_told_exactly_once_in_order(driver, final, log)


@pytest.mark.parametrize("how", SIGNALS)
async def test_stopped_while_discord_asks_it_to_wait_a_minute_it_tells_after_the_start(
    world: World, how: signal.Signals
) -> None:
    driver = world.driver
    record = await world.game_in_play()
    # Every message and edit is answered "retry after 60 s": the notices wait in hand.
    driver.server.fail_next("*", r"^/channels/\d+/messages", 429, retry_after=60, times=3)
    seat, target = next_shot(record, random.Random(2))
    send_dm(world, world.seated(record, int(seat)), target)
    await ply_passes(world, record.id, record.ply)

    async def waiting_out_a_429() -> bool:
        return bool(driver.server.fired_failures)

    await until(waiting_out_a_429)
    took = await world.bot.stop(how)
    print(f"STOPPED in {took:.2f} s")
    driver.server._failures.clear()  # the minute is over

    await world.bot.start()
    await all_delivered(world)
    assert [f.status for f in driver.server.fired_failures] == [429] * len(
        driver.server.fired_failures
    )
    final = await world.game(record.id)
    await assert_told_exactly_once_in_order(driver, final, await world.log(record.id))


@pytest.mark.parametrize("how", SIGNALS)
async def test_stopped_while_the_computer_thinks_it_moves_once_after_the_start(
    tmp_path: Path, how: signal.Signals
) -> None:
    async with running_bot(
        tmp_path, PYTHONPATH=f"{SLOW_COMPUTER}:{REPOSITORY}", COMPUTER_THINKS_SECONDS="60"
    ) as world:
        before = await the_computer_thinking(world)
        took = await world.bot.stop(how)  # a minute of thought to go: it must not wait for it
        print(f"STOPPED in {took:.2f} s")
        assert (await world.game()).ply == before.ply

        await restarted_until_the_computer_moves(world, before)
        log = await world.log()
        assert [entry.seat for entry in log[before.ply :]] == [COMPUTER_SEAT]
        assert movers(await world.game()) == {PERSON}
