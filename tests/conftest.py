"""Shared fixtures: a referee on a fresh store, and the real bot on the loopback Discord."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import discord
import pytest

from benchmarks.common import private_postgres
from bot.client import RefereeBot
from bot.referee import Referee
from bot.settings import Settings
from bot.storage import Clock, SqliteRepository
from bot.timekeeping import HOUR
from tests.support.discord import DiscordDriver, FakeUser

LONGEST_FIRST = (
    "tests/e2e/test_",
    "tests/games/seachess/test_perft.py",
    "tests/test_replays.py",
    "tests/test_computer.py",
    "tests/ai/test_players.py",
    "tests/games/warships/test_properties.py",
    "tests/games/warships/test_referee.py",
)
"""Modules whose tests run for many seconds each (bot processes, deep searches, long games),
in the order they start. ``./scripts/test`` shares the tests between one worker per core,
each taking the next test when it is free: started last, one of these would leave the
other cores idle at the end of the run while it finished."""


class HandClock:
    """A clock that moves only when told, so a day passes in a line and no test sleeps."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * HOUR


@asynccontextmanager
async def in_one_server(
    client: discord.Client, name: str = "Harbour"
) -> AsyncIterator[DiscordDriver]:
    """The client on the loopback Discord in one server with one channel; once done, the
    proof that no route it called was unknown."""
    async with DiscordDriver.start(client) as driver:
        driver.add_guild(name)
        await driver.settle()
        yield driver
        assert driver.server.unhandled == []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (see :data:`LONGEST_FIRST`), the rest in their usual order."""

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.partition("::")[0]
        return next(
            (i for i, prefix in enumerate(LONGEST_FIRST) if path.startswith(prefix)),
            len(LONGEST_FIRST),
        )

    items.sort(key=rank)  # stable: the order within each rank stays as collected


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
    async with in_one_server(make_bot(database)) as drv:
        yield drv


@pytest.fixture
def alice(driver: DiscordDriver) -> FakeUser:
    return driver.add_user("alice")


@pytest.fixture
def bob(driver: DiscordDriver) -> FakeUser:
    return driver.add_user("bob")


@pytest.fixture
def carol(driver: DiscordDriver) -> FakeUser:
    """A third member of the server: a spectator, a stranger to alice and bob's game, or a
    second opponent."""
    return driver.add_user("carol")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A private PostgreSQL 16 server for the whole run, the one the benchmarks start
    (pgserver's own binaries, no network: a Unix socket in a temporary folder); its URL."""
    with private_postgres() as (url, _):
        yield url


_schemas = itertools.count(1)


@asynccontextmanager
async def fresh_schema(server_url: str) -> AsyncIterator[str]:
    """A database URL whose tables live in a new schema of their own, dropped afterwards."""
    import asyncpg

    schema = f"test_{next(_schemas)}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        separator = "&" if "?" in server_url else "?"
        yield f"{server_url}{separator}search_path={schema}"
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    async with fresh_schema(postgres_server) as url:
        yield url
