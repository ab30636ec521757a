"""Fleet geometry: ship shapes, spacing and random placement (rules/sea-battle.md §2.2-2.4)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.games.core import IllegalActionError
from bot.games.grid import Cell, cell_name, neighbours
from bot.games.seabattle.rules import SeaBattleRules, ShipKind, Touching


@dataclass(frozen=True)
class Ship:
    """A placed ship: which entry of the rules' fleet it is, and its cells in order."""

    kind: int
    cells: tuple[Cell, ...]

    @property
    def span(self) -> str:
        """``B2-B4``, or ``J10`` for a one-cell ship: the placement notation."""
        if len(self.cells) == 1:
            return cell_name(self.cells[0])
        return f"{cell_name(self.cells[0])}-{cell_name(self.cells[-1])}"


def line_between(start: Cell, end: Cell) -> tuple[Cell, ...]:
    """The straight ship from ``start`` to ``end`` (§2.2), in reading order."""
    (c1, r1), (c2, r2) = sorted((start, end))
    if c1 != c2 and r1 != r2:
        raise IllegalActionError(
            f"{cell_name(start)} and {cell_name(end)} are not in one row or column: "
            "a ship is a straight line (rule 2.2)."
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


def check_new_ship(rules: SeaBattleRules, ships: Sequence[Ship], cells: tuple[Cell, ...]) -> int:
    """Which fleet entry a new ship on ``cells`` becomes; raises naming the rule it breaks."""
    lengths = sorted({kind.length for kind in rules.fleet}, reverse=True)
    free = [i for i in unplaced_kinds(rules, ships) if rules.fleet[i].length == len(cells)]
    if len(cells) not in lengths:
        listed = ", ".join(str(n) for n in lengths)
        raise IllegalActionError(
            f"No ship in this fleet has {len(cells)} cells; the ships have {listed} cells "
            "(rule 2.1)."
        )
    if not free:
        same = [kind for kind in rules.fleet if kind.length == len(cells)]
        raise IllegalActionError(
            f"Your fleet has only {describe_kinds(same)}, and all of them are placed (rule 2.1)."
        )
    check_spacing(rules, ships, cells)
    return free[0]


def check_spacing(rules: SeaBattleRules, ships: Sequence[Ship], cells: tuple[Cell, ...]) -> None:
    """Raise if ``cells`` overlap a ship or break the spacing rule (§2.3, §4.1)."""
    taken = {cell: ship for ship in ships for cell in ship.cells}
    for cell in cells:
        if cell in taken:
            owner = taken[cell]
            raise IllegalActionError(
                f"{cell_name(cell)} is already taken by your {rules.fleet[owner.kind].name} on "
                f"{owner.span}: ships may not overlap (rule 2.3)."
            )
    zone = spacing_zone(rules, cells)
    for cell in sorted(zone & set(taken)):
        neighbour = taken[cell]
        rule = (
            "ships may not touch, not even at a corner (rule 2.3)"
            if rules.touching is Touching.NONE
            else "ships may touch only at corners (rule 4.1)"
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
        if line_between(cells[0], cells[-1]) != cells:
            raise IllegalActionError("A stored ship is not a straight line.")
        if rules.fleet[ship.kind].length != len(cells):
            raise IllegalActionError("A stored ship has the wrong length for its kind.")
        check_spacing(rules, placed, cells)
        placed.append(ship)


def random_fleet(rules: SeaBattleRules, rng: random.Random) -> tuple[Ship, ...]:
    """A legal full fleet (§2.4), largest ships first, restarting when a ship finds no room."""
    order = sorted(range(len(rules.fleet)), key=lambda i: -rules.fleet[i].length)
    while True:
        ships: list[Ship] = []
        blocked: set[Cell] = set()
        for index in order:
            options = free_placements(rules, rules.fleet[index].length, blocked)
            if not options:
                break
            cells = rng.choice(options)
            ships.append(Ship(index, cells))
            blocked.update(cells)
            blocked.update(spacing_zone(rules, cells))
        else:
            return tuple(sorted(ships, key=lambda ship: ship.kind))


def free_placements(
    rules: SeaBattleRules, length: int, blocked: set[Cell]
) -> list[tuple[Cell, ...]]:
    """Every straight ship of ``length`` on the board that uses no ``blocked`` cell."""
    size = rules.size
    options: list[tuple[Cell, ...]] = []
    for column in range(size):
        for row in range(size):
            for dc, dr in ((1, 0), (0, 1)) if length > 1 else ((1, 0),):
                cells = tuple((column + dc * i, row + dr * i) for i in range(length))
                if cells[-1][0] < size and cells[-1][1] < size and blocked.isdisjoint(cells):
                    options.append(cells)
    return options
