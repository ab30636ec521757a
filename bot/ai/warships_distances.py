"""Distances on the Warships board for the computer: steps around the walls, in port and at sea.

Every plan of the admiral is a distance: how deep in port a field is, how far a ship is
from its prey, from the enemy's batteries or from home, and how far an enemy token's fire
may reach. Each is a breadth-first walk over the open steps of the board (walls respected).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from bot.games.grid import Cell
from bot.games.warships import board
from bot.games.warships.board import Shore


def port_depth(shore: Shore, exits: Iterable[Cell] | None = None) -> dict[Cell, int]:
    """Steps from each port field to the nearest exit (or the nearest of ``exits``),
    inside the port (walls respected)."""
    port = board.PORTS[shore]
    depth = {exit_: 0 for exit_ in (board.EXITS[shore] if exits is None else exits)}
    queue = deque(depth)
    while queue:
        cell = queue.popleft()
        for near in board.open_steps(cell):
            if near in port and near not in depth:
                depth[near] = depth[cell] + 1
                queue.append(near)
    return depth


def distances(
    sources: Iterable[Cell], passable: frozenset[Cell] | set[Cell], limit: int = 40
) -> dict[Cell, int]:
    """Steps from every passable field to the nearest source (walls respected)."""
    found = {cell: 0 for cell in sources}
    queue = deque(found)
    while queue:
        cell = queue.popleft()
        steps = found[cell] + 1
        if steps > limit:
            continue
        for near in board.open_steps(cell):
            if near not in found and near in passable:
                found[near] = steps
                queue.append(near)
    return found


def gain(distances: dict[Cell, int], start: Cell, end: Cell) -> float:
    before = distances.get(start, 30)
    after = distances.get(end, 30)
    return float(before - after)
