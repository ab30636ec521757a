"""Sea Battle figures for ``python -m benchmarks.ai``: shots to sink a whole fleet.

The shooter only ever sees a shot grid, so the benchmark answers its shots with a small
stand-in for the enemy field that marks exactly what the engine's view marks (hits, wrecks,
and the cells a wreck's spacing proves empty); a test checks the two agree shot by shot.
Think time is the processor time of one shot, which holds better than the clock on a
shared, busy machine.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from bot.ai.seabattle import best_shot, hidden_fleet
from bot.ai.seabattle_grid import EMPTY, HIT, UNKNOWN, ShotGrid
from bot.games.seabattle.fleet import Ship, random_fleet
from bot.games.seabattle.rules import PRESETS, SeaBattleRules, Touching

FleetSource = Callable[[SeaBattleRules, random.Random], Sequence[Ship]]


class EnemyField:
    """One hidden fleet answering shots, and the shot grid a shooter would see of it."""

    def __init__(self, rules: SeaBattleRules, fleet: Sequence[Ship]) -> None:
        self.rules = rules
        size = rules.size
        self.ship_at = {r * size + c: i for i, ship in enumerate(fleet) for c, r in ship.cells}
        self.left = [len(ship.cells) for ship in fleet]
        self.fleet = fleet
        self.cells = [UNKNOWN] * (size * size)
        self.wrecks: list[int] = []
        """Lengths of sunk ships drawn as wrecks (where ships may not touch)."""
        self.sinkings: list[tuple[int, int]] = []
        """Sinkings answered by name only (where ships may touch): the shot and the length."""
        self.hit_then: list[int] = []
        """For each of those sinkings, the cells hit by then (as a bit mask)."""

    @property
    def sunk_all(self) -> bool:
        return len(self.wrecks) + len(self.sinkings) == len(self.fleet)

    def grid(self) -> ShotGrid:
        rules = self.rules
        return ShotGrid.build(
            rules.size,
            list(self.cells),
            [kind.length for kind in rules.fleet],
            self.wrecks,
            self.sinkings,
            rules.touching,
            self.hit_then,
        )

    def shoot(self, index: int) -> None:
        ship = self.ship_at.get(index)
        if ship is None:
            self.cells[index] = EMPTY
            return
        self.cells[index] = HIT
        self.left[ship] -= 1
        if self.left[ship]:
            return
        cells = self.fleet[ship].cells
        if self.rules.touching is Touching.ANY:
            self.sinkings.append((index, len(cells)))
            self.hit_then.append(sum(1 << i for i, known in enumerate(self.cells) if known == HIT))
            return
        self.wrecks.append(len(cells))
        size = self.rules.size
        for c, r in cells:
            self.cells[r * size + c] = EMPTY
        diagonal = self.rules.touching is Touching.NONE
        for c, r in cells:
            for nc in (c - 1, c, c + 1):
                for nr in (r - 1, r, r + 1):
                    index = nr * size + nc
                    inside = 0 <= nc < size and 0 <= nr < size
                    if inside and (diagonal or nc == c or nr == r) and index not in self.ship_at:
                        self.cells[index] = EMPTY


@dataclass(frozen=True)
class ShotFigures:
    fleets: int
    mean: float
    p50: float
    p95_think_ms: float
    max_think_ms: float


def shots_to_sink(
    rules: SeaBattleRules, fleet: Sequence[Ship], seed: int, timings: list[float]
) -> int:
    field = EnemyField(rules, fleet)
    dice = random.Random(f"shooter:{seed}")
    shots = 0
    while not field.sunk_all:
        start = time.process_time()
        tie_break = [dice.random() for _ in field.cells]
        index = best_shot(field.grid(), tie_break, dice)
        timings.append(time.process_time() - start)
        field.shoot(index)
        shots += 1
    return shots


def measure(preset: str, fleets: int, source: FleetSource = random_fleet) -> ShotFigures:
    rules = PRESETS[preset]
    timings: list[float] = []
    counts = []
    for seed in range(fleets):
        fleet = source(rules, random.Random(f"fleet:{preset}:{seed}"))
        counts.append(shots_to_sink(rules, fleet, seed, timings))
    timings.sort()
    return ShotFigures(
        fleets,
        statistics.fmean(counts),
        statistics.median(counts),
        timings[int(len(timings) * 0.95)] * 1000,
        timings[-1] * 1000,
    )


def report(fleets: int) -> Iterator[str]:
    """The table's lines, each as soon as it is measured (a full run takes a while)."""
    yield f"Sea Battle: shots to sink a whole fleet ({fleets} seeded fleets each)"
    yield f"{'fleet':34} {'mean':>6} {'p50':>5} {'think p95 ms':>13} {'max ms':>7}"
    for preset in ("milton-bradley", "classic", "corners", "large"):
        for label, source in (("uniform random", random_fleet), ("the computer's", hidden_fleet)):
            figures = measure(preset, fleets, source)
            yield (
                f"{preset + ', ' + label:34} {figures.mean:6.2f} {figures.p50:5.0f} "
                f"{figures.p95_think_ms:13.2f} {figures.max_think_ms:7.2f}"
            )
