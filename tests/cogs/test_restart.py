"""A restart of the bot mid-game: everything lives in the database, nothing in memory.

The first session runs on the ``driver`` fixture; it is then closed (the bot process ends
and its database connection closes) and a NEW bot is built on the same database file.
Two kinds of restart matter:

* the bot alone restarts while Discord keeps every message and button (a deploy), and
* the bot comes back to a world where its old messages are gone (deleted by moderators,
  or here a fresh loopback server). Users, the server and its channel keep their ids, as
  on Discord; only message ids from before no longer resolve.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.games.core import Phase
from bot.storage import GameRecord, GameStatus
from tests.conftest import make_bot
from tests.support.cog_helpers import (
    challenge_message,
    channel_messages,
    game_in_play,
    in_channel_since,
    open_water,
    plant_button,
    player,
    png_of,
    render_for,
    seat_to_move,
    ship_cells,
    shoot,
    start_game,
    state_of,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser

SETUP_MOVES = 4
"""``random`` and ``ready`` for each seat: the log entries before the first shot."""


@asynccontextmanager
async def fresh_world(
    database: Path, old: DiscordDriver
) -> AsyncIterator[tuple[DiscordDriver, FakeUser, FakeUser]]:
    """A new bot on ``database`` against a new loopback Discord with the same people.

    The server and users are created in the same order as the ``driver``, ``alice`` and
    ``bob`` fixtures did, so the fake server hands out the same ids; message ids are then
    moved past every id of the old world so no old message id can resolve by accident.
    """
    old_ids = [*old.server.messages, *old.server.deleted, *old.server.interactions]
    async with DiscordDriver.start(make_bot(database)) as driver:
        driver.add_guild("Harbour")
        await driver.settle()
        alice = driver.add_user("alice")
        bob = driver.add_user("bob")
        assert (driver.guild_id, driver.channel_id) == (old.guild_id, old.channel_id)
        assert [u.id for u in (alice, bob)] == list(old.users)[:2]
        while driver.server.next_id() <= max(old_ids):
            pass
        yield driver, alice, bob
        assert driver.server.unhandled == []


@asynccontextmanager
async def same_world(database: Path, old: DiscordDriver) -> AsyncIterator[DiscordDriver]:
    """A new bot on ``database`` against the very Discord the old one used, messages and all."""
    driver = DiscordDriver(make_bot(database), server=old.server)
    driver.guilds.extend(old.guilds)
    driver.users.update(old.users)
    async with driver:
        yield driver
        assert driver.server.unhandled == []


async def test_game_continues_where_it_stood_on_a_fresh_discord(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    """Same turn, same shots, no double count; the lost live message is posted anew."""
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=False)
    shooter, hit = await shoot(driver, game.id, hit=True)
    before = await stored_game(driver, game.id)
    log_before = await stored_log(driver, game.id)
    old_live = before.public_message_id
    assert before.ply == len(log_before) == SETUP_MOVES + 2
    await driver.close()

    async with fresh_world(database, driver) as (new, alice, bob):
        record = await stored_game(new, game.id)
        assert (record.ply, record.state, record.status) == (
            before.ply,
            before.state,
            GameStatus.ACTIVE,
        )
        assert await stored_log(new, game.id) == log_before
        shooter = new.users[shooter.id]
        assert player(new, record, seat_to_move(record)) == shooter  # the hit kept the turn

        board = await new.slash(alice, "board")
        assert board.ephemeral and board.original is not None
        assert png_of(new, board.original.id) == render_for(record, 0)

        await new.dm(shooter, hit)
        assert new.dms_to(shooter)[-1].content == (
            f"You have already shot at {hit}; pick another cell."
        )
        assert (await stored_game(new, game.id)).ply == before.ply

        seq = new.server.last_seq
        water = open_water(record, 1 - seat_to_move(record))[0]
        await new.dm(shooter, water)

        after = await stored_game(new, game.id)
        assert after.ply == before.ply + 1
        assert [e.text for e in await stored_log(new, game.id)] == [
            *(e.text for e in log_before),
            water,
        ]
        tried = [r for r in new.server.requests if r.method == "PATCH" and str(old_live) in r.path]
        assert [r.status for r in tried] == [404]  # the old live message was tried first
        (posted,) = [s for s in in_channel_since(new, seq) if s.kind == "message"]
        assert after.public_message_id == posted.message_id != old_live
        (live,) = channel_messages(new)
        assert live.id == posted.message_id
        assert live.custom_ids == [f"board:{game.id}"]
        assert f"{shooter.mention} fires at {water}: miss." in live.content
        assert png_of(new, live.id) == render_for(after, None)

        seq = new.server.last_seq
        await shoot(new, game.id, hit=False)
        assert [(s.kind, s.message_id) for s in in_channel_since(new, seq)] == [("edit", live.id)]
        final = await stored_game(new, game.id)
        assert final.ply == len(await stored_log(new, game.id)) == SETUP_MOVES + 4


async def all_but_alice_ready(driver: DiscordDriver, alice: FakeUser, bob: FakeUser) -> GameRecord:
    """A game in setup where both fleets are dealt and only Bob confirmed his."""
    game = await start_game(driver, alice, bob)
    await driver.dm(alice, "random")
    await driver.dm(bob, "random")
    await driver.dm(bob, "ready")
    return game


async def test_old_buttons_still_work_after_a_restart(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    """Buttons carry only public ids, so clicks on pre-restart messages reach the new bot."""
    game = await all_but_alice_ready(driver, alice, bob)
    pending = await challenge_message(driver, bob, alice)  # challenge #2, not yet answered
    before = await stored_game(driver, game.id)
    await driver.close()

    async with fresh_world(database, driver) as (new, alice, bob):
        ready = plant_button(new, new.dm_channel_id(alice), f"move:{game.id}:ready", "Ready")
        result = await new.click(alice, ready.id, f"move:{game.id}:ready")

        assert result.content is not None
        assert "Both fleets are set." in result.content
        record = await stored_game(new, game.id)
        assert record.ply == before.ply + 1
        assert state_of(record).phase is Phase.PLAY
        (live,) = channel_messages(new)  # the old live message was gone: a fresh one
        assert record.public_message_id == live.id
        assert "Both fleets are set." in live.content
        assert "Both fleets are set." in new.dms_to(bob)[-1].content

        board = plant_button(new, new.channel_id, f"board:{game.id}", "My board")
        shown = await new.click(bob, board.id, f"board:{game.id}")
        assert shown.ephemeral and shown.original is not None
        assert png_of(new, shown.original.id) == render_for(record, 1)

        accept_id = f"challenge:accept:{pending.custom_ids[0].rsplit(':', 1)[1]}"
        old_challenge = plant_button(new, new.channel_id, accept_id, "Accept")
        await new.click(alice, old_challenge.id, accept_id)
        second = await stored_game(new, 2)
        assert second.seats == (bob.id, alice.id)
        assert new.dms_to(alice)[-1].custom_ids == ["move:2:random"]


async def test_restart_with_discord_intact_edits_the_live_message_in_place(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    """When Discord kept the messages, the real old buttons work and nothing is reposted."""
    game = await all_but_alice_ready(driver, alice, bob)
    setup_dm = driver.dms_to(alice)[-1]
    live_id = game.public_message_id
    assert setup_dm.custom_ids == ["move:1:random", "move:1:ready"]
    await driver.close()

    async with same_world(database, driver) as new:
        seq = new.server.last_seq
        await new.click(alice, setup_dm.id, "move:1:ready")

        record = await stored_game(new, game.id)
        assert state_of(record).phase is Phase.PLAY
        assert record.public_message_id == live_id
        changed = in_channel_since(new, seq)
        assert (changed[0].kind, changed[0].message_id) == ("edit", live_id)
        assert [s.kind for s in changed[1:]] == ["message"]  # the seals, made as play began
        assert len(channel_messages(new)) == 2  # the challenge and the same live message
        shown = await new.click(bob, live_id or 0, "board:1")
        assert shown.ephemeral and shown.original is not None
        assert png_of(new, shown.original.id) == render_for(record, 1)


async def test_winning_shot_right_after_a_restart_links_the_live_message(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    """The end announcement links the final board, which must be the message that exists."""
    game = await game_in_play(driver, alice, bob)
    record = await stored_game(driver, game.id)
    seat = seat_to_move(record)
    *hits, last = ship_cells(record, 1 - seat)
    shooter = player(driver, record, seat)
    for target in hits:  # every hit keeps the turn, so one player shoots them all
        await driver.dm(shooter, target)
    assert (await stored_game(driver, game.id)).ply == SETUP_MOVES + len(hits)
    await driver.close()

    async with fresh_world(database, driver) as (new, alice, bob):
        await new.dm(new.users[shooter.id], last)

        record = await stored_game(new, game.id)
        assert record.status is GameStatus.FINISHED and record.winner == seat
        assert len(await stored_log(new, game.id)) == SETUP_MOVES + len(hits) + 1
        live, announcement = channel_messages(new)
        assert record.public_message_id == live.id
        assert png_of(new, live.id) == render_for(record, None)
        assert announcement.content.startswith("🏁 **Sea Battle #1** is over.")
        # The announcement links the live message just posted, not the lost one.
        first_line = announcement.content.splitlines()[0]
        assert first_line.endswith(f"/{new.guild_id}/{new.channel_id}/{live.id}"), first_line


async def test_a_move_stored_just_before_a_crash_is_delivered_after_the_restart(
    driver: DiscordDriver,
    alice: FakeUser,
    bob: FakeUser,
    database: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process dies between storing a shot and telling anyone: the restarted bot tells.

    Otherwise the shooter would never see the answer and the opponent would never learn
    it is their turn, and the game would stall though nothing was lost from the database.
    """
    game = await game_in_play(driver, alice, bob)
    deliverer = driver.client.deliverer  # type: ignore[attr-defined]

    def dies_before_sending(*_: object, **__: object) -> None:
        """The process is gone: nothing is sent, nothing is confirmed."""

    monkeypatch.setattr(deliverer, "wake_backlog", dies_before_sending)
    shooter, miss = await shoot(driver, game.id, hit=False)
    target = bob if shooter == alice else alice
    silent = await stored_game(driver, game.id)
    assert silent.ply == game.ply + 1  # stored...
    assert not driver.dms_to(shooter)[-1].content.startswith(f"**Sea Battle #1**\n{miss}")
    await driver.close()  # ...and never told

    async with same_world(database, driver) as new:
        told_shooter = new.dms_to(shooter)[-1].content
        told_target = new.dms_to(target)[-1].content
        assert told_shooter.startswith(f"**Sea Battle #1**\n{miss}: miss.")
        assert told_target.startswith(f"**Sea Battle #1**\nYour opponent shot at {miss}: miss.")
        live = new.server.messages[silent.public_message_id]
        assert miss in live.content and png_of(new, live.id) == render_for(silent, None)
        assert await new.client.repository.outbox.waiting() == 0  # type: ignore[attr-defined]
        count = len(new.dms_to(shooter))
    async with same_world(database, driver) as again:  # delivered once, not at every start
        assert len(again.dms_to(shooter)) == count
