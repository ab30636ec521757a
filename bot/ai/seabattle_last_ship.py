"""The last ship afloat: an order of shots that finds and sinks it in the fewest shots.

With one ship left, every way the hits can be explained leaves that ship either laid
through some hits (wounded) or free anywhere in the water never shot. So what the shooter
knows is a weighted list of the cells each possible lie of that ship still needs, and the
game ends when the true one's are all shot. Firing at the likeliest cell (the greedy
shooter) is good but not best: it ignores what a miss there leaves behind. This module
plays the greedy shooter forward over every possible lie (a rollout) and fires where the
expected number of shots to the end, greedy shooting after this shot, is least. Judged by
the same weights, that is never worse than greedy shooting itself.
"""

from __future__ import annotations

from collections.abc import Sequence

Lies = list[tuple[int, float]]
"""Each possible lie of the last ship as the bit mask of its cells still to shoot, with its
weight (how many explanations of the hits put it there)."""

CANDIDATES = 12
"""Shots weighed by their rollout at most, the likeliest first: a shot far down the greedy
order never wins, and each costs a rollout."""


def cell_weights(lies: Lies) -> dict[int, float]:
    """How much weight of the lies each cell carries."""
    weights: dict[int, float] = {}
    for mask, weight in lies:
        while mask:
            cell = (mask & -mask).bit_length() - 1
            weights[cell] = weights.get(cell, 0.0) + weight
            mask &= mask - 1
    return weights


def greedy_order(weights: dict[int, float], tie_break: Sequence[float]) -> list[int]:
    """The cells, likeliest first; ``tie_break`` orders equal ones."""
    return sorted(weights, key=lambda cell: (weights[cell], tie_break[cell]), reverse=True)


def split(lies: Lies, cell: int) -> tuple[Lies, Lies]:
    """The lies left after a hit at ``cell`` (those not sunk by it) and after a miss."""
    bit = 1 << cell
    hit: Lies = []
    missed: Lies = []
    for mask, weight in lies:
        if mask & bit:
            if mask != bit:  # a lie all of whose cells are now shot sinks: the game ends
                hit.append((mask & ~bit, weight))
        else:
            missed.append((mask, weight))
    return hit, missed


def greedy_cost(lies: Lies, tie_break: Sequence[float]) -> float:
    """The weighted sum, over the lies, of the shots greedy shooting takes to sink each."""
    if not lies:
        return 0.0
    weights = cell_weights(lies)
    cell = max(weights, key=lambda c: (weights[c], tie_break[c]))
    hit, missed = split(lies, cell)
    total = sum(weight for _, weight in lies)
    return total + greedy_cost(hit, tie_break) + greedy_cost(missed, tie_break)


def last_ship_shot(lies: Lies, tie_break: Sequence[float]) -> int:
    """The shot after which greedy shooting sinks the last ship soonest, on average."""
    order = greedy_order(cell_weights(lies), tie_break)
    best = order[0]
    best_cost = float("inf")
    for cell in order[:CANDIDATES]:
        hit, missed = split(lies, cell)
        cost = greedy_cost(hit, tie_break) + greedy_cost(missed, tie_break)
        if cost < best_cost - 1e-9:
            best, best_cost = cell, cost
    return best
