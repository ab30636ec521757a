"""The embedded store: challenges, game snapshots and an append-only action log in one
SQLite file, the default for a bot in one process.

Every change to a game is one transaction that appends to the log and replaces the
snapshot, guarded by the ply number, so a double submission can never count twice and a
crash leaves either the whole move or none of it.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.fairness import Seal
from bot.storage import changes, results
from bot.storage.checkpoints import CHECKPOINT_SECONDS, Checkpointer
from bot.storage.outbox import Claimed, told_counts
from bot.storage.queries import RUNNING_COMPUTER_GAMES
from bot.storage.records import (
    COMPUTER_SEAT,
    AudienceTexts,
    ChallengeRecord,
    ChallengeStatus,
    Clock,
    GameRecord,
    NewGame,
    OpenChallengeError,
    StaleGameError,
    challenge_of,
    dump,
)
from bot.storage.sqlite_at_once import SHARED_PRAGMAS, Busy, StatementsAtOnce
from bot.storage.sqlite_outbox import SqliteInbox, SqliteOutbox, hold
from bot.storage.sqlite_schema import (
    AWAITING_FORFEIT,
    AWAITING_REMINDER,
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
)

T = TypeVar("T")


class SqliteRepository(changes.SharedChanges):
    """The embedded store: one SQLite file in WAL mode, serialised writes, a connection on
    aiosqlite's thread and one for a move's short statements (``StatementsAtOnce``)."""

    awaiting_reminder_sql = AWAITING_REMINDER
    awaiting_forfeit_sql = AWAITING_FORFEIT

    def __init__(self, connection: aiosqlite.Connection, clock: Clock = time.time) -> None:
        self._db = connection
        self._at_once: StatementsAtOnce | None = None
        """Where a move's short statements run without a trip to the thread (a file only)."""
        self._write_lock = asyncio.Lock()
        self.clock = clock
        """Stamps every change, so waiting times are measured by the same clock."""
        self.records = results.ResultQueries(self._rows)
        """Leaderboards, profiles and histories: reads that take no lock."""
        self.checkpointer: Checkpointer | None = None
        """Copies the write-ahead log back into the file on a timer (none in memory)."""
        self.outbox = SqliteOutbox(connection, self._transact)
        """What each audience is still to be told (written with each change)."""
        self.inbox = SqliteInbox(connection, self._transact)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        clock: Clock = time.time,
        checkpoint_every: float = CHECKPOINT_SECONDS,
    ) -> SqliteRepository:
        """Open (creating if needed) the database file and bring its schema up to date.

        Commits never checkpoint the write-ahead log themselves (``wal_autocheckpoint=0``):
        a ``Checkpointer`` on its own connection does it every ``checkpoint_every`` seconds.
        """
        in_memory = str(path) == ":memory:"
        if not in_memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA busy_timeout=5000")
        for pragma in SHARED_PRAGMAS:
            await connection.execute(pragma)
        repository = cls(connection, clock)
        try:
            await repository._migrate()
            if not in_memory:  # a second connection to ":memory:" would be another database
                repository._at_once = StatementsAtOnce(path)
                repository.checkpointer = Checkpointer(path, checkpoint_every)
        except BaseException:
            if repository._at_once is not None:
                repository._at_once.close()
            await connection.close()
            raise
        return repository

    async def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.close()
        if self._at_once is not None:
            self._at_once.close()
        await self._db.close()

    async def _migrate(self) -> None:
        """Create missing tables; refuse a database written by a newer bot."""
        version = await self._scalar("PRAGMA user_version")
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"The database schema is version {version}, newer than this bot "
                f"({SCHEMA_VERSION}); upgrade the bot."
            )
        async with self._write_lock:
            if version == 0:
                await self._db.executescript(SCHEMA)  # commits by itself
                version = 1
                await self._db.execute(f"PRAGMA user_version={version}")
            for step in MIGRATIONS[version - 1 :]:
                version += 1
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{step}\nPRAGMA user_version={version};\nCOMMIT;"
                )

    async def _transact(
        self,
        work: Callable[[sqlite3.Connection], T],
        *,
        at_once: bool = True,
        abandon: bool = True,
    ) -> T:
        """Run ``work`` as one write transaction, one write transaction at a time.

        A move's statements take SQLite a few hundredths of a millisecond, and a trip to
        aiosqlite's thread and back costs the event loop more. So a short transaction
        (``at_once``) runs at once on the loop's thread (``StatementsAtOnce``) when SQLite
        can take the write lock without waiting; otherwise, or when it may take long, the
        whole transaction (BEGIN, every statement, then COMMIT, or ROLLBACK on any error)
        runs on the database thread in a single trip.

        There, a caller cancelled meanwhile (a timeout, say) leaves it to run on, and it
        rolls back instead of committing: nothing half done, nothing stored that its
        caller was never told of, and the next write queues behind it. Work that must
        be kept whoever stops waiting for it (a release of what was sent) says
        ``abandon=False``.
        """
        async with self._write_lock:
            if at_once and self._at_once is not None:
                try:
                    return self._at_once.transaction(work)
                except Busy:
                    pass  # another process is writing: wait for it off the loop
            abandoned = threading.Event()
            try:
                return await self._db._execute(_in_transaction, self._db._conn, work, abandoned)
            except asyncio.CancelledError:
                if abandon:
                    abandoned.set()
                raise

    async def _write(self, sql: str, *params: Any) -> None:
        """One statement on its own: atomic by itself, and kept out of any open transaction."""
        async with self._write_lock:
            await self._db.execute(sql, params)

    async def _rows(self, sql: str, *params: Any) -> list[aiosqlite.Row]:
        """All rows of a query, in one round trip to the database thread."""
        return list(await self._db.execute_fetchall(sql, params))

    async def _lookup(self, sql: str, *params: Any) -> list[aiosqlite.Row]:
        """The few rows of a query by key, read at once on the loop's thread when it can."""
        if self._at_once is not None:
            try:
                return self._at_once.rows(sql, params)
            except Busy:
                pass
        return await self._rows(sql, *params)

    async def _scalar(self, sql: str, *params: Any) -> Any:
        rows = await self._rows(sql, *params)
        return rows[0][0] if rows else None

    # -- changes (``SharedChanges``' hooks) ----------------------------------------------------

    async def _create_challenge(self, row: tuple[Any, ...]) -> ChallengeRecord:
        def create(db: sqlite3.Connection) -> tuple[sqlite3.Row | None, int]:
            """The new challenge, or none and the id of the pair's challenge still open:
            looked up in the same transaction, so it cannot close before it is named."""
            waiting = db.execute(changes.OPEN_CHALLENGE, row[4:6]).fetchone()
            if waiting is not None:
                return None, int(waiting[0])
            return db.execute(f"{changes.INSERT_CHALLENGE} RETURNING *", row).fetchone(), 0

        made, open_id = await self._transact(create)
        if made is None:
            raise OpenChallengeError(open_id)
        return challenge_of(made)

    async def _changed(self, sql: str, *params: Any, many: bool = False) -> int:
        changed: int = await self._transact(
            lambda db: db.execute(sql, params).rowcount, at_once=not many
        )
        return changed

    async def _accept(
        self, challenge_id: int, started: changes.Started, opening: changes.Opening
    ) -> GameRecord | None:
        def accept(db: sqlite3.Connection) -> int | None:
            row = db.execute("SELECT * FROM challenges WHERE id = ?", (challenge_id,)).fetchone()
            if row is None or row["status"] != ChallengeStatus.OPEN.value:
                return None
            game_id = _begin_game(db, started(challenge_of(row)), opening)
            db.execute(changes.ACCEPTED, (game_id, challenge_id))
            return game_id

        game_id = await self._transact(accept)
        return None if game_id is None else await self.get_game(game_id)

    async def _start_counted(
        self, new: NewGame, at_most: int, opening: changes.Opening
    ) -> GameRecord | None:
        """Counted and created in one write transaction: one writer at a time."""

        def start(db: sqlite3.Connection) -> int | None:
            person = new.seats[1 - COMPUTER_SEAT]
            running = db.execute(RUNNING_COMPUTER_GAMES, (person,)).fetchone()[0]
            if running >= at_most:
                return None
            return _begin_game(db, new, opening)

        game_id = await self._transact(start)
        return None if game_id is None else await self.get_game(game_id)

    async def _store(self, game: GameRecord, change: changes.Change) -> tuple[int | None, Claimed]:
        """One write transaction; the results and ratings of an ending with a result are
        written in it (``results.record_results``)."""
        snapshot = dump(change.state)

        def log_and_store(db: sqlite3.Connection) -> tuple[int | None, Claimed]:
            stored = db.execute(STORE_SNAPSHOT, _snapshot_row(game, change, snapshot)).fetchone()
            if stored is None:
                raise StaleGameError(f"game {game.id} is no longer at ply {game.ply}")
            if change.queued is not None and _unqueued(db, change.queued) != 1:
                raise StaleGameError(f"queued move {change.queued} was already played")
            ply = game.ply + 1
            db.execute(
                "INSERT INTO actions (game_id, ply, seat, kind, text, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, ply, change.seat, change.kind.value, change.text, change.now),
            )
            claimed = hold(
                db,
                game.id,
                ply,
                change.audience_texts,
                final=change.final,
                now=change.now,
                claim=True,
                counts=stored[1:],
            )
            _announce(db, game.id, ply, change.audience_texts)
            _seal(db, game.id, ply, change.seals)
            if change.ending is not None and change.with_result:
                results.record_results(
                    db,
                    game_id=game.id,
                    game=game.game,
                    guild_id=game.guild_id,
                    seats=game.seats,
                    winner=change.ending.winner,
                    rated=change.ending.rated,
                    now=change.now,
                )
            live_message_id: int | None = stored[0]
            return live_message_id, claimed

        stored: tuple[int | None, Claimed] = await self._transact(log_and_store)
        return stored

    async def _hold_once(
        self, game: GameRecord, audience_texts: AudienceTexts, fact: tuple[str, str], now: float
    ) -> bool:
        def held(db: sqlite3.Connection) -> bool:
            if db.execute(changes.HELD_ONCE, fact).fetchone() is None:
                return False
            hold(db, game.id, game.ply, audience_texts, final=False, now=now)
            return True

        once: bool = await self._transact(held)
        return once

    # -- games --------------------------------------------------------------------------------

    shared = False
    """One process owns the file."""

    @asynccontextmanager
    async def duty(self, name: str) -> AsyncIterator[bool]:
        """Always this process's: no other shares the file."""
        yield True

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Nothing to take: one process owns the file, and the referee's own lock suffices."""
        yield


