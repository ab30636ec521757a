"""Where the enemy ships lie, estimated from whole fleets consistent with every answer.

Counting the lies of each ship on its own (``bot.ai.seabattle_grid.density``) ignores that the
ships must share the sea: they may not overlap, nor touch where the rules forbid it, and
every hit must be some ship's. This module draws whole fleets of the ships afloat that
agree with everything the shooter was told (no ship on a miss or beside a wreck, every
unexplained hit covered, no two ships overlapping or touching against the rules) and fires
at the unknown cell that most of them cover. The shooter asks it while a wounded ship
waits where ships may not touch: the counts then look where that ship must continue, given
where the others can still be.

A fleet is drawn in steps: first a ship through each hit not yet covered (among the lies
that pass through it), then the rest biggest first, each uniformly among the lies still
free; a draw that leaves a ship no room is thrown away. Each draw is weighed so that the
counts follow how likely each fleet is (``FleetSampler.draw``). The number of draws is
fixed and the dice are the seat's own (``Seen.dice``), so the same position gives the same shot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.ai.seabattle_grid import EMPTY, HIT, UNKNOWN, ShotGrid, lies
from bot.games.seabattle.rules import Touching

DRAWS = 300
"""Fleets drawn per shot: about 20 ms of thinking, enough for the counts to settle."""

ATTEMPTS = 4 * DRAWS
"""Draws tried before giving up (a draw can dead-end); then the shooter falls back."""


@dataclass(frozen=True)
class MaskedLie:
    """One lie of a ship as bit masks over the board's cells, and its cells."""

    body: int
    """The ship's cells."""
    blocks: int
    """The cells no other ship may use: its body and, where ships may not touch, its halo."""
    cells: tuple[int, ...]


@lru_cache(maxsize=64)
def masked_lies(size: int, length: int, touching: Touching) -> tuple[MaskedLie, ...]:
    """Every lie of a ship of ``length`` as masks (cached: the board never changes)."""
    found = []
    for body, halo in lies(size, length, touching):
        body_mask = sum(1 << i for i in body)
        found.append(MaskedLie(body_mask, body_mask | sum(1 << i for i in halo), body))
    return tuple(found)


class FleetSampler:
    """Draws fleets of the ships afloat that agree with one shot grid."""

    def __init__(self, grid: ShotGrid) -> None:
        self.grid = grid
        self.hits = sum(1 << i for i, known in enumerate(grid.cells) if known == HIT)
        empty = sum(1 << i for i, known in enumerate(grid.cells) if known == EMPTY)
        self.lengths = tuple(sorted(grid.afloat, reverse=True))
        self.open: dict[int, list[MaskedLie]] = {}
        """Per length, the lies on no known-empty cell that touch no hit they do not cover
        (that hit's ship would touch this one) and are not all hits (it would be sunk)."""
        self.through: dict[tuple[int, int], list[MaskedLie]] = {}
        """Per (hit cell, length), the open lies covering that hit."""
        for length in set(self.lengths):
            fitting = [
                lie
                for lie in masked_lies(grid.size, length, grid.touching)
                if not lie.body & empty
                and not (lie.blocks & ~lie.body) & self.hits
                and lie.body & self.hits != lie.body
            ]
            self.open[length] = fitting
            for lie in fitting:
                for cell in lie.cells:
                    if grid.cells[cell] == HIT:
                        self.through.setdefault((cell, length), []).append(lie)

    def draw(self, dice: random.Random) -> tuple[list[MaskedLie], float] | None:
        """One fleet agreeing with the grid and its weight, or None where this draw
        dead-ended.

        A fleet reached through narrow choices is drawn more often than it is likely, so
        each draw is weighed by how many choices each of its steps had, divided by the
        ways a fleet is placed at random (see ``placing_odds``): the weighted draws then
        count each consistent fleet as often as fleets are really placed so.
        """
        left = list(self.lengths)
        blocked = 0
        uncovered = self.hits
        placed: list[MaskedLie] = []
        weight = 1.0
        while uncovered:
            cell = (uncovered & -uncovered).bit_length() - 1
            choices = [
                lie
                for length in set(left)
                for lie in self.through.get((cell, length), ())
                for _ in range(left.count(length))
                if not lie.body & blocked
            ]
            if not choices:
                return None
            lie = dice.choice(choices)
            weight *= len(choices)
            left.remove(lie.body.bit_count())
            placed.append(lie)
            blocked |= lie.blocks
            uncovered &= ~lie.body
        avoid = blocked | self.hits
        for length in left:  # biggest first, as the fleets themselves are placed
            free = [lie for lie in self.open[length] if not lie.body & avoid]
            if not free:
                return None
            lie = dice.choice(free)
            weight *= len(free)
            placed.append(lie)
            avoid |= lie.blocks
        return placed, weight / self.placing_odds(placed)

    def placing_odds(self, fleet: list[MaskedLie]) -> float:
        """How many ways the random placement had to reach ``fleet``: the biggest ship
        first anywhere, each next one anywhere clear of those before it. Fleets that leave
        later ships little room are likelier, as they are in the game's random fleets and
        roughly in people's (a ship by the edge leaves the rest more room)."""
        odds = 1.0
        taken = 0
        for lie in sorted(fleet, key=lambda lie: -lie.body.bit_count()):
            every = masked_lies(self.grid.size, lie.body.bit_count(), self.grid.touching)
            odds *= sum(1 for other in every if not other.body & taken)
            taken |= lie.blocks
        return odds


def covered_counts(grid: ShotGrid, dice: random.Random, draws: int = DRAWS) -> list[float] | None:
    """How much weight of ``draws`` consistent fleets covers each cell, or None when
    consistent fleets are too rare to find (the grid can be approximate: see ShotGrid)."""
    sampler = FleetSampler(grid)
    counts = [0.0] * len(grid.cells)
    drawn = 0
    for _ in range(ATTEMPTS):
        found = sampler.draw(dice)
        if found is None:
            continue
        fleet, weight = found
        for lie in fleet:
            for cell in lie.cells:
                counts[cell] += weight
        drawn += 1
        if drawn == draws:
            return counts
    return counts if drawn >= draws // 4 else None


def sampled_shot(grid: ShotGrid, dice: random.Random, fallback: Sequence[float]) -> int | None:
    """The unknown cell most consistent fleets cover; ``fallback`` breaks ties. None when
    no consistent fleets could be drawn."""
    counts = covered_counts(grid, dice)
    if counts is None:
        return None
    candidates = [i for i, known in enumerate(grid.cells) if known == UNKNOWN]
    return max(candidates, key=lambda i: (counts[i], fallback[i]))
