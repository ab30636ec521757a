"""A second connection to the SQLite file whose short statements run at once, on the event
loop's own thread.

A move reads its game, stores itself in one transaction and releases its notices once
they are sent: SQLite does each faster than a trip to aiosqlite's thread and back, so those
statements run here, where they block the loop for less than the trip would have cost it
(docs/performance/moves.md).

Nothing here may wait: the connection's busy timeout is zero. When another process holds
the file's write lock (a backup, an operator's shell), ``BEGIN IMMEDIATE`` fails at once
with ``Busy`` and the caller does the work on aiosqlite's thread instead, where waiting
costs the loop nothing. In write-ahead-log mode a reader never waits for a writer, and
the repository's write lock keeps this process's own writers one at a time, so ``Busy``
comes from other processes only. Whatever takes long (sweeps, leaderboards, exports,
migrations) stays on aiosqlite's thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

SHARED_PRAGMAS = (
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA wal_autocheckpoint=0",
)
"""Set on every connection of the store to its file, so both write alike: one level of
syncing to disk, the schema's foreign keys, and no checkpoint at a commit (the
``Checkpointer``'s job)."""


class Busy(Exception):
    """SQLite could not start at once: do the work on the database thread instead."""


class StatementsAtOnce:
    """Short transactions and key lookups on the file, run on the calling thread."""

    def __init__(self, path: str | Path) -> None:
        # Used from the event loop's thread only, but the loop may not be the thread
        # that opened the store (a tool that opens it before starting its loop).
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA busy_timeout=0")
        for pragma in SHARED_PRAGMAS:
            self._db.execute(pragma)

    def close(self) -> None:
        self._db.close()

    def rows(self, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
        """All rows of a query that reads a few rows by key."""
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.OperationalError as error:  # the log being recovered, say
            raise Busy from error

    def transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """BEGIN IMMEDIATE, ``work``, COMMIT; or ROLLBACK and the error.

        Raises ``Busy``, having done nothing, when the write lock cannot be had at once.
        """
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise Busy from error
        try:
            result = work(self._db)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error:  # a full disk, say: leave no transaction open behind it
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        return result
