"""The Sea Battle computer: a probability-density shooter, and fleets that are hard to find.

The shooter reads only the enemy field of its view: which cells it shot and how each
answered (miss, hit, sunk, or known empty beside a wreck), the wrecks' outlines, and the
fleet it must still sink (the same fleet as its own, minus the wrecks). It works on that
shot grid alone, so a new mode of the game needs only its touching rule and fleet.

For every ship still afloat it counts the ways that ship could lie on the cells not yet
ruled out, weighting the lies that pass through unexplained hits heavily (so it finishes a
wounded ship before it hunts), and fires at the cell covered by the most lies. While it
hunts (no hit waiting), each lie counts by how much room it leaves the other ships afloat,
since ships may not overlap. A ship sunk where ships may touch is named but not drawn: the
hits that every possible line of it shares are set aside as its own. On the 10x10 board
where ships may touch (the Milton Bradley game) the shooter goes further and weighs every
way the ships could account for the hits (``bot.ai.seabattle_explained``), and once one
ship is left it looks ahead over every lie of it (``bot.ai.seabattle_last_ship``). A salvo
names the best cells one after another, each chosen as if the ones before it missed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.ai import seabattle_dutchman
from bot.ai.core import Seen
from bot.ai.generic import setup_move
from bot.ai.seabattle_explained import explained_shot
from bot.ai.seabattle_grid import EMPTY, HIT, UNKNOWN, ShotGrid, density, hunt_density
from bot.ai.seabattle_sampling import sampled_shot
from bot.games.core import Phase, other
from bot.games.grid import cell_name
from bot.games.seabattle.actions import PlaceFleet, PlaceShip
from bot.games.seabattle.fleet import Ship, random_fleet
from bot.games.seabattle.rules import SeaBattleRules, Touching
from bot.games.seabattle.view import Mark, SeaBattleView

SAMPLED_SIZE = 10
"""The largest board on which a wounded ship is finished with drawn fleets (see best_shot)."""


def best_shot(grid: ShotGrid, tie_break: Sequence[float], dice: random.Random | None = None) -> int:
    """The cell covered by the most lies; ``tie_break`` orders equal cells (from the dice).

    Given ``dice``, a wounded ship where ships may not touch even at corners is hunted
    down with whole fleets drawn to agree with every answer (``bot.ai.seabattle_sampling``):
    there the wrecks are drawn, so the grid is exact, and the halo every ship keeps decides
    much of where a wounded one can go. Where ships may touch (10x10), every explanation of
    the hits is weighed instead (``bot.ai.seabattle_explained``): drawn fleets there lose
    too much to their noise; with one ship left, the shot is chosen by playing greedy
    shooting forward over every lie of that ship (``bot.ai.seabattle_last_ship``). The
    15x15 fleet and the corner rule are left to the weighted count of lies until they are
    measured too (on 15x15 the draws would also take far longer than a shot may).
    """
    if grid.touching is Touching.ANY and grid.hits is not None and grid.size <= SAMPLED_SIZE:
        shot = explained_shot(grid, tie_break)
        if shot is not None:
            return shot
    wounded = HIT in grid.cells
    exact = grid.touching is Touching.NONE and grid.size <= SAMPLED_SIZE
    if dice is not None and wounded and exact:
        shot = sampled_shot(grid, dice, tie_break)
        if shot is not None:
            return shot
    scores = density(grid) if HIT in grid.cells else hunt_density(grid)
    candidates = [i for i, known in enumerate(grid.cells) if known == UNKNOWN]
    return max(candidates, key=lambda i: (scores[i], tie_break[i]))


class DensityShooter:
    """The strongest Sea Battle level: density shooting and a fleet placed to be hard to find."""

    def __init__(self, *, careful_fleet: bool = True) -> None:
        self.careful_fleet = careful_fleet

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, SeaBattleView)
        if view.phase is Phase.SETUP:
            return self.setup(seen)
        return shoot(seen, view, best_shot)

    def setup(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, SeaBattleView)
        own = view.fields[seen.seat]
        if not view.to_place and own.ships:
            return "ready"
        rules: SeaBattleRules = seen.rules
        if rules.free_form or rules.submarine or rules.mines or rules.sweepers:
            # Shaped ships, the submarine, mines and the Dutchman are laid by words a
            # straight-line fleet cannot say: the engine's own random legal setup lays them.
            return setup_move("seabattle", seen)
        dice = seen.dice("fleet")
        fleet = hidden_fleet(rules, dice) if self.careful_fleet else random_fleet(rules, dice)
        return str(PlaceFleet(tuple(PlaceShip(s.cells[0], s.cells[-1]) for s in fleet)))


CANDIDATE_FLEETS = 40
"""Random fleets weighed per setup: enough to find a quiet one, cheap enough to be instant."""


def hidden_fleet(rules: SeaBattleRules, dice: random.Random) -> tuple[Ship, ...]:
    """A legal fleet that a density shooter finds late: the least likely of some random ones.

    A shooter starts where most lies of the whole fleet cross (the middle of the board), so
    of several random fleets this keeps the one whose cells are crossed by the fewest lies,
    with a little randomness left so that a player cannot learn one fixed layout.
    """
    grid = ShotGrid(
        rules.size,
        (UNKNOWN,) * (rules.size * rules.size),
        tuple(kind.length for kind in rules.fleet),
        rules.touching,
    )
    prior = density(grid)
    best = None
    best_score = 0.0
    for _ in range(CANDIDATE_FLEETS):
        fleet = random_fleet(rules, dice)
        score = sum(prior[r * rules.size + c] for ship in fleet for c, r in ship.cells)
        score *= 1.0 + 0.05 * dice.random()
        if best is None or score < best_score:
            best, best_score = fleet, score
    assert best is not None
    return best


class CasualShooter:
    """The casual level: a random fleet; it finishes a wounded ship, otherwise shoots anywhere."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, SeaBattleView)
        if view.phase is Phase.SETUP:
            return DensityShooter(careful_fleet=False).setup(seen)
        return shoot(seen, view, casual_shot)


