"""Shared fixtures: the real bot, logged in against the loopback Discord."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import RefereeBot
from bot.settings import Settings
from bot.storage import Clock
from tests.discord_stub import DiscordDriver, FakeUser


def make_bot(database: Path, clock: Clock = time.time) -> RefereeBot:
    """The production client, built exactly as ``python -m bot`` builds it."""
    return RefereeBot(Settings(token="test-token", database_path=database), clock=clock)


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
