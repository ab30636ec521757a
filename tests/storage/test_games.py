"""The SQLite store, on real files: what it promises the referee about games that must last.

A referee that players trust cannot lose a move, count one twice, or come back from a
restart with a different game. These tests hold the store to each of those promises on a
real database file, through the repository and through the referee as the bot uses them.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any, cast

import pytest

from bot.games import ENGINES
from bot.games.core import EndReason, GameError, Phase
from bot.referee import Referee, RefereeError, Report, replay
from bot.storage import (
    SCHEMA_VERSION,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    LogKind,
    Repository,
    SqliteRepository,
    StaleGameError,
)
from bot.storage.records import dump
from tests.referee.test_referee import (
    ALICE,
    BOB,
    CAROL,
    E,
    random_move,
    set_fleets,
    start_game,
    state_of,
)
from tests.storage.helpers import challenge, end_stored, play, sql, sqlite_only

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
    ended = await end_stored(repo, game, seat=0, winner=None, reason=EndReason.ABORTED.value)
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


@sqlite_only  # PostgreSQL's game lock stops the race first: tests/storage/test_shared.py
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
