"""Warships through the referee: whole games with every optional rule, the setup flow with
saved setups, autocomplete, and what the channel is (never) told about hidden types."""

from __future__ import annotations

import random

import pytest

from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.games.warships.state import WarshipsState
from bot.games.warships.units import SHIPS
from bot.referee import Referee, replay
from bot.storage import GameRecord, GameStatus, SqliteRepository
from tests.support.referee_games import ALICE, BOB, challenge, start_game, stored_state
from tests.support.warships_positions import play_step

E = ENGINES["warships"]
SHIP_NAMES = tuple(kind.unit.name for kind in SHIPS)


async def start(referee: Referee, options: str = "") -> GameRecord:
    return await start_game(referee, "warships", options=options)


def state_of(game: GameRecord) -> WarshipsState:
    return stored_state(game, WarshipsState)


@pytest.mark.parametrize("options", ["harder mobility manoeuvres forget", "quick"])
async def test_a_whole_game_with_the_optional_rules_reaches_its_end(
    repo: SqliteRepository, referee: Referee, options: str
) -> None:
    game = await start(referee, options)
    assert E.rules_from_json(game.rules) == E.configure(None, options)
    rng = random.Random(options)
    channel: list[str] = []
    for _ in range(6000):
        if game.status is GameStatus.FINISHED:
            break
        state = state_of(game)
        seat = min(E.to_move(state))
        text = play_step(state, seat, rng)
        if state.phase is Phase.SETUP and text.startswith("swap"):
            text = "random"
        report = await referee.act(game.seats[seat], text)
        public = report.to(None)
        if public is not None and state.phase is Phase.PLAY and not report.finished:
            channel += public.texts
        game = report.game
    else:
        pytest.fail("the game did not end")
    assert game.winner in (0, 1, None) and game.end_reason == "rules"
    assert replay(E, game, await repo.log(game.id)) == state_of(game)
    assert channel and not any(name in text for text in channel for name in SHIP_NAMES)


async def test_setup_flow_random_swap_save_load_and_ready(referee: Referee) -> None:
    game = await start(referee)
    state = state_of(game)
    alice = 0
    port = sorted(p.cell for p in state.own(alice) if p.kind.is_ship)
    first, second = cell_name(port[0]), cell_name(port[-1])
    await referee.act(ALICE, "random")
    swapped = (await referee.act(ALICE, f"swap {first} {second}")).game
    saved = await referee.act(ALICE, "save fortress")
    assert not saved.stored and "fortress" in saved.notices[0].texts[0]
    layout = {p.cell: p.kind for p in state_of(swapped).own(alice)}
    await referee.act(ALICE, "random")
    loaded = (await referee.act(ALICE, "load fortress")).game
    assert {p.cell: p.kind for p in state_of(loaded).own(alice)} == layout
    report = await referee.act(ALICE, "ready")
    channel = report.to(None)
    assert channel is not None and "set up" in channel.texts[0]
    assert report.to(1) is None  # Bob learns nothing of Alice's setup but the channel line

    second_game = await start(referee)
    bob_seat_state = state_of(second_game)
    assert bob_seat_state.phase is Phase.SETUP
    reloaded = (await referee.act(ALICE, f"#{second_game.id} load fortress")).game
    mine = {p.cell: p.kind for p in state_of(reloaded).own(0) if p.kind.is_ship}
    assert len(mine) == 26  # fitted to whichever port Alice holds in this game


async def test_suggestions_offer_legal_moves_from_the_players_view(referee: Referee) -> None:
    game = await start(referee, "quick")
    state = state_of(game)
    mover = game.seats[state.turn or 0]
    choices = await referee.suggestions(mover, "")
    assert choices and all(
        str(E.parse_action(state, state.turn or 0, text)) == text for text in choices
    )
    legal = {str(a) for a in E.legal_actions(state, state.turn or 0)}
    assert set(choices) <= legal
    waiting = game.seats[1 - (state.turn or 0)]
    assert await referee.suggestions(waiting, "") == []


async def test_a_quick_game_is_announced_as_begun_not_as_setting_up(referee: Referee) -> None:
    offered = await challenge(referee, "warships", options="quick")
    report = await referee.accept(offered.id, BOB)
    channel = report.to(None)
    assert channel is not None and channel.texts[0] == "Challenge accepted: the game begins."
    assert state_of(report.game).phase is Phase.PLAY
