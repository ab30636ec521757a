"""A change's statements on PostgreSQL, run inside the transaction the store opens for it
(``bot.storage.postgres``): a move stored by one call of the database's own function, a new
game with what its start tells and seals, and a game's results with its players' ratings
locked.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg

from bot.fairness import Seal
from bot.ratings import Skill
from bot.storage import changes, results
from bot.storage.outbox import audience_code
from bot.storage.postgres_outbox import hold
from bot.storage.queries import numbered
from bot.storage.records import Ending, GameRecord, NewGame, dump, game_of

T = TypeVar("T")

CREATE_CHALLENGE = (
    f"{changes.INSERT_CHALLENGE} ON CONFLICT (challenger_id, opponent_id) WHERE status = 'open'"
    " DO NOTHING RETURNING *"
)
"""A new open challenge, or nothing while the pair has one open (migration 7's index)."""

INSERT_GAME = numbered(f"{changes.INSERT_GAME} RETURNING *")

STORE_MOVE = (
    "SELECT * FROM store_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
)
"""A move's whole change in one call (migration 15)."""

STORE_CLAIMED_MOVE = (
    "SELECT * FROM store_claimed_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,"
    " $13, $14, $15, $16)"
)
"""The same for a claimed move, on the claim's connection: first the lock space of games,
whose lock the call hands from the session to its transaction (migration 16)."""


async def in_transaction(
    db: asyncpg.Connection,
    work: Callable[[asyncpg.Connection], Awaitable[T]],
    *,
    alone: bool,
) -> T:
    """``work`` in one transaction on ``db``: its own statement's when it is ``alone``."""
    if alone:
        return await work(db)
    async with db.transaction():
        return await work(db)


def move_row(game: GameRecord, change: changes.Change) -> tuple[Any, ...]:
    """``STORE_MOVE``'s parameters (after the lock space, for ``STORE_CLAIMED_MOVE``)."""
    return (
        game.id,
        game.ply,
        dump(change.state),
        change.status.value,
        change.winner,
        change.end_reason,
        change.now,
        change.queued,
        change.seat,
        change.kind.value,
        change.text,
        [audience_code(audience) for audience, _ in change.audience_texts],
        [json.dumps(list(texts)) for _, texts in change.audience_texts],
        int(change.final),
        changes.announcement(change.audience_texts),
    )


async def begin_game(db: asyncpg.Connection, new: NewGame, opening: changes.Opening) -> GameRecord:
    """Insert a new game with what its start tells each audience and the seals made then."""
    now, audience_texts = opening.now, opening.audience_texts
    row = await db.fetchrow(INSERT_GAME, *changes.game_row(new, now))
    await hold(db, row["id"], 0, audience_texts, final=False, now=now)
    told = changes.announcement(audience_texts)
    if told is not None:
        await db.execute(numbered(changes.INSERT_ANNOUNCEMENT), row["id"], 0, told)
    await seal(db, row["id"], 0, opening.seals)
    return game_of(row)


async def seal(db: asyncpg.Connection, game_id: int, ply: int, seals: tuple[Seal, ...]) -> None:
    """Keep the seals made when play began, in the same transaction as that move."""
    if seals:
        await db.executemany(numbered(changes.INSERT_SEAL), changes.seal_rows(game_id, ply, seals))


async def record_results(
    db: asyncpg.Connection, game: GameRecord, ending: Ending, now: float
) -> None:
    """Both players' results and new ratings, inside the transaction that ends the game.

    Each player's rating is locked first (an advisory lock on player and game, taken in
    one order), so two games ending at once for one player read one after the other.
    """
    before: tuple[Skill, Skill] | None = None
    if ending.rated:
        for user_id in sorted(set(game.seats)):
            await db.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))",
                game.game,
                str(user_id),
            )
        skills = []
        for user_id in game.seats:
            row = await db.fetchrow(numbered(results.SKILL_QUERY), user_id, game.game)
            skills.append(Skill(row[0], row[1]) if row else Skill())
        before = (skills[0], skills[1])
    for sql, params in results.result_statements(
        game_id=game.id,
        game=game.game,
        guild_id=game.guild_id,
        seats=game.seats,
        winner=ending.winner,
        before=before,
        now=now,
    ):
        await db.execute(numbered(sql), *params)
