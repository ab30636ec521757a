"""Ratings and results: which ends count, what they change, and that they are stored atomically.

Games are played through the referee against a real SQLite store, as the cogs play them;
the rating mathematics is openskill's, so these tests check the policy around it (who
gains, who loses, what never counts: ``test_rating_policy``) and the storage guarantees.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import ENGINES
from bot.games.core import EndReason, Outcome, other
from bot.games.grid import cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.ratings import Skill, rate
from bot.referee import GameFault, Referee, Report
from bot.storage import GameRecord, GameStatus, SqliteRepository
from bot.storage.outbox import Backlog
from bot.storage.results import Score
from tests.storage.helpers import opened_with_a_challenge, second_seat_resigns

E = ENGINES["seabattle"]
ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
GUILD, OTHER_GUILD = 500, 600


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    """A store on a file (the conftest's ``referee`` plays on it)."""
    repository = await SqliteRepository.open(tmp_path / "ratings.sqlite3")
    yield repository
    await repository.close()


def state_of(game: GameRecord) -> SeaBattleState:
    state: SeaBattleState = E.from_json(game.state)
    return state


async def new_game(
    referee: Referee,
    challenger: int = ALICE,
    opponent: int = BOB,
    *,
    rated: bool = True,
    guild: int | None = GUILD,
) -> GameRecord:
    challenge = await referee.challenge(
        game="seabattle",
        variant=None,
        guild_id=guild,
        channel_id=700,
        challenger_id=challenger,
        opponent_id=opponent,
        rated=rated,
    )
    game = (await referee.accept(challenge.id, opponent)).game
    for user in game.seats:
        await referee.act(user, f"#{game.id} random")
        game = (await referee.act(user, f"#{game.id} ready")).game
    return game


async def fire(referee: Referee, game: GameRecord, *, hit: bool) -> Report:
    """Whoever is to move fires at a ship cell (a hit) or at open water (a miss)."""
    state = state_of(game)
    seat = state.turn
    assert seat is not None
    ships = {cell for ship in state.sides[other(seat)].ships for cell in ship.cells}
    fired = state.shots[seat]
    cells = [(c, r) for r in range(10) for c in range(10) if (c, r) not in fired]
    target = next(cell for cell in cells if (cell in ships) == hit)
    return await referee.act(game.seats[seat], f"#{game.id} {cell_name(target)}")


async def shoot(referee: Referee, game: GameRecord, *, hit: bool) -> GameRecord:
    return (await fire(referee, game, hit=hit)).game


async def play_out(referee: Referee, game: GameRecord, winner_id: int) -> Report:
    """The winner sinks the whole enemy fleet; the loser only ever misses."""
    while True:
        state = state_of(game)
        assert state.turn is not None
        seat = state.turn
        report = await fire(referee, game, hit=game.seats[seat] == winner_id)
        game = report.game
        if report.finished:
            assert game.seats[seat] == winner_id
            return report


async def time_out(referee: Referee, game: GameRecord) -> Report:
    """The inactivity sweep's end: the player the game waits for loses on time."""
    report = await referee.time_out(game.id, game.updated_at)
    assert report is not None, "the game moved on before its time ran out"
    return report


async def skill(repo: SqliteRepository, user_id: int) -> Skill | None:
    standings = {s.game: s for s in await repo.records.standings_of(user_id)}
    return standings["seabattle"].skill if "seabattle" in standings else None


# -- whole games through the referee --------------------------------------------------------------


async def test_a_won_game_rates_both_players_and_records_the_result(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await new_game(referee)
    report = await play_out(referee, game, BOB)

    assert report.game.winner == 1 and report.game.end_reason == EndReason.RULES.value
    alice, bob = report.results
    assert (alice.user_id, alice.score, alice.opponent_id) == (ALICE, Score.LOSS, BOB)
    assert (bob.user_id, bob.score, bob.opponent_id) == (BOB, Score.WIN, ALICE)
    assert alice.before == bob.before == Skill()
    assert bob.change is not None and bob.change > 0
    assert alice.change == -bob.change
    assert await skill(repo, BOB) == bob.after
    assert await skill(repo, ALICE) == alice.after
    (bob_standing,) = await repo.records.standings_of(BOB)
    assert (bob_standing.games, bob_standing.wins, bob_standing.losses) == (1, 1, 0)
    assert bob_standing.streak == 1
    (alice_standing,) = await repo.records.standings_of(ALICE)
    assert (alice_standing.wins, alice_standing.losses, alice_standing.streak) == (0, 1, -1)


async def test_resignation_after_the_first_shot_counts_as_a_loss(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await shoot(referee, await new_game(referee), hit=False)
    report = await referee.resign(ALICE, game.id)

    alice, bob = report.results
    assert (alice.score, bob.score) == (Score.LOSS, Score.WIN)
    assert alice.rated and alice.change is not None and alice.change < 0
    assert await skill(repo, ALICE) == alice.after


async def test_loss_on_time_counts_once_play_has_begun(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await shoot(referee, await new_game(referee), hit=False)
    late = state_of(game).turn
    assert late is not None
    report = await time_out(referee, game)

    assert report.game.end_reason == EndReason.TIMEOUT.value
    assert report.game.winner == other(late)
    loser = next(r for r in report.results if r.user_id == game.seats[late])
    winner = next(r for r in report.results if r.user_id != game.seats[late])
    assert (winner.score, loser.score) == (Score.WIN, Score.LOSS)
    assert loser.change is not None and loser.change < 0 < (winner.change or 0)
    assert await skill(repo, loser.user_id) == loser.after


async def test_ends_before_the_first_shot_change_no_rating(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Aborted, resigned in setup, or timed out before a shot: no rating moves."""
    aborted = await referee.abort(ALICE, (await new_game(referee)).id)
    assert aborted.results == ()
    resigned = await referee.resign(ALICE, (await new_game(referee)).id)
    timed_out = await time_out(referee, await new_game(referee))

    for report in (resigned, timed_out):
        assert [r.rated for r in report.results] == [False, False]
        assert all(r.change is None for r in report.results)
    assert await repo.records.standings_of(ALICE) == []
    assert await repo.records.standings_of(BOB) == []
    history, total = await repo.records.history(ALICE, None, offset=0, limit=10)
    assert total == 2, "unrated results are still in the player's history"
    assert {r.game_id for r in history} == {resigned.game.id, timed_out.game.id}


async def test_an_unrated_game_records_its_result_but_changes_no_rating(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await new_game(referee, rated=False)
    assert not game.rated
    report = await play_out(referee, game, ALICE)
    assert [(r.score, r.rated) for r in report.results] == [(Score.WIN, False), (Score.LOSS, False)]
    assert await repo.records.standings_of(ALICE) == []


async def test_a_draw_is_recorded_for_both(repo: SqliteRepository) -> None:
    """Sea Battle has no draw, so the storage path a drawing game takes is driven directly."""
    referee = Referee(repo, seed_source=itertools.count(1).__next__)
    game = await new_game(referee)
    game = await shoot(referee, game, hit=False)
    async with referee.work.change(ALICE, game.id, "draw") as loaded:
        report = await referee.work.conclude(loaded, Outcome(None, EndReason.RULES, "a draw"), ())
    assert [r.score for r in report.results] == [Score.DRAW, Score.DRAW]
    assert [r.change for r in report.results] == [0, 0]
    (standing,) = await repo.records.standings_of(ALICE)
    assert (standing.games, standing.draws, standing.streak) == (1, 1, 0)


async def test_streaks_count_consecutive_rated_results(
    repo: SqliteRepository, referee: Referee
) -> None:
    for winner in (ALICE, ALICE, BOB, ALICE, ALICE, ALICE):
        await play_out(referee, await new_game(referee), winner)
    (alice,), (bob,) = [await repo.records.standings_of(user) for user in (ALICE, BOB)]
    assert (alice.streak, bob.streak) == (3, -3)
    assert (alice.wins, alice.losses, bob.wins, bob.losses) == (5, 1, 1, 5)


# -- storage: atomic and serialised ---------------------------------------------------------------


async def test_a_failure_between_the_writes_leaves_neither_end_nor_result(
    repo: SqliteRepository, referee: Referee
) -> None:
    """The ratings write fails after the game's end and results were written: all undone."""
    game = await shoot(referee, await new_game(referee), hit=False)
    await repo._db.execute(
        "CREATE TRIGGER fail_rating BEFORE INSERT ON ratings"
        " BEGIN SELECT RAISE(ABORT, 'disk full'); END"
    )

    with pytest.raises(GameFault) as raised:  # the player hears the game is as it was
        await referee.resign(ALICE, game.id)
    assert isinstance(raised.value.__cause__, sqlite3.IntegrityError)
    assert "disk full" in str(raised.value.__cause__)

    stored = await repo.get_game(game.id)
    assert stored is not None
    assert (stored.status, stored.ply, stored.end_reason) == (GameStatus.ACTIVE, game.ply, None)
    assert len(await repo.log(game.id)) == game.ply
    assert await repo.records.results_of(game.id) == []
    assert await repo.records.standings_of(ALICE) == []
    await repo._db.execute("DROP TRIGGER fail_rating")
    report = await referee.resign(ALICE, game.id)
    assert [r.score for r in report.results] == [Score.LOSS, Score.WIN]


async def test_two_games_ending_at_once_for_one_player_both_count(
    repo: SqliteRepository,
) -> None:
    """Each end reads the ratings inside its own write transaction, so no update is lost."""
    games = []
    for rival in (BOB, CAROL):
        challenge = await repo.create_challenge(
            game="seabattle",
            rules=E.presets["classic"].to_json(),
            guild_id=GUILD,
            channel_id=700,
            challenger_id=ALICE,
            opponent_id=rival,
        )
        game = await repo.accept_challenge(challenge.id, seed=1, seats=(ALICE, rival), state={})
        assert game is not None
        games.append(game)

    await asyncio.gather(*(second_seat_resigns(repo, game) for game in games))

    (alice,) = await repo.records.standings_of(ALICE)
    assert (alice.games, alice.wins, alice.streak) == (2, 2, 2)
    after_one = rate((Skill(), Skill()), 0)[0]
    after_both = rate((after_one, Skill()), 0)[0]
    assert alice.skill == after_both, "the second end was rated from the first one's result"


async def test_an_end_redelivered_after_a_restart_still_carries_the_rating_changes(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await shoot(referee, await new_game(referee), hit=False)
    ended = await referee.resign(ALICE, game.id)

    restarted = Referee(repo)
    batch = await repo.outbox.claim(Backlog(game.id, None))
    assert batch is not None and batch.final and batch.last_ply == ended.game.ply
    pending = await restarted.batch_report(batch)

    assert pending is not None and pending.finished
    assert pending.results == ended.results and len(pending.results) == 2


async def test_a_database_from_before_ratings_is_upgraded_and_its_games_count_as_rated(
    tmp_path: Path,
) -> None:
    """Games started before ratings existed were all played for a result: they stay rated."""
    path = tmp_path / "old.sqlite3"
    repository = await opened_with_a_challenge(path, 2)
    try:
        challenge = await repository.get_challenge(1)
        assert challenge is not None and challenge.rated
        game = await repository.accept_challenge(1, seed=1, seats=(2, 3), state={})
        assert game is not None and game.rated
        await second_seat_resigns(repository, game)
        (standing,) = await repository.records.standings_of(2)
        assert (standing.games, standing.wins) == (1, 1)
    finally:
        await repository.close()


async def test_leaderboard_ranks_the_top_ten_sharing_ranks_on_equal_ratings(
    repo: SqliteRepository,
) -> None:
    """Twelve settled players (two tied at 30) and one provisional, written as stored ratings."""
    mus = [35.0, 30.0, 30.0, 29.0, 28.0, 27.0, 26.0, 25.0, 24.0, 23.0, 22.0, 21.0]
    for user, mu in enumerate(mus, start=1):
        await repo._db.execute(
            "INSERT INTO ratings VALUES (?, 'seabattle', ?, 5.0, 9, 5, 4, 0, 1, 0)", (user, mu)
        )
    await repo._db.execute(
        "INSERT INTO ratings VALUES (99, 'seabattle', 40.0, 8.0, 1, 1, 0, 0, 1, 0)"
    )

    board = await repo.records.leaderboard("seabattle", None, caller_id=12)

    assert [(s.user_id, s.rank) for s in board.settled] == [
        (1, 1), (2, 2), (3, 2), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 10)
    ]  # fmt: skip
    assert [s.user_id for s in board.provisional] == [99]
    assert board.ranked == 12
    assert board.caller is not None and (board.caller.user_id, board.caller.rank) == (12, 12)
    tied = await repo.records.leaderboard("seabattle", None, caller_id=3)
    assert tied.caller is not None and tied.caller.rank == 2
    server = await repo.records.leaderboard("seabattle", GUILD, caller_id=3)
    assert (server.settled, server.provisional, server.caller) == ((), (), None)
