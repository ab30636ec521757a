"""The channel's note to a player whose DMs are closed is sent once, like every message.

The note is posted while the player's notice is being sent: a process that stops after
Discord took the note but before the notice was retired sends the notice again after its
restart, which finds the DMs still closed and posts the note again. Its nonce, named by
the notice it stands for, lets Discord drop the second.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.cog_helpers import (
    channel_messages,
    game_in_play,
    give_turn_to,
    repository,
    shoot,
    stored_game,
)
from tests.discord_stub import DiscordDriver, FakeUser
from tests.test_cogs_restart import same_world

CANNOT_SEND = "I cannot send you your board"


async def test_a_restart_after_the_closed_dms_note_went_posts_it_once(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    game = await game_in_play(driver, alice, bob)
    await give_turn_to(driver, game.id, alice)
    driver.close_dms(bob)
    posted = driver.server.hold_answer("POST", rf"^/channels/{driver.channel_id}/messages$")
    driver.ignore_tasks(lambda task: "delivery lane" in driver.describe_task(task))

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
