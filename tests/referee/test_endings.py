"""How a game ends through the referee short of the rules: an abort while the fleets are
set, a seat whose direct messages are closed, and a resignation, each told to every audience
in its own words."""

from __future__ import annotations

from bot.games import ENGINES
from bot.games.core import EndReason
from bot.referee import Referee
from bot.storage import GameStatus, SqliteRepository
from tests.support.referee_games import ALICE, BOB, refused, set_fleets, start_game, state_of, told


async def test_abort_during_setup_ends_without_a_result(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Abort ends a game without a result while the fleets are being set."""
    game = await start_game(referee)
    await referee.act(BOB, "random")
    report = await referee.abort(BOB)
    assert report.finished
    assert report.game.status is GameStatus.FINISHED
    assert report.game.winner is None and report.game.end_reason == EndReason.ABORTED.value
    assert {n.audience for n in report.notices} == {0, 1, None}
    assert "{seat1} aborted" in told(report, None).texts[0]
    assert told(report, None).texts[-1] == "The game was aborted."
    assert await repo.active_games_of(ALICE) == []
    await refused(repo, lambda: referee.act(ALICE, f"#{game.id} random"), "is over")
    await refused(repo, lambda: referee.abort(ALICE, game.id), "is over")


async def test_abort_is_refused_after_the_first_shot(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Confirmed fleets are not yet a real move; the first shot is, and then only resign."""
    unshot = await set_fleets(referee, await start_game(referee))
    report = await referee.abort(ALICE, unshot.id)
    assert report.game.end_reason == EndReason.ABORTED.value

    game = await set_fleets(referee, await start_game(referee))
    shooter = state_of(game).turn
    assert shooter is not None
    await referee.act(game.seats[shooter], "A1")
    await refused(repo, lambda: referee.abort(ALICE), "can no longer be aborted")
    await refused(repo, lambda: referee.abort(BOB), "`/resign`")


async def test_a_seat_without_dms_calls_the_game_off_only_before_the_first_shot(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Called off in setup, a game ends unplayed, unrated and silent to the closed seat;
    after the first shot a closed DM costs the game nothing."""
    game = await start_game(referee)
    await referee.act(ALICE, "random")
    report = await referee.call_off(game.id, 1)
    assert report is not None and report.game.end_reason == EndReason.ABORTED.value
    assert {n.audience for n in report.notices} == {0, None}  # nothing for the closed seat
    assert "{seat1} direct messages, so the game is called off" in told(report, None).texts[0]
    outcome = ENGINES["seabattle"].outcome(state_of(report.game))
    assert outcome is not None and outcome.unplayed is not None
    assert await repo.records.results_of(game.id) == []
    assert await referee.call_off(game.id, 0) is None  # over: called off once

    started = await set_fleets(referee, await start_game(referee))
    shooter = state_of(started).turn
    assert shooter is not None
    await referee.act(started.seats[shooter], "A1")
    assert await referee.call_off(started.id, 1 - shooter) is None
    assert (await repo.get_game(started.id)).end_reason is None  # type: ignore[union-attr]


async def test_resign_gives_the_opponent_the_win(repo: SqliteRepository, referee: Referee) -> None:
    """Resigning is a result: the other seat wins, for the reason `resignation`."""
    game = await set_fleets(referee, await start_game(referee))
    report = await referee.resign(BOB)
    assert report.finished and report.game.status is GameStatus.FINISHED
    assert report.game.winner == 0 and report.game.end_reason == EndReason.RESIGNATION.value
    assert {n.audience for n in report.notices} == {0, 1, None}
    assert told(report, 1).texts[0] == "You resigned. The game is over."
    assert "you win" in told(report, 0).texts[0]
    assert told(report, None).texts[0] == "{seat1} resigned; {seat0} wins."
    outcome = state_of(report.game).outcome
    assert outcome is not None and outcome.winner == 0 and outcome.reason is EndReason.RESIGNATION
    assert report.game.ply == game.ply + 1
    await refused(repo, lambda: referee.resign(ALICE), "You have no game running")


async def test_the_channel_status_after_a_resignation_does_not_say_the_winner_resigned(
    referee: Referee,
) -> None:
    """The public last word on a resigned game names the winner and how they won, and
    cannot be read as if the winner had resigned."""
    await set_fleets(referee, await start_game(referee))
    report = await referee.resign(BOB)
    status = told(report, None).texts[-1]
    assert status == "{seat0} won (by resignation).", status
