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

import pytest

from bot.client import RefereeBot
from bot.games.core import Phase
from bot.settings import Settings
from bot.storage import PostgresRepository
from bot.worker import STANDBY_SECONDS
from cogs.moves import RECEIVED
from cogs.work import Work
from tests.cog_helpers import (
    open_water,
    player,
    seat_to_move,
    seen_by,
    start_game,
    state_of,
    stored_game,
    stored_log,
)
from tests.discord_stub import DiscordDriver


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
    return "MoveWorker._claiming -> wait_for" in described


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
    alice, bob = driver.add_user("alice"), driver.add_user("bob")
    record = await start_game(driver, alice, bob)
    for user in (alice, bob):
        for word in ("random", "ready"):
            await driver.dm(user, f"#{record.id} {word}")
            await played(driver, worker)
    record = await stored_game(driver, record.id)
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
