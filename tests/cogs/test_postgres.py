"""The real bot on the loopback Discord with ``DATABASE_URL`` set: a whole game played on
PostgreSQL through the same cogs, with nothing written to a SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import RefereeBot
from bot.referee import Report
from bot.settings import Settings
from bot.storage import GameStatus, PostgresRepository
from tests.cogs.test_computer import AT_MOST_THREE, answer_standing
from tests.conftest import in_one_server
from tests.support.cog_helpers import game_in_play, repository, shoot, stored_game, stored_log
from tests.support.discord import DiscordDriver


@pytest.fixture
async def pg_driver(postgres_url: str, tmp_path: Path) -> AsyncIterator[DiscordDriver]:
    settings = Settings(
        token="test-token", database_path=tmp_path / "unused.sqlite3", database_url=postgres_url
    )
    async with in_one_server(RefereeBot(settings)) as drv:
        yield drv


async def test_a_game_is_played_on_postgresql(pg_driver: DiscordDriver, tmp_path: Path) -> None:
    alice, bob = pg_driver.add_user("alice"), pg_driver.add_user("bob")
    assert isinstance(repository(pg_driver), PostgresRepository)
    record = await game_in_play(pg_driver, alice, bob)
    for _ in range(3):
        await shoot(pg_driver, record.id, hit=True)
    stored = await stored_game(pg_driver, record.id)
    assert stored.status is GameStatus.ACTIVE and stored.ply == len(await stored_log(pg_driver))
    assert stored.ply >= 7 and not (tmp_path / "unused.sqlite3").exists()


async def test_twenty_quick_plays_against_the_computer_on_postgresql(
    pg_driver: DiscordDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit of games against the computer holds on PostgreSQL too: the twenty
    requests are held at the referee's door until all have arrived, then let through
    together, so their statements interleave on the pool's connections."""
    alice = pg_driver.add_user("alice")
    for burst in ("UserActions.slash", "test_twenty_quick_plays"):
        pg_driver.ignore_tasks(burst)  # the burst itself: each waits for the bot only
    referee = pg_driver.client.referee  # type: ignore[attr-defined]
    door, all_answered = asyncio.Event(), asyncio.Event()
    answered: list[dict[str, Any]] = []
    play_computer = referee.play_computer

    async def held_at_the_door(**request: Any) -> Report:
        await door.wait()
        try:
            return await play_computer(**request)
        finally:
            answered.append(request)
            if len(answered) == 20:
                all_answered.set()

    monkeypatch.setattr(referee, "play_computer", held_at_the_door)
    me = pg_driver.bot_account()
    results = await asyncio.gather(
        *(
            pg_driver.slash(alice, "play", game="seabattle", opponent=me, level="casual")
            for _ in range(20)
        )
    )
    door.set()
    await all_answered.wait()  # the pool's connections are busy: settling alone cannot tell
    await pg_driver.settle()
    assert pg_driver.take_errors() == []
    answers = [answer_standing(pg_driver, result) for result in results]
    started = [a for a in answers if "against me, the computer" in a.content]
    assert len(started) == 3
    refused = {(a.content, a.ephemeral) for a in answers if a not in started}
    assert refused == {(AT_MOST_THREE, True)}
    assert len(await repository(pg_driver).active_games_of(alice.id)) == 3
