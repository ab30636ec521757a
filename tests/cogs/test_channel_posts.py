"""What the channel keeps as messages of its own, however its live message's edits merge.

The live message shows the newest state only: changes stored while its edit is held up go
out as one edit. The seals posted when play begins, the end announcement and the seals'
opening are posts of their own, so each must still reach the channel once and in order,
whatever changes its edit was merged with, and across a restart between the posts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.fairness import OPENED, SEALED
from bot.storage import GameRecord, GameStatus
from tests.cogs.test_restart import same_world
from tests.support.cog_helpers import (
    channel_messages,
    in_channel_since,
    live_message,
    open_water,
    player,
    repository,
    resign,
    seat_to_move,
    start_game,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser, StoredMessage
from tests.support.discord.injections import HeldAnswer


def channel_posts(driver: DiscordDriver, game: GameRecord) -> list[str]:
    """The game's messages of their own in the channel, each named by what it is."""
    kinds = []
    for message in channel_messages(driver, seals=True):
        if message.id == game.public_message_id or message.content.startswith("<@"):
            continue  # the live message, and the challenge
        if SEALED in message.content:
            kinds.append("sealed")
        elif OPENED in message.content:
            kinds.append("opened")
        elif message.content.startswith(f"🏁 **Sea Battle #{game.id}** is over."):
            kinds.append("end")
        else:
            kinds.append(message.content)
    return kinds


def hold_channel_backlog(driver: DiscordDriver, game: GameRecord) -> Callable[[], None]:
    """Let the driver settle while the game's channel backlog waits on Discord; returns how
    to wait for it again."""
    holding = [True]
    backlog = f"delivery backlog {game.id}/None"
    driver.ignore_tasks(lambda task: holding[0] and backlog in driver.describe_task(task))
    return lambda: holding.__setitem__(0, False)


async def reached(held: HeldAnswer) -> None:
    async with asyncio.timeout(10):
        await held.reached.wait()


async def setup_edit_held(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> tuple[GameRecord, HeldAnswer, Callable[[], None]]:
    """Both fleets dealt and bob's confirmed, its edit of the live message served but its
    answer held: the channel backlog is busy with it while play begins."""
    game = await start_game(driver, alice, bob)
    await driver.dm(alice, "random")
    await driver.dm(bob, "random")
    live_id = (await stored_game(driver, game.id)).public_message_id
    held = driver.server.hold_answer("PATCH", rf"^/channels/\d+/messages/{live_id}$")
    stop_holding = hold_channel_backlog(driver, game)
    await driver.dm(bob, "ready")
    await reached(held)
    await driver.dm(alice, "ready")  # play begins: the seals are stored for everyone
    return await stored_game(driver, game.id), held, stop_holding


async def first_shot_misses(driver: DiscordDriver, game: GameRecord) -> StoredMessage:
    seat = seat_to_move(game)
    return await driver.dm(player(driver, game, seat), open_water(game, 1 - seat)[0])


async def test_the_seals_reach_the_channel_when_play_begins_in_a_merged_edit(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    begun, held, stop_holding = await setup_edit_held(driver, alice, bob)
    seq = driver.server.last_seq
    await first_shot_misses(driver, begun)
    stop_holding()
    held.released.set()
    await driver.settle()

    record = await stored_game(driver, begun.id)
    live = live_message(driver, record)
    edits = [s for s in in_channel_since(driver, seq) if s.message_id == live.id]
    assert len(edits) == 1  # the start of play and the first shot went as one edit
    assert SEALED not in live.content and "miss" in live.content
    assert channel_posts(driver, record) == ["sealed"]
    (sealed,) = [m for m in channel_messages(driver, seals=True) if SEALED in m.content]
    told = driver.dms_to(player(driver, record, 0))
    seal_line = next(line for m in told for line in m.content.split("\n") if SEALED in line)
    assert sealed.content == f"**Sea Battle #{record.id}** {seal_line}"


async def test_the_seals_merged_with_the_end_come_before_the_announcement_and_the_opening(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    begun, held, stop_holding = await setup_edit_held(driver, alice, bob)
    await first_shot_misses(driver, begun)
    await resign(driver, player(driver, begun, 0))
    stop_holding()
    held.released.set()
    await driver.settle()

    record = await stored_game(driver, begun.id)
    assert record.status is GameStatus.FINISHED
    assert channel_posts(driver, record) == ["sealed", "end", "opened"]
    assert await repository(driver).outbox.waiting() == 0


@pytest.mark.parametrize("taken", [1, 2, 3])
async def test_a_restart_between_the_posts_of_a_merged_edit_posts_each_once(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path, taken: int
) -> None:
    """The start of play, the first shot and a resignation go out as one edit with three
    posts: the seals, the end's announcement and the opening. Discord took the first
    ``taken`` of them, but the bot stopped before it heard so: the restarted bot sends
    the merged edit and its posts again, and Discord drops those it has by their nonce."""
    begun, held, stop_holding = await setup_edit_held(driver, alice, bob)
    await first_shot_misses(driver, begun)
    await resign(driver, player(driver, begun, 0))
    posts = rf"^/channels/{driver.channel_id}/messages$"
    asked_before = len(driver.server.requests)
    posted = driver.server.hold_answer("POST", posts)
    held.released.set()
    for _ in range(taken - 1):
        await reached(posted)
        earlier, posted = posted, driver.server.hold_answer("POST", posts)
        earlier.released.set()
    await reached(posted)
    await driver.close()  # stopped after Discord took the post, before the release
    posted.released.set()
    stop_holding()

    async with same_world(database, driver) as new:
        await new.settle()
        record = await stored_game(new, begun.id)
        sent = [
            r
            for r in new.server.requests[asked_before:]
            if (r.method, r.path) == ("POST", f"/channels/{new.channel_id}/messages")
        ]
        assert len(sent) == taken + 3  # those taken, then all three again
        assert channel_posts(new, record) == ["sealed", "end", "opened"]
        assert await repository(new).outbox.waiting() == 0
