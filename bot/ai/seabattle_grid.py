"""The Sea Battle shooter's knowledge: the enemy field as answered (``ShotGrid``), and the
ways each ship afloat could still lie on it, counted with the room each leaves the others.

Apart from the shooter (``bot.ai.seabattle``) so that the shooters built on it
(``bot.ai.seabattle_explained``, ``bot.ai.seabattle_sampling``) import it without importing
the shooter that calls them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.games.core import other
from bot.games.grid import parse_cell
from bot.games.seabattle.rules import SeaBattleRules, Touching
from bot.games.seabattle.view import Mark, SeaBattleView

_SANK = re.compile(r'^([A-Z]\d{1,2}): hit\. "You sank my (.+)!"')
"""How a sinking is answered where ships may touch: the cell and the ship's name only."""

_HIT = re.compile(r"^([A-Z]\d{1,2}): hit\b")
"""How every hit is answered, a sinking included: the order of hits tells which cells a
ship sunk by name could have been (those hit by then)."""

UNKNOWN, HIT, EMPTY = 0, 1, 2
"""What the shooter knows of one cell: nothing, a hit on a ship afloat, or nothing there."""

HIT_WEIGHT = 40.0
"""How much more a lie counts for each unexplained hit it passes through: high enough that
a wounded ship is always finished first, as any good player does."""


@dataclass(frozen=True)
class ShotGrid:
    """The shooter's whole knowledge: the enemy field as answered, and the ships afloat."""

    size: int
    cells: tuple[int, ...]
    """UNKNOWN, HIT or EMPTY per cell, row by row (index = row * size + column)."""
    afloat: tuple[int, ...]
    """The lengths of the enemy ships not yet sunk."""
    touching: Touching
    named: tuple[tuple[int, int, int], ...] = ()
    """The sinkings answered by name only (where ships may touch): the cell of the sinking
    shot, the ship's length, and the cells hit by then as a bit mask (the ship lies on them)."""
    hits: int | None = None
    """Every cell hit on a ship not drawn as a wreck, as a bit mask: ``cells`` sets aside the
    hits a ship sunk by name surely took, this keeps them (None: not known, as in a grid
    made up for weighing a fleet)."""

    @classmethod
    def of(cls, rules: SeaBattleRules, view: SeaBattleView, heard: Sequence[str]) -> ShotGrid:
        """The grid of ``view``'s enemy field; ``heard`` names the ships sunk where wrecks
        are not drawn (ships that may touch are answered "hit" and the ship's name only)."""
        enemy = view.fields[other(view.seat if view.seat is not None else 0)]
        size = view.size
        cells = []
        for row in range(size):
            for column in range(size):
                mark = enemy.mark((column, row))
                cells.append(UNKNOWN if mark is Mark.SEA else HIT if mark is Mark.HIT else EMPTY)
        sunk = [outline.kind.length for outline in enemy.ships if outline.sunk]
        lengths = {kind.name: kind.length for kind in rules.fleet}
        sinkings = []
        hit_later = []
        heard_hits: list[int] = []
        for text in heard:
            struck = _HIT.match(text)
            if struck:
                column, row = parse_cell(struck.group(1), size, size)
                heard_hits.append(row * size + column)
            told = _SANK.match(text)
            if told and told.group(2) in lengths:
                column, row = parse_cell(told.group(1), size, size)
                sinkings.append((row * size + column, lengths[told.group(2)]))
                hit_later.append(len(heard_hits))
        hit_then = []
        for count in hit_later:  # a cell first heard hit after a sinking was not that ship's
            later = set(heard_hits[count:]) - set(heard_hits[:count])
            hit_then.append(
                sum(1 << i for i, known in enumerate(cells) if known == HIT and i not in later)
            )
        return cls.build(
            size,
            cells,
            [k.length for k in rules.fleet],
            sunk,
            sinkings,
            rules.touching,
            hit_then,
        )

    @classmethod
    def build(
        cls,
        size: int,
        cells: list[int],
        fleet: Sequence[int],
        wrecks: Sequence[int],
        sinkings: Sequence[tuple[int, int]],
        touching: Touching,
        hit_then: Sequence[int] = (),
    ) -> ShotGrid:
        """The grid from the marks, the fleet, the drawn wrecks' lengths and the sinkings
        announced without a drawing (the cell of the sinking shot, the ship's length, and
        in ``hit_then`` the cells hit by then as a bit mask: every hit, where not given).

        A sinking announced without a drawing leaves its ship's cells as hits; the hits that
        lie on every straight line of hits of the ship's length through the sinking shot
        surely were that ship's, so they are explained and no longer draw the shooter.
        """
        hits = sum(1 << i for i, known in enumerate(cells) if known == HIT)
        named = tuple(
            (index, length, hit_then[number] if number < len(hit_then) else hits)
            for number, (index, length) in enumerate(sinkings)
        )
        afloat = Counter(fleet)
        afloat.subtract(wrecks)
        afloat.subtract(length for _, length in sinkings)
        for index, length in sinkings:
            lines = [
                body
                for body, _ in lies(size, length, touching)
                if index in body and all(cells[i] == HIT for i in body)
            ]
            if lines:  # the cells every such line shares surely belonged to the sunk ship
                for i in set(lines[0]).intersection(*lines[1:]):
                    cells[i] = EMPTY
        lengths = tuple(sorted(afloat.elements(), reverse=True))
        return cls(size, tuple(cells), lengths, touching, named, hits)


