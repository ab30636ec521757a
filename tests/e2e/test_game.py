"""Whole games against the bot as ``python -m bot`` runs it, over the loopback Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.core import Phase
from bot.storage import GameStatus, LogKind
from tests.support.cog_helpers import open_water, state_of
from tests.support.e2e_world import World, assert_never_pinged, running_bot


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with running_bot(tmp_path) as running:
        yield running


async def test_a_full_game_from_play_to_result_by_dm_and_by_move(world: World) -> None:
    driver, alice, bob = world.driver, world.alice, world.bob
    message = await world.challenge(alice, bob)
    assert message.mentions == [bob.payload]  # the challenge pings the opponent, no one else
    await world.accept(bob, message)
    assert "game #1 is on" in driver.message(message.id).content

    await driver.dm(alice, "random")
    await driver.dm(alice, "ready")
    await driver.slash(bob, "move", guild=False, text="random")
    await driver.slash(bob, "move", guild=False, text="ready")
    record = await world.game()
    assert state_of(record).phase is Phase.PLAY

    await world.shoot(record.id, hit=False)
    await world.shoot(record.id, hit=False, by_command=True)
    final = await world.play_out(record.id)

    assert final.status is GameStatus.FINISHED and final.winner is not None
    winner = world.seated(final, final.winner)
    channel = [m.content for m in driver.server.messages_in(driver.channel_id)]
    assert any(text.startswith("🏁") and "is over" in text for text in channel)
    assert driver.dms_to(winner)[-1].content.endswith("You won!")
    log = await world.log()
    assert len(log) == final.ply and all(entry.kind is LogKind.MOVE for entry in log)
    assert not driver.server.unhandled and not driver.server.internal_errors
    assert_never_pinged(world, 0, expected={bob.id})  # only the challenge pings, and only Bob


async def test_a_move_out_of_turn_is_refused_privately_and_changes_nothing(world: World) -> None:
    record = await world.game_in_play()
    seat, _ = world.shooter(record)
    waiting = world.seated(record, 1 - seat)
    target = open_water(record, seat)[0]
    seq = world.driver.server.last_seq

    await world.driver.dm(waiting, target)

    told = [s for s in world.driver.server.sent if s.seq > seq]
    assert [s.channel_id for s in told] == [world.driver.dm_channel_id(waiting)]
    assert "opponent" in (told[0].content or "").lower()
    after = await world.game()
    assert (after.ply, after.state) == (record.ply, record.state)
