"""What both stores ask their database in the same words: the reads, and the writes of a
single statement that need no transaction of their own.

SQL here is written with ``?`` placeholders, as SQLite takes it; PostgreSQL's store turns
them into ``$1, $2, …`` (``numbered``). Each store supplies ``_rows``, ``_scalar`` and
``_write``; the changes that need a transaction or a backend's own means (creating a
challenge, accepting it, appending a move, locks and duties) stay in each store's module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bot.fairness import Seal
from bot.storage.records import (
    WAIT_BATCH,
    AudienceTexts,
    ChallengeRecord,
    Clock,
    GameRecord,
    LogEntry,
    LogKind,
    Wait,
    challenge_of,
    game_of,
)

RUNNING_COMPUTER_GAMES = (
    "SELECT COUNT(*) FROM games WHERE status = 'active' AND seat0_id = ?"
    " AND computer_level IS NOT NULL"
)
"""How many games against the computer a person plays now (the person sits first)."""


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """SQL written with ``?`` placeholders (as for SQLite) with PostgreSQL's ``$1, $2, …``."""
    counter = iter(range(1, 1 << 16))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


class SharedQueries:
    """The part of ``Repository`` both stores serve with the same statements."""

    clock: Clock
    awaiting_reminder_sql: str
    """The clock's question for games to remind (each store's own, to use its index)."""
    awaiting_forfeit_sql: str
    """The clock's question for games lost on time (each store's own)."""

    async def _rows(self, sql: str, *params: Any) -> Sequence[Any]:
        raise NotImplementedError

    async def _scalar(self, sql: str, *params: Any) -> Any:
        raise NotImplementedError

    async def _lookup(self, sql: str, *params: Any) -> Sequence[Any]:
        """The few rows of a query by key, on a move's path: a store may read them sooner
        than ``_rows`` would."""
        return await self._rows(sql, *params)

    async def _write(self, sql: str, *params: Any) -> None:
        raise NotImplementedError

    # -- challenges ---------------------------------------------------------------------------

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        rows = await self._rows("SELECT * FROM challenges WHERE id = ?", challenge_id)
        return challenge_of(rows[0]) if rows else None

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write(
            "UPDATE challenges SET message_id = ? WHERE id = ?", message_id, challenge_id
        )

    async def unanswered_challenges(self, before: float) -> list[ChallengeRecord]:
        """Open challenges made at or before ``before``."""
        rows = await self._rows(
            "SELECT * FROM challenges WHERE status = 'open' AND created_at <= ? ORDER BY id",
            before,
        )
        return [challenge_of(row) for row in rows]

    # -- games --------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord | None:
        rows = await self._lookup("SELECT * FROM games WHERE id = ?", game_id)
        return game_of(rows[0]) if rows else None

    async def log(self, game_id: int) -> list[LogEntry]:
        rows = await self._rows(
            "SELECT ply, seat, kind, text FROM actions WHERE game_id = ? ORDER BY ply", game_id
        )
        return [LogEntry(row[0], row[1], LogKind(row[2]), row[3]) for row in rows]

    async def seals(self, game_id: int) -> tuple[int, tuple[Seal, ...]] | None:
        """The ply at which the game was sealed and its seals; None if never sealed."""
        rows = await self._rows(
            "SELECT ply, who, salt, digest, secret FROM seals WHERE game_id = ? ORDER BY who",
            game_id,
        )
        if not rows:
            return None
        return rows[0][0], tuple(Seal(row[1], row[2], row[3], row[4]) for row in rows)

    async def announcements(self, game_id: int) -> list[tuple[int, AudienceTexts]]:
        """Everything each audience was told of a game, by ply."""
        rows = await self._rows(
            "SELECT ply, tidings FROM announcements WHERE game_id = ? ORDER BY ply", game_id
        )
        return [(row[0], tuple((a, tuple(t)) for a, t in json.loads(row[1]))) for row in rows]

    async def set_public_message(self, game_id: int, message_id: int) -> None:
        await self._write(
            "UPDATE games SET public_message_id = ? WHERE id = ?", message_id, game_id
        )

    async def active_games_of(self, user_id: int) -> list[GameRecord]:
        rows = await self._lookup(
            "SELECT * FROM games WHERE status = 'active' AND seat0_id = ?"
            " UNION SELECT * FROM games WHERE status = 'active' AND seat1_id = ? ORDER BY id",
            user_id,
            user_id,
        )
        return [game_of(row) for row in rows]

    async def active_games_in(self, guild_id: int) -> list[GameRecord]:
        return await self._games(
            "SELECT * FROM games WHERE status = 'active' AND guild_id = ? ORDER BY id", guild_id
        )

    async def active_players(self) -> list[int]:
        """Everyone seated at a running game, each once."""
        rows = await self._rows(
            "SELECT seat0_id FROM games WHERE status = 'active'"
            " UNION SELECT seat1_id FROM games WHERE status = 'active'"
        )
        return [row[0] for row in rows]

    async def active_computer_games(self) -> list[GameRecord]:
        """Running games against the computer (few, and read once per start)."""
        return await self._games(
            "SELECT * FROM games WHERE status = 'active' AND computer_level IS NOT NULL ORDER BY id"
        )

    async def _games(self, sql: str, *params: Any) -> list[GameRecord]:
        return [game_of(row) for row in await self._rows(sql, *params)]

    # -- saved setups -------------------------------------------------------------------------

    async def save_setup(self, user_id: int, game: str, name: str, text: str) -> None:
        """Keep a player's setup under a name, replacing one saved before under that name."""
        await self._write(
            "INSERT INTO saved_setups (user_id, game, name, text, saved_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id, game, name) DO UPDATE"
            " SET text = excluded.text, saved_at = excluded.saved_at",
            user_id,
            game,
            name,
            text,
            self.clock(),
        )

    async def saved_setup(self, user_id: int, game: str, name: str) -> str | None:
        text: str | None = await self._scalar(
            "SELECT text FROM saved_setups WHERE user_id = ? AND game = ? AND name = ?",
            user_id,
            game,
            name,
        )
        return text

    async def saved_setup_names(self, user_id: int, game: str) -> list[str]:
        rows = await self._rows(
            "SELECT name FROM saved_setups WHERE user_id = ? AND game = ? ORDER BY name",
            user_id,
            game,
        )
        return [row[0] for row in rows]

    # -- waiting times ------------------------------------------------------------------------

    async def awaiting_reminder(
        self, idle_since: float, after: Wait | None = None, limit: int = WAIT_BATCH
    ) -> list[Wait]:
        """Active games unchanged in public since ``idle_since`` whose players were not
        reminded of this wait yet, longest wait first, from after ``after``; at most ``limit``."""
        return await self._waits(self.awaiting_reminder_sql, idle_since, after, limit)

    async def awaiting_forfeit(
        self, reminded_since: float, after: Wait | None = None, limit: int = WAIT_BATCH
    ) -> list[Wait]:
        """Active games whose players were reminded of this very wait at or before
        ``reminded_since`` (and have not moved since), longest first; at most ``limit``."""
        return await self._waits(self.awaiting_forfeit_sql, reminded_since, after, limit)

    async def _waits(self, sql: str, until: float, after: Wait | None, limit: int) -> list[Wait]:
        since, game_id = (after.since, after.game_id) if after else (float("-inf"), 0)
        rows = await self._rows(sql, until, since, game_id, limit)
        return [Wait(row[0], row[1], row[2]) for row in rows]

    async def set_reminded(self, game_id: int, changed_at: float, at: float) -> None:
        """As ``Repository.set_reminded``: the reminder is kept at the game's ply, whatever
        changed in secret since the reminders were read (``append`` carries it on)."""
        await self._write(
            "UPDATE games SET reminded_ply = ply, reminded_at = ? WHERE id = ? AND updated_at = ?",
            at,
            game_id,
            changed_at,
        )

    # -- the bot's own facts -------------------------------------------------------------------

    async def fact(self, key: str) -> str | None:
        value: str | None = await self._scalar("SELECT value FROM bot_facts WHERE key = ?", key)
        return value

    async def set_fact(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO bot_facts (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def forget_fact(self, key: str) -> None:
        await self._write("DELETE FROM bot_facts WHERE key = ?", key)
