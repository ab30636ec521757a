"""Cogs ask the referee, never the repository: the Discord glue stays thin, and what it may
read or write of storage is what the referee offers (``bot.referee``).

The cogs listed in ``STILL_REACHING`` are the delivery's (sending, the DM reader, the
clock's errands) and reach the store for what they keep of their own; they are the only
ones, so no new cog starts to."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.referee import Referee
from bot.storage import SqliteRepository

ROOT = Path(__file__).resolve().parents[1]

STILL_REACHING = {
    "cogs/delivery.py",
    "cogs/moves.py",
    "cogs/timekeeping.py",
}
"""Cogs of the delivery that still read or write the store directly."""


def reaches_repository(source: str) -> list[int]:
    """The lines on which a module reads an attribute named ``repository``."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "repository"
    )


def test_only_the_delivery_cogs_reach_the_repository() -> None:
    reaching = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "cogs").rglob("*.py")
        if reaches_repository(path.read_text("utf-8"))
    }
    assert reaching <= STILL_REACHING, reaching - STILL_REACHING


def test_the_check_sees_a_cog_reaching_the_repository() -> None:
    assert reaches_repository("x = 1\nawait self.bot.repository.get_game(1)\n") == [2]
    assert reaches_repository("await self.bot.referee.board(1, 2)\n") == []


async def test_a_posted_challenge_keeps_its_message(
    repo: SqliteRepository, referee: Referee
) -> None:
    challenge = await referee.challenge(
        game="seabattle",
        variant=None,
        guild_id=500,
        channel_id=700,
        challenger_id=1001,
        opponent_id=1002,
    )
    await referee.challenge_posted(challenge.id, 9_000_001)
    stored = await repo.get_challenge(challenge.id)
    assert stored is not None and stored.message_id == 9_000_001


async def test_the_referee_answers_records_from_the_store(
    repo: SqliteRepository, referee: Referee
) -> None:
    assert referee.records is repo.records
    assert await referee.records.standings_of(1001) == []
