"""Persistence behind one narrow interface, ``Repository``, so the referee never knows which
database holds its games.

Every SQL statement of the bot is in this package, and it imports nothing above it (only
the engines, the ratings and the seals of the project; ``tests/test_layering.py``): the
records it hands out (``records``), the outbox (``outbox``), results and ratings
(``results``), and the SQLite and PostgreSQL stores side by side, sharing what they ask
alike (``queries``, ``changes``)."""

import time
from pathlib import Path

from bot.storage.interface import Repository
from bot.storage.outbox import Backlog, Batch, Inbox, Outbox
from bot.storage.postgres import PostgresRepository
from bot.storage.records import (
    COMPUTER_SEAT,
    OPEN_TO_ANYONE,
    WAIT_BATCH,
    AudienceTexts,
    ChallengeRecord,
    ChallengeStatus,
    Clock,
    Ending,
    GameRecord,
    GameStatus,
    LogEntry,
    LogKind,
    NewGame,
    OpenChallengeError,
    StaleGameError,
    Wait,
)
from bot.storage.sqlite import SqliteRepository
from bot.storage.sqlite_schema import (
    AWAITING_FORFEIT,
    AWAITING_REMINDER,
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
)


async def open_repository(
    url: str | None, path: str | Path, clock: Clock = time.time
) -> SqliteRepository | PostgresRepository:
    """The shared PostgreSQL store when a ``postgresql://`` URL is given, else the file."""
    if url:
        return await PostgresRepository.open(url, clock)
    return await SqliteRepository.open(path, clock)


__all__ = [
    "AWAITING_FORFEIT",
    "AWAITING_REMINDER",
    "COMPUTER_SEAT",
    "MIGRATIONS",
    "OPEN_TO_ANYONE",
    "SCHEMA",
    "SCHEMA_VERSION",
    "WAIT_BATCH",
    "AudienceTexts",
    "Backlog",
    "Batch",
    "ChallengeRecord",
    "ChallengeStatus",
    "Clock",
    "Ending",
    "GameRecord",
    "GameStatus",
    "Inbox",
    "LogEntry",
    "LogKind",
    "NewGame",
    "OpenChallengeError",
    "Outbox",
    "PostgresRepository",
    "Repository",
    "SqliteRepository",
    "StaleGameError",
    "Wait",
    "open_repository",
]
