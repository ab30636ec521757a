"""Moving a deployment from SQLite to PostgreSQL keeps every game, log, notice, seal and
rating."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.copy_database import CopyError, copy_database, main
from bot.referee import Referee
from bot.storage import GameStatus, PostgresRepository, SqliteRepository
from tests.referee.test_referee import ALICE, BOB, random_move, start_game, state_of

CAROL = 1003


async def fill(path: Path) -> None:
    """Two games (one finished and rated, one in play), an open challenge, held audience texts and
    a saved setup."""
    repository = await SqliteRepository.open(path)
    referee = Referee(repository, seed_source=lambda: 11)
    rng = random.Random(3)
    try:
        finished = await start_game(referee)
        while finished.status is GameStatus.ACTIVE:
            user, text = random_move(rng, finished, state_of(finished))
            finished = (await referee.act(user, f"#{finished.id} {text}")).game
        playing = await start_game(referee, challenger=ALICE, opponent=CAROL)
        await referee.act(ALICE, f"#{playing.id} random")
        await referee.challenge(
            game="seabattle", variant=None, guild_id=None, channel_id=5, challenger_id=BOB,
            opponent_id=CAROL, rated=True,
        )  # fmt: skip
        await repository.save_setup(ALICE, "seabattle", "fortress", "A1 A2 A3 A4")
        await repository.inbox.mark_read(ALICE, 77)
    finally:
        await repository.close()


async def test_every_row_is_copied_and_the_store_carries_on(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "referee.sqlite3"
    await fill(path)
    counts = await copy_database(path, postgres_url)
    assert counts["games"] == 2 and counts["challenges"] == 3 and counts["actions"] > 20
    assert counts["results"] == 2 and counts["ratings"] == 2 and counts["notices"] > 0
    assert counts["announcements"] > 0 and counts["read_dms"] == 1

    source = await SqliteRepository.open(path)
    target = await PostgresRepository.open(postgres_url)
    try:
        for game_id in (1, 2):
            assert await target.get_game(game_id) == await source.get_game(game_id)
            assert await target.log(game_id) == await source.log(game_id)
            assert await target.seals(game_id) == await source.seals(game_id)
            assert await target.announcements(game_id) == await source.announcements(game_id)
        backlogs = await source.outbox.backlogs()
        assert backlogs and await target.outbox.backlogs() == backlogs
        for backlog in backlogs:
            assert await target.outbox.claim(backlog) == await source.outbox.claim(backlog)
        assert await target.inbox.last_read(ALICE) == 77
        assert await target.records.standings_of(ALICE) == await source.records.standings_of(ALICE)
        assert await target.records.results_of(1) == await source.records.results_of(1)
        assert await target.saved_setup(ALICE, "seabattle", "fortress") == "A1 A2 A3 A4"
        # The copied store goes on: the open challenge is accepted into game #3.
        challenge = await target.get_challenge(3)
        assert challenge is not None and challenge.opponent_id == CAROL
        report = await Referee(target, seed_source=lambda: 4).accept(3, CAROL)
        assert report.game.id == 3
    finally:
        await target.close()
        await source.close()


async def test_a_database_that_holds_games_is_refused(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "referee.sqlite3"
    await fill(path)
    await copy_database(path, postgres_url)
    with pytest.raises(CopyError, match="already holds games"):
        await copy_database(path, postgres_url)


def test_the_command_names_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "nowhere.sqlite3"), "postgresql://localhost/x"]) == 1
    assert "There is no database file" in capsys.readouterr().err
