"""Seachess through the referee: a resigned game still publishes its move list (§9.4),
and the stored log replays to the stored state."""

from __future__ import annotations

from bot.announcements import game_begun
from bot.games import ENGINES
from bot.referee import Referee, replay
from bot.storage import GameRecord, GameStatus, SqliteRepository
from tests.support.referee_games import ALICE, BOB, start_game

E = ENGINES["seachess"]


async def start(referee: Referee) -> GameRecord:
    return await start_game(referee, "seachess")


async def test_a_resignation_publishes_the_move_list_with_hidden_moves(
    repo: SqliteRepository, referee: Referee
) -> None:
    await start(referee)
    for user, text in ((ALICE, "mine c1"), (BOB, "e11-e9"), (ALICE, "e2-e4")):
        report = await referee.act(user, text)
        assert "c1" not in " ".join(report.to(None).texts)  # type: ignore[union-attr]
    report = await referee.resign(BOB)
    assert report.game.status is GameStatus.FINISHED
    channel = " ".join(report.to(None).texts)  # type: ignore[union-attr]
    assert "All moves, hidden ones filled in: 1. Cc1-M(h) Be11-e9 2. Be2-e4" in channel
    assert "Cc1-M(h)" not in " ".join(report.to(0).texts)  # type: ignore[union-attr]


async def test_the_log_replays_to_the_stored_state(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await start(referee)
    for user, text in ((ALICE, "e2-e4"), (BOB, "d11-d7"), (ALICE, "mine c1"), (BOB, "d7-d6")):
        await referee.act(user, text)
    record = await repo.get_game(game.id)
    assert record is not None
    state = replay(E, record, await repo.log(game.id))
    assert E.to_json(state) == record.state
    an_abort = await start(referee)
    report = await referee.abort(BOB, an_abort.id)
    assert not any("All moves" in t for t in report.to(None).texts)  # type: ignore[union-attr]


def test_the_welcome_tells_each_player_their_colour() -> None:
    rules = E.presets[E.default_variant]
    told = {e.audience: e.text for e in game_begun(E, rules, E.new_game(rules, 1))}
    assert told[0].startswith("Your Seachess game has begun. You play White and move first.")
    assert told[1].startswith("Your Seachess game has begun. You play Black; White moves first.")
    assert "You play" not in told[None]
