"""The move queue in the shared PostgreSQL database: moves a gateway process received,
waiting for the worker processes that play them.

Every DM reaches the process holding shard 0, so on a big bot that one process would
apply, render and deliver most moves. Instead it may queue them here, and any number of
worker processes (no gateway connection needed: sending is plain REST) take them:

- **Claimed, not taken.** A worker claims the oldest waiting move with
  ``FOR UPDATE SKIP LOCKED``, so two workers never claim one move and neither waits for
  the other, and marks it claimed for a lease. Should the worker die, the lease runs out
  and another worker claims the move again.
- **Once.** The move leaves the queue in the very transaction that stores it
  (``append(…, queued=…)``), so a move played and then claimed again after a crash is
  refused as already played, and the game's ply guard stays the last word besides.
- **In order per game.** Only the oldest queued move of a game may be claimed, so two
  moves of one game are played in the order they arrived; moves of different games go to
  different workers side by side.
- **Woken at once.** Queueing a move notifies the workers (``LISTEN``/``NOTIFY``); they
  also look now and then, for leases that ran out.
- **Two round trips.** A worker's claim also takes the move's game lock and reads the
  game, in one statement (``claim_held``, migration 16), on a connection the move keeps
  (``Held``) until the call storing it hands the lock to its own transaction, which
  releases it when the move is committed. So the game is locked from the claim to the
  commit, as by ``game_lock``, without a trip to take the lock or one to release it.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.storage.records import Clock

QUEUED = "queued_moves"
"""The notification channel a queued move is announced on (also the table's name)."""

LEASE_SECONDS = 30.0
"""How long a worker's claim on a move holds: far longer than playing one takes, and
the longest a move waits when its worker died."""


@dataclass(frozen=True)
class QueuedMove:
    """A move as the receiving process took it: who, which game, what they wrote, and
    where the answer goes (``reply``: a DM channel, or an interaction to follow up)."""

    id: int
    game_id: int
    user_id: int
    text: str
    reply: dict[str, Any]
    queued_at: float
    attempts: int


@dataclass
class Held:
    """A claimed move's game lock and read, held on the claim's own connection until the
    move is stored (or refused) by the task that plays it."""

    move: QueuedMove
    connection: asyncpg.Connection
    game: asyncpg.Record | None
    """The game as read just after its lock was taken; taken by the move's first read."""
    locked: bool = True
    """Whether the connection's session still holds the game's lock (the store hands it
    to its transaction)."""


held_claim: ContextVar[Held | None] = ContextVar("held_claim", default=None)
"""The claim whose game lock the running task plays its move under (``MoveQueue.holding``):
the store's ``game_lock`` and ``append`` then use that lock and connection."""


def _move(row: asyncpg.Record) -> QueuedMove:
    return QueuedMove(
        id=row["id"],
        game_id=row["game_id"],
        user_id=row["user_id"],
        text=row["text"],
        reply=json.loads(row["reply"]),
        queued_at=row["queued_at"],
        attempts=row["attempts"],
    )


async def unqueue(db: asyncpg.Connection, move_id: int) -> bool:
    """Take a move off the queue inside the transaction playing it; False if it was gone."""
    outcome = await db.execute("DELETE FROM queued_moves WHERE id = $1", move_id)
    return bool(outcome == "DELETE 1")


CLAIM = (
    "UPDATE queued_moves SET claimed_until = $2, attempts = attempts + 1 WHERE id = ("
    " SELECT id FROM queued_moves AS q WHERE (claimed_until IS NULL OR claimed_until < $1)"
    " AND queued_at <= $3"
    " AND NOT EXISTS (SELECT 1 FROM queued_moves AS e WHERE e.game_id = q.game_id AND e.id < q.id)"
    " ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING *"
)
"""Claim the oldest move that heads its game's queue and no live claim holds, in one
statement; a row another worker is claiming right now is passed by, and its game's later
moves wait behind it. Only moves queued at or before $3 are taken (a standby takes only
those that waited long)."""


PUT = (
    "WITH queued AS (INSERT INTO queued_moves (game_id, user_id, text, reply, queued_at)"
    " VALUES ($1, $2, $3, $4, $5) RETURNING id, game_id)"
    " SELECT id, pg_notify($6, game_id::TEXT) FROM queued"
)
"""Queue a move and wake the workers, in one statement: the notification goes out when the
statement's own transaction commits, so a woken worker finds the move."""


CLAIM_HELD = "SELECT * FROM claim_move($1, $2, $3, $4)"
"""``CLAIM``, with the claimed move's game locked and read in the same statement
(migration 16). Parameters: now, the lease's end, queued by, the lock space of games."""


class MoveQueue:
    """Moves waiting for a worker, in the shared database."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        url: str,
        clock: Clock,
        claim_pool: asyncpg.Pool | None = None,
        lock_space: int = 0,
    ) -> None:
        self._pool = pool
        self._url = url
        self.clock = clock
        self._claim_pool = claim_pool
        """Connections that hold claimed moves' game locks; handed back with no lock."""
        self._lock_space = lock_space
        self._listener: asyncpg.Connection | None = None

    async def put(self, game_id: int, user_id: int, text: str, reply: dict[str, Any]) -> int:
        """Queue a move and wake the workers; its id."""
        move_id: int = await self._pool.fetchval(
            PUT, game_id, user_id, text, json.dumps(reply, sort_keys=True), self.clock(), QUEUED
        )
        return move_id

    async def claim(
        self, lease: float = LEASE_SECONDS, *, waited: float | None = None
    ) -> QueuedMove | None:
        """The next move to play, claimed for ``lease`` seconds; None if none is free.

        With ``waited``, only a move that has waited at least that many seconds. The claim
        alone, the game left unlocked (the move is then played under ``game_lock``, a trip
        of its own): workers claim with ``claim_held``, which claims alike (``claim_move``
        runs this very statement) and keeps the game's lock from the claim to the store."""
        now = self.clock()
        queued_by = math.inf if waited is None else now - waited
        claimed = await self._pool.fetchrow(CLAIM, now, now + lease, queued_by)
        return None if claimed is None else _move(claimed)

    async def claim_held(
        self, lease: float = LEASE_SECONDS, *, waited: float | None = None
    ) -> Held | None:
        """As ``claim``, and the move's game locked and read with it, held on a connection
        of its own for the task that plays it (``holding``); None if no move is free."""
        assert self._claim_pool is not None, "a store that holds claims"
        now = self.clock()
        queued_by = math.inf if waited is None else now - waited
        connection = await self._claim_pool.acquire()
        try:
            row = await connection.fetchrow(
                CLAIM_HELD, now, now + lease, queued_by, self._lock_space
            )
        except BaseException:  # a lock may be held: the session ends, and the lock with it
            connection.terminate()
            await self._claim_pool.release(connection)
            raise
        if row is None:
            await self._claim_pool.release(connection)
            return None
        return Held(_move(row["claimed"]), connection, row["locked"])

    @asynccontextmanager
    async def holding(self, held: Held) -> AsyncIterator[QueuedMove]:
        """Play the held claim's move in this block: the store takes the move's game as
        locked and read by the claim, and stores it on the claim's connection. The
        connection goes back with no lock: the store's transaction released it, or it is
        released here (a refused move), or the connection is closed."""
        token = held_claim.set(held)
        try:
            yield held.move
        finally:
            held_claim.reset(token)
            await self._hand_back(held.connection, locked=held.locked)

    async def _hand_back(self, connection: asyncpg.Connection, *, locked: bool) -> None:
        assert self._claim_pool is not None
        try:
            if locked:
                await connection.execute("SELECT pg_advisory_unlock_all()")
        except BaseException:  # its session ends, and every lock with it
            connection.terminate()
            raise
        finally:
            await self._claim_pool.release(connection)

    async def done(self, move_id: int) -> bool:
        """Take a move that was answered without being played (a refusal) off the queue;
        False when it was gone already: then another worker answered it, and this one
        must not answer again."""
        async with self._pool.acquire() as db:
            return await unqueue(db, move_id)

    async def waiting(self) -> int:
        count: int = await self._pool.fetchval("SELECT count(*) FROM queued_moves")
        return count

    async def listen(self, woken: Callable[[], None]) -> None:
        """Call ``woken`` whenever a move is queued, on a connection kept for it."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self._url)
        await self._listener.add_listener(QUEUED, lambda *_: woken())

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
