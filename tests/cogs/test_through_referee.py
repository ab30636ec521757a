"""Cogs ask the referee, never the repository: the Discord glue stays thin, and what it may
read or write of storage is what the referee offers (``bot.referee``), or what the bot's
wiring holds (``bot.client``: the deliverer, the clock, the move inbox)."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.referee import Referee
from bot.storage import SqliteRepository
from tests.referee.test_referee import ALICE, BOB, start_game

ROOT = Path(__file__).resolve().parents[2]


def reaches_repository(source: str) -> list[int]:
    """The lines on which a module reads an attribute named ``repository``."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "repository"
    )


def test_no_cog_reaches_the_repository() -> None:
    reaching = {
        path.relative_to(ROOT).as_posix(): lines
        for path in (ROOT / "cogs").rglob("*.py")
        if (lines := reaches_repository(path.read_text("utf-8")))
    }
    assert reaching == {}


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


async def test_the_referee_answers_what_the_dm_reader_and_game_options_ask(
    repo: SqliteRepository, referee: Referee
) -> None:
    assert await referee.players_in_games() == []
    game = await start_game(referee)
    assert sorted(await referee.players_in_games()) == [ALICE, BOB]
    assert [g.id for g in await referee.running_games_of(ALICE)] == [game.id]
    assert await referee.running_games_of(1009) == []
    assert await referee.last_dm_read(ALICE) is None
    await referee.dm_read(ALICE, 9_000_002)
    assert await referee.last_dm_read(ALICE) == 9_000_002
    assert await repo.inbox.last_read(ALICE) == 9_000_002
