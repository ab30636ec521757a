"""Results and ratings: written with a game's end, read for leaderboards and records.

``result_statements`` plans the writes, the same on SQLite and PostgreSQL; SQLite's
``record_results`` runs inside the transaction that finishes a game, so a game is never
stored as over without its result and rating change, nor the other way round; it reads the
players' ratings inside that same write transaction, so two games ending at once for one
player both count. ``ResultQueries`` answers the read-only questions of ``/leaderboard``,
``/profile``, ``/history`` and ``/game``, each from an index. The tables are schema
version 3 (``bot.storage.MIGRATIONS``); queries are written with ``?`` placeholders, which
the PostgreSQL store numbers as it sends them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from bot.ratings import PROVISIONAL_SIGMA, Skill, rate


class Score(Enum):
    WIN = 1.0
    DRAW = 0.5
    LOSS = 0.0


@dataclass(frozen=True)
class Standing:
    """A player's rating and record in one game, and their rank where one was asked for."""

    user_id: int
    game: str
    skill: Skill
    games: int
    wins: int
    losses: int
    draws: int
    streak: int
    """Positive: that many rated wins in a row; negative: losses; zero after a draw."""
    rank: int | None = None
    """1 for the best settled player of the scope; ``None`` while provisional."""


@dataclass(frozen=True)
class Leaderboard:
    game: str
    guild_id: int | None
    """The server the board is limited to, or ``None`` for everyone."""
    settled: tuple[Standing, ...]
    provisional: tuple[Standing, ...]
    ranked: int
    """How many settled players the scope has."""
    caller: Standing | None
    """The caller's own line (with their rank when settled), if they are in the scope."""


@dataclass(frozen=True)
class Result:
    """One player's side of one finished game."""

    game_id: int
    game: str
    user_id: int
    opponent_id: int
    score: Score
    rated: bool
    before: Skill | None
    after: Skill | None
    """Ratings around the game; ``None`` when it was not rated."""
    ended_at: float

    @property
    def change(self) -> int | None:
        if self.before is None or self.after is None:
            return None
        return self.after.display - self.before.display


Statement = tuple[str, tuple[Any, ...]]
"""One SQL statement with ``?`` placeholders and its parameters, for either database."""

SKILL_QUERY = "SELECT mu, sigma FROM ratings WHERE user_id = ? AND game = ?"
"""A player's rating in a game (no row: never rated), read before a rated game's end."""


def record_results(
    db: sqlite3.Connection,
    *,
    game_id: int,
    game: str,
    guild_id: int | None,
    seats: tuple[int, int],
    winner: int | None,
    rated: bool,
    now: float,
) -> None:
    """Write both players' results and, for a rated game, their new ratings.

    Must run inside the write transaction that ends the game, on the database's thread.
    """
    before: tuple[Skill, Skill] | None = None
    if rated:
        before = (_skill(db, seats[0], game), _skill(db, seats[1], game))
    for sql, params in result_statements(
        game_id=game_id,
        game=game,
        guild_id=guild_id,
        seats=seats,
        winner=winner,
        before=before,
        now=now,
    ):
        db.execute(sql, params)


def result_statements(
    *,
    game_id: int,
    game: str,
    guild_id: int | None,
    seats: tuple[int, int],
    winner: int | None,
    before: tuple[Skill, Skill] | None,
    now: float,
) -> list[Statement]:
    """The writes that record a finished game: both results and, when ``before`` holds the
    players' ratings (a rated game), their new ratings. Pure, so both databases share it."""
    scores = tuple(_score(seat, winner) for seat in (0, 1))
    after = rate(before, winner) if before is not None else None
    statements: list[Statement] = []
    for seat in (0, 1):
        old = before[seat] if before else None
        new = after[seat] if after else None
        statements.append(
            (
                "INSERT INTO results (game_id, seat, user_id, opponent_id, game, guild_id,"
                " score, rated, mu_before, sigma_before, mu_after, sigma_after, ended_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seat,
                    seats[seat],
                    seats[1 - seat],
                    game,
                    guild_id,
                    scores[seat].value,
                    int(before is not None),
                    old.mu if old else None,
                    old.sigma if old else None,
                    new.mu if new else None,
                    new.sigma if new else None,
                    now,
                ),
            )
        )
    if after is None:
        return statements
    for seat in (0, 1):
        statements.append(_rating_statement(seats[seat], game, after[seat], scores[seat], now))
        if guild_id is not None:
            statements.append(
                (
                    "INSERT INTO rated_in_servers (guild_id, game, user_id) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (guild_id, game, seats[seat]),
                )
            )
    return statements


def _score(seat: int, winner: int | None) -> Score:
    if winner is None:
        return Score.DRAW
    return Score.WIN if winner == seat else Score.LOSS


def _skill(db: sqlite3.Connection, user_id: int, game: str) -> Skill:
    row = db.execute(SKILL_QUERY, (user_id, game)).fetchone()
    return Skill(row[0], row[1]) if row else Skill()


def _rating_statement(user_id: int, game: str, skill: Skill, score: Score, now: float) -> Statement:
    win, loss = int(score is Score.WIN), int(score is Score.LOSS)
    streak = 1 if win else -1 if loss else 0
    return (
        "INSERT INTO ratings (user_id, game, mu, sigma, games, wins, losses, draws, streak,"
        " updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)"
        " ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = ratings.games + 1, wins = ratings.wins + excluded.wins,"
        " losses = ratings.losses + excluded.losses, draws = ratings.draws + excluded.draws,"
        " updated_at = excluded.updated_at,"
        " streak = CASE"
        "   WHEN excluded.streak > 0 AND ratings.streak > 0 THEN ratings.streak + 1"
        "   WHEN excluded.streak < 0 AND ratings.streak < 0 THEN ratings.streak - 1"
        "   ELSE excluded.streak END",
        (user_id, game, skill.mu, skill.sigma, win, loss, 1 - win - loss, streak, now),
    )


