"""The 12×18 Warships board as data (Warships rules §2).

Fields are ``(column, row)`` counted from 0, so ``A1`` is ``(0, 0)`` in the south-west corner
and row numbers grow northwards. North's half is the point image of South's (§2.1), so only
South's ports, walls and batteries are written out; North's are derived by ``mirror``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from functools import cache

from bot.games.grid import Cell, parse_cell

COLUMNS = 12
ROWS = 18


class Shore(IntEnum):
    """Which port a player defends: South plays from rows 1–4, North from rows 15–18."""

    SOUTH = 0
    NORTH = 1


def field(name: str) -> Cell:
    return parse_cell(name, COLUMNS, ROWS)


def fields(names: str) -> frozenset[Cell]:
    return frozenset(field(name) for name in names.split())


def block(first: str, last: str) -> frozenset[Cell]:
    (c0, r0), (c1, r1) = field(first), field(last)
    return frozenset((c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))


def mirror(cell: Cell) -> Cell:
    """The point image of a field (§2.1): A1 ↔ L18."""
    return COLUMNS - 1 - cell[0], ROWS - 1 - cell[1]


def mirrored(cells: Iterable[Cell]) -> frozenset[Cell]:
    return frozenset(mirror(cell) for cell in cells)


ISLAND = block("F9", "G10")
"""§2.3: not a field, walled on all sides."""
NEUTRAL = fields("G7 E8 F8 G8 E9 H9 E10 H10 F11 G11 H11 F12")
"""§2.4: the neutral waters around the island."""

_SOUTH_PORT = block("A1", "E4") | block("F1", "L2") | fields("K3 L3")
PORTS: tuple[frozenset[Cell], frozenset[Cell]] = (_SOUTH_PORT, mirrored(_SOUTH_PORT))
"""§2.2: each side's 36 port fields, by ``Shore``."""

_SOUTH_GUARDS = {field("C4"): fields("B4 D4"), field("J2"): fields("I2 K2")}
GUARDS: tuple[dict[Cell, frozenset[Cell]], dict[Cell, frozenset[Cell]]] = (
    _SOUTH_GUARDS,
    {mirror(exit_): mirrored(batteries) for exit_, batteries in _SOUTH_GUARDS.items()},
)
"""§2.2: each port's exits with the two battery fields that guard each one."""
EXITS = tuple(frozenset(guards) for guards in GUARDS)
BATTERY_FIELDS = tuple(frozenset().union(*guards.values()) for guards in GUARDS)
SETUP_FIELDS = tuple(PORTS[shore] - BATTERY_FIELDS[shore] for shore in Shore)
"""§5.2: the 32 port fields that take ships and mines at setup."""

_SOUTH_AREA = block("F3", "J3") | block("F4", "L4") | block("A5", "L6")
MANOEUVRE_AREAS = (_SOUTH_AREA, mirrored(_SOUTH_AREA))
"""§2.5: where initial manoeuvres (§15.3) may place ships."""

Edge = frozenset[Cell]


def _north_edges(names: str) -> set[Edge]:
    return {frozenset({c, (c[0], c[1] + 1)}) for c in fields(names)}


def _east_edges(names: str) -> set[Edge]:
    return {frozenset({c, (c[0] + 1, c[1])}) for c in fields(names)}


_SOUTH_WALLS = (
    _north_edges("A4 B4 D4 E4 F2 G2 H2 I2 K3 L3")
    | _east_edges("E3 E4 J3 B4 C4 I2 J2")  # J3|K3 and the four exit-channel walls
)
_ISLAND_WALLS = {
    frozenset({cell, (cell[0] + dc, cell[1] + dr)})
    for cell in ISLAND
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
}
WALLS: frozenset[Edge] = frozenset(
    _SOUTH_WALLS | {frozenset(mirror(c) for c in edge) for edge in _SOUTH_WALLS} | _ISLAND_WALLS
)
"""§2.3: every wall as the edge between two orthogonal neighbours (board edge excluded)."""


def is_field(cell: Cell) -> bool:
    """On the board and not the island (§8.2 a)."""
    column, row = cell
    return 0 <= column < COLUMNS and 0 <= row < ROWS and cell not in ISLAND


ALL_FIELDS = tuple(
    (column, row) for row in range(ROWS) for column in range(COLUMNS) if is_field((column, row))
)


def _wall(a: Cell, b: Cell) -> bool:
    return frozenset({a, b}) in WALLS


def step_open(start: Cell, end: Cell) -> bool:
    """Whether a king step from ``start`` to ``end`` crosses no wall (§8.2 a–b).

    A diagonal step is barred by any of the four wall segments meeting at the corner it
    crosses, so nothing slips past the end of a wall or the island (ruling 2).
    """
    if not is_field(end):
        return False
    (c0, r0), (c1, r1) = start, end
    if max(abs(c1 - c0), abs(r1 - r0)) != 1:
        return False
    if c0 == c1 or r0 == r1:
        return not _wall(start, end)
    side_a, side_b = (c1, r0), (c0, r1)
    return not (
        _wall(start, side_a) or _wall(start, side_b) or _wall(side_a, end) or _wall(side_b, end)
    )


def king_neighbours(cell: Cell) -> Iterator[Cell]:
    column, row = cell
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if dc or dr:
                yield column + dc, row + dr


@cache
def open_steps(cell: Cell) -> tuple[Cell, ...]:
    """The fields one legal step away as walls and the island allow (§8.2 a–b).

    The walls never change, so each field's answer is worked out once: move generation
    and the computer's maps ask it hundreds of thousands of times a game."""
    return tuple(near for near in king_neighbours(cell) if step_open(cell, near))


def zone(battery: Cell) -> frozenset[Cell]:
    """§11.1: the eight fields around a battery, on both sides of the wall."""
    return frozenset(near for near in king_neighbours(battery) if is_field(near))


def chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def shore_of_field(cell: Cell) -> Shore | None:
    """The port a field belongs to, if any."""
    return next((shore for shore in Shore if cell in PORTS[shore]), None)
