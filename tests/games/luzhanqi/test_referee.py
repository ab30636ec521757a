"""Luzhanqi through the referee: whole games of every variant from challenge to result,
the deployment flow (random, swap, save, load, ready), and what each audience is told."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.announcements import game_begun
from bot.games import ENGINES
from bot.games.core import GameError, Phase
from bot.games.luzhanqi.pieces import Kind
from bot.games.luzhanqi.state import LuzhanqiState
from bot.games.luzhanqi.view import LuzhanqiView
from bot.referee import Referee, Report
from bot.storage import GameRecord, SqliteRepository
from tests.support.referee_games import ALICE, BOB, challenge, start_game, stored_state

E = ENGINES["luzhanqi"]


@pytest.fixture
def referee(repo: SqliteRepository) -> Referee:
    return Referee(repo, seed_source=itertools.count(11).__next__)


async def start(referee: Referee, variant: str | None = None, options: str = "") -> GameRecord:
    return await start_game(referee, "luzhanqi", variant=variant, options=options)


def state_of(game: GameRecord) -> LuzhanqiState:
    return stored_state(game, LuzhanqiState)


async def deploy_both(referee: Referee, game: GameRecord) -> GameRecord:
    for user in game.seats:
        game = (await referee.act(user, f"#{game.id} ready")).game
    assert state_of(game).phase is Phase.PLAY
    return game


def every_text(report: Report) -> list[str]:
    return [text for notice in report.notices for text in notice.texts]


@pytest.mark.parametrize(
    ("variant", "options"), [("classic", ""), ("flip", "m3"), ("variant C", "w2")]
)
async def test_a_whole_game_through_the_referee(
    referee: Referee, variant: str, options: str
) -> None:
    game = await start(referee, variant, options)
    assert state_of(game).rules == E.configure(variant, options)
    if variant != "flip":
        game = await deploy_both(referee, game)
    rng = random.Random(5)
    for _ in range(4000):
        state = state_of(game)
        if state.phase is Phase.FINISHED:
            break
        assert state.turn is not None
        user = game.seats[state.turn]
        action = rng.choice([a for a in E.legal_actions(state, state.turn) if "draw" not in str(a)])
        report = await referee.act(user, str(action))
        game = report.game
        channel = report.to(None)
        assert channel is not None and channel.view.seat is None
        for text in channel.texts:  # 9.3: the channel never hears a piece's name
            if variant != "flip":
                assert not any(kind.title in text for kind in Kind if kind is not Kind.FLAG)
    assert report.finished and game.end_reason is not None
    final = report.to(None)
    assert final is not None and isinstance(final.view, LuzhanqiView)
    assert all(p is None or p.kind is not None for p in final.view.pieces)  # 8.6


async def test_the_deployment_flow_swap_save_load_ready(referee: Referee) -> None:
    game = await start(referee)
    seat = state_of(game).red_seat
    assert seat is not None
    user = game.seats[seat]
    before = state_of(game).sides[seat].layout
    swapped = await referee.act(user, "swap a1 c1")
    assert "Swapped" in every_text(swapped)[0]
    assert swapped.to(None) is None and swapped.to(1 - seat) is None  # a secret edit
    layout = state_of(swapped.game).sides[seat].layout
    assert layout == (before[2], before[1], before[0], *before[3:])  # a1 and c1 exchanged
    with pytest.raises(GameError, match=r"one of your two HQs"):
        flag = layout.index(Kind.FLAG)
        await referee.act(user, f"swap {'bd'[flag // 2]}1 a6")
    saved = await referee.act(user, "save fortress")
    assert "Saved this setup as `fortress`" in every_text(saved)[0]
    dealt = await referee.act(user, "random")
    assert state_of(dealt.game).sides[seat].layout != layout
    loaded = await referee.act(user, "load fortress")
    assert state_of(loaded.game).sides[seat].layout == layout
    # a later game, as the other colour perhaps, loads the same deployment
    await referee.act(user, "ready")
    await referee.act(game.seats[1 - seat], "ready")
    await referee.resign(user)
    second = await start(referee)
    second_seat = 0 if user == ALICE else 1
    again = await referee.act(user, f"#{second.id} load fortress")
    assert state_of(again.game).sides[second_seat].layout == layout


async def test_the_flip_game_starts_without_a_setup(referee: Referee) -> None:
    offered = await challenge(referee, "luzhanqi", variant="flip")
    report = await referee.accept(offered.id, BOB)
    channel = report.to(None)
    assert channel is not None and "the game begins" in channel.texts[0]
    state = state_of(report.game)
    assert state.phase is Phase.PLAY and state.turn is not None
    with pytest.raises(GameError, match="can no longer change"):
        await referee.act(report.game.seats[state.turn], "ready")


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_the_welcome_tells_each_player_their_side(variant: str) -> None:
    """A deployment game says which colour (and so which half) is whose; the flip game,
    whose colours come from the first flip, says who flips first."""
    rules = E.presets[variant]
    firsts = set()
    for seed in range(1, 9):
        state = E.new_game(rules, seed)
        told = {event.audience: event.text for event in game_begun(E, rules, state)}
        if variant == "flip":
            first = state.turn
            assert first is not None
            assert "You flip first: the colour you turn up is yours." in told[first]
            assert (
                "Your opponent flips first: the colour they turn up is theirs, and you play "
                "the other." in told[1 - first]
            )
        else:
            first = state.red_seat
            assert first is not None
            assert "You play Red, on ranks 1-6, and move first" in told[first]
            assert "You play Blue, on ranks 7-12; Red moves first" in told[1 - first]
        firsts.add(first)
        assert "You play" not in told[None] and "You flip" not in told[None]
    assert firsts == {0, 1}
