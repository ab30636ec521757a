"""The last ship afloat is hunted by playing greedy shooting forward over every lie it may have.

The figures here are expected shots to the end, worked out by playing each possible lie of
the ship as the truth, shot by shot, apart from the module's own bookkeeping: the rollout
costs what it says greedy shooting costs, and it is never worse than greedy shooting.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.ai.seabattle import best_shot
from bot.ai.seabattle_explained import line_masks
from bot.ai.seabattle_grid import EMPTY, UNKNOWN, ShotGrid
from bot.ai.seabattle_last_ship import Lies, cell_weights, greedy_cost, last_ship_shot
from bot.games.seabattle.rules import Touching

SIZE = 10
PREFER_FIRST = [-i / 1000 for i in range(SIZE * SIZE)]
"""A tie-break that prefers the cell read first (A1, B1, ...)."""

Policy = Callable[[Lies], int]


def index(cell: str) -> int:
    return (int(cell[1:]) - 1) * SIZE + ord(cell[0]) - ord("A")


def lies_in(water: list[str], length: int) -> Lies:
    mask = sum(1 << index(cell) for cell in water)
    return [(lie, 1.0) for lie, _ in line_masks(SIZE, length) if not lie & ~mask]


def greedy(lies: Lies) -> int:
    weights = cell_weights(lies)
    return max(weights, key=lambda cell: (weights[cell], PREFER_FIRST[cell]))


def rollout(lies: Lies) -> int:
    return last_ship_shot(lies, PREFER_FIRST)


def shots_against(truth: int, lies: Lies, policy: Policy) -> int:
    """Shots ``policy`` takes to sink the ship lying on ``truth``, told only hit or miss
    (and sunk, which ends the game)."""
    shot: set[int] = set()
    possible = [mask for mask, _ in lies]
    weight = dict(lies)
    shots = 0
    while True:
        cell = policy([(mask & ~_mask_of(shot), weight[mask]) for mask in possible])
        assert cell not in shot, "a cell is never shot twice"
        shot.add(cell)
        shots += 1
        hit = truth >> cell & 1
        if hit and not truth & ~_mask_of(shot):
            return shots
        possible = [
            mask
            for mask in possible
            if (mask >> cell & 1) == hit and mask & ~_mask_of(shot)  # agrees, not sunk
        ]


def _mask_of(cells: set[int]) -> int:
    return sum(1 << cell for cell in cells)


def mean_shots(lies: Lies, policy: Policy) -> float:
    total = sum(weight for _, weight in lies)
    return sum(weight * shots_against(mask, lies, policy) for mask, weight in lies) / total


def random_lies(dice: random.Random) -> Lies:
    """The lies of a destroyer or a cruiser in a random patch of water, weighed unevenly."""
    width, height = dice.choice([(3, 3), (4, 3), (5, 2), (5, 3), (6, 2)])
    water = [
        f"{chr(ord('A') + column)}{row + 1}"
        for column in range(width)
        for row in range(height)
        if dice.random() < 0.75
    ]
    lies = lies_in(water, dice.choice([2, 3]))
    return [(mask, float(dice.randint(1, 3))) for mask, _ in lies]


def test_the_cost_of_greedy_shooting_is_what_playing_every_lie_gives() -> None:
    dice = random.Random(7)
    checked = 0
    while checked < 60:
        lies = random_lies(dice)
        if not lies:
            continue
        total = sum(weight for _, weight in lies)
        assert greedy_cost(lies, PREFER_FIRST) / total == pytest.approx(mean_shots(lies, greedy))
        checked += 1


def test_the_rollout_is_never_worse_than_greedy_shooting_and_sometimes_better() -> None:
    dice = random.Random(11)
    better = 0
    for _ in range(150):
        lies = random_lies(dice)
        if not lies:
            continue
        by_rollout, by_greedy = mean_shots(lies, rollout), mean_shots(lies, greedy)
        assert by_rollout <= by_greedy + 1e-9
        better += by_rollout < by_greedy - 1e-9
    assert better >= 5


def test_it_leaves_the_likeliest_cell_when_a_miss_there_leaves_the_water_scattered() -> None:
    # A destroyer (2) in this water; B2 lies on the most lies (4), yet opening on B1 finds
    # and sinks it in fewer shots on average.
    #   A1 B1 C1 .
    #   A2 B2 C2 D2
    #   A3 B3 .  D3
    water = ["A1", "B1", "C1", "A2", "B2", "C2", "D2", "A3", "B3", "D3"]
    lies = lies_in(water, 2)
    assert greedy(lies) == index("B2")
    assert rollout(lies) == index("B1")
    assert mean_shots(lies, rollout) < mean_shots(lies, greedy)

    cells = [EMPTY] * (SIZE * SIZE)
    for cell in water:
        cells[index(cell)] = UNKNOWN
    grid = ShotGrid(SIZE, tuple(cells), (2,), Touching.ANY, hits=0)
    assert best_shot(grid, PREFER_FIRST) == index("B1"), "the shooter takes the rollout's shot"
