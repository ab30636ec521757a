"""The channel's note to a player whose DMs are closed is sent once, like every message.

The note is stored for the channel when the player's notice cannot be sent, once per
public change, and posted by the channel's backlog like its other posts: a process that stops
after Discord took the note but before it was released posts it again under the same
nonce, which Discord drops; one that stops before it was posted posts it after the restart.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage.outbox import Backlog
from tests.cogs.test_restart import same_world
from tests.support.cog_helpers import (
    channel_messages,
    game_in_play,
    give_turn_to,
    repository,
    shoot,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser

CANNOT_SEND = "I cannot send you your board"


async def test_a_restart_after_the_closed_dms_note_went_posts_it_once(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    game = await game_in_play(driver, alice, bob)
    await give_turn_to(driver, game.id, alice)
    driver.close_dms(bob)
    posted = driver.server.hold_answer("POST", rf"^/channels/{driver.channel_id}/messages$")
    driver.ignore_tasks(lambda task: "delivery backlog" in driver.describe_task(task))

    await shoot(driver, game.id, hit=False)
    async with asyncio.timeout(10):
        await posted.reached.wait()
    await driver.close()  # stopped after Discord took the note, before the notice retired
    posted.released.set()

    async with same_world(database, driver) as new:
        await new.settle()
        notes = [m for m in channel_messages(new) if CANNOT_SEND in m.content]
        assert [m.content.split(",")[0] for m in notes] == [bob.mention]
        assert await repository(new).outbox.waiting() == 0
        assert (await stored_game(new, game.id)).ply > game.ply


async def test_the_closed_dms_note_stored_before_a_restart_is_posted_once_after_it(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    """The note is stored for the channel like any notice, so a process that stops after
    the failed DM but before the note could go out posts it after its restart, once, and
    after the channel's news of the move that came before it."""
    game = await game_in_play(driver, alice, bob)
    await give_turn_to(driver, game.id, alice)
    driver.close_dms(bob)
    every = 10**6
    refused = driver.server.fail_next(
        "POST", rf"^/channels/{driver.channel_id}/messages$", 500, times=every
    )
    driver.ignore_tasks(lambda task: "delivery backlog" in driver.describe_task(task))

    await shoot(driver, game.id, hit=False)
    async with asyncio.timeout(10):
        while refused.remaining == every:  # the note was asked for, and not posted
            await asyncio.sleep(0.01)
    # Bob's notice is retired; the note waits for the channel, stored, not posted.
    assert await repository(driver).outbox.backlogs() == [Backlog(game.id, None)]
    await driver.close()
    refused.remaining = 0
    assert [m for m in channel_messages(driver) if CANNOT_SEND in m.content] == []

    async with same_world(database, driver) as new:
        await new.settle()
        posted = channel_messages(new)
        notes = [m for m in posted if CANNOT_SEND in m.content]
        assert [m.content.split(",")[0] for m in notes] == [bob.mention]
        assert posted[-1] is notes[0]  # after the live message of the move before it
        assert all(CANNOT_SEND not in m.content for m in posted[:-1])  # never the live text
        assert await repository(new).outbox.waiting() == 0
