"""A gateway process that queues moves and a worker that plays them, on the loopback
Discord and a real PostgreSQL: the gateway (``ROLE=gateway``) receives DMs and commands
and answers what needs no playing; the worker (``ROLE=worker``) logs in over REST only,
with no gateway connection, and plays, renders and delivers.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import cast

import discord
import pytest

from bot.client import RefereeBot
from bot.delivery.discord_answers import COUNTED, RECEIVED
from bot.games.core import Phase
from bot.settings import Settings
from bot.storage import GameRecord, PostgresRepository
from bot.storage.postgres_queue import QueuedMove
from bot.worker import STANDBY_SECONDS
from cogs.work import Work
from tests.support.cog_helpers import (
    names,
    open_water,
    player,
    seat_to_move,
    seen_by,
    start_game,
    state_of,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver
from tests.support.discord.models import StoredMessage


@pytest.fixture
async def world(
    postgres_url: str, tmp_path: Path
) -> AsyncIterator[tuple[DiscordDriver, RefereeBot]]:
    settings = Settings(
        token="test-token",
        database_path=tmp_path / "unused.sqlite3",
        database_url=postgres_url,
        role="gateway",
    )
    driver = DiscordDriver(RefereeBot(settings))
    # A worker idle between moves waits for a notification, and the gateway's standby
    # for its next look at the queue: neither is work left.
    driver.ignore_tasks(lambda task: _idle_claimer(driver.describe_task(task)))
    async with driver:
        driver.add_guild("Harbour")
        await driver.settle()
        worker = RefereeBot(replace(settings, role="worker"))
        await worker.login(settings.token)  # REST only: no gateway connection
        try:
            yield driver, worker
        finally:
            await worker.close()


def _idle_claimer(described: str) -> bool:
    return "MoveWorker._claiming -> Event.wait" in described


async def played(driver: DiscordDriver, worker: RefereeBot) -> None:
    """Until the worker played every queued move and delivered what it stored."""
    repository = worker.repository
    assert isinstance(repository, PostgresRepository)
    async with asyncio.timeout(20):
        while await repository.queue.waiting():
            await asyncio.sleep(0.02)
        await worker.deliverer.drained()
        await driver.settle()


async def test_dm_moves_are_queued_by_the_gateway_and_played_by_the_worker(
    world: tuple[DiscordDriver, RefereeBot],
) -> None:
    driver, worker = world
    gateway = cast(RefereeBot, driver.client)
    playing, standby = (cast(Work, bot.get_cog("Work")).worker for bot in (worker, gateway))
    assert worker.ws is None and playing.standby is None
    # The gateway plays a move only once it has waited long for a worker: its standby.
    assert standby.standby == STANDBY_SECONDS and standby.at_once < playing.at_once
    alice, bob = driver.add_user("alice"), driver.add_user("bob")
    record = await start_game(driver, alice, bob)
    for user in (alice, bob):
        for word in ("random", "ready"):
            seq = driver.server.last_seq
            sent = await driver.dm(user, f"#{record.id} {word}")
            await played(driver, worker)
            assert RECEIVED in driver.message(sent.id).reactions
            boards = [s for s in seen_by(driver, user, seq) if s.files]
            assert boards, f"{user.name} got no board after {word}"
    record = await stored_game(driver, record.id)
    assert state_of(record).phase is Phase.PLAY
    assert [entry.text for entry in await stored_log(driver, record.id)] == [
        "random",
        "ready",
        "random",
        "ready",
    ]

    # A move only playing can refuse is refused by the worker, in the player's DMs,
    # with the referee's own sentence; the game is unchanged.
    waiting = player(driver, record, 1 - seat_to_move(record))
    seq = driver.server.last_seq
    await driver.dm(waiting, f"#{record.id} A1")
    await played(driver, worker)
    said = [s.content for s in seen_by(driver, waiting, seq)]
    assert said == ["It is your opponent's turn; wait for their shot."]
    assert (await stored_game(driver, record.id)).ply == record.ply

    # What needs no playing is refused by the gateway at once: nothing is queued.
    stranger = driver.add_user("carol")
    seq = driver.server.last_seq
    await driver.dm(stranger, "A1")
    said = [s.content for s in seen_by(driver, stranger, seq)]
    assert len(said) == 1 and "no game running" in (said[0] or "")


async def test_a_move_by_command_is_answered_by_the_worker_as_its_follow_up(
    world: tuple[DiscordDriver, RefereeBot],
) -> None:
    driver, worker = world
    record = await game_in_play(driver, worker)
    seat = seat_to_move(record)
    shooter = player(driver, record, seat)
    target = open_water(record, 1 - seat)[0]

    result = await driver.slash(shooter, "move", options={"text": f"#{record.id} {target}"})
    await played(driver, worker)
    assert result.callback_type == 5  # deferred at once by the gateway
    answers = [s for s in seen_by(driver, shooter, 0) if s.interaction_id]
    follow_up = [s for s in answers if s.interaction_id == result.id and s.files]
    assert len(follow_up) == 1 and follow_up[0].ephemeral
    assert target in (follow_up[0].content or "")
    stored = await stored_game(driver, record.id)
    assert stored.ply == record.ply + 1


async def game_in_play(driver: DiscordDriver, worker: RefereeBot) -> GameRecord:
    """A game both players readied by DM, every move played by the worker."""
    alice, bob = driver.add_user("alice"), driver.add_user("bob")
    record = await start_game(driver, alice, bob)
    for user in (alice, bob):
        for word in ("random", "ready"):
            await driver.dm(user, f"#{record.id} {word}")
            await played(driver, worker)
    return await stored_game(driver, record.id)


async def ply_passed(driver: DiscordDriver, record: GameRecord) -> GameRecord:
    """The game once the worker stored its next move (its delivery may still be going)."""
    async with asyncio.timeout(20):
        while (current := await stored_game(driver, record.id)).ply == record.ply:
            await asyncio.sleep(0.02)
    return current


def first_naming(messages: list[StoredMessage], cell: str) -> int:
    """Where the first of ``messages`` telling a shot at ``cell`` stands."""
    return next(i for i, m in enumerate(messages) if f"{cell}:" in (m.content or ""))


async def test_a_dm_command_the_worker_answers_behind_its_players_older_notice_keeps_their_order(
    world: tuple[DiscordDriver, RefereeBot],
) -> None:
    """The opponent's shot is still on its way to a player (Discord answered its DM with
    500 twice, so the worker's discord.py waits 1 s and then 3 s) when that player answers
    with ``/move`` in DMs. The gateway defers it and the worker plays it behind the older
    notice: its follow-up fills the "thinking" placeholder where it stands, above the older
    notice, so it must not carry the newer board."""
    driver, worker = world
    record = await game_in_play(driver, worker)
    seat = seat_to_move(record)
    shooter, other = player(driver, record, seat), player(driver, record, 1 - seat)
    other_dm = driver.dm_channel_id(other)
    driver.server.fail_next("POST", rf"^/channels/{other_dm}/messages$", 500, times=2)
    earlier = {m.id for m in driver.dms_to(other)}
    # The older notice's retries must still be going when the command comes: they are
    # not waited for until the command's move is played.
    retrying = [True]
    backlog = f"delivery backlog {record.id}/{1 - seat}"
    driver.ignore_tasks(lambda task: retrying[0] and backlog in driver.describe_task(task))
    first = open_water(record, 1 - seat)[0]
    await driver.dm(shooter, f"#{record.id} {first}")  # a miss: the turn passes
    current = await ply_passed(driver, record)
    assert state_of(current).turn == 1 - seat

    second = next(cell for cell in open_water(current, seat) if cell != first)
    answer = await driver.slash(
        other, "move", guild=False, options={"text": f"#{record.id} {second}"}
    )
    await played(driver, worker)
    retrying[0] = False
    await driver.settle()

    assert [f.status for f in driver.server.fired_failures] == [500, 500]
    assert answer.callback_type == 5  # deferred by the gateway
    placeholder = answer.original
    assert placeholder is not None and not placeholder.loading
    assert placeholder.content == COUNTED
    told = [m for m in driver.dms_to(other) if m.id not in earlier]
    assert first_naming(told, first) < first_naming(told, second)
    assert len([m for m in told if f"{second}:" in (m.content or "") and m.attachments]) == 1
    assert (await stored_game(driver, record.id)).ply == record.ply + 2


async def test_a_worker_killed_after_discord_took_its_follow_up_does_not_tell_it_again(
    world: tuple[DiscordDriver, RefereeBot],
) -> None:
    """Discord stored the worker's follow-up to a ``/move`` (which carries no nonce), but
    the worker stopped before it heard so and released the notice: the worker started
    after it does not send the notice again by DM, since Discord shows it as the command's
    original answer."""
    driver, worker = world
    record = await game_in_play(driver, worker)
    seat = seat_to_move(record)
    shooter = player(driver, record, seat)
    target = open_water(record, 1 - seat)[0]
    held = driver.server.hold_answer("POST", r"^/webhooks/\d+/[^/]+$")

    async def kill_the_worker_once_discord_took_the_answer() -> None:
        async with asyncio.timeout(20):
            await held.reached.wait()
        await worker.close()  # killed: the notice stays unreleased in the outbox
        held.released.set()

    killing = asyncio.create_task(kill_the_worker_once_discord_took_the_answer())
    answer = await driver.slash(
        shooter, "move", guild=False, options={"text": f"#{record.id} {target}"}
    )
    await killing

    restarted = RefereeBot(worker.settings)
    await restarted.login("test-token")
    try:
        await played(driver, restarted)
        async with asyncio.timeout(20):
            while await restarted.repository.outbox.waiting():
                await asyncio.sleep(0.02)
    finally:
        await restarted.close()

    original = answer.original
    assert original is not None and names(original.content, target)
    told = [m for m in driver.dms_to(shooter) if m.id >= original.id]
    boards = [m for m in told if names(m.content, target) and m.attachments]
    assert [m.id for m in boards] == [original.id]  # the answer alone: no DM after it
    assert (await stored_game(driver, record.id)).ply == record.ply + 1


async def test_a_worker_tells_a_dm_answer_is_overtaken_by_what_another_process_sent(
    world: tuple[DiscordDriver, RefereeBot],
) -> None:
    """The older notice may go from another process (the gateway's standby, another
    worker): the worker asks Discord for the bot's messages after the placeholder, and
    the player's own messages there do not count."""
    driver, worker = world
    gateway = cast(RefereeBot, driver.client)
    alice = driver.add_user("alice")
    dm = await gateway.create_dm(discord.Object(alice.id))
    placeholder = await dm.send("Sea Battle is thinking...")
    reply = {"app": 1, "token": "t", "private": False, "channel": dm.id}
    move = QueuedMove(0, 0, alice.id, "A1", {**reply, "placeholder": placeholder.id}, 0.0, 0)
    answers = cast(Work, worker.get_cog("Work")).answers

    driver.server.store_user_message(dm.id, alice.id, "my move?")  # the player's own
    assert not await answers.overtaken(move)
    await dm.send("An older notice, sent by the gateway.")
    assert await answers.overtaken(move)
    # A placeholder unknown (a move queued before it was kept) is never filled in.
    assert await answers.overtaken(replace(move, reply=reply))
    assert not await answers.overtaken(replace(move, reply={**reply, "private": True}))


