"""The Marine Game through the referee: a whole game to its end, replayed from the log, with
what each audience is told, a draw by agreement, and autocomplete from a player's view."""

from __future__ import annotations

import random

from bot.announcements import game_begun
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.marine.state import MarineState
from bot.referee import Referee, replay
from bot.storage import GameRecord, GameStatus, SqliteRepository
from tests.support.referee_games import start_game, stored_state

E = ENGINES["marine"]


async def start(referee: Referee) -> GameRecord:
    return await start_game(referee, "marine")


def state_of(game: GameRecord) -> MarineState:
    return stored_state(game, MarineState)


async def test_a_whole_game_reaches_its_end_and_replays_from_the_log(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await start(referee)
    assert state_of(game).phase is Phase.PLAY
    rng = random.Random(5)
    for _ in range(2000):
        if game.status is GameStatus.FINISHED:
            break
        state = state_of(game)
        seat = state.turn
        assert seat is not None
        moves = [str(a) for a in E.legal_actions(state, seat) if "draw" not in str(a)]
        report = await referee.act(game.seats[seat], rng.choice(moves))
        texts = {audience: report.to(audience) for audience in (0, 1, None)}
        assert all(told is not None for told in texts.values())  # everyone hears of every move
        game = report.game
    else:
        raise AssertionError("the game did not end")
    assert game.end_reason == "rules"
    assert replay(E, game, await repo.log(game.id)) == state_of(game)


async def test_a_draw_by_agreement_ends_the_game_without_a_winner(referee: Referee) -> None:
    game = await start(referee)
    state = state_of(game)
    first, second = game.seats[state.south], game.seats[1 - state.south]
    offer = await referee.act(first, "offer draw")
    assert not offer.finished
    await referee.act(first, "46-41")
    ended = await referee.act(second, "accept draw")
    assert ended.finished and ended.game.winner is None


async def test_suggestions_come_from_the_players_view(referee: Referee) -> None:
    game = await start(referee)
    state = state_of(game)
    mover, waiting = game.seats[state.south], game.seats[1 - state.south]
    choices = await referee.suggestions(mover, "4")
    assert "46-41" in choices and all(text.startswith("4") for text in choices)
    assert await referee.suggestions(waiting, "") == []


def test_the_welcome_names_the_game_without_saying_game_twice() -> None:
    engine = ENGINES["marine"]
    rules = engine.presets[engine.default_variant]
    welcome = game_begun(engine, rules, engine.new_game(rules, 1))[0].text
    assert welcome.startswith("Your Marine Game has begun.")
    sea = ENGINES["seabattle"]
    sea_rules = sea.presets[sea.default_variant]
    assert game_begun(sea, sea_rules, sea.new_game(sea_rules, 1))[0].text.startswith(
        "Your Sea Battle game has begun."
    )


def test_the_welcome_tells_each_player_their_side() -> None:
    """Each player reads their own side in the first message, not a guess from whose
    move it is."""
    engine = ENGINES["marine"]
    rules = engine.presets[engine.default_variant]
    souths = set()
    for seed in range(1, 9):
        state = engine.new_game(rules, seed)
        souths.add(state.south)
        told = {event.audience: event.text for event in game_begun(engine, rules, state)}
        assert "You play South, at the bottom of the board, and move first." in told[state.south]
        assert (
            "You play North, at the top of the board; South moves first." in told[1 - state.south]
        )
        assert "if it is your move" not in told[state.south]
        assert "You play" not in told[None]
    assert souths == {0, 1}
