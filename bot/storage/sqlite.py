"""The embedded store: challenges, game snapshots and an append-only action log in one
SQLite file, the default for a bot in one process.

Every change to a game is one transaction that appends to the log and replaces the
snapshot, guarded by the ply number, so a double submission can never count twice and a
crash leaves either the whole move or none of it.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.fairness import Seal
from bot.storage import results
from bot.storage.checkpoints import CHECKPOINT_SECONDS, Checkpointer
from bot.storage.outbox import Claimed, handed_parcels
from bot.storage.queries import RUNNING_COMPUTER_GAMES, SharedQueries
from bot.storage.records import (
    COMPUTER_SEAT,
    ChallengeRecord,
    ChallengeStatus,
    Clock,
    Ending,
    GameRecord,
    GameStatus,
    LogKind,
    NewGame,
    OpenChallengeError,
    StaleGameError,
    Tidings,
    in_public,
    moved,
)
from bot.storage.records import challenge_of as _challenge
from bot.storage.records import dump as _dump
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


class SqliteRepository(SharedQueries):
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
        self.records = results.Records(self._rows)
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

    # -- challenges ---------------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        game: str,
        rules: dict[str, Any],
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        rated: bool = True,
        names: tuple[str, str] = ("", ""),
        swapped: bool = False,
    ) -> ChallengeRecord:
        now = self.clock()

        def create(db: sqlite3.Connection) -> tuple[sqlite3.Row | None, int]:
            """The new challenge, or none and the id of the pair's challenge still open:
            looked up in the same transaction, so it cannot close before it is named."""
            waiting = db.execute(
                "SELECT id FROM challenges WHERE challenger_id = ? AND opponent_id = ?"
                " AND status = 'open'",
                (challenger_id, opponent_id),
            ).fetchone()
            if waiting is not None:
                return None, int(waiting[0])
            made = db.execute(
                "INSERT INTO challenges (game, rules, guild_id, channel_id, challenger_id,"
                " opponent_id, rated, created_at, challenger_name, opponent_name, swapped)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    game,
                    _dump(rules),
                    guild_id,
                    channel_id,
                    challenger_id,
                    opponent_id,
                    int(rated),
                    now,
                    *names,
                    int(swapped),
                ),
            ).fetchone()
            return made, 0

        row, open_id = await self._transact(create)
        if row is None:
            raise OpenChallengeError(open_id)
        return _challenge(row)

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, game_id: int | None = None
    ) -> bool:
        """Close an open challenge; False when it was already closed (a second click)."""
        closed: bool = await self._transact(
            lambda db: db.execute(
                "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = 'open'",
                (status.value, game_id, challenge_id),
            ).rowcount
            == 1
        )
        return closed

    async def accept_challenge(
        self,
        challenge_id: int,
        *,
        seed: int,
        seats: tuple[int, int],
        state: dict[str, Any],
        tidings: Tidings = (),
        computer_level: str | None = None,
        seals: tuple[Seal, ...] = (),
        names: tuple[str, str] = ("", ""),
    ) -> GameRecord | None:
        """Create the game and close the challenge in one transaction; None if already closed.

        ``names`` are the seats' display names, as the referee has them."""
        now = self.clock()

        def accept(db: sqlite3.Connection) -> int | None:
            row = db.execute("SELECT * FROM challenges WHERE id = ?", (challenge_id,)).fetchone()
            if row is None or row["status"] != ChallengeStatus.OPEN.value:
                return None
            challenge = _challenge(row)
            game_id = _begin_game(
                db,
                NewGame(
                    challenge.game,
                    challenge.rules,
                    challenge.guild_id,
                    challenge.channel_id,
                    challenge.rated,
                    seed,
                    seats,
                    state,
                    names,
                    computer_level,
                ),
                now,
                tidings,
                seals,
            )
            db.execute(
                "UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ?",
                (game_id, challenge_id),
            )
            return game_id

        game_id = await self._transact(accept)
        if game_id is None:
            return None
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def start_computer_game(
        self,
        new: NewGame,
        *,
        at_most: int,
        tidings: Tidings = (),
        seals: tuple[Seal, ...] = (),
    ) -> GameRecord | None:
        """Create a game against the computer, unless its person already plays ``at_most``
        of them (None then): counted and created in one transaction, so a burst of
        requests cannot pass the limit."""
        now = self.clock()

        def start(db: sqlite3.Connection) -> int | None:
            person = new.seats[1 - COMPUTER_SEAT]
            running = db.execute(RUNNING_COMPUTER_GAMES, (person,)).fetchone()[0]
            if running >= at_most:
                return None
            return _begin_game(db, new, now, tidings, seals)

        game_id = await self._transact(start)
        return None if game_id is None else await self.get_game(game_id)

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

    async def append(
        self,
        game: GameRecord,
        *,
        seat: int | None,
        kind: LogKind,
        text: str,
        state: dict[str, Any],
        ending: Ending | None = None,
        tidings: Tidings = (),
        seals: tuple[Seal, ...] = (),
        queued: int | None = None,
    ) -> GameRecord:
        """Log one entry, store the new snapshot and hold its tidings, atomically.

        Each audience's notice is claimed in the same transaction when its lane holds
        nothing else, and handed to the lane's next claim (``Handover``): sending it then
        takes only its release.

        An ``ending`` with a result writes the players' results and new ratings in the same
        transaction, so no crash can keep the one without the other.

        Raises StaleGameError when the stored game is no longer at ``game.ply``: the same
        move sent twice, or two moves racing, and only the first one counts.
        """
        now = self.clock()
        status = GameStatus.FINISHED if ending else GameStatus.ACTIVE
        snapshot = _dump(state)
        public = in_public(tidings)

        def log_and_store(db: sqlite3.Connection) -> tuple[int | None, Claimed]:
            # RETURNING hands back the live message, which may have been posted since
            # ``game`` was read: the courier must edit that one. A change in secret keeps
            # the game's wait: its last public change, and its reminder if it had one.
            stored = db.execute(
                "UPDATE games SET ply = ply + 1, state = ?, status = ?, winner = ?,"
                " end_reason = ?, updated_at = CASE WHEN ? THEN ? ELSE updated_at END,"
                " reminded_ply = CASE WHEN NOT ? AND reminded_ply IS ply THEN ply + 1"
                " ELSE reminded_ply END"
                " WHERE id = ? AND ply = ? AND status = 'active'"
                " RETURNING public_message_id",
                (
                    snapshot,
                    status.value,
                    ending.winner if ending else None,
                    ending.reason if ending else None,
                    public,
                    now,
                    public,
                    game.id,
                    game.ply,
                ),
            ).fetchone()
            if stored is None:
                raise StaleGameError(f"game {game.id} is no longer at ply {game.ply}")
            if queued is not None and _unqueued(db, queued) != 1:
                raise StaleGameError(f"queued move {queued} was already played")
            db.execute(
                "INSERT INTO actions (game_id, ply, seat, kind, text, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, game.ply + 1, seat, kind.value, text, now),
            )
            claimed = hold(
                db, game.id, game.ply + 1, tidings, final=ending is not None, now=now, claim=True
            )
            _announce(db, game.id, game.ply + 1, tidings)
            _seal(db, game.id, game.ply + 1, seals)
            if ending is not None and ending.has_result:
                results.record_results(
                    db,
                    game_id=game.id,
                    game=game.game,
                    guild_id=game.guild_id,
                    seats=game.seats,
                    winner=ending.winner,
                    rated=ending.rated,
                    now=now,
                )
            live_message_id: int | None = stored[0]
            return live_message_id, claimed

        with self.outbox.handover.storing(game.id) as hand_over:
            live_message_id, claimed = await self._transact(log_and_store)
            stored = moved(game, live_message_id, state, ending, now, public)
            hand_over(handed_parcels(stored, tidings, claimed, final=ending is not None))
        return stored

    async def forget_closed_challenges(self, before: float) -> int:
        """Delete answered, withdrawn and expired challenges made at or before ``before``.

        A closed challenge is kept a while so a late click on its message is told what
        became of it; after that the row serves nothing, and the table stays small.
        """
        closed = [status.value for status in ChallengeStatus if status is not ChallengeStatus.OPEN]
        marks = ", ".join("?" * len(closed))
        forgotten: int = await self._transact(
            lambda db: db.execute(
                f"DELETE FROM challenges WHERE status IN ({marks}) AND created_at <= ?",
                (*closed, before),
            ).rowcount,
            at_once=False,  # the first sweep after a long run may delete many rows
        )
        return forgotten


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


