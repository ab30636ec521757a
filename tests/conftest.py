"""Shared fixtures: a referee on a fresh store, and the real bot on the loopback Discord."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import RefereeBot
from bot.referee import Referee
from bot.settings import Settings
from bot.storage import Clock, SqliteRepository
from tests.discord_stub import DiscordDriver, FakeUser


def make_bot(database: Path, clock: Clock = time.time) -> RefereeBot:
    """The production client, built exactly as ``python -m bot`` builds it."""
    return RefereeBot(Settings(token="test-token", database_path=database), clock=clock)


@pytest.fixture
async def repo() -> AsyncIterator[SqliteRepository]:
    """A fresh store per test: in memory, for tests about the referee and the rules."""
    repository = await SqliteRepository.open(":memory:")
    yield repository
    await repository.close()


@pytest.fixture
def referee(repo: SqliteRepository) -> Referee:
    """Seeds 1, 2, 3, ... so every run deals the same setups and the same first player."""
    return Referee(repo, seed_source=itertools.count(1).__next__)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


@pytest.fixture
async def driver(database: Path) -> AsyncIterator[DiscordDriver]:
    """The bot in one server with one channel; every test also proves no route was unknown."""
    async with DiscordDriver.start(make_bot(database)) as drv:
        drv.add_guild("Harbour")
        await drv.settle()
        yield drv
        assert drv.server.unhandled == []


@pytest.fixture
def alice(driver: DiscordDriver) -> FakeUser:
    return driver.add_user("alice")


@pytest.fixture
def bob(driver: DiscordDriver) -> FakeUser:
    return driver.add_user("bob")