Lie = tuple[tuple[int, ...], tuple[int, ...]]
"""A ship's cells and its halo, as cell indices."""


@lru_cache(maxsize=64)
def lies(size: int, length: int, touching: Touching) -> tuple[Lie, ...]:
    """Every straight lie of a ship of ``length``: its cells and the cells it may not touch.

    The halo is where a hit would belong to this very ship if the rules forbid touching:
    all eight neighbours when ships may not touch at all, the four sides when corners may.
    """
    result: list[Lie] = []
    directions = ((1, 0), (0, 1)) if length > 1 else ((1, 0),)
    for row in range(size):
        for column in range(size):
            for dc, dr in directions:
                end_c, end_r = column + dc * (length - 1), row + dr * (length - 1)
                if end_c >= size or end_r >= size:
                    continue
                body = [(column + dc * i, row + dr * i) for i in range(length)]
                halo: set[tuple[int, int]] = set()
                if touching is not Touching.ANY:
                    diagonal = touching is Touching.NONE
                    for c, r in body:
                        for nc in (c - 1, c, c + 1):
                            for nr in (r - 1, r, r + 1):
                                if not (0 <= nc < size and 0 <= nr < size):
                                    continue
                                if not diagonal and nc != c and nr != r:
                                    continue
                                halo.add((nc, nr))
                    halo.difference_update(body)
                result.append(
                    (
                        tuple(r * size + c for c, r in body),
                        tuple(sorted(r * size + c for c, r in halo)),
                    )
                )
    return tuple(result)


def density(grid: ShotGrid) -> list[float]:
    """How many weighted lies of the ships afloat cover each cell not yet shot."""
    cells = grid.cells
    scores = [0.0] * len(cells)
    for length, count in Counter(grid.afloat).items():
        for body, halo in lies(grid.size, length, grid.touching):
            hits = 0
            for index in body:
                known = cells[index]
                if known == EMPTY:
                    break
                hits += known
            else:
                if hits == length:
                    continue  # a ship all of whose cells were hit would have been sunk
                if any(cells[index] == HIT for index in halo):
                    continue  # that hit would touch this ship, which the rules forbid
                weight = count * HIT_WEIGHT**hits
                for index in body:
                    if cells[index] == UNKNOWN:
                        scores[index] += weight
    return scores


def hunt_density(grid: ShotGrid) -> list[float]:
    """Like ``density`` when no hit waits to be explained, but each lie of a ship counts as
    often as the other ships afloat still fit beside it.

    Ships cannot overlap (nor touch, where the rules forbid it), so a lie that blocks many
    lies of the other ships is less likely than one that blocks few: each lie is weighed by
    the share of every other ship's lies it leaves open (a first-order correction of the
    independent count, cheap with bit masks of lies).
    """
    cells = grid.cells
    afloat = Counter(grid.afloat)
    open_lies: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
    blocked_by: dict[int, list[int]] = {}
    for length in afloat:
        fitting = [
            (body, halo)
            for body, halo in lies(grid.size, length, grid.touching)
            if all(cells[i] == UNKNOWN for i in body)
        ]
        open_lies[length] = fitting
        masks = [0] * len(cells)
        for number, (body, halo) in enumerate(fitting):
            bit = 1 << number
            for i in body:
                masks[i] |= bit
            for i in halo:
                masks[i] |= bit  # a lie whose halo holds this cell blocks it too
        blocked_by[length] = masks
    scores = [0.0] * len(cells)
    for length, count in afloat.items():
        for body, _ in open_lies[length]:
            weight = float(count)
            for other_length, other_count in afloat.items():
                total = len(open_lies[other_length])
                if not total:
                    continue
                masks = blocked_by[other_length]
                blocked = 0
                for i in body:
                    blocked |= masks[i]
                share = (total - blocked.bit_count()) / total
                weight *= share ** (other_count - (other_length == length))
            for i in body:
                scores[i] += weight
    return scores
