"""The Luzhanqi computer's own parts: its deployment, and what it believes of the enemy.

Its belief is checked against the truth it may not see: over seeded games, the kind every
enemy piece really has is always among those the computer still thinks possible, and a
piece that has moved is never believed a landmine or the flag.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.ai import duel_report
from bot.ai.core import Seen, dice_seed_for
from bot.ai.generic import RandomPlayer
from bot.ai.luzhanqi_memory import enemy_beliefs
from bot.ai.luzhanqi_setup import strong_layout
from bot.catalog import player
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.luzhanqi.board import HQS, NEIGHBOURS, Colour, half
from bot.games.luzhanqi.deployment import check_layout
from bot.games.luzhanqi.pieces import Kind
from bot.games.luzhanqi.view import LuzhanqiView

ENGINE = ENGINES["luzhanqi"]


@pytest.mark.parametrize("seed", range(12))
def test_the_deployment_is_legal_and_guards_the_flag_as_people_do(seed: int) -> None:
    layout = strong_layout(random.Random(seed))
    check_layout(layout, Colour.RED)
    where = dict(zip(half(Colour.RED), layout, strict=True))
    flag = next(s for s, kind in where.items() if kind is Kind.FLAG)
    other_hq = next(s for s in HQS if s in where and s != flag)
    beside = [where[s] for s in NEIGHBOURS[flag]]
    assert beside.count(Kind.LANDMINE) >= 2
    assert where[other_hq] in (Kind.LIEUTENANT, Kind.CAPTAIN)  # frozen there for good
    assert all(kind is not Kind.ENGINEER for s, kind in where.items() if s in HQS)


def test_deployments_vary_with_the_dice() -> None:
    assert len({strong_layout(random.Random(seed)) for seed in range(10)}) == 10


def test_the_computer_deploys_its_own_way_then_confirms() -> None:
    rules = ENGINE.configure("classic")
    state = ENGINE.new_game(rules, 5)
    computer = player("luzhanqi", "strong")
    texts = []
    for ply in range(2):
        texts.append(computer.decide(Seen(rules, ENGINE.view(state, 1), (), 5, ply)))
        state = ENGINE.act(state, 1, texts[-1]).state
    assert texts[0].startswith("deploy ") and texts[1] == "ready"
    assert state.sides[1].ready
    colour = state.colour_of(1)
    assert colour is not None
    where = dict(zip(half(colour), state.sides[1].layout, strict=True))
    flag = next(s for s, kind in where.items() if kind is Kind.FLAG)
    assert [where[s] for s in NEIGHBOURS[flag]].count(Kind.LANDMINE) >= 2


@pytest.mark.parametrize("variant", ["classic", "variant-c"])
def test_what_it_believes_of_every_enemy_piece_includes_the_truth(variant: str) -> None:
    rules = ENGINE.configure(variant)
    seed = 3
    state = ENGINE.new_game(rules, seed)
    players = {0: player("luzhanqi", "strong"), 1: RandomPlayer("luzhanqi")}
    heard: dict[int, list[str]] = {0: [], 1: []}
    narrowed = 0
    for ply in range(160):
        if ENGINE.outcome(state) is not None:
            break
        seat = min(ENGINE.view(state, None).movers)
        view = ENGINE.view(state, 0)
        assert isinstance(view, LuzhanqiView)
        if view.phase is Phase.PLAY and view.colour is not None:
            believed = enemy_beliefs(view, heard[0])
            enemy = view.colour.opponent
            standing = {s for s, p in enumerate(state.board) if p and p.colour is enemy}
            assert set(believed) == standing
            for where, chances in believed.items():
                truth = state.board[where]
                assert truth is not None and truth.kind is not None
                assert chances.get(truth.kind, 0.0) > 0.0, (ply, where, truth.kind, chances)
                assert abs(sum(chances.values()) - 1.0) < 1e-6
                narrowed += len(chances) < len(Kind)
        seen = Seen(
            rules, ENGINE.view(state, seat), tuple(heard[seat]), dice_seed_for(seed, seat), ply
        )
        transition = ENGINE.act(state, seat, players[seat].decide(seen))
        state = transition.state
        for each in (0, 1):
            heard[each].extend(event.text for event in transition.for_audience(each))
    assert narrowed, "the computer never learned anything about the enemy"


def test_a_piece_that_moved_is_neither_a_landmine_nor_the_flag() -> None:
    rules = ENGINE.configure("classic")
    state = ENGINE.new_game(rules, 8)
    state = ENGINE.act(state, 0, "ready").state
    state = ENGINE.act(state, 1, "ready").state
    heard: list[str] = []
    red = state.seat_of(Colour.RED)
    assert red is not None
    blue = 1 - red
    opening = next(iter(ENGINE.legal_actions(state, red)))
    transition = ENGINE.act(state, red, str(opening))
    heard.extend(event.text for event in transition.for_audience(blue))
    view = ENGINE.view(transition.state, blue)
    assert isinstance(view, LuzhanqiView)
    target = transition.state.last.target if transition.state.last else None
    assert target is not None
    moved = enemy_beliefs(view, heard)[target]
    assert Kind.LANDMINE not in moved and Kind.FLAG not in moved


def test_the_benchmark_measures_every_variant() -> None:
    lines = list(duel_report("luzhanqi", 1, ("strong",)))
    for variant in ("classic", "flip", "variant-c"):
        header = lines.index(f"luzhanqi ({variant}): 1 seeded games per pairing, sides alternating")
        rows = [line.split() for line in lines[header + 2 : header + 4]]
        assert [row[:2] for row in rows] == [["strong", "random"], ["strong", "greedy"]]
        assert all(sum(map(int, row[2:5])) == 1 for row in rows)