STORE_SNAPSHOT = (
    "UPDATE games SET ply = ply + 1, state = ?, status = ?, winner = ?,"
    " end_reason = ?, updated_at = CASE WHEN ? THEN ? ELSE updated_at END,"
    " reminded_ply = CASE WHEN NOT ? AND reminded_ply IS ply THEN ply + 1"
    " ELSE reminded_ply END,"
    " told_seat0 = told_seat0 + ?, told_seat1 = told_seat1 + ?, told_channel = told_channel + ?"
    " WHERE id = ? AND ply = ? AND status = 'active'"
    " RETURNING public_message_id, told_seat0, told_seat1, told_channel"
)
"""A change's new snapshot, guarded by the ply it was made at; answers the live message,
which may have been posted since the game was read (the Discord sender must edit that one),
and each audience's count of notices with the change's own (``outbox.TOLD_COUNTS`` in the
same statement, one write of the row fewer a move). A change in secret keeps the game's
wait: its last public change, and its reminder if it had one (parameters:
``_snapshot_row``)."""


def _snapshot_row(game: GameRecord, change: changes.Change, snapshot: str) -> tuple[Any, ...]:
    """``STORE_SNAPSHOT``'s parameters."""
    outcome = (change.status.value, change.winner, change.end_reason)
    told = told_counts(change.audience_texts)
    return (snapshot, *outcome, change.public, change.now, change.public, *told, game.id, game.ply)


