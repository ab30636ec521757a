"""Persistence behind one narrow interface, ``Repository``, so the referee never knows which
database holds its games."""

from bot.storage.interface import (
    WAIT_BATCH,
    ChallengeRecord,
    ChallengeStatus,
    Clock,
    Ending,
    GameRecord,
    GameStatus,
    LogEntry,
    LogKind,
    Pending,
    Repository,
    StaleGameError,
    Tidings,
    Wait,
)
from bot.storage.sqlite import (
    AWAITING_FORFEIT,
    AWAITING_REMINDER,
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    SqliteRepository,
)

__all__ = [
    "AWAITING_FORFEIT",
    "AWAITING_REMINDER",
    "MIGRATIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "WAIT_BATCH",
    "ChallengeRecord",
    "ChallengeStatus",
    "Clock",
    "Ending",
    "GameRecord",
    "GameStatus",
    "LogEntry",
    "LogKind",
    "Pending",
    "Repository",
    "SqliteRepository",
    "StaleGameError",
    "Tidings",
    "Wait",
]
