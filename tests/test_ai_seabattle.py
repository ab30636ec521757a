"""The Sea Battle shooter's reasoning, on small hand-made fields.

Where ships may touch, a sinking is answered with the ship's name only: the hits every
possible line of that ship shares are surely its own. And when hunting, a lie that leaves
the other ships afloat no room counts for nothing.
"""

from __future__ import annotations

import pytest

from bot.ai.seabattle import EMPTY, HIT, UNKNOWN, ShotGrid, hunt_density
from bot.games.seabattle.rules import Touching

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