class _Abandoned(Exception):
    """The caller of a transaction gave up before it could commit: it is rolled back."""


def _in_transaction(
    db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T], abandoned: threading.Event
) -> T:
    """BEGIN, ``work``, COMMIT; or ROLLBACK and the error. Runs on the database thread."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = work(db)
        if abandoned.is_set():
            raise _Abandoned
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return result


def _begin_game(db: sqlite3.Connection, new: NewGame, opening: changes.Opening) -> int:
    """Insert a new game with what its start tells each audience and the seals made then;
    its id."""
    now, audience_texts = opening.now, opening.audience_texts
    game_id = int(db.execute(changes.INSERT_GAME, changes.game_row(new, now)).lastrowid or 0)
    hold(db, game_id, 0, audience_texts, final=False, now=now)
    _announce(db, game_id, 0, audience_texts)
    _seal(db, game_id, 0, opening.seals)
    return game_id


def _announce(
    db: sqlite3.Connection, game_id: int, ply: int, audience_texts: AudienceTexts
) -> None:
    """Keep what each audience is told of a change for good (``changes.announcement``)."""
    told = changes.announcement(audience_texts)
    if told is not None:
        db.execute(changes.INSERT_ANNOUNCEMENT, (game_id, ply, told))


def _seal(db: sqlite3.Connection, game_id: int, ply: int, seals: tuple[Seal, ...]) -> None:
    """Keep the seals made when play began, in the same transaction as that move."""
    db.executemany(changes.INSERT_SEAL, changes.seal_rows(game_id, ply, seals))


def _unqueued(db: sqlite3.Connection, move_id: int) -> int:
    """Take a queued move off the queue as it is played: 0 when it was gone already."""
    return db.execute("DELETE FROM queued_moves WHERE id = ?", (move_id,)).rowcount
