"""The fixtures of the store's tests: each promise is held on both stores."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import cast

import pytest

from bot.storage import Repository, SqliteRepository
from bot.storage.postgres import PostgresRepository
from tests.conftest import fresh_schema
from tests.storage.processes import Clock, Process


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A database file in a folder that does not exist yet: opening must create it."""
    return tmp_path / "data" / "referee.sqlite3"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return cast(str, request.param)


@pytest.fixture
async def repo(backend: str, path: Path, postgres_server: str) -> AsyncIterator[Repository]:
    """Each promise holds on both stores: a SQLite file, and a real PostgreSQL server."""
    async with AsyncExitStack() as stack:
        if backend == "sqlite":
            repository: SqliteRepository | PostgresRepository = await SqliteRepository.open(path)
        else:
            url = await stack.enter_async_context(fresh_schema(postgres_server))
            repository = await PostgresRepository.open(url)
        yield repository
        await repository.close()


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def processes(postgres_url: str, clock: Clock) -> AsyncIterator[tuple[Process, Process]]:
    one = Process(await PostgresRepository.open(postgres_url, clock))
    two = Process(await PostgresRepository.open(postgres_url, clock))
    yield one, two
    for process in (one, two):
        await process.worker.close()
        await process.deliverer.close()
        await process.store.close()
