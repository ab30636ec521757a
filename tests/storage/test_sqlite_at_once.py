"""The connection whose short statements run at once on the event loop's thread."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage.sqlite_at_once import Busy, StatementsAtOnce


@pytest.fixture
def at_once(tmp_path: Path) -> StatementsAtOnce:
    path = tmp_path / "referee.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE moves (ply INTEGER PRIMARY KEY)")
    return StatementsAtOnce(path)


def plies(at_once: StatementsAtOnce) -> list[int]:
    return [row[0] for row in at_once.rows("SELECT ply FROM moves ORDER BY ply", ())]


def test_a_transaction_that_fails_stores_nothing_and_the_next_one_commits(
    at_once: StatementsAtOnce,
) -> None:
    def half_then_fail(db: sqlite3.Connection) -> None:
        db.execute("INSERT INTO moves VALUES (1)")
        db.execute("INSERT INTO moves VALUES (1)")  # the same ply twice

    with pytest.raises(sqlite3.IntegrityError):
        at_once.transaction(half_then_fail)
    assert plies(at_once) == []
    assert at_once.transaction(lambda db: db.execute("INSERT INTO moves VALUES (2)").rowcount) == 1
    assert plies(at_once) == [2]
    at_once.close()


def test_it_never_waits_for_another_writer_and_a_reader_never_waits_at_all(
    at_once: StatementsAtOnce, tmp_path: Path
) -> None:
    with closing(sqlite3.connect(tmp_path / "referee.sqlite3", isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO moves VALUES (7)")
        with pytest.raises(Busy):
            at_once.transaction(lambda db: db.execute("INSERT INTO moves VALUES (8)"))
        assert plies(at_once) == []  # the other writer's move is not committed yet
        other.execute("COMMIT")
    assert plies(at_once) == [7]  # and the refused one left nothing behind
    assert at_once.transaction(lambda db: db.execute("INSERT INTO moves VALUES (8)").rowcount) == 1
    assert plies(at_once) == [7, 8]
    at_once.close()
