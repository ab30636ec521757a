"""Where ships may touch: every way the ships could account for the hits, weighed.

In the Milton Bradley game a sinking is answered with the ship's name only and its wreck
is not drawn, so a cluster of hits may hold a sunk ship in several places, and a hit may
be a sunk ship's or a wounded one's. This module reasons as a careful player does: it
lists every *explanation* of the hits, that is every way to lay

- each ship sunk by name on a straight line through the shot that sank it, on cells all
  hit by then, and
- some of the ships afloat through the hits left over, none of them on a miss nor all hit
  (it would have been sunk),

so that every hit is exactly one ship's (ships may touch, never overlap). The ships not
used by an explanation must still lie somewhere on the cells never shot and not taken, so
an explanation is as likely as the ways it leaves them to lie: the product, over those
ships, of their lies in that water. A cell is then as likely to hold a ship as the weighed
explanations that put one there, by a ship laid to explain a hit or by the free ships'
share of their lies over it. The shooter fires at the likeliest cell.

Explanations that leave the same water to the same free ships are weighed together, so a
sunk ship that could lie in several places costs nothing more than counting them. Where
one water alone remains (hunting, every hit surely explained), the free ships are counted
with the room each lie leaves the others (``bot.ai.seabattle_grid.hunt_density``). With one ship
left, the weighed explanations are the weighed lies of that ship, and the shot is chosen by
playing the game forward over all of them (``bot.ai.seabattle_last_ship``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from bot.ai.seabattle_grid import EMPTY, UNKNOWN, ShotGrid, hunt_density, lies
from bot.ai.seabattle_last_ship import Lies, last_ship_shot
from bot.games.seabattle.rules import Touching

MAX_STEPS = 20_000
"""Steps of the listing before the shooter gives up on it (a rare tangle of hits); it then
falls back on the weighted count of lies."""

MAX_WATERS = 400
"""Waters counted one by one at most (about 20 ms); past that (a few scattered hits early in
a game leave thousands) the free ships are counted once for all of them."""

Water = tuple[tuple[int, ...], int]
"""The free ships' lengths and the cells laid ships took from the unknown water (a mask)."""


