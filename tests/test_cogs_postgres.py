"""The real bot on the loopback Discord with ``DATABASE_URL`` set: a whole game played on
PostgreSQL through the same cogs, with nothing written to a SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import RefereeBot
from bot.settings import Settings
from bot.storage import GameStatus, PostgresRepository
from tests.cog_helpers import game_in_play, repository, shoot, stored_game, stored_log
from tests.discord_stub import DiscordDriver


@pytest.fixture
async def pg_driver(postgres_url: str, tmp_path: Path) -> AsyncIterator[DiscordDriver]:
    settings = Settings(
        token="test-token", database_path=tmp_path / "unused.sqlite3", database_url=postgres_url
    )
    async with DiscordDriver.start(RefereeBot(settings)) as drv:
        drv.add_guild("Harbour")
        await drv.settle()
        yield drv
        assert drv.server.unhandled == []


async def test_a_game_is_played_on_postgresql(pg_driver: DiscordDriver, tmp_path: Path) -> None:
    alice, bob = pg_driver.add_user("alice"), pg_driver.add_user("bob")
    assert isinstance(repository(pg_driver), PostgresRepository)
    record = await game_in_play(pg_driver, alice, bob)
    for _ in range(3):
        await shoot(pg_driver, record.id, hit=True)
    stored = await stored_game(pg_driver, record.id)
    assert stored.status is GameStatus.ACTIVE and stored.ply == len(await stored_log(pg_driver))
    assert stored.ply >= 7 and not (tmp_path / "unused.sqlite3").exists()
