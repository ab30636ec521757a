"""The shared store: PostgreSQL through asyncpg, for several bot processes on one database.

It keeps ``Repository``'s promises as SQLite does, each through PostgreSQL's own means:
a move is one transaction whose ``UPDATE … WHERE ply = …`` guard lets exactly one of two
racing submissions count, even from two processes; the schema is migrated under an advisory
lock so processes starting together migrate once; and a game's end locks its players'
ratings so two games ending at once for one player both count.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import asyncpg

from bot.storage import changes, results
from bot.storage import postgres_schema as schema
from bot.storage import postgres_writes as writes
from bot.storage.outbox import Claimed, audience_of, told_of
from bot.storage.postgres_outbox import PostgresInbox, PostgresOutbox, hold
from bot.storage.postgres_queue import MoveQueue, held_claim
from bot.storage.queries import RUNNING_COMPUTER_GAMES, numbered
from bot.storage.records import (
    COMPUTER_SEAT,
    AudienceTexts,
    ChallengeRecord,
    Clock,
    GameRecord,
    NewGame,
    OpenChallengeError,
    StaleGameError,
    challenge_of,
    game_of,
)

SCHEMA_VERSION = 1 + len(schema.MIGRATIONS)

MIGRATION_LOCK = 0x7265_6665_7265_6531
"""The advisory lock key processes take while migrating, so only one migrates at a time."""

POOL_SIZE = 10
"""Connections per process: enough for its moves, sweeps and reads to overlap."""

LOCK_POOL_SIZE = 10
"""Connections per process that hold game locks: apart from the others, so games waiting
for their locks can never take the connections the games holding them need to finish."""

CLAIM_POOL_SIZE = 10
"""Connections per process that hold claimed queued moves' game locks (a worker's moves
in play, ``MoveQueue.claim_held``): apart from the others for the same reason."""

SESSION: dict[str, Any] = {"server_settings": {"plan_cache_mode": "force_generic_plan"}}
"""Every connection's session: statements planned once, when first prepared, not at each
call. asyncpg prepares every statement, and PostgreSQL would otherwise plan anew each
call of a statement whose generic plan it deems dearer than a custom one (the outbox's
releases, over arrays of unknown length, were planned at every call): that planning cost
the server more than running them. The store's statements find rows by key or by the
partial indexes their conditions name, so a plan made without the values is as good."""

GAME_LOCKS = 0x6761_6D65
"""The advisory lock space of games: a game's lock is the pair (this, its id)."""

DUTIES = 0x6475_7479
"""The advisory lock space of duties: a duty's lock is the pair (this, a hash of its name)."""

PLAYERS = 0x706C_6179
"""The advisory lock space of players: a player's lock is the pair (this, a hash of their
id), held while a game against the computer is counted and created for them."""

T = TypeVar("T")

_read_with_lock: ContextVar[dict[int, GameRecord | None]] = ContextVar("read_with_lock")
"""Per task: each game whose lock it holds, as read the moment the lock was taken, until
its first read under the lock takes it (``game_lock``, ``get_game``). A task started
meanwhile inherits the context but gets a dict of its own on its first lock; it never
takes the holder's read (``_holder``)."""

_holder: ContextVar[asyncio.Task[Any] | None] = ContextVar("read_with_lock_holder", default=None)
"""The task the reads of ``_read_with_lock`` were taken for."""


