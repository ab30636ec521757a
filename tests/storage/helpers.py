"""What the store's tests share besides their fixtures (``conftest``)."""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.games.core import EndReason
from bot.referee import Referee
from bot.storage import (
    MIGRATIONS,
    SCHEMA,
    Ending,
    GameRecord,
    GameStatus,
    LogKind,
    Repository,
    SqliteRepository,
)
from bot.storage.outbox import Backlog, Outbox
from tests.referee.test_referee import ALICE, BOB, CHANNEL, GUILD, E, random_move, state_of

sqlite_only = pytest.mark.parametrize("backend", ["sqlite"])
"""For promises kept by SQLite's own means (its file, its thread, its lock)."""


def sql(path: Path, statement: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run SQL on the file through a second, plain connection, as another process would."""
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute(statement, params).fetchall()
        db.commit()
    return rows


def old_database(path: Path, version: int) -> sqlite3.Connection:
    """A new SQLite file laid out as schema version ``version`` left it (the first release's
    schema and every migration before that version), open for a test to fill in before
    the store opens it and brings it up to date."""
    path.parent.mkdir(parents=True, exist_ok=True)
    old = sqlite3.connect(path)
    old.executescript(SCHEMA)
    for migration in MIGRATIONS[: version - 1]:
        old.executescript(migration)
    old.execute(f"PRAGMA user_version = {version}")
    return old


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


async def end_stored(
    repo: Repository, game: GameRecord, *, seat: int, winner: int | None, reason: str
) -> GameRecord:
    """The game's end appended as the referee logs one: the end's JSON and its ending."""
    return await repo.append(
        game,
        seat=seat,
        kind=LogKind.END,
        text=json.dumps({"winner": winner, "reason": reason, "detail": reason}),
        state=game.state,
        ending=Ending(winner, reason),
    )


async def opened_with_a_challenge(path: Path, version: int) -> SqliteRepository:
    """A database of schema ``version`` holding one open challenge (from 2 to 3), opened
    by today's store, which brings it up to date."""
    with old_database(path, version) as old:
        old.execute(
            "INSERT INTO challenges (game, rules, channel_id, challenger_id, opponent_id,"
            " created_at) VALUES ('seabattle', '{}', 1, 2, 3, 0)"
        )
    return await SqliteRepository.open(path)


async def second_seat_resigns(repo: Repository, game: GameRecord) -> GameRecord:
    """The game's end as stored when the second seat resigns: a rated win for the first."""
    return await repo.append(
        game,
        seat=1,
        kind=LogKind.END,
        text="{}",
        state={},
        ending=Ending(0, EndReason.RESIGNATION.value, rated=True),
    )


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


OLD_GAMES = ((1, "active", 3), (2, "finished", 7))
"""Games (id, status, ply) of a bot from before per-audience notices."""

OLD_OUTBOX = [
    (1, 3, [[0, ["Your move."]], [None, ["Alice to move."]]]),
    (2, 6, [[1, ["Hit."]]]),
    (2, 7, [[0, ["You won!"]], [1, ["You lost."]], [None, ["Alice won."]]]),
]
"""What that bot left undelivered in its one outbox table: (game, ply, notices)."""


async def assert_old_outbox_delivered_per_audience(outbox: Outbox) -> None:
    """The old outbox's notices wait per audience, and the finished game's end is final."""
    assert await outbox.backlogs() == [
        Backlog(1, 0),
        Backlog(1, None),
        Backlog(2, 0),
        Backlog(2, 1),
        Backlog(2, None),
    ]
    assert await outbox.waiting() == 6
    channel = await outbox.claim(Backlog(1, None))
    assert channel is not None and channel.texts == (("Alice to move.",),)
    assert not channel.final
    loser = await outbox.claim(Backlog(2, 1))
    assert loser is not None and loser.texts == (("Hit.",), ("You lost.",))
    ended = await outbox.claim(Backlog(2, None))
    assert ended is not None and ended.final and ended.plies == (7,)