def _begin_game(
    db: sqlite3.Connection, new: NewGame, now: float, tidings: Tidings, seals: tuple[Seal, ...]
) -> int:
    """Insert a new game with what its start tells each audience and the seals made then;
    its id."""
    cursor = db.execute(
        "INSERT INTO games (game, rules, seed, guild_id, channel_id, seat0_id, seat1_id,"
        " status, state, rated, computer_level, created_at, updated_at,"
        " seat0_name, seat1_name)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            new.game,
            _dump(new.rules),
            new.seed,
            new.guild_id,
            new.channel_id,
            *new.seats,
            GameStatus.ACTIVE.value,
            _dump(new.state),
            int(new.rated),
            new.computer_level,
            now,
            now,
            *new.names,
        ),
    )
    game_id = int(cursor.lastrowid or 0)
    hold(db, game_id, 0, tidings, final=False, now=now)
    _announce(db, game_id, 0, tidings)
    _seal(db, game_id, 0, seals)
    return game_id


def _announce(db: sqlite3.Connection, game_id: int, ply: int, tidings: Tidings) -> None:
    """Keep what each audience is told of a change for good, as the game's announcements,
    which ``/export`` publishes at the end (delivered notices are forgotten)."""
    if tidings:
        db.execute(
            "INSERT INTO announcements (game_id, ply, tidings) VALUES (?, ?, ?)",
            (game_id, ply, json.dumps([[a, list(t)] for a, t in tidings])),
        )


def _seal(db: sqlite3.Connection, game_id: int, ply: int, seals: tuple[Seal, ...]) -> None:
    """Keep the seals made when play began, in the same transaction as that move."""
    db.executemany(
        "INSERT INTO seals (game_id, ply, who, salt, digest, secret) VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, ply, s.who, s.salt, s.digest, s.secret) for s in seals],
    )


def _unqueued(db: sqlite3.Connection, move_id: int) -> int:
    """Take a queued move off the queue as it is played: 0 when it was gone already."""
    return db.execute("DELETE FROM queued_moves WHERE id = ?", (move_id,)).rowcount
