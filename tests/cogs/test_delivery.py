"""Delivery as players meet it in the cogs: slow answers, late interactions, gone channels.

A stored move is never reported to its mover as failed: a slow answer is deferred and
follows, an interaction answered too late falls back to a DM, and a channel that was
deleted is given up on with one log line while the players play on by DM.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.referee import Referee, Report
from tests.support.cog_helpers import (
    cell,
    game_in_play,
    open_water,
    player,
    render_for,
    seat_to_move,
    state_of,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser


async def test_a_slow_move_is_deferred_and_its_answer_follows(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await game_in_play(driver, alice, bob)
    seat = seat_to_move(record)
    target = open_water(record, 1 - seat)[0]
    monkeypatch.setattr("cogs.replies.DEFER_AFTER", 0.05)
    act = Referee.act

    async def slow_act(self: Referee, *args: object, **kwargs: object) -> Report:
        await asyncio.sleep(0.3)  # a busy machine
        return await act(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Referee, "act", slow_act)
    result = await driver.slash(player(driver, record, seat), "move", guild=False, text=target)

    assert result.callback_type == 5  # "thinking...", then the answer
    assert result.original is not None and not result.original.loading
    assert result.original.content.startswith(f"**Sea Battle #{record.id}**\n{target}: miss.")
    after = await stored_game(driver, record.id)
    assert result.original.attachments[0].data == render_for(after, seat)


async def test_an_interaction_answered_too_late_falls_back_to_a_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    record = await game_in_play(driver, alice, bob)
    seat = seat_to_move(record)
    shooter = player(driver, record, seat)
    target = open_water(record, 1 - seat)[0]
    driver.server.interaction_deadline = 0.0  # Discord has dropped it by the time we answer
    dms_before = len(driver.dms_to(shooter))

    result = await driver.slash(shooter, "move", guild=False, text=target)

    assert not result.acknowledged
    after = await stored_game(driver, record.id)
    assert after.ply == record.ply + 1
    told = driver.dms_to(shooter)[dms_before:]
    assert [m.content.split("\n")[1] for m in told] == [
        f"{target}: miss. Your opponent shoots next."
    ]
    assert told[0].attachments[0].data == render_for(after, seat)
    assert not any("went wrong" in m.content for m in driver.dms_to(shooter))


async def test_a_deleted_channel_is_given_up_with_one_log_line_and_play_goes_on(
    driver: DiscordDriver,
    alice: FakeUser,
    bob: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    record = await game_in_play(driver, alice, bob)
    del driver.server.channels[driver.channel_id]  # a moderator deleted it
    with caplog.at_level(logging.INFO, "referee.deliverer"):
        for _ in range(2):
            current = await stored_game(driver, record.id)
            seat = seat_to_move(current)
            target = open_water(current, 1 - seat)[0]
            await driver.dm(player(driver, current, seat), target)
            assert cell(target) in state_of(await stored_game(driver, record.id)).shots[seat]
    retired = [r.getMessage() for r in caplog.records if "retired" in r.getMessage()]
    assert len(retired) == 2 and all("the channel" in line and "10003" in line for line in retired)
    assert not any("retrying" in r.getMessage() for r in caplog.records)
    assert await driver.client.repository.outbox.waiting() == 0  # type: ignore[attr-defined]
    last = driver.dms_to(alice)[-1].content
    assert last.startswith(f"**Sea Battle #{record.id}**")
