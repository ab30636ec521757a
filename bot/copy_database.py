"""``python -m bot.copy_database <sqlite file> <postgres url>``: move a deployment from its
SQLite file to PostgreSQL, every row of every table, and check the counts match.

The file is first brought to the current schema (as the bot would on start), then each
table is copied whole in one transaction, ids included, so every game, log entry, held
audience text, rating, result and saved setup keeps its identity; the target's id counters then
continue after the highest copied id. A target that already holds games is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import aiosqlite

from bot.storage import PostgresRepository, SqliteRepository

TABLES = (
    "challenges",
    "games",
    "queued_moves",
    "actions",
    "notices",
    "seals",
    "announcements",
    "saved_setups",
    "ratings",
    "results",
    "rated_in_servers",
    "read_dms",
    "bot_facts",
)
"""Every table, parents before the tables that refer to them."""

COUNTED = ("challenges", "games", "queued_moves")
"""Tables whose ids the target's counters must continue after."""


class CopyError(Exception):
    """The copy cannot go ahead or did not match; the message says why."""


async def copy_database(source: Path, url: str) -> dict[str, int]:
    """Copy every row from the SQLite file at ``source`` into the database at ``url``;
    the number of rows of each table, as found in both."""
    if not source.is_file():
        raise CopyError(f"There is no database file at {source}.")
    await (await SqliteRepository.open(source)).close()  # brings the file up to date
    target = await PostgresRepository.open(url)
    try:
        async with aiosqlite.connect(source) as sqlite, target.connection() as db:
            async with db.transaction():
                if await db.fetchval("SELECT count(*) FROM games"):
                    raise CopyError("The PostgreSQL database already holds games: not copied.")
                for table in TABLES:
                    cursor = await sqlite.execute(f"SELECT * FROM {table}")
                    columns = [column[0] for column in cursor.description]
                    rows = [tuple(row) for row in await cursor.fetchall()]
                    await db.copy_records_to_table(table, records=rows, columns=columns)
                for table in COUNTED:
                    await db.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" coalesce((SELECT max(id) FROM {table}), 0) + 1, false)"
                    )
            counts: dict[str, int] = {}
            for table in TABLES:
                cursor = await sqlite.execute(f"SELECT count(*) FROM {table}")
                row = await cursor.fetchone()
                expected = row[0] if row else 0
                copied = await db.fetchval(f"SELECT count(*) FROM {table}")
                if copied != expected:
                    raise CopyError(f"{table}: {expected} rows in the file, {copied} copied.")
                counts[table] = expected
            return counts
    finally:
        await target.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.copy_database",
        description="Copy the bot's SQLite database into an empty PostgreSQL database.",
    )
    parser.add_argument("source", type=Path, help="the SQLite file (DATABASE_PATH)")
    parser.add_argument("url", help="the PostgreSQL database (postgresql://…, DATABASE_URL)")
    options = parser.parse_args(argv)
    try:
        counts = asyncio.run(copy_database(options.source, options.url))
    except CopyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for table, count in counts.items():
        print(f"{table:<18} {count:>9} rows copied, counts match")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
