"""The migrations that bring a database an older bot wrote up to date, keeping its rows."""

from __future__ import annotations

import json
from pathlib import Path

from bot.storage import MIGRATIONS, SCHEMA_VERSION, SqliteRepository
from tests.storage.helpers import (
    OLD_GAMES,
    OLD_OUTBOX,
    assert_old_outbox_delivered_per_audience,
    old_database,
    opened_with_a_challenge,
    sql,
)


async def test_a_version_1_database_is_brought_up_to_date_and_keeps_its_rows(path: Path) -> None:
    """A database written by the first release gains every later table at the next start."""
    repository = await opened_with_a_challenge(path, 1)
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
    with old_database(path, 7) as old:
        for game_id, status, ply in OLD_GAMES:
            old.execute(
                "INSERT INTO games (id, game, rules, seed, channel_id, seat0_id, seat1_id,"
                " status, ply, state, created_at, updated_at)"
                " VALUES (?, 'seabattle', '{}', 1, 9, 2, 3, ?, ?, '{}', 0, 0)",
                (game_id, status, ply),
            )
        for game_id, ply, audience_texts in OLD_OUTBOX:
            old.execute(
                "INSERT INTO outbox (game_id, ply, notices, created_at) VALUES (?, ?, ?, 0)",
                (game_id, ply, json.dumps(audience_texts)),
            )
    repository = await SqliteRepository.open(path)
    try:
        await assert_old_outbox_delivered_per_audience(repository.outbox)
    finally:
        await repository.close()
    assert sql(path, "SELECT name FROM sqlite_master WHERE name = 'outbox'") == []


async def test_migration_7_closes_duplicate_open_challenges_but_the_first(path: Path) -> None:
    """A database from before the one-open-challenge rule may hold a burst of duplicates."""
    with old_database(path, 6) as old:
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
