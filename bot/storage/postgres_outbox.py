"""The outbox and the inbox of ``bot.storage.outbox`` kept in the shared PostgreSQL database.

They keep the same promises as the SQLite ones, for any number of bot processes at once:
a claim marks a backlog's oldest notices in one transaction, and locks them with
``FOR UPDATE SKIP LOCKED``, so while one process claims or releases a backlog another passes
it by instead of taking its notices out of order or twice.

Releases are grouped (``bot.storage.groups``): a move tells three audiences, and
each release would be a statement and a commit of its own. So while one release is on its
way, the releases made meanwhile (by any backlog of any game) go together after it, in one
statement: a lone release goes at once, and a busy process sends a handful for one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import asyncpg

from bot.storage.outbox import (
    INSERT_NOTICES,
    MERGED_TEXT_BUDGET,
    TOLD_COUNTS,
    Backlog,
    Batch,
    SharedOutbox,
    audience_code,
    audience_of,
    notice_rows,
    told_counts,
)
from bot.storage.queries import numbered
from bot.storage.records import AudienceTexts, game_of

CLAIM = """
WITH backlog AS (
    SELECT ply, texts, final, claimed, told FROM notices
    WHERE game_id = $1 AND audience = $2 ORDER BY ply, told FOR UPDATE SKIP LOCKED
), ours AS (
    SELECT (SELECT min(told) FROM backlog)
        = (SELECT min(told) FROM notices WHERE game_id = $1 AND audience = $2) AS is_ours
), waiting AS (
    SELECT told, row_number() OVER (ORDER BY ply, told) AS place,
        sum(length(texts)) OVER (ORDER BY ply, told) AS size
    FROM backlog WHERE claimed = 0
), taken AS (
    SELECT told FROM waiting, ours
    WHERE is_ours AND ($3 OR NOT EXISTS (SELECT 1 FROM backlog WHERE claimed = 1))
        AND (place = 1 OR $3 OR ($4 AND size <= $5))
), marked AS (
    UPDATE notices SET claimed = 1
    WHERE game_id = $1 AND audience = $2 AND told IN (SELECT told FROM taken)
)
SELECT backlog.ply AS notice_ply, backlog.texts AS notice_texts, backlog.final AS notice_final,
    backlog.told AS notice_told, game.*
FROM backlog CROSS JOIN ours LEFT JOIN games AS game ON game.id = $1
WHERE is_ours AND (backlog.claimed = 1 OR backlog.told IN (SELECT told FROM taken))
ORDER BY backlog.ply, backlog.told
"""
"""A backlog's next message claimed in one statement, as ``first_message`` picks it: the
backlog's notices are locked (``SKIP LOCKED``), and the backlog is this claim's only if its
oldest notice is among them. Then a backlog with a claim left unsent (its sender stopped)
gives that claim again, the same message; else its oldest waiting notices are marked
claimed, all of them for the channel ($3), or as many as one message holds ($4: merged,
up to $5 characters, at least one). Parameters: the game, the audience's code, channel,
merge, the budget. Each row also carries the game as it stands, so the message's board
needs no read of its own: the game is as new as the notices, stored in one transaction."""


RELEASE = """
WITH released AS (
    SELECT * FROM unnest($1::BIGINT[], $2::INTEGER[], $3::INTEGER[], $4::INTEGER[])
        WITH ORDINALITY AS batch (game_id, audience, first_ply, last_ply, place)
), gone AS (
    DELETE FROM notices USING released AS batch
    WHERE notices.game_id = batch.game_id AND notices.audience = batch.audience
        AND notices.claimed = 1 AND notices.ply BETWEEN batch.first_ply AND batch.last_ply
)
SELECT EXISTS (
    SELECT 1 FROM notices
    WHERE notices.game_id = batch.game_id AND notices.audience = batch.audience
        AND NOT (notices.claimed = 1
            AND notices.ply BETWEEN batch.first_ply AND batch.last_ply)
) AS more
FROM released AS batch ORDER BY batch.place
"""
"""Batches' notices deleted, and whether each backlog holds others, in one statement: the
question reads the snapshot the deletion started from, so the deleted notices are left
out by hand. Only claimed notices go: one stored at the batch's last ply after its claim
(the channel's note to a player whose DMs are closed) waits for the backlog's next message.
Parameters, one array element per batch: the game, the audience's code, the batch's
first and last ply; one row per batch, in their order."""


async def hold(
    db: asyncpg.Connection,
    game_id: int,
    ply: int,
    audience_texts: AudienceTexts,
    *,
    final: bool,
    now: float,
) -> None:
    """Keep a change's notices, one per audience, inside the change's own transaction,
    each numbered among its audience's (``Batch.told``)."""
    if not audience_texts:
        return
    counts = await db.fetchrow(numbered(TOLD_COUNTS), *told_counts(audience_texts), game_id)
    await db.executemany(
        numbered(INSERT_NOTICES),
        notice_rows(game_id, ply, audience_texts, final=final, now=now, counts=counts),
    )


class PostgresOutbox(SharedOutbox):
    """Each audience's waiting notices in the shared database."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__(asyncpg.PostgresError)
        self._pool = pool

    async def backlogs(self, before: float | None = None) -> list[Backlog]:
        rows = await self._pool.fetch(
            "SELECT game_id, audience FROM notices GROUP BY game_id, audience"
            " HAVING $1::DOUBLE PRECISION IS NULL OR min(created_at) <= $1"
            " ORDER BY game_id, audience < 0, audience",
            before,
        )
        return [Backlog(row[0], audience_of(row[1])) for row in rows]

    async def _claimed(self, backlog: Backlog, merge: bool) -> Batch | None:
        """As ``Outbox.claim``, in one statement (``CLAIM``); None also while another
        process is claiming or releasing the backlog's oldest notices (that process delivers
        them)."""
        rows = await self._pool.fetch(
            CLAIM,
            backlog.game_id,
            audience_code(backlog.audience),
            backlog.audience is None,
            merge,
            MERGED_TEXT_BUDGET,
        )
        if not rows:
            return None
        return Batch(
            backlog,
            tuple(row["notice_ply"] for row in rows),
            tuple(tuple(json.loads(row["notice_texts"])) for row in rows),
            any(row["notice_final"] for row in rows),
            rows[0]["notice_told"],
            game=None if rows[0]["id"] is None else game_of(rows[0]),
        )

    async def _released(self, batches: Sequence[Batch]) -> list[bool]:
        """In one statement (``RELEASE``)."""
        rows = await self._pool.fetch(
            RELEASE,
            [batch.game_id for batch in batches],
            [audience_code(batch.audience) for batch in batches],
            [batch.plies[0] for batch in batches],
            [batch.last_ply for batch in batches],
        )
        return [bool(row["more"]) for row in rows]

    async def waiting(self) -> int:
        count: int = await self._pool.fetchval("SELECT count(*) FROM notices")
        return count


class PostgresInbox:
    """The newest handled direct message per player, in the shared database."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def last_read(self, user_id: int) -> int | None:
        message_id: int | None = await self._pool.fetchval(
            "SELECT message_id FROM read_dms WHERE user_id = $1", user_id
        )
        return message_id

    async def mark_read(self, user_id: int, message_id: int) -> None:
        await self._pool.execute(
            "INSERT INTO read_dms (user_id, message_id) VALUES ($1, $2)"
            " ON CONFLICT (user_id) DO UPDATE SET message_id = excluded.message_id"
            " WHERE excluded.message_id > read_dms.message_id",
            user_id,
            message_id,
        )