def casual_shot(grid: ShotGrid, tie_break: Sequence[float], dice: random.Random) -> int:
    """A wounded ship is finished as the density shooter would; otherwise any cell."""
    if HIT in grid.cells:
        return best_shot(grid, tie_break)
    return dice.choice([i for i, known in enumerate(grid.cells) if known == UNKNOWN])


Pick = Callable[[ShotGrid, Sequence[float], random.Random], int]
"""How a level chooses one cell: from the grid, the turn's tie-breaks and its dice."""


def shoot(seen: Seen, view: SeaBattleView, pick: Pick) -> str:
    """A turn of play: the move the mode owes, if any, else a shot or a salvo, each cell
    chosen by ``pick`` with the turn's dice (drawn in the same order by every level)."""
    owed = owed_move(seen)
    if owed is not None:
        return owed
    grid = ShotGrid.of(seen.rules, view, seen.heard)
    dice = seen.dice()
    tie_break = [dice.random() for _ in grid.cells]
    return aim(grid, view.salvo_size or 1, lambda grid: pick(grid, tie_break, dice))


def owed_move(seen: Seen) -> str | None:
    """The move a mode other than plain shooting asks for, if it does: a disclosure owed
    after a mine or a minesweeper (§4.6-4.7), a shot at an enemy ship cell disclosed to
    it (a sure hit), or any move in the Flying Dutchman (§5)."""
    view = seen.view
    assert isinstance(view, SeaBattleView)
    if view.choices:
        return "reveal " + cell_name(seen.dice("disclose").choice(sorted(view.choices)))
    enemy = view.fields[other(seen.seat)]
    disclosed = [
        (column, row)
        for row in range(view.size)
        for column in range(view.size)
        if enemy.mark((column, row)) is Mark.DISCLOSED
    ]
    if disclosed and not seen.rules.dutchman:  # a ship cell shown after a mine: sure to hit
        return cell_name(disclosed[0])
    if seen.rules.dutchman:
        return seabattle_dutchman.decide(seen)
    return None


def aim(grid: ShotGrid, shots: int, pick: Callable[[ShotGrid], int]) -> str:
    """The cells to fire at: one, or a salvo of ``shots`` named at once, each the one
    ``pick`` would choose next if every cell named before it missed."""
    chosen = []
    for _ in range(shots):
        index = pick(grid)
        chosen.append(cell_name((index % grid.size, index // grid.size)))
        cells = list(grid.cells)
        cells[index] = EMPTY
        hits = None if grid.hits is None else grid.hits & ~(1 << index)
        grid = replace(grid, cells=tuple(cells), hits=hits)
    return " ".join(chosen)