class PostgresRepository(changes.SharedChanges):
    """The networked store: a pool of connections to one PostgreSQL database.

    Statements are written with ``?`` placeholders or PostgreSQL's own ``$1, $2, …``: the
    first are numbered on their way (``numbered``), the second pass as they are."""

    awaiting_reminder_sql = schema.AWAITING_REMINDER
    awaiting_forfeit_sql = schema.AWAITING_FORFEIT

    shared = True
    """Any number of bot processes may use the database at once."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        lock_pool: asyncpg.Pool,
        clock: Clock = time.time,
        url: str = "",
        claim_pool: asyncpg.Pool | None = None,
    ) -> None:
        self._pool = pool
        self._lock_pool = lock_pool
        self._claim_pool = claim_pool
        self.clock = clock
        """Stamps every change, so waiting times are measured by the same clock."""
        self.records = results.ResultQueries(self._rows)
        """Leaderboards, profiles and histories: plain reads."""
        self.outbox = PostgresOutbox(pool)
        """What each audience is still to be told (written with each change)."""
        self.inbox = PostgresInbox(pool)
        self.queue = MoveQueue(pool, url, lambda: self.clock(), claim_pool, GAME_LOCKS)
        """Moves received by one process, waiting for a worker to play them."""

    @classmethod
    async def open(cls, url: str, clock: Clock = time.time) -> PostgresRepository:
        """Connect to the database at ``url`` and bring its schema up to date."""
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=POOL_SIZE, reset=_session_left_clean, **SESSION
        )
        pools = [pool]
        try:
            lock_pool = await asyncpg.create_pool(
                url, min_size=0, max_size=LOCK_POOL_SIZE, reset=_locks_released, **SESSION
            )
            pools.append(lock_pool)
            # Handed back with no lock held (``MoveQueue.holding``): no reset needed.
            claim_pool = await asyncpg.create_pool(
                url, min_size=0, max_size=CLAIM_POOL_SIZE, reset=_session_left_clean, **SESSION
            )
        except BaseException:
            for opened in pools:
                await opened.close()
            raise
        repository = cls(pool, lock_pool, clock, url, claim_pool)
        try:
            await repository._migrate()
        except BaseException:
            await repository.close()
            raise
        return repository

    async def close(self) -> None:
        await self.queue.close()
        if self._claim_pool is not None:
            await self._claim_pool.close()
        await self._lock_pool.close()
        await self._pool.close()

    async def _migrate(self) -> None:
        """Create missing tables; refuse a database written by a newer bot."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            version = await db.fetchval("SELECT version FROM schema_version") or 0
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"The database schema is version {version}, newer than this bot "
                    f"({SCHEMA_VERSION}); upgrade the bot."
                )
            if version == 0:
                await db.execute(schema.SCHEMA)
                await db.execute("INSERT INTO schema_version VALUES (1)")
                version = 1
            for step in schema.MIGRATIONS[version - 1 :]:
                await db.execute(step)
                version += 1
            await db.execute("UPDATE schema_version SET version = $1", version)

    def connection(self) -> Any:
        """One pooled connection, for tools that work on whole tables (``copy_database``)."""
        return self._pool.acquire()

    async def schema_version(self) -> int:
        version: int = await self._pool.fetchval("SELECT version FROM schema_version")
        return version

    async def _transact(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run ``work`` in one transaction: committed whole, or rolled back on any error
        (a caller cancelled meanwhile included), so nothing is ever stored half done."""
        async with self._pool.acquire() as db, db.transaction():
            return await work(db)

    async def _rows(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        rows: list[asyncpg.Record] = await self._pool.fetch(numbered(sql), *params)
        return rows

    async def _scalar(self, sql: str, *params: Any) -> Any:
        return await self._pool.fetchval(numbered(sql), *params)

    async def _write(self, sql: str, *params: Any) -> None:
        await self._pool.execute(numbered(sql), *params)

    # -- games --------------------------------------------------------------------------------

    @asynccontextmanager
    async def duty(self, name: str) -> AsyncIterator[bool]:
        """The duty's advisory lock if no other process holds it, kept until the work is
        done (it goes with the connection's reset, ``_locks_released``); a process that
        dies on duty loses its connection, and the lock with it."""
        async with self._lock_pool.acquire() as db:
            mine = await db.fetchval("SELECT pg_try_advisory_lock($1, hashtext($2))", DUTIES, name)
            yield bool(mine)

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """The game's advisory lock, held on a connection of its own until the change is
        done; a process that dies holding it loses its connection, and with it the lock.

        One round trip takes the lock and reads the game just after (``lock_game``,
        migration 14); the change's first ``get_game`` is answered with that read. The
        lock goes when the connection is handed back (``_locks_released``), in the trip
        that resets it anyway.

        A worker playing a claimed move already holds the lock, and the read, taken by its
        claim (``MoveQueue.holding``): then no trip at all while the claim holds the lock
        (never a second lock the claim's own would keep waiting)."""
        claim = held_claim.get()
        if claim is not None and claim.move.game_id == game_id and claim.locked:
            read, claim.game = claim.game, None  # the claim's read serves once
            game = game_of(read) if read is not None else await super().get_game(game_id)
            with self._read_taken(game_id, game):
                yield
            return
        async with self._lock_pool.acquire() as db:
            rows = await db.fetch("SELECT * FROM lock_game($1, $2)", GAME_LOCKS, game_id)
            with self._read_taken(game_id, game_of(rows[0]) if rows else None):
                yield

    @contextmanager
    def _read_taken(self, game_id: int, game: GameRecord | None) -> Iterator[None]:
        """The game as read with its lock, for the first ``get_game`` under the lock."""
        held = _read_with_lock.get(None)
        if held is None or _holder.get() is not asyncio.current_task():
            held = {}
            _read_with_lock.set(held)
            _holder.set(asyncio.current_task())
        held[game_id] = game
        try:
            yield
        finally:
            held.pop(game_id, None)

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game as stored; the first read under its lock is the one the lock took."""
        held = _read_with_lock.get(None)
        if held is not None and game_id in held and _holder.get() is asyncio.current_task():
            return held.pop(game_id)
        return await super().get_game(game_id)

    # -- changes (``SharedChanges``' hooks) ----------------------------------------------------

    async def _create_challenge(self, row: tuple[Any, ...]) -> ChallengeRecord:
        while True:
            # The index of open challenges per pair refuses a second; the one still open is
            # then named, and if it closed in between, the next try goes through.
            rows = await self._rows(writes.CREATE_CHALLENGE, *row)
            if rows:
                return challenge_of(rows[0])
            open_id = await self._scalar(changes.OPEN_CHALLENGE, *row[4:6])
            if open_id is not None:
                raise OpenChallengeError(int(open_id))

    async def _changed(self, sql: str, *params: Any, many: bool = False) -> int:
        outcome = await self._pool.execute(numbered(sql), *params)
        return int(outcome.split()[-1])

    async def _accept(
        self, challenge_id: int, started: changes.Started, opening: changes.Opening
    ) -> GameRecord | None:
        async def accept(db: asyncpg.Connection) -> GameRecord | None:
            row = await db.fetchrow(
                "SELECT * FROM challenges WHERE id = $1 AND status = 'open' FOR UPDATE",
                challenge_id,
            )
            if row is None:
                return None
            game = await writes.begin_game(db, started(challenge_of(row)), opening)
            await db.execute(numbered(changes.ACCEPTED), game.id, challenge_id)
            return game

        return await self._transact(accept)

    async def _start_counted(
        self, new: NewGame, at_most: int, opening: changes.Opening
    ) -> GameRecord | None:
        """The person's advisory lock, held to the end of the transaction, makes the count
        and the insert one step for every process."""
        person = new.seats[1 - COMPUTER_SEAT]

        async def start(db: asyncpg.Connection) -> GameRecord | None:
            await db.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", PLAYERS, str(person))
            if await db.fetchval(numbered(RUNNING_COMPUTER_GAMES), person) >= at_most:
                return None
            return await writes.begin_game(db, new, opening)

        return await self._transact(start)

    async def _hold_once(
        self, game: GameRecord, audience_texts: AudienceTexts, fact: tuple[str, str], now: float
    ) -> bool:
        async def held(db: asyncpg.Connection) -> bool:
            if await db.fetchval(numbered(changes.HELD_ONCE), *fact) is None:
                return False
            await hold(db, game.id, game.ply, audience_texts, final=False, now=now)
            return True

        return await self._transact(held)

    async def _store(self, game: GameRecord, change: changes.Change) -> tuple[int | None, Claimed]:
        """One call of ``store_move`` (migration 15), its own transaction, when the change
        keeps no seals and writes no result; else that call and those writes in one
        transaction. A worker's claimed move is stored on its claim's connection by
        ``store_claimed_move``, which hands the claim's lock to the transaction."""
        claim = held_claim.get()
        if claim is None or claim.move.game_id != game.id or not claim.locked:
            claim = None

        async def log_and_store(db: asyncpg.Connection) -> tuple[int | None, Claimed]:
            stored = await db.fetchrow(
                writes.STORE_CLAIMED_MOVE if claim else writes.STORE_MOVE,
                *((GAME_LOCKS,) if claim else ()),
                *writes.move_row(game, change),
            )
            if claim is not None:  # committed or not, the session holds the lock no more
                claim.locked = False
            if stored["outcome"] == "stale":
                raise StaleGameError(f"game {game.id} is no longer at ply {game.ply}")
            if stored["outcome"] == "unqueued":
                raise StaleGameError(f"queued move {change.queued} was already played")
            await writes.seal(db, game.id, game.ply + 1, change.seals)
            if change.ending is not None and change.with_result:
                await writes.record_results(db, game, change.ending, change.now)
            counts = stored["told_counts"]
            claimed = tuple(
                (audience, told_of(audience, counts))
                for audience in map(audience_of, stored["claimed_audiences"])
            )
            return stored["live_message_id"], claimed

        alone = not change.seals and not change.with_result
        if claim is not None:  # the claim's lock passes to the move's transaction
            return await writes.in_transaction(claim.connection, log_and_store, alone=alone)
        if not alone:
            return await self._transact(log_and_store)
        async with self._pool.acquire() as db:
            return await log_and_store(db)


async def _session_left_clean(db: asyncpg.Connection) -> None:
    """How a connection of the main pool is reset when it is handed back: not at all.

    asyncpg otherwise sends a reset query (advisory locks, cursors, listeners, settings) on
    every release, a round trip each time a move's statements borrow a connection. Nothing
    on this pool leaves any of those behind: every lock held across statements is taken on
    the lock pool, which keeps the full reset, and a transaction still open is rolled back
    by asyncpg all the same."""


async def _locks_released(db: asyncpg.Connection) -> None:
    """How a connection of the lock pool is reset when it is handed back: every advisory
    lock it holds is released, in one round trip (nothing else is left behind on it: no
    listener, setting or cursor). Should this fail, asyncpg closes the connection, which
    releases the locks all the same."""
    await db.execute("SELECT pg_advisory_unlock_all()")
