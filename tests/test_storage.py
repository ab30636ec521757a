"""The SQLite store, on real files: what it promises the referee about games that must last.

A referee that players trust cannot lose a move, count one twice, or come back from a
restart with a different game. These tests hold the store to each of those promises on a
real database file, through the repository and through the referee as the bot uses them.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, closing
from pathlib import Path
from typing import Any, cast

import pytest

from bot.games import ENGINES
from bot.games.core import EndReason, GameError, Phase
from bot.outbox import MERGED_TEXT_BUDGET, Lane
from bot.referee import GameFault, Referee, RefereeError, Report, replay
from bot.storage import (
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    ChallengeStatus,
    Ending,
    GameRecord,
    GameStatus,
    LogKind,
    OpenChallengeError,
    Repository,
    SqliteRepository,
    StaleGameError,
)
from bot.storage.interface import dump
from bot.storage.postgres import PostgresRepository
from tests.conftest import fresh_schema
from tests.test_referee import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    E,
    random_move,
    set_fleets,
    start_game,
    state_of,
)


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


sqlite_only = pytest.mark.parametrize("backend", ["sqlite"])
"""For promises kept by SQLite's own means (its file, its thread, its lock)."""


def sql(path: Path, statement: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run SQL on the file through a second, plain connection, as another process would."""
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute(statement, params).fetchall()
        db.commit()
    return rows


async def challenge(repo: Repository, challenger: int = ALICE, opponent: int = BOB) -> int:
    record = await repo.create_challenge(
        game="seabattle",
        rules=E.presets["classic"].to_json(),
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=challenger,
        opponent_id=opponent,
    )
    return record.id


async def play(
    referee: Referee, game: GameRecord, rng: random.Random, *, until: int | None = None
) -> GameRecord:
    """Random legal moves until the game ends, or until it has ``until`` log entries."""
    state = state_of(game)
    while game.status is GameStatus.ACTIVE and (until is None or game.ply < until):
        user, text = random_move(rng, game, state)
        game = (await referee.act(user, f"#{game.id} {text}")).game
        state = state_of(game)
    return game


# -- the file -----------------------------------------------------------------------------------


@sqlite_only
async def test_the_file_is_in_wal_mode(repo: SqliteRepository, path: Path) -> None:
    """WAL lets readers (a backup, a second process) work while the bot writes."""
    assert sql(path, "PRAGMA journal_mode") == [("wal",)]
    assert sql(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]


def fill_the_log(pages: int) -> list[tuple[int, str, str, str]]:
    """Saved setups big enough to put about ``pages`` pages into the write-ahead log."""
    return [(7, "seabattle", f"setup-{n}", "x" * 16_000) for n in range(pages // 4)]


async def save_all(repository: SqliteRepository, rows: list[tuple[int, str, str, str]]) -> None:
    for row in rows:
        await repository.save_setup(*row)


async def test_commits_never_checkpoint_the_log_themselves(path: Path) -> None:
    """A checkpoint inside a commit delays that move: past SQLite's 1,000 pages, the
    log keeps growing and the database file stays as it was until the timer copies it."""
    repository = await SqliteRepository.open(path, checkpoint_every=3600)
    try:
        assert await repository._scalar("PRAGMA wal_autocheckpoint") == 0
        before = path.stat().st_size
        await save_all(repository, fill_the_log(1200))
        assert path.with_name(path.name + "-wal").stat().st_size > 1000 * 4096
        assert path.stat().st_size == before, "a commit checkpointed the log"
    finally:
        await repository.close()


async def test_the_timer_copies_the_log_back_into_the_database_file(path: Path) -> None:
    repository = await SqliteRepository.open(path, checkpoint_every=0.05)
    checkpointer = repository.checkpointer
    assert checkpointer is not None
    try:
        await save_all(repository, fill_the_log(400))
        checkpointer.checkpointed.clear()
        assert await asyncio.to_thread(checkpointer.checkpointed.wait, 30), "no checkpoint came"
        assert checkpointer.last is not None
        busy, frames, copied = checkpointer.last
        assert busy == 0 and frames > 0 and copied == frames, checkpointer.last
        assert path.stat().st_size > 400 * 4096, "the saved setups never reached the file"
        assert len(sql(path, "SELECT name FROM saved_setups")) == 100
    finally:
        await repository.close()


async def test_opening_twice_keeps_the_schema_and_the_data(path: Path) -> None:
    """Every start runs the schema script, so it must be idempotent and keep every row."""
    first = await SqliteRepository.open(path)
    challenge_id = await challenge(first)
    await first.close()
    tables = sql(path, "SELECT type, name, sql FROM sqlite_master ORDER BY name")

    second = await SqliteRepository.open(path)
    try:
        kept = await second.get_challenge(challenge_id)
        assert kept is not None and kept.status is ChallengeStatus.OPEN
        assert await challenge(second, ALICE, CAROL) == challenge_id + 1
    finally:
        await second.close()
    assert sql(path, "SELECT type, name, sql FROM sqlite_master ORDER BY name") == tables
    assert {name for kind, name, _ in tables if kind == "table"} >= {
        "challenges",
        "games",
        "actions",
    }


async def test_a_database_from_a_newer_bot_is_refused(path: Path) -> None:
    """An older bot must not write into a schema it does not know: it stops and says why."""
    path.parent.mkdir(parents=True)
    sql(path, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RuntimeError, match=r"newer than this bot .*upgrade the bot"):
        await SqliteRepository.open(path)
    assert sql(path, "SELECT name FROM sqlite_master") == [], "the refused file was changed"
    assert sql(path, "PRAGMA user_version") == [(SCHEMA_VERSION + 1,)]


# -- restarts -----------------------------------------------------------------------------------


async def test_a_restart_resumes_the_game_where_it_stood(path: Path) -> None:
    """After a restart the same game continues: same turn, same shots, and it can be won."""
    rng = random.Random("restart")
    before = await SqliteRepository.open(path)
    referee = Referee(before, seed_source=lambda: 42)
    game = await set_fleets(referee, await start_game(referee))
    game = await play(referee, game, rng, until=game.ply + 7)
    pending = await challenge(before, challenger=CAROL, opponent=BOB)
    board = await referee.board(ALICE)
    log = await before.log(game.id)
    await before.close()

    after = await SqliteRepository.open(path)
    try:
        referee = Referee(after)
        resumed = await referee.game_of(ALICE, None, purpose="move")
        assert resumed == game
        state = state_of(resumed)
        assert state.phase is Phase.PLAY and state.turn == state_of(game).turn
        assert state.log == state_of(game).log and len(state.log) == 7
        assert await after.log(game.id) == log and len(log) == game.ply
        again = await referee.board(ALICE)
        assert again.texts == board.texts and again.view == board.view

        finished = await play(referee, resumed, rng)
        assert finished.status is GameStatus.FINISHED and finished.winner is not None
        assert E.to_json(replay(E, finished, await after.log(game.id))) == finished.state
        opened = await referee.accept(pending, BOB)
        assert opened.game.seats == (CAROL, BOB)
    finally:
        await after.close()


# -- double submissions -------------------------------------------------------------------------


async def test_two_appends_from_the_same_load_count_once(repo: SqliteRepository) -> None:
    """The ply guard: a second write built on the same loaded game is stale."""
    loaded = await Referee(repo).accept(await challenge(repo), BOB)
    game = loaded.game
    moved = E.act(state_of(game), 0, "random").state
    first = await repo.append(
        game, seat=0, kind=LogKind.MOVE, text="random", state=E.to_json(moved)
    )
    assert first.ply == game.ply + 1 and first.state == E.to_json(moved)
    with pytest.raises(StaleGameError):
        await repo.append(game, seat=0, kind=LogKind.MOVE, text="random", state=E.to_json(moved))
    assert [entry.text for entry in await repo.log(game.id)] == ["random"]
    assert await repo.get_game(game.id) == first


async def test_nothing_is_appended_to_a_finished_game(repo: SqliteRepository) -> None:
    """A game that ended takes no more entries, even one that carries the right ply."""
    game = (await Referee(repo).accept(await challenge(repo), BOB)).game
    ended = await repo.append(
        game,
        seat=0,
        kind=LogKind.END,
        text='{"winner": null, "reason": "aborted", "detail": "aborted"}',
        state=game.state,
        ending=Ending(None, EndReason.ABORTED.value),
    )
    assert ended.status is GameStatus.FINISHED and ended.end_reason == "aborted"
    with pytest.raises(StaleGameError):
        await repo.append(ended, seat=1, kind=LogKind.MOVE, text="random", state=game.state)
    assert len(await repo.log(game.id)) == ended.ply == 1


@pytest.mark.parametrize("move", ["ready", "shot"])
async def test_the_same_move_sent_twice_at_once_counts_once(
    repo: SqliteRepository, move: str
) -> None:
    """A double click or a resent DM: exactly one copy applies, the other is refused."""
    referee = Referee(repo, seed_source=lambda: 5)
    game = await start_game(referee)
    await referee.act(ALICE, "random")
    if move == "shot":
        await referee.act(ALICE, "ready")
        await referee.act(BOB, "random")
        game = (await referee.act(BOB, "ready")).game
        user, text = game.seats[state_of(game).turn or 0], "E5"
    else:
        game = await referee.game_of(ALICE, None, purpose="move")
        user, text = ALICE, "ready"

    results = await asyncio.gather(
        referee.act(user, text), referee.act(user, text), return_exceptions=True
    )
    reports = [r for r in results if isinstance(r, Report)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(reports) == 1 and len(errors) == 1, results
    assert isinstance(errors[0], GameError), errors[0]
    stored = await repo.get_game(game.id)
    assert stored == reports[0].game and stored.ply == game.ply + 1
    assert len(await repo.log(game.id)) == stored.ply


class RacingRepository:
    """A store shared by two referees (two processes) that lets both load before either writes.

    Each referee's lock is its own, so only the store's ply guard can stop the second copy.
    """

    def __init__(self, inner: SqliteRepository, barrier: asyncio.Barrier) -> None:
        self._inner = inner
        self._barrier = barrier

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def append(self, game: GameRecord, **fields: Any) -> GameRecord:
        await self._barrier.wait()
        return await self._inner.append(game, **fields)


@sqlite_only  # PostgreSQL's game lock stops the race first: tests/test_storage_shared.py
async def test_two_referees_racing_on_one_store_count_the_move_once(
    repo: SqliteRepository,
) -> None:
    """Without a shared lock, the stale write is refused with the referee's sentence."""
    game = await set_fleets(Referee(repo), await start_game(Referee(repo)))
    shooter = game.seats[state_of(game).turn or 0]
    barrier = asyncio.Barrier(2)
    one, two = (Referee(cast(Repository, RacingRepository(repo, barrier))) for _ in range(2))

    async with asyncio.timeout(10):  # a broken race would leave one side at the barrier
        results = await asyncio.gather(
            one.act(shooter, "F6"), two.act(shooter, "F6"), return_exceptions=True
        )
    reports = [r for r in results if isinstance(r, Report)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(reports) == 1 and len(errors) == 1, results
    assert isinstance(errors[0], RefereeError) and "not counted again" in str(errors[0])
    log = await repo.log(game.id)
    stored = await repo.get_game(game.id)
    assert stored is not None and stored.ply == len(log) == game.ply + 1
    assert [entry.text for entry in log[-1:]] == ["F6"]


# -- atomicity ----------------------------------------------------------------------------------


@sqlite_only
async def test_a_move_that_fails_to_log_leaves_the_snapshot_untouched(
    repo: SqliteRepository, path: Path
) -> None:
    """Snapshot and log change together or not at all: a failed INSERT rolls the UPDATE back."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    game = (await referee.act(ALICE, "random")).game
    sql(
        path,
        "INSERT INTO actions (game_id, ply, seat, kind, text, created_at)"
        " VALUES (?, ?, 1, 'move', 'squatter', 0)",
        game.id,
        game.ply + 1,
    )
    with pytest.raises(GameFault) as raised:
        await referee.act(BOB, "random")
    assert isinstance(raised.value.__cause__, sqlite3.IntegrityError)

    assert await repo.get_game(game.id) == game, "the snapshot moved without its log entry"
    [(ply, state)] = sql(path, "SELECT ply, state FROM games WHERE id = ?", game.id)
    assert ply == game.ply and json.loads(state) == game.state, "the failed move was committed"
    assert [entry.text for entry in await repo.log(game.id)] == ["random", "squatter"]

    sql(path, "DELETE FROM actions WHERE text = 'squatter'")
    report = await referee.act(BOB, "random")
    assert report.game.ply == game.ply + 1, "the store is stuck after a failed move"
    assert [entry.text for entry in await repo.log(game.id)] == ["random", "random"]


@sqlite_only
async def test_a_write_cancelled_while_waiting_for_the_lock_does_not_wedge_the_store(
    repo: SqliteRepository, path: Path
) -> None:
    """A caller that gives up (a timeout, a cancelled task) must not break every later write.

    aiosqlite runs statements on its own thread: a BEGIN whose caller was cancelled still
    runs, and must be rolled back rather than leave the connection inside a transaction.
    """
    await challenge(repo)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # a backup or a second process is writing
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.2):
                await challenge(repo)
        other.execute("COMMIT")

    assert await challenge(repo, ALICE, CAROL) > 0, "the store refuses every write after one"
    assert sql(path, "SELECT count(*) FROM challenges") == [(2,)]


@sqlite_only
async def test_a_move_whose_caller_gave_up_is_rolled_back_not_stored_untold(
    repo: SqliteRepository, path: Path
) -> None:
    """A move runs on the database thread in one go; if its caller is cancelled while it
    waits there (another process holds the write lock), it must not commit later on its
    own: the player was never told of it, and its tidings would wait for a restart."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    for lane in await repo.outbox.lanes():
        parcel = await repo.outbox.claim(lane)
        assert parcel is not None
        await repo.outbox.release(parcel)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.2):
                await referee.act(ALICE, "random")
        other.execute("COMMIT")

    assert await repo.get_game(game.id) == game, "the abandoned move was stored"
    assert await repo.log(game.id) == [] and await repo.outbox.waiting() == 0
    report = await referee.act(ALICE, "random")
    assert report.game.ply == game.ply + 1, "the store is stuck after an abandoned move"


@sqlite_only
async def test_a_move_and_its_delivery_make_no_trip_to_the_database_thread(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each trip to aiosqlite's thread costs the event loop more than SQLite's own work
    (a move's statements take it a few hundredths of a millisecond), so the game's read,
    the move's transaction, a lane's claim and its release run at once on the loop."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    trips: list[object] = []
    run = repo._db._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(fn)
        return await run(fn, *args, **kwargs)

    monkeypatch.setattr(repo._db, "_execute", counted)
    report = await referee.act(ALICE, f"#{game.id} random")
    parcel = await repo.outbox.claim(Lane(game.id, 0))  # the setup and the move, merged
    assert parcel is not None and parcel.last_ply == report.game.ply
    assert await repo.outbox.release(parcel) is False  # nothing more for that lane
    assert trips == []
    assert await repo.get_game(game.id) == report.game
    assert await repo.outbox.waiting() == 2  # the other player's lane and the channel's


@sqlite_only
async def test_a_move_waits_off_the_loop_while_another_process_writes(
    repo: SqliteRepository, path: Path
) -> None:
    """Statements run at once only when SQLite can take the write lock at once: while
    another process (a backup, an operator's shell) holds it, the move waits on the
    database thread as before, and the loop goes on serving everything else."""
    referee = Referee(repo, seed_source=lambda: 3)
    game = await start_game(referee)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        ticker = asyncio.create_task(tick())
        move = asyncio.create_task(referee.act(ALICE, f"#{game.id} random"))
        await asyncio.sleep(0.3)
        assert not move.done() and ticks >= 3, "the loop stood still while the move waited"
        other.execute("COMMIT")
        report = await asyncio.wait_for(move, 5)
        ticker.cancel()
    assert report.game.ply == game.ply + 1
    assert await repo.get_game(game.id) == report.game


# -- replay -------------------------------------------------------------------------------------

REPLAYS = [
    ("classic", 1, "rules"),
    ("corners", 2, "resign"),
    ("milton-bradley", 3, "rules"),
    ("classic", 4, "abort"),
    ("large", 5, "resign"),
    ("classic", 6, "resign in setup"),
]


@pytest.mark.parametrize(("preset", "seed", "ending"), REPLAYS)
async def test_replaying_the_log_gives_the_snapshot(
    repo: SqliteRepository, preset: str, seed: int, ending: str
) -> None:
    """Seed plus log is the whole truth: replaying it rebuilds every stored snapshot."""
    rng = random.Random(seed)
    referee = Referee(repo, seed_source=lambda: seed)
    game = await start_game(referee, variant=preset)
    snapshots = {game.ply: game.state}
    state = state_of(game)
    while game.status is GameStatus.ACTIVE:
        quitter = game.seats[rng.randrange(2)]
        resigns = (ending == "resign in setup" and game.ply >= 3) or (
            ending == "resign" and len(state.log) >= 12
        )
        if ending == "abort" and (game.ply >= 6 or state.phase is Phase.PLAY):
            game = (await referee.abort(quitter, game.id)).game
        elif resigns:
            game = (await referee.resign(quitter, game.id)).game
        else:
            user, text = random_move(rng, game, state)
            game = (await referee.act(user, f"#{game.id} {text}")).game
        state = state_of(game)
        snapshots[game.ply] = game.state
        if game.ply % 10 == 0:
            assert E.to_json(replay(E, game, await repo.log(game.id))) == game.state

    log = await repo.log(game.id)
    assert [entry.ply for entry in log] == list(range(1, game.ply + 1))
    assert E.to_json(replay(E, game, log)) == game.state
    for ply in sorted({0, 1, game.ply - 1, *rng.sample(sorted(snapshots), 5)}):
        assert E.to_json(replay(E, game, log[:ply])) == snapshots[ply], f"ply {ply}"
    expected = {"rules": "rules", "abort": "aborted"}.get(ending, "resignation")
    assert game.end_reason == expected and log[-1].kind is (
        LogKind.MOVE if ending == "rules" else LogKind.END
    )


# -- challenges and listings --------------------------------------------------------------------


async def test_accepting_a_challenge_twice_creates_one_game(repo: SqliteRepository) -> None:
    """Two clicks on Accept: the second finds the challenge closed and creates nothing."""
    challenge_id = await challenge(repo)
    state = E.to_json(E.new_game(E.presets["classic"], 9))
    game = await repo.accept_challenge(challenge_id, seed=9, seats=(ALICE, BOB), state=state)
    assert game is not None and game.ply == 0 and game.status is GameStatus.ACTIVE
    second = await repo.accept_challenge(challenge_id, seed=10, seats=(ALICE, BOB), state=state)
    assert second is None
    assert [g.id for g in await repo.active_games_of(BOB)] == [game.id]
    accepted = await repo.get_challenge(challenge_id)
    assert accepted is not None and accepted.status is ChallengeStatus.ACCEPTED
    assert accepted.game_id == game.id
    assert await repo.accept_challenge(999, seed=1, seats=(ALICE, BOB), state=state) is None


async def test_concurrent_accepts_create_one_game(repo: SqliteRepository) -> None:
    """The same two clicks at the same moment: still one game, one refusal."""
    referee = Referee(repo)
    challenge_id = await challenge(repo)
    results = await asyncio.gather(
        referee.accept(challenge_id, BOB), referee.accept(challenge_id, BOB), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in results) == ["RefereeError", "Report"], results
    assert len(await repo.active_games_of(ALICE)) == 1


async def test_closing_a_closed_challenge_reports_false(repo: SqliteRepository) -> None:
    """The caller learns that a second Decline (or a late Accept) found nothing to close."""
    challenge_id = await challenge(repo)
    assert await repo.close_challenge(challenge_id, ChallengeStatus.DECLINED) is True
    assert await repo.close_challenge(challenge_id, ChallengeStatus.WITHDRAWN) is False
    closed = await repo.get_challenge(challenge_id)
    assert closed is not None and closed.status is ChallengeStatus.DECLINED
    state = E.to_json(E.new_game(E.presets["classic"], 1))
    assert (
        await repo.accept_challenge(challenge_id, seed=1, seats=(ALICE, BOB), state=state) is None
    )
    assert await repo.close_challenge(999, ChallengeStatus.EXPIRED) is False
    await repo.set_challenge_message(challenge_id, 4242)
    assert (await repo.get_challenge(challenge_id)).message_id == 4242  # type: ignore[union-attr]


async def test_active_games_of_a_user_and_in_a_guild(repo: SqliteRepository) -> None:
    """Listings hold only running games, of that user (either seat) or of that server."""
    referee = Referee(repo)
    alice_bob = await start_game(referee)
    carol_alice = await start_game(referee, challenger=CAROL, opponent=ALICE)
    bob_carol = await start_game(referee, challenger=BOB, opponent=CAROL, guild=OTHER_GUILD)
    ended = await start_game(referee, challenger=BOB, opponent=ALICE)
    await referee.abort(BOB, ended.id)

    def ids(games: list[GameRecord]) -> list[int]:
        return [game.id for game in games]

    assert ids(await repo.active_games_of(ALICE)) == [alice_bob.id, carol_alice.id]
    assert ids(await repo.active_games_of(BOB)) == [alice_bob.id, bob_carol.id]
    assert ids(await repo.active_games_of(CAROL)) == [carol_alice.id, bob_carol.id]
    assert ids(await repo.active_games_of(4040)) == []
    assert ids(await repo.active_games_in(GUILD)) == [alice_bob.id, carol_alice.id]
    assert ids(await repo.active_games_in(OTHER_GUILD)) == [bob_carol.id]
    assert ids(await repo.active_games_in(4040)) == []

    await repo.set_public_message(alice_bob.id, 777)
    stored = await repo.get_game(alice_bob.id)
    assert stored is not None and stored.public_message_id == 777 and stored.ply == 0


async def test_a_move_returns_the_live_message_posted_since_the_game_was_read(
    repo: SqliteRepository,
) -> None:
    """The courier edits the live message the move returns: one posted meanwhile counts."""
    game = await start_game(Referee(repo))
    assert game.public_message_id is None
    await repo.set_public_message(game.id, 4242)
    moved = await repo.append(game, seat=0, kind=LogKind.MOVE, text="random", state=game.state)
    assert moved.public_message_id == 4242


async def test_notices_are_held_per_audience_with_their_change_and_released_per_audience(
    repo: SqliteRepository,
) -> None:
    """The outbox: what to tell whom is stored in the move's own transaction, and each
    audience's progress is its own: one delivered lane leaves the others waiting."""
    referee = Referee(repo)
    game = await start_game(referee)
    assert await repo.outbox.lanes() == [Lane(game.id, 0), Lane(game.id, 1), Lane(game.id, None)]
    for lane in await repo.outbox.lanes():
        parcel = await repo.outbox.claim(lane)
        assert parcel is not None and parcel.plies == (0,)
        await repo.outbox.release(parcel)
    told = ((0, ("Placed.",)), (None, ("Ready.", "Waiting.")))
    moved = await repo.append(
        game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, tidings=told
    )
    assert await repo.outbox.lanes() == [Lane(game.id, 0), Lane(game.id, None)]
    with pytest.raises(StaleGameError):  # a refused move holds nothing
        await repo.append(
            game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, tidings=told
        )
    assert await repo.outbox.waiting() == 2
    seat = await repo.outbox.claim(Lane(game.id, 0))
    assert seat is not None and (seat.plies, seat.texts) == ((moved.ply,), (("Placed.",),))
    await repo.outbox.release(seat)
    assert await repo.outbox.lanes() == [Lane(game.id, None)]  # the channel still waits
    channel = await repo.outbox.claim(Lane(game.id, None))
    assert channel is not None and channel.texts == (("Ready.", "Waiting."),)
    assert not channel.final


async def test_a_release_says_whether_the_lane_holds_more_notices(
    repo: SqliteRepository,
) -> None:
    """The deliverer stops a lane on the release's word, without another look: so the
    word is True exactly while notices other than the released ones wait in the lane."""
    referee = Referee(repo)
    game = await start_game(referee)
    told = ((0, ("Placed.",)),)
    moved = await repo.append(
        game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, tidings=told
    )
    first = await repo.outbox.claim(Lane(game.id, 0), merge=False)
    assert first is not None and first.plies == (0,)
    assert await repo.outbox.release(first) is True  # the move's notice still waits
    second = await repo.outbox.claim(Lane(game.id, 0), merge=False)
    assert second is not None and second.plies == (moved.ply,)
    assert await repo.outbox.release(second) is False
    channel = await repo.outbox.claim(Lane(game.id, None))
    assert channel is not None
    await repo.append(moved, seat=1, kind=LogKind.MOVE, text="random", state=game.state,
                      tidings=((None, ("Later.",)),))  # fmt: skip
    assert await repo.outbox.release(channel) is True  # stored after the claim
    assert await repo.outbox.release(channel) is True  # releasing twice deletes nothing more
    later = await repo.outbox.claim(Lane(game.id, None))
    assert later is not None and later.texts == (("Later.",),)
    assert await repo.outbox.release(later) is False


async def test_releases_made_at_once_each_say_whether_their_own_lane_holds_more(
    repo: SqliteRepository,
) -> None:
    """Three lanes released in the same instant (the shared store sends them as one
    statement): each answer is its own lane's."""
    referee = Referee(repo)
    game = await start_game(referee)
    await repo.append(game, seat=0, kind=LogKind.MOVE, text="random", state=game.state,
                      tidings=((0, ("Placed.",)),))  # fmt: skip
    parcels = [await repo.outbox.claim(Lane(game.id, a), merge=False) for a in (0, 1, None)]
    assert [p.plies if p else None for p in parcels] == [(0,), (0,), (0,)]
    answers = await asyncio.gather(*(repo.outbox.release(p) for p in parcels if p))
    assert answers == [True, False, False]  # only the first seat's move notice waits
    assert await repo.outbox.lanes() == [Lane(game.id, 0)]


async def test_lanes_waiting_since_a_moment_are_those_a_stopped_process_left(
    repo: SqliteRepository,
) -> None:
    """On a shared database the clock wakes only lanes waiting a while: those the process
    that stored them (it delivers them at once) left behind when it stopped."""
    game = await start_game(Referee(repo))
    stored = repo.clock()
    everyone = [Lane(game.id, 0), Lane(game.id, 1), Lane(game.id, None)]
    assert await repo.outbox.lanes(before=stored - 60) == []
    assert await repo.outbox.lanes(before=stored + 60) == everyone
    assert await repo.outbox.lanes() == everyone


async def test_a_claim_survives_a_restart_so_a_retry_sends_the_same_message(path: Path) -> None:
    """Claimed notices stay claimed: after a crash the retry is the very same message,
    under the same nonce, even if more notices arrived meanwhile."""
    repository = await SqliteRepository.open(path)
    referee = Referee(repository)
    game = await start_game(referee)
    lane = Lane(game.id, 0)
    first = await repository.outbox.claim(lane)
    assert first is not None
    record = await repository.get_game(game.id)
    assert record is not None
    await repository.append(
        record,
        seat=0,
        kind=LogKind.MOVE,
        text="random",
        state=record.state,
        tidings=((0, ("Later.",)),),
    )
    await repository.close()  # the process dies between sending and releasing

    repository = await SqliteRepository.open(path)
    try:
        again = await repository.outbox.claim(lane)
        assert again == first and again.nonce == first.nonce
        await repository.outbox.release(again)
        later = await repository.outbox.claim(lane)
        assert later is not None and later.texts == (("Later.",),)
        assert later.nonce != first.nonce
    finally:
        await repository.close()


async def test_a_backlog_is_merged_within_the_text_budget_and_the_channel_takes_all(
    repo: SqliteRepository,
) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    for lane in await repo.outbox.lanes():
        parcel = await repo.outbox.claim(lane)
        assert parcel is not None
        await repo.outbox.release(parcel)
    record = game
    long_text = "x" * (MERGED_TEXT_BUDGET // 3)
    for _ in range(5):
        record = await repo.append(
            record,
            seat=0,
            kind=LogKind.MOVE,
            text="random",
            state=record.state,
            tidings=((0, (long_text,)), (None, (f"ply {record.ply + 1}",))),
        )
    claimed = await repo.outbox.claim(Lane(game.id, 0))
    assert claimed is not None and claimed.plies == (game.ply + 1,), "claimed with its move"
    await repo.outbox.release(claimed)
    seat = await repo.outbox.claim(Lane(game.id, 0))
    assert seat is not None and 1 < len(seat.plies) < 4
    assert sum(len(t) for told in seat.texts for t in told) <= MERGED_TEXT_BUDGET + 10
    single = await repo.outbox.claim(Lane(game.id, 1))
    assert single is None
    channel = await repo.outbox.claim(Lane(game.id, None))
    assert channel is not None and len(channel.plies) == 5
    assert channel.texts[-1] == (f"ply {record.ply}",)


async def test_the_referee_builds_a_parcel_with_the_board_as_it_stands(
    repo: SqliteRepository,
) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    report = await referee.act(ALICE, "random")
    parcel = await repo.outbox.claim(Lane(game.id, 0))
    assert parcel is not None
    built = await referee.parcel_report(parcel)
    assert built is not None
    (notice,) = built.notices
    setup_texts = parcel.texts[0]
    assert notice.texts == setup_texts + report.notices[0].texts
    assert notice.view == report.notices[0].view
    assert not built.results


async def test_a_version_1_database_is_brought_up_to_date_and_keeps_its_rows(path: Path) -> None:
    """A database written by the first release gains every later table at the next start."""
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as old:
        old.executescript(SCHEMA)
        old.execute("PRAGMA user_version = 1")
        old.execute(
            "INSERT INTO challenges (game, rules, channel_id, challenger_id, opponent_id,"
            " created_at) VALUES ('seabattle', '{}', 1, 2, 3, 0)"
        )
    repository = await SqliteRepository.open(path)
    try:
        assert (await repository.get_challenge(1)) is not None
        await repository.save_setup(2, "seabattle", "fortress", "A1 A4")
        assert await repository.saved_setup(2, "seabattle", "fortress") == "A1 A4"
    finally:
        await repository.close()
    assert sql(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert 1 + len(MIGRATIONS) == SCHEMA_VERSION


async def test_a_version_7_outbox_moves_to_per_audience_notices_and_keeps_the_end_final(
    path: Path,
) -> None:
    """What an older bot left undelivered is delivered by the new one, per audience, and a
    finished game's last entry is marked final so its end is announced (once)."""
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as old:
        old.executescript(SCHEMA)
        for step in MIGRATIONS[:6]:
            old.executescript(step)
        old.execute("PRAGMA user_version = 7")
        for game_id, status, ply in ((1, "active", 3), (2, "finished", 7)):
            old.execute(
                "INSERT INTO games (id, game, rules, seed, channel_id, seat0_id, seat1_id,"
                " status, ply, state, created_at, updated_at)"
                " VALUES (?, 'seabattle', '{}', 1, 9, 2, 3, ?, ?, '{}', 0, 0)",
                (game_id, status, ply),
            )
        held = [
            (1, 3, [[0, ["Your move."]], [None, ["Alice to move."]]]),
            (2, 6, [[1, ["Hit."]]]),
            (2, 7, [[0, ["You won!"]], [1, ["You lost."]], [None, ["Alice won."]]]),
        ]
        for game_id, ply, tidings in held:
            old.execute(
                "INSERT INTO outbox (game_id, ply, notices, created_at) VALUES (?, ?, ?, 0)",
                (game_id, ply, json.dumps(tidings)),
            )
    repository = await SqliteRepository.open(path)
    try:
        outbox = repository.outbox
        assert await outbox.lanes() == [
            Lane(1, 0),
            Lane(1, None),
            Lane(2, 0),
            Lane(2, 1),
            Lane(2, None),
        ]
        assert await outbox.waiting() == 6
        channel = await outbox.claim(Lane(1, None))
        assert channel is not None and channel.texts == (("Alice to move.",),)
        assert not channel.final
        loser = await outbox.claim(Lane(2, 1))
        assert loser is not None and loser.texts == (("Hit.",), ("You lost.",))
        ended = await outbox.claim(Lane(2, None))
        assert ended is not None and ended.final and ended.plies == (7,)
    finally:
        await repository.close()
    assert sql(path, "SELECT name FROM sqlite_master WHERE name = 'outbox'") == []


async def test_saved_setups_are_kept_per_player_and_game_and_replaced_by_name(
    path: Path,
) -> None:
    repository = await SqliteRepository.open(path)
    try:
        await repository.save_setup(2, "seabattle", "wall", "first")
        await repository.save_setup(2, "seabattle", "wall", "second")
        await repository.save_setup(2, "seabattle", "arc", "third")
        await repository.save_setup(3, "seabattle", "mine", "fourth")
        await repository.save_setup(2, "luzhanqi", "other", "fifth")
        assert await repository.saved_setup(2, "seabattle", "wall") == "second"
        assert await repository.saved_setup_names(2, "seabattle") == ["arc", "wall"]
        assert await repository.saved_setup(3, "seabattle", "wall") is None
        assert await repository.saved_setup_names(2, "luzhanqi") == ["other"]
    finally:
        await repository.close()


# -- challenges -----------------------------------------------------------------------------------


async def test_one_open_challenge_per_challenger_and_opponent_even_in_a_burst(
    repo: SqliteRepository,
) -> None:
    """Thirty challenges at once to the same player: the store lets exactly one through."""
    burst = await asyncio.gather(*(challenge(repo) for _ in range(30)), return_exceptions=True)
    made = [outcome for outcome in burst if isinstance(outcome, int)]
    refused = [outcome for outcome in burst if isinstance(outcome, OpenChallengeError)]
    assert len(made) == 1 and len(refused) == 29
    assert all(error.challenge_id == made[0] for error in refused)
    assert await challenge(repo, BOB, ALICE) != made[0]  # the other way round is another pair
    assert await challenge(repo, ALICE, CAROL) != made[0]
    assert await repo.close_challenge(made[0], ChallengeStatus.DECLINED)
    assert await challenge(repo) > made[0]  # once answered, a new challenge may follow


async def test_closed_challenges_are_forgotten_after_two_expiry_periods(path: Path) -> None:
    now = [1_800_000_000.0]
    repository = await SqliteRepository.open(path, clock=lambda: now[0])
    try:
        declined, kept_open = await challenge(repository), await challenge(repository, BOB, ALICE)
        accepted = await challenge(repository, ALICE, CAROL)
        await repository.close_challenge(declined, ChallengeStatus.DECLINED)
        await repository.close_challenge(accepted, ChallengeStatus.ACCEPTED)
        now[0] += 10
        recent = await challenge(repository, CAROL, ALICE)
        await repository.close_challenge(recent, ChallengeStatus.WITHDRAWN)
        assert await repository.forget_closed_challenges(now[0] - 5) == 2
        assert await repository.get_challenge(declined) is None
        assert await repository.get_challenge(accepted) is None
        assert await repository.get_challenge(kept_open) is not None  # open ones expire first
        assert await repository.get_challenge(recent) is not None
    finally:
        await repository.close()
    assert sql(path, "SELECT COUNT(*) FROM challenges") == [(2,)]


@sqlite_only
async def test_challenge_sweeps_read_an_index(repo: SqliteRepository, path: Path) -> None:
    """The clock's minute sweeps must not scan every challenge ever made."""
    await challenge(repo)
    for query in (
        "SELECT * FROM challenges WHERE status = 'open' AND created_at <= 1 ORDER BY id",
        "DELETE FROM challenges WHERE status IN ('accepted', 'declined', 'withdrawn', 'expired')"
        " AND created_at <= 1",
    ):
        plan = " ".join(str(row[-1]) for row in sql(path, f"EXPLAIN QUERY PLAN {query}"))
        assert "USING INDEX challenges_by_status_age" in plan, plan


async def test_migration_7_closes_duplicate_open_challenges_but_the_first(path: Path) -> None:
    """A database from before the one-open-challenge rule may hold a burst of duplicates."""
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as old:
        old.executescript(SCHEMA)
        for migration in MIGRATIONS[:5]:
            old.executescript(migration)
        old.execute("PRAGMA user_version = 6")
        for challenger, opponent in ((2, 3), (2, 3), (2, 3), (3, 2)):
            old.execute(
                "INSERT INTO challenges (game, rules, channel_id, challenger_id, opponent_id,"
                " created_at) VALUES ('seabattle', '{}', 1, ?, ?, 0)",
                (challenger, opponent),
            )
    repository = await SqliteRepository.open(path)
    await repository.close()
    assert sql(path, "SELECT id, status FROM challenges ORDER BY id") == [
        (1, "open"),
        (2, "expired"),
        (3, "expired"),
        (4, "open"),
    ]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_stored_state_is_compact_key_sorted_json(game: str) -> None:
    """``dump`` writes with orjson for speed; the text is still what the standard library
    writes compact and key-sorted, for every game's state a few moves in."""
    engine = ENGINES[game]
    rng = random.Random(game)
    for preset in engine.presets.values():
        state = engine.new_game(preset, rng.randrange(1 << 62))
        for _ in range(12):
            movers = sorted(engine.to_move(state))
            if not movers:
                break
            seat = movers[0]
            action = rng.choice(list(engine.legal_actions(state, seat)))
            state = engine.apply(state, seat, action).state
        data = engine.to_json(state)
        assert dump(data) == json.dumps(data, separators=(",", ":"), sort_keys=True)
        assert json.loads(dump(data)) == json.loads(json.dumps(data))