@lru_cache(maxsize=16)
def line_masks(size: int, length: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every straight lie of a ship of ``length`` as a bit mask and its cells."""
    return tuple((sum(1 << i for i in body), body) for body, _ in lies(size, length, Touching.ANY))


class TooTangled(Exception):
    """The listing took more than MAX_STEPS steps."""


def explanations(grid: ShotGrid) -> dict[Water, float]:
    """The ways the hits can be explained, gathered by the water they leave: how many
    explanations (ships told apart by name) leave each."""
    assert grid.hits is not None
    size = grid.size
    hits = grid.hits
    empty = sum(1 << i for i, known in enumerate(grid.cells) if known == EMPTY) & ~hits
    unknown = ((1 << size * size) - 1) & ~hits & ~empty
    afloat = Counter(grid.afloat)
    sunk_lines = _sunk_lines(grid)
    through = _lines_through_hits(size, afloat, hits, empty)
    found: dict[Water, float] = {}
    steps = 0

    def step() -> None:
        nonlocal steps
        steps += 1
        if steps > MAX_STEPS:
            raise TooTangled

    def cover(taken: int, laid: int, ways: float) -> None:
        step()
        uncovered = hits & ~taken
        if not uncovered:
            key = (tuple(sorted(afloat.elements(), reverse=True)), laid)
            found[key] = found.get(key, 0.0) + ways
            return
        cell = (uncovered & -uncovered).bit_length() - 1
        for length, count in list(afloat.items()):
            if not count:
                continue
            for mask in through.get((cell, length), ()):
                if mask & taken:
                    continue
                afloat[length] -= 1
                cover(taken | mask, laid | (mask & unknown), ways * count)
                afloat[length] += 1

    def place_sunk(number: int, taken: int) -> None:
        if number == len(sunk_lines):
            cover(taken, 0, 1.0)
            return
        for mask in sunk_lines[number]:
            step()
            if not mask & taken:
                place_sunk(number + 1, taken | mask)

    place_sunk(0, 0)
    return found


def _sunk_lines(grid: ShotGrid) -> list[list[int]]:
    """For each ship sunk but not drawn, the lines it may have lain on: through the cell
    that sank it, on cells that were hits then; the most constrained ship first."""
    sunk_lines = []
    for cell, length, then in grid.named:
        options = [
            mask
            for mask, _ in line_masks(grid.size, length)
            if mask >> cell & 1 and not mask & ~then
        ]
        sunk_lines.append(options)
    sunk_lines.sort(key=len)
    return sunk_lines


def _lines_through_hits(
    size: int, lengths: Iterable[int], hits: int, empty: int
) -> dict[tuple[int, int], list[int]]:
    """Per (hit cell, length), the lines of a ship afloat through that hit: on no empty
    cell, and not all hits (a ship all hit would be sunk)."""
    through: dict[tuple[int, int], list[int]] = {}
    for length in lengths:
        for mask, body in line_masks(size, length):
            if mask & empty or not mask & ~hits:
                continue
            for cell in body:
                if hits >> cell & 1:
                    through.setdefault((cell, length), []).append(mask)
    return through


def free_share(size: int, lengths: Sequence[int], water: int) -> tuple[float, list[float]]:
    """How many ways ``lengths`` can lie in ``water`` (each counted on its own, as if the
    others were not there), and how many of them, on average, cover each cell."""
    ways = 1.0
    cover = [0.0] * (size * size)
    for length, count in Counter(lengths).items():
        fitting = [body for mask, body in line_masks(size, length) if not mask & ~water]
        if not fitting:
            return 0.0, cover
        ways *= float(len(fitting)) ** count
        share = count / len(fitting)
        for body in fitting:
            for cell in body:
                cover[cell] += share
    return ways, cover


def explained_shot(grid: ShotGrid, tie_break: Sequence[float]) -> int | None:
    """The shot the weighed explanations of the hits call for; None where the hits are too
    tangled to list (see MAX_STEPS). ``tie_break`` orders equally likely cells."""
    try:
        found = explanations(grid)
    except TooTangled:
        return None
    if not found:
        return None
    if len(grid.afloat) == 1:
        last = last_ship_lies(grid, found)
        return last_ship_shot(last, tie_break) if last else None
    scores = weighed_scores(grid, found)
    unknown = unknown_water(grid)
    candidates = [i for i in range(grid.size * grid.size) if unknown >> i & 1]
    return max(candidates, key=lambda i: (scores[i], tie_break[i]))


def unknown_water(grid: ShotGrid) -> int:
    """The cells never shot, as a bit mask."""
    unknown = sum(1 << i for i, known in enumerate(grid.cells) if known == UNKNOWN)
    return unknown & ~(grid.hits or 0)


def last_ship_lies(grid: ShotGrid, found: dict[Water, float]) -> Lies:
    """The last ship's possible lies, each as the cells it still needs, weighed by the
    explanations that put it there: laid through hits by one, or free in the water."""
    (length,) = grid.afloat
    unknown = unknown_water(grid)
    weights: dict[int, float] = {}
    for (free, laid), count in found.items():
        if not free:  # laid through hits: the cells it still needs are its unknown ones
            weights[laid] = weights.get(laid, 0.0) + count
            continue
        water = unknown & ~laid
        for mask, _ in line_masks(grid.size, length):
            if not mask & ~water:
                weights[mask] = weights.get(mask, 0.0) + count
    return list(weights.items())


def weighed_scores(grid: ShotGrid, found: dict[Water, float]) -> list[float]:
    """How likely each cell is to hold a ship, from the explanations ``found``."""
    size = grid.size
    cells = size * size
    unknown = unknown_water(grid)
    if len(found) == 1:
        ((free, laid),) = found
        if laid:  # every explanation lays a ship there: a sure hit
            return [float(laid >> i & 1) for i in range(cells)]
        water = tuple(UNKNOWN if unknown >> i & 1 else EMPTY for i in range(cells))
        return hunt_density(ShotGrid(size, water, free, grid.touching))
    if len(found) > MAX_WATERS:
        return many_waters_scores(size, found, unknown)
    scores = [0.0] * cells
    for (free, laid), count in found.items():
        ways, cover = free_share(size, free, unknown & ~laid)
        weight = count * ways
        if not weight:
            continue
        for i in range(cells):
            scores[i] += weight * (cover[i] + (laid >> i & 1))
    return scores


def many_waters_scores(size: int, found: dict[Water, float], unknown: int) -> list[float]:
    """Like ``weighed_scores`` where the explanations leave too many waters to count the
    free ships in each: they are counted once in all the unknown water instead (the cells
    laid ships take shrink it little), so each explanation costs only its own cells."""
    scores = [0.0] * (size * size)
    shares = {free: free_share(size, free, unknown) for free in {free for free, _ in found}}
    weight_of_free: dict[tuple[int, ...], float] = {}
    for (free, laid), count in found.items():
        weight = count * shares[free][0]
        weight_of_free[free] = weight_of_free.get(free, 0.0) + weight
        while laid:
            cell = (laid & -laid).bit_length() - 1
            scores[cell] += weight
            laid &= laid - 1
    for free, weight in weight_of_free.items():
        cover = shares[free][1]
        for i, share in enumerate(cover):
            scores[i] += weight * share
    return scores
