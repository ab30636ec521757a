"""Fleet geometry: ship shapes, spacing and random placement (Sea Battle rules §2.2-2.4)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.games.core import IllegalActionError
from bot.games.grid import Cell, cell_name, neighbours
from bot.games.seabattle.rules import SeaBattleRules, ShipKind, Touching
from bot.games.words import with_article


@dataclass(frozen=True)
class Ship:
    """A placed ship: which entry of the rules' fleet it is, and its cells in order."""

    kind: int
    cells: tuple[Cell, ...]

    @property
    def straight(self) -> bool:
        return is_straight(self.cells)

    @property
    def span(self) -> str:
        """``B2-B4``, ``J10`` for a one-cell ship, ``A1 A2 B2`` for a shaped one (§4.4)."""
        if len(self.cells) == 1:
            return cell_name(self.cells[0])
        if not self.straight:
            return " ".join(cell_name(cell) for cell in self.cells)
        return f"{cell_name(self.cells[0])}-{cell_name(self.cells[-1])}"


def reading_order(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Cells sorted row by row, left to right: the one order a ship's cells are kept in."""
    return tuple(sorted(set(cells), key=lambda cell: (cell[1], cell[0])))


def is_straight(cells: Sequence[Cell]) -> bool:
    """Whether ``cells`` (in reading order) are one unbroken row or column (§2.2)."""
    if not cells:
        return False
    (c1, r1), (c2, r2) = cells[0], cells[-1]
    return (c1 == c2 or r1 == r2) and line_between(cells[0], cells[-1]) == tuple(cells)


def shape_name(cells: Sequence[Cell]) -> str:
    """``straight``, ``L``, ``square``, ``zigzag``, ``T`` or ``other`` (§4.4)."""
    if is_straight(cells):
        return "straight"
    cellset = set(cells)
    if not _side_connected(cellset):
        return "other"
    if len(cells) == 3:
        return "L"  # the only side-connected three cells that are not a line
    if len(cells) != 4:
        return "other"
    columns = {c for c, _ in cells}
    rows = {r for _, r in cells}
    if len(columns) == len(rows) == 2:
        return "square"
    # Four cells in a 3x2 box: lay the box flat, then count the cells in each of its rows.
    flat = [(c, r) if len(columns) == 3 else (r, c) for c, r in cells]
    low = min(r for _, r in flat)
    top = sorted(c for c, r in flat if r == low)
    bottom = sorted(c for c, r in flat if r != low)
    if len(top) == len(bottom) == 2:
        return "zigzag"
    single = (top if len(top) == 1 else bottom)[0]
    middle = min(c for c, _ in flat) + 1
    return "T" if single == middle else "L"


def _side_connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        c, r = todo.pop()
        for near in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen == cells


SHAPES_BY_LENGTH: dict[int, frozenset[str]] = {
    3: frozenset({"straight", "L"}),
    4: frozenset({"straight", "L", "square", "zigzag"}),
}
"""§4.4: the shapes a ship of each length may take; other lengths stay straight."""


def allowed_shapes(rules: SeaBattleRules, length: int) -> frozenset[str]:
    if not rules.shapes:
        return frozenset({"straight"})
    return SHAPES_BY_LENGTH.get(length, frozenset({"straight"}))


def check_shape(rules: SeaBattleRules, cells: tuple[Cell, ...]) -> None:
    """Raise, saying why, if ``cells`` are not a shape this fleet's ships may take."""
    if rules.dutchman:
        if not king_connected(cells):
            raise IllegalActionError(
                "The ship's cells must form one group, each joined to another by a side or a "
                "corner."
            )
        return
    shape = shape_name(cells)
    if shape in allowed_shapes(rules, len(cells)):
        return
    if not rules.shapes:
        raise IllegalActionError(
            f"{' '.join(cell_name(c) for c in cells)} is not a straight line: a ship is a "
            "straight line. List a ship by its two end cells, like `A1 A4`."
        )
    allowed = " or ".join(sorted(allowed_shapes(rules, len(cells))))
    raise IllegalActionError(
        f"A ship of {len(cells)} cells here must be {allowed}, and "
        f"{' '.join(cell_name(c) for c in cells)} is "
        + ("not joined by sides" if shape == "other" else with_article(shape))
        + "."
    )


def line_between(start: Cell, end: Cell) -> tuple[Cell, ...]:
    """The straight ship from ``start`` to ``end`` (§2.2), in reading order."""
    (c1, r1), (c2, r2) = sorted((start, end))
    if c1 != c2 and r1 != r2:
        raise IllegalActionError(
            f"{cell_name(start)} and {cell_name(end)} are not in one row or column: "
            "a ship is a straight line."
        )
    if c1 == c2:
        return tuple((c1, r) for r in range(r1, r2 + 1))
    return tuple((c, r1) for c in range(c1, c2 + 1))


def describe_kinds(kinds: Iterable[ShipKind]) -> str:
    """``1 cruiser (3 cells) and 2 torpedo boats (1 cell)``."""
    counts: dict[ShipKind, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    parts = [
        f"{count} {kind.name}{'s' if count > 1 else ''} "
        f"({kind.length} cell{'s' if kind.length > 1 else ''})"
        for kind, count in counts.items()
    ]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def unplaced_kinds(rules: SeaBattleRules, ships: Sequence[Ship]) -> list[int]:
    placed = {ship.kind for ship in ships}
    return [index for index in range(len(rules.fleet)) if index not in placed]


def spacing_zone(rules: SeaBattleRules, cells: Iterable[Cell]) -> set[Cell]:
    """Cells another ship may not use next to ``cells`` (§2.3, §4.1); empty under §4.2."""
    if rules.touching is Touching.ANY:
        return set()
    diagonal = rules.touching is Touching.NONE
    zone: set[Cell] = set()
    for cell in cells:
        zone.update(neighbours(cell, rules.size, rules.size, diagonal=diagonal))
    return zone


def check_new_ship(
    rules: SeaBattleRules, ships: Sequence[Ship], cells: tuple[Cell, ...], submarine: bool = False
) -> int:
    """Which fleet entry a new ship on ``cells`` becomes; raises saying which rule it breaks.

    The §4.8 submarine is placed only when asked for (``sub J10``): a one-cell ship is a
    torpedo boat otherwise."""
    if submarine:
        return _check_submarine(rules, ships, cells)
    lengths = sorted({kind.length for kind in rules.fleet}, reverse=True)
    free = [
        i
        for i in unplaced_kinds(rules, ships)
        if rules.fleet[i].length == len(cells) and i != rules.submarine_kind
    ]
    if len(cells) not in lengths:
        listed = ", ".join(str(n) for n in lengths)
        raise IllegalActionError(
            f"No ship in this fleet has {len(cells)} cells; the ships have {listed} cells."
        )
    if not free:
        same = [
            kind
            for i, kind in enumerate(rules.fleet)
            if kind.length == len(cells) and i != rules.submarine_kind
        ]
        hint = " The submarine is placed as `sub J10`." if rules.submarine else ""
        raise IllegalActionError(
            f"Your fleet has only {describe_kinds(same)}, and all of them are placed.{hint}"
        )
    if len(set(cells)) != len(cells):
        twice = next(cell_name(c) for c in cells if cells.count(c) > 1)
        raise IllegalActionError(f"You named {twice} twice: a ship's cells are all different.")
    check_shape(rules, cells)
    check_spacing(rules, ships, cells)
    return free[0]


def _check_submarine(rules: SeaBattleRules, ships: Sequence[Ship], cells: tuple[Cell, ...]) -> int:
    kind = rules.submarine_kind
    if kind is None:
        raise IllegalActionError("This game has no submarine.")
    if len(cells) != 1:
        raise IllegalActionError("The submarine is one cell: write `sub J10`.")
    if any(ship.kind == kind for ship in ships):
        raise IllegalActionError("Your submarine is placed; `remove` it to move it.")
    check_spacing(rules, ships, cells, kind)
    return kind


def check_spacing(
    rules: SeaBattleRules, ships: Sequence[Ship], cells: tuple[Cell, ...], kind: int | None = None
) -> None:
    """Raise if ``cells`` overlap a ship or break the spacing rule (§2.3, §4.1). The §4.8
    submarine (``kind``, or a placed one) may touch any ship; it only may not overlap."""
    taken = {cell: ship for ship in ships for cell in ship.cells}
    for cell in cells:
        if cell in taken:
            owner = taken[cell]
            raise IllegalActionError(
                f"{cell_name(cell)} is already taken by your {rules.fleet[owner.kind].name} on "
                f"{owner.span}: ships may not overlap."
            )
    if kind is not None and kind == rules.submarine_kind:
        return
    zone = spacing_zone(rules, cells)
    for cell in sorted(zone & set(taken)):
        neighbour = taken[cell]
        if neighbour.kind == rules.submarine_kind:
            continue
        rule = (
            "ships may not touch, not even at a corner"
            if rules.touching is Touching.NONE
            else "ships may touch only at corners"
        )
        raise IllegalActionError(
            f"That ship would touch your {rules.fleet[neighbour.kind].name} on "
            f"{neighbour.span}: {rule}."
        )


def validate_fleet(rules: SeaBattleRules, ships: Sequence[Ship]) -> None:
    """Re-check a stored fleet; raises IllegalActionError on the first fault.

    Each ship keeps the fleet entry it was stored as (two kinds may share a length, like
    the Milton Bradley cruiser and submarine), so kinds are checked, not re-derived.
    """
    placed: list[Ship] = []
    for ship in ships:
        cells = ship.cells
        if not 0 <= ship.kind < len(rules.fleet) or ship.kind in {s.kind for s in placed}:
            raise IllegalActionError("A stored ship does not match the fleet.")
        if not cells or any(not (0 <= c < rules.size and 0 <= r < rules.size) for c, r in cells):
            raise IllegalActionError("A stored ship lies off the board.")
        if reading_order(cells) != cells or len(set(cells)) != len(cells):
            raise IllegalActionError("A stored ship's cells are out of order.")
        if rules.dutchman:  # §5.4: it loses decks, and may be left in pieces
            if len(cells) > rules.fleet[0].length:
                raise IllegalActionError("A stored Flying Dutchman has too many decks.")
            continue
        check_shape(rules, cells)
        if rules.fleet[ship.kind].length != len(cells):
            raise IllegalActionError("A stored ship has the wrong length for its kind.")
        check_spacing(rules, placed, cells, ship.kind)
        placed.append(ship)


def random_fleet(rules: SeaBattleRules, rng: random.Random) -> tuple[Ship, ...]:
    """A legal full fleet (§2.4), largest ships first, restarting when a ship finds no room."""
    if rules.dutchman:
        return (Ship(0, random_group(rules.size, rules.fleet[0].length, rng)),)
    order = sorted(range(len(rules.fleet)), key=lambda i: -rules.fleet[i].length)
    while True:
        ships: list[Ship] = []
        blocked: set[Cell] = set()
        taken: set[Cell] = set()
        for index in order:
            submarine = index == rules.submarine_kind  # §4.8: it may touch any ship
            room = taken if submarine else blocked
            options = free_placements(rules, rules.fleet[index].length, room)
            if not options:
                break
            cells = rng.choice(options)
            ships.append(Ship(index, cells))
            taken.update(cells)
            blocked.update(cells)
            if not submarine:
                blocked.update(spacing_zone(rules, cells))
        else:
            return tuple(sorted(ships, key=lambda ship: ship.kind))


def free_placements(
    rules: SeaBattleRules, length: int, blocked: set[Cell]
) -> list[tuple[Cell, ...]]:
    """Every ship of ``length`` on the board, in every shape it may take, that uses no
    ``blocked`` cell; each as its cells in reading order."""
    size = rules.size
    options: list[tuple[Cell, ...]] = []
    for pattern in shape_patterns(length, rules.shapes):
        width = max(c for c, _ in pattern) + 1
        height = max(r for _, r in pattern) + 1
        for row in range(size - height + 1):
            for column in range(size - width + 1):
                cells = tuple((column + c, row + r) for c, r in pattern)
                if blocked.isdisjoint(cells):
                    options.append(cells)
    return options


@lru_cache(maxsize=16)
def shape_patterns(length: int, shapes: bool) -> tuple[tuple[Cell, ...], ...]:
    """Every distinct placement pattern of a ship of ``length``, anchored at (0, 0), in
    every rotation and reflection of every shape it may take (§2.2, §4.4)."""
    straight = (tuple((i, 0) for i in range(length)), tuple((0, i) for i in range(length)))
    patterns = dict.fromkeys(straight if length > 1 else straight[:1])
    allowed = SHAPES_BY_LENGTH.get(length, frozenset()) if shapes else frozenset()
    if allowed - {"straight"}:
        for cells in _polyominoes(length):
            if shape_name(cells) in allowed:
                patterns[cells] = None
    return tuple(patterns)


def _polyominoes(length: int) -> set[tuple[Cell, ...]]:
    """Every side-connected set of ``length`` cells, shifted to touch (0, 0)'s row and
    column, in reading order."""
    found: set[tuple[Cell, ...]] = {((0, 0),)}
    for _ in range(length - 1):
        grown: set[tuple[Cell, ...]] = set()
        for cells in found:
            for c, r in cells:
                for near in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                    if near not in cells:
                        grown.add(_normalised((*cells, near)))
        found = grown
    return found


def _normalised(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    left = min(c for c, _ in cells)
    top = min(r for _, r in cells)
    return reading_order((c - left, r - top) for c, r in cells)


def king_connected(cells: Sequence[Cell]) -> bool:
    """Whether ``cells`` form one group joined through sides or corners (§5.2)."""
    group = set(cells)
    if not group:
        return False
    start = next(iter(group))
    seen, todo = {start}, [start]
    while todo:
        c, r = todo.pop()
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                near = (c + dc, r + dr)
                if near in group and near not in seen:
                    seen.add(near)
                    todo.append(near)
    return seen == group


def random_group(size: int, decks: int, rng: random.Random) -> tuple[Cell, ...]:
    """A random group of ``decks`` cells joined through sides or corners (§5.2)."""
    cells = [(rng.randrange(size), rng.randrange(size))]
    while len(cells) < decks:
        c, r = rng.choice(cells)
        near = (c + rng.choice((-1, 0, 1)), r + rng.choice((-1, 0, 1)))
        if near not in cells and 0 <= near[0] < size and 0 <= near[1] < size:
            cells.append(near)
    return reading_order(cells)