Rows = Callable[..., Awaitable[Sequence[Any]]]
"""``rows(sql, *params)``: a query's rows, each readable by index and by column name."""

_STANDING = "r.user_id, r.game, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws, r.streak"


class ResultQueries:
    """Read-only queries over results and ratings; every one is served by an index."""

    def __init__(self, rows: Rows) -> None:
        self._rows = rows
        """Runs a query written with ``?`` placeholders on whichever database holds them."""

    def _scope(self, guild_id: int | None) -> tuple[str, tuple[Any, ...]]:
        """FROM and WHERE for the players of a game in a scope (``?`` for the game first)."""
        if guild_id is None:
            return "FROM ratings r WHERE r.game = ?", ()
        return (
            "FROM rated_in_servers s JOIN ratings r ON r.user_id = s.user_id AND r.game = s.game"
            " WHERE s.game = ? AND s.guild_id = ?",
            (guild_id,),
        )

    async def leaderboard(
        self, game: str, guild_id: int | None, caller_id: int, limit: int = 10
    ) -> Leaderboard:
        """The best settled players, the best provisional ones apart, and where the caller is."""
        scope, params = self._scope(guild_id)
        settled_rows = await self._rows(
            f"SELECT {_STANDING} {scope} AND r.sigma < ? ORDER BY r.mu DESC, r.user_id LIMIT ?",
            game,
            *params,
            PROVISIONAL_SIGMA,
            limit,
        )
        provisional_rows = await self._rows(
            f"SELECT {_STANDING} {scope} AND r.sigma >= ? ORDER BY r.mu DESC, r.user_id LIMIT ?",
            game,
            *params,
            PROVISIONAL_SIGMA,
            limit // 2,
        )
        ranked = await self._rows(
            f"SELECT count(*) {scope} AND r.sigma < ?", game, *params, PROVISIONAL_SIGMA
        )
        settled: list[Standing] = []
        for row in settled_rows:  # in order, so ranks need no query; equal ratings share one
            standing = _standing(row)
            tied = settled and settled[-1].skill.mu == standing.skill.mu
            settled.append(replace(standing, rank=settled[-1].rank if tied else len(settled) + 1))
        return Leaderboard(
            game=game,
            guild_id=guild_id,
            settled=tuple(settled),
            provisional=tuple(_standing(row) for row in provisional_rows),
            ranked=ranked[0][0],
            caller=await self._caller(game, caller_id, scope, params),
        )

    async def _caller(
        self, game: str, caller_id: int, scope: str, params: tuple[Any, ...]
    ) -> Standing | None:
        rows = await self._rows(
            f"SELECT {_STANDING} {scope} AND r.user_id = ?", game, *params, caller_id
        )
        if not rows:
            return None
        return await self._ranked(_standing(rows[0]), scope, params)

    async def _ranked(self, standing: Standing, scope: str, params: tuple[Any, ...]) -> Standing:
        """The standing with its rank: one more than the settled players rated higher."""
        if standing.skill.provisional:
            return standing
        rows = await self._rows(
            f"SELECT count(*) {scope} AND r.sigma < ? AND r.mu > ?",
            standing.game,
            *params,
            PROVISIONAL_SIGMA,
            standing.skill.mu,
        )
        return replace(standing, rank=rows[0][0] + 1)

    async def standings_of(self, user_id: int) -> list[Standing]:
        """A player's rating and record in every game they have played rated."""
        rows = await self._rows(
            f"SELECT {_STANDING} FROM ratings r WHERE r.user_id = ? ORDER BY r.game", user_id
        )
        return [_standing(row) for row in rows]

    async def history(
        self, user_id: int, game: str | None, *, offset: int, limit: int
    ) -> tuple[list[Result], int]:
        """A page of a player's finished games, newest first, and how many there are in all."""
        where = "user_id = ?" if game is None else "user_id = ? AND game = ?"
        params: tuple[Any, ...] = (user_id,) if game is None else (user_id, game)
        rows = await self._rows(
            f"SELECT * FROM results WHERE {where} ORDER BY ended_at DESC, game_id DESC"
            " LIMIT ? OFFSET ?",
            *params,
            limit,
            offset,
        )
        total = await self._rows(f"SELECT count(*) FROM results WHERE {where}", *params)
        return [_result(row) for row in rows], total[0][0]

    async def results_of(self, game_id: int) -> list[Result]:
        """Both sides of one finished game, seat 0 first (empty when it had no result)."""
        rows = await self._rows("SELECT * FROM results WHERE game_id = ? ORDER BY seat", game_id)
        return [_result(row) for row in rows]


def _standing(row: Any) -> Standing:
    return Standing(
        user_id=row[0],
        game=row[1],
        skill=Skill(row[2], row[3]),
        games=row[4],
        wins=row[5],
        losses=row[6],
        draws=row[7],
        streak=row[8],
    )


def _result(row: Any) -> Result:
    rated = bool(row["rated"])
    return Result(
        game_id=row["game_id"],
        game=row["game"],
        user_id=row["user_id"],
        opponent_id=row["opponent_id"],
        score=Score(row["score"]),
        rated=rated,
        before=Skill(row["mu_before"], row["sigma_before"]) if rated else None,
        after=Skill(row["mu_after"], row["sigma_after"]) if rated else None,
        ended_at=row["ended_at"],
    )