async def test_a_follow_up_discord_refused_is_told_by_dm_once(
    world: tuple[DiscordDriver, RefereeBot],
) -> None:
    """The worker kept its follow-up before it went, but Discord refused it (the
    interaction's token had expired): asked for the command's original answer, Discord
    shows only the "thinking" placeholder, so the notice goes by DM, once."""
    driver, worker = world
    record = await game_in_play(driver, worker)
    seat = seat_to_move(record)
    shooter = player(driver, record, seat)
    target = open_water(record, 1 - seat)[0]
    driver.server.fail_next(
        "POST",
        r"^/webhooks/\d+/[^/]+$",
        404,
        json_body={"message": "Unknown Webhook", "code": 10015},
        times=2,  # the follow-up, and the sentence that the move counted
    )
    before = len(driver.server.requests)
    answer = await driver.slash(
        shooter, "move", guild=False, options={"text": f"#{record.id} {target}"}
    )
    await played(driver, worker)

    asked = [r for r in driver.server.requests[before:] if r.path.endswith("/messages/@original")]
    assert len(asked) == 1
    placeholder = answer.original
    assert placeholder is not None and placeholder.loading
    told = [m for m in driver.dms_to(shooter) if m.id > placeholder.id]
    assert len([m for m in told if f"{target}:" in (m.content or "") and m.attachments]) == 1
    assert (await stored_game(driver, record.id)).ply == record.ply + 1
