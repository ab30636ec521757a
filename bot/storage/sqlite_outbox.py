"""The outbox and the inbox of ``bot.storage.outbox`` kept in the bot's SQLite file, written
through the repository's one writer.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

import aiosqlite

from bot.storage.outbox import (
    INSERT_NOTICES,
    MERGED_TEXT_BUDGET,
    TOLD_COUNTS,
    Backlog,
    Batch,
    Claimed,
    SharedOutbox,
    audience_code,
    audience_of,
    notice_rows,
    told_counts,
    told_of,
)
from bot.storage.records import AudienceTexts


def hold(
    db: sqlite3.Connection,
    game_id: int,
    ply: int,
    audience_texts: AudienceTexts,
    *,
    final: bool,
    now: float,
    claim: bool = False,
    counts: Sequence[int] | None = None,
) -> Claimed:
    """Keep a change's notices, one per audience, inside the change's own transaction,
    each numbered among its audience's (``Batch.told``).

    With ``claim``, the notice of each audience whose backlog holds nothing else is stored
    already claimed (``Prefetch``); the audiences it was, in the audience texts' order.
    ``counts``: the audiences' counts already raised by the change's own statement
    (``TOLD_COUNTS``' answer), so the game's row is not written twice."""
    if not audience_texts:
        return ()
    if counts is None:
        counts = db.execute(TOLD_COUNTS, (*told_counts(audience_texts), game_id)).fetchone()
    waiting: set[int] = set()
    if claim:
        waiting = {
            row[0]
            for row in db.execute(
                "SELECT DISTINCT audience FROM notices WHERE game_id = ?", (game_id,)
            )
        }
    claimed = tuple(a for a, _ in audience_texts if claim and audience_code(a) not in waiting)
    db.executemany(
        INSERT_NOTICES,
        notice_rows(
            game_id, ply, audience_texts, final=final, now=now, counts=counts, claimed=claimed
        ),
    )
    return tuple((audience, told_of(audience, counts)) for audience in claimed)


T = TypeVar("T")


class Transact(Protocol):
    """Runs a function as one write transaction (``SqliteRepository._transact``)."""

    def __call__(
        self, work: Callable[[sqlite3.Connection], T], *, at_once: bool = ..., abandon: bool = ...
    ) -> Awaitable[T]: ...


class SqliteOutbox(SharedOutbox):
    """The outbox in the bot's SQLite file, written through the repository's one writer."""

    def __init__(self, db: aiosqlite.Connection, transact: Transact) -> None:
        super().__init__(sqlite3.Error)
        self._db = db
        self._transact = transact

    async def backlogs(self, before: float | None = None) -> list[Backlog]:
        rows = await self._db.execute_fetchall(
            "SELECT game_id, audience FROM notices GROUP BY game_id, audience"
            " HAVING ? IS NULL OR min(created_at) <= ?"
            " ORDER BY game_id, audience < 0, audience",
            (before, before),
        )
        return [Backlog(row[0], audience_of(row[1])) for row in rows]

    async def _claimed(self, backlog: Backlog, merge: bool) -> Batch | None:
        code = audience_code(backlog.audience)
        channel = backlog.audience is None

        def claim(db: sqlite3.Connection) -> list[Any]:
            def backlog_rows(claimed: bool) -> list[Any]:
                return db.execute(
                    "SELECT ply, texts, final, told FROM notices"
                    " WHERE game_id = ? AND audience = ? AND claimed = ? ORDER BY ply, told",
                    (backlog.game_id, code, int(claimed)),
                ).fetchall()

            rows = backlog_rows(True)
            if not rows or channel:
                taken = first_message(backlog_rows(False), channel=channel, merge=merge)
                if taken:
                    db.execute(
                        "UPDATE notices SET claimed = 1"
                        " WHERE game_id = ? AND audience = ? AND told BETWEEN ? AND ?",
                        (backlog.game_id, code, taken[0][3], taken[-1][3]),
                    )
                rows += taken
            return rows

        rows: list[Any] = await self._transact(claim)
        if not rows:
            return None
        return Batch(
            backlog,
            tuple(row[0] for row in rows),
            tuple(tuple(json.loads(row[1])) for row in rows),
            any(row[2] for row in rows),
            rows[0][3],
        )

    async def _released(self, batches: Sequence[Batch]) -> list[bool]:
        def release(db: sqlite3.Connection) -> list[bool]:
            # Only the claimed notices: one stored at the batch's last ply after the claim
            # (the channel's note to a player whose DMs are closed) waits for the next.
            delete = (
                "DELETE FROM notices WHERE game_id = ? AND audience = ? AND claimed = 1"
                " AND ply BETWEEN ? AND ?"
            )
            exists = "SELECT EXISTS (SELECT 1 FROM notices WHERE game_id = ? AND audience = ?)"
            more = []
            for batch in batches:
                backlog = (batch.game_id, audience_code(batch.audience))
                db.execute(delete, (*backlog, batch.plies[0], batch.last_ply))
                more.append(bool(db.execute(exists, backlog).fetchone()[0]))
            return more

        # Not abandoned when a caller is cancelled: the transaction is the group's, so a
        # batch that went out is released even if its backlog stops meanwhile, lest it go
        # out twice. Sent again (a refused trip), a release deletes nothing more.
        released: list[bool] = await self._transact(release, abandon=False)
        return released

    async def waiting(self) -> int:
        rows = await self._db.execute_fetchall("SELECT count(*) FROM notices")
        return int(next(iter(rows))[0])


def first_message(waiting: list[Any], *, channel: bool, merge: bool) -> list[Any]:
    """The oldest waiting notices that make one message."""
    if not waiting:
        return []
    if channel:
        return waiting
    if not merge:
        return waiting[:1]
    taken, size = [waiting[0]], len(waiting[0][1])
    for row in waiting[1:]:
        size += len(row[1])
        if size > MERGED_TEXT_BUDGET:
            break
        taken.append(row)
    return taken


class SqliteInbox:
    """The newest handled direct message per player, in the bot's SQLite file."""

    def __init__(self, db: aiosqlite.Connection, transact: Transact) -> None:
        self._db = db
        self._transact = transact

    async def last_read(self, user_id: int) -> int | None:
        rows = list(
            await self._db.execute_fetchall(
                "SELECT message_id FROM read_dms WHERE user_id = ?", (user_id,)
            )
        )
        return int(rows[0][0]) if rows else None

    async def mark_read(self, user_id: int, message_id: int) -> None:
        await self._transact(
            lambda db: db.execute(
                "INSERT INTO read_dms (user_id, message_id) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET message_id = excluded.message_id"
                " WHERE excluded.message_id > read_dms.message_id",
                (user_id, message_id),
            )
        )
