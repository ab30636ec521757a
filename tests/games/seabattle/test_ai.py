"""The Sea Battle shooter's reasoning, on small hand-made fields.

Where ships may touch, a sinking is answered with the ship's name only: the hits every
possible line of that ship shares are surely its own. And when hunting, a lie that leaves
the other ships afloat no room counts for nothing. The fleets drawn to finish a wounded
ship agree with every answer, and the shooter never fires at a cell twice.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.ai_seabattle import EnemyField
from bot.ai import Seen
from bot.ai.seabattle import best_shot
from bot.ai.seabattle_explained import explanations, weighed_scores
from bot.ai.seabattle_grid import EMPTY, HIT, UNKNOWN, ShotGrid, hunt_density
from bot.ai.seabattle_sampling import FleetSampler, sampled_shot
from bot.catalog import player
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.seabattle.fleet import random_fleet
from bot.games.seabattle.rules import PRESETS, Touching

SIZE = 10


def index(cell: str) -> int:
    return (int(cell[1:]) - 1) * SIZE + ord(cell[0]) - ord("A")


def test_the_cells_every_line_of_a_sunk_ship_shares_are_explained() -> None:
    cells = [UNKNOWN] * SIZE * SIZE
    for cell in ("B1", "C1", "D1"):
        cells[index(cell)] = HIT
    # The destroyer (2) sank at C1: it was B1-C1 or C1-D1; C1 is surely its own.
    grid = ShotGrid.build(SIZE, cells, [5, 4, 3, 3, 2], [], [(index("C1"), 2)], Touching.ANY)
    assert grid.cells[index("C1")] == EMPTY
    assert grid.cells[index("B1")] == HIT and grid.cells[index("D1")] == HIT
    assert grid.afloat == (5, 4, 3, 3)


def test_a_sinking_with_one_line_explains_all_its_hits() -> None:
    cells = [UNKNOWN] * SIZE * SIZE
    for cell in ("B1", "C1", "D1"):
        cells[index(cell)] = HIT
    grid = ShotGrid.build(SIZE, cells, [5, 4, 3, 3, 2], [], [(index("D1"), 3)], Touching.ANY)
    assert [grid.cells[index(c)] for c in ("B1", "C1", "D1")] == [EMPTY] * 3


def test_a_lie_that_leaves_no_room_for_the_other_ships_counts_for_nothing() -> None:
    # Open water is one strip A1-G1; a carrier (5) and a destroyer (2) are afloat. The
    # carrier on B1-F1 would leave the destroyer nowhere, so it is not counted; nor are the
    # destroyer's lies that leave the carrier nowhere.
    cells = [EMPTY] * SIZE * SIZE
    strip = [index(f"{column}1") for column in "ABCDEFG"]
    for cell in strip:
        cells[cell] = UNKNOWN
    grid = ShotGrid(SIZE, tuple(cells), (5, 2), Touching.ANY)
    scores = hunt_density(grid)
    assert [scores[c] for c in strip] == pytest.approx(
        [1 / 2, 1 / 2, 1 / 3, 1 / 3, 1 / 3, 1 / 2, 1 / 2]
    )
    assert all(scores[c] == 0 for c in range(SIZE * SIZE) if c not in strip)


def shot_at_random(preset: str, seed: int, shots: int) -> ShotGrid:
    """The grid after ``shots`` random shots at a random fleet, answered as the game does."""
    rules = PRESETS[preset]
    dice = random.Random(f"situation:{preset}:{seed}")
    field = EnemyField(rules, random_fleet(rules, dice))
    for index in dice.sample(range(rules.size * rules.size), shots):
        if field.cells[index] == UNKNOWN and not field.sunk_all:
            field.shoot(index)
    return field.grid()


@pytest.mark.parametrize("preset", ["classic", "corners"])
@pytest.mark.parametrize("seed", range(6))
def test_every_fleet_drawn_agrees_with_every_answer(preset: str, seed: int) -> None:
    grid = shot_at_random(preset, seed, 25 + 5 * seed)
    assert HIT in grid.cells or seed < 2  # most situations leave a wounded ship
    sampler = FleetSampler(grid)
    dice = random.Random(seed)
    fleets = [found[0] for found in (sampler.draw(dice) for _ in range(60)) if found]
    assert fleets, "a consistent fleet exists (the true one), so some draw finds one"
    for fleet in fleets:
        assert sorted(lie.body.bit_count() for lie in fleet) == sorted(grid.afloat)
        covered = [cell for lie in fleet for cell in lie.cells]
        assert len(covered) == len(set(covered)), "ships do not overlap"
        assert all(grid.cells[cell] != EMPTY for cell in covered), "no ship on a miss"
        hits = {i for i, known in enumerate(grid.cells) if known == HIT}
        assert hits <= set(covered), "every hit is some ship's"
        for lie in fleet:
            assert not all(grid.cells[cell] == HIT for cell in lie.cells), "it would be sunk"
            others = [other for other in fleet if other is not lie]
            assert all(not other.body & lie.blocks for other in others), "ships keep apart"


@pytest.mark.parametrize("preset", ["classic", "corners", "milton-bradley"])
@pytest.mark.parametrize("seed", range(4))
def test_the_shooter_fires_only_at_cells_not_yet_shot(preset: str, seed: int) -> None:
    grid = shot_at_random(preset, seed, 30)
    dice = random.Random(seed)
    tie_break = [dice.random() for _ in grid.cells]
    assert grid.cells[best_shot(grid, tie_break, dice)] == UNKNOWN
    sampled = sampled_shot(grid, dice, tie_break)
    assert sampled is None or grid.cells[sampled] == UNKNOWN


def milton_bradley_grid(
    hits: list[str], misses: list[str], named: list[tuple[str, int, int]]
) -> ShotGrid:
    """A Milton Bradley grid; ``named`` gives each sinking's cell, length, and how many of
    ``hits`` (in order) had been hit by then."""
    cells = [UNKNOWN] * SIZE * SIZE
    for cell in hits:
        cells[index(cell)] = HIT
    for cell in misses:
        cells[index(cell)] = EMPTY
    sinkings = [(index(cell), length) for cell, length, _ in named]
    hit_then = [sum(1 << index(cell) for cell in hits[:count]) for _, _, count in named]
    return ShotGrid.build(SIZE, cells, [5, 4, 3, 3, 2], [], sinkings, Touching.ANY, hit_then)


def test_every_explanation_lays_each_hit_on_exactly_one_ship() -> None:
    # B1, C1 hit, then D1 sinks the submarine (3); E1 hit later.
    grid = milton_bradley_grid(["B1", "C1", "D1", "E1"], ["A1"], [("D1", 3, 3)])
    found = explanations(grid)
    # The submarine can only be B1-D1 (C1-E1 holds E1, hit after it sank): E1 is some
    # ship afloat's, laid through E1 alone, never over the wreck.
    assert found
    for (free, laid), _ in found.items():
        assert len(free) == 3
        assert laid  # the ship through E1 takes unknown cells
        assert not laid & sum(1 << index(c) for c in ("A1", "B1", "C1", "D1", "E1"))
    scores = weighed_scores(grid, found)
    best = max(range(SIZE * SIZE), key=lambda i: scores[i] if grid.cells[i] == UNKNOWN else -1)
    assert best in {index("F1"), index("E2")}, "it finishes the ship through E1"


def test_a_wounded_ship_sure_of_its_line_is_finished() -> None:
    # Only the destroyer (2) is afloat and one hit waits at A1 with B1 a miss: A2 is sure.
    grid = milton_bradley_grid(
        [
            "A1",
            "J1",
            "J2",
            "J3",
            "J4",
            "J5",
            "J7",
            "J8",
            "J9",
            "J10",
            "H1",
            "H2",
            "H3",
            "H4",
            "H5",
            "H6",
        ],
        ["B1"],
        [("J5", 5, 6), ("J10", 4, 10), ("H3", 3, 13), ("H6", 3, 16)],
    )
    assert grid.afloat == (2,)
    dice = random.Random(1)
    tie_break = [dice.random() for _ in grid.cells]
    assert best_shot(grid, tie_break, dice) == index("A2")


@pytest.mark.parametrize("options", ["salvo", "salvo blind-report", "salvo equal-rounds"])
def test_the_computer_fires_whole_salvos(options: str) -> None:
    """A salvo names as many cells as the shooter has ships afloat: both levels name
    exactly that many, all different and never shot before, until the game ends."""
    engine = ENGINES["seabattle"]
    rules = engine.configure("milton-bradley", options)
    state = engine.new_game(rules, 5)
    players = {0: player("seabattle", "strong"), 1: player("seabattle", "casual")}
    heard: dict[int, list[str]] = {0: [], 1: []}
    salvos = 0
    for ply in range(400):
        if engine.outcome(state) is not None:
            break
        seat = sorted(engine.view(state, None).movers)[0]
        view = engine.view(state, seat)
        text = players[seat].decide(Seen(rules, view, tuple(heard[seat]), 5, ply))
        if view.phase is Phase.PLAY:
            assert len(text.split()) == view.salvo_size
            salvos += 1
        transition = engine.act(state, seat, text)  # an illegal salvo raises here
        for audience in (0, 1):
            heard[audience].extend(e.text for e in transition.for_audience(audience))
        state = transition.state
    assert engine.outcome(state) is not None and salvos > 10
