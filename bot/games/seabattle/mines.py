"""Mines and minesweepers (Sea Battle rules §4.6, §4.7): where they may lie, what a
shot on one does, and the disclosures they force.

A shot on a mine makes the shooter disclose one of their own ship cells to the mine's
owner; a shot on a minesweeper makes the shooter disclose one of their own untriggered
mines to the minesweeper's owner. The shooter chooses, so the game waits for that choice
(``pending``) like for any other move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.games.core import IllegalActionError
from bot.games.grid import Cell, cell_name, neighbours
from bot.games.seabattle.fleet import Ship
from bot.games.seabattle.rules import SeaBattleRules
from bot.games.words import with_article


@dataclass(frozen=True)
class Pending:
    """A disclosure owed: ``seat`` must name one of its ``what`` cells (``ship`` or
    ``mine``); then ``then`` is to shoot."""

    what: str
    seat: int
    then: int

    def to_json(self) -> list[object]:
        return [self.what, self.seat, self.then]

    @classmethod
    def from_json(cls, data: Sequence[object]) -> Pending:
        what, seat, then = data
        if not isinstance(seat, int) or not isinstance(then, int):
            raise ValueError("a pending disclosure names its seats by number")
        return cls(str(what), seat, then)


MINE = "mine"
SWEEPER = "minesweeper"


def touching(rules: SeaBattleRules, cell: Cell) -> set[Cell]:
    """The cell itself and, unless mines are free (§4.6), every cell touching it."""
    if rules.free_mines:
        return {cell}
    return {cell, *neighbours(cell, rules.size, rules.size, diagonal=True)}


def check_item(
    rules: SeaBattleRules,
    what: str,
    cell: Cell,
    ships: Iterable[Cell],
    mines: Iterable[Cell],
    sweepers: Iterable[Cell],
) -> None:
    """Raise, saying why, if a mine or minesweeper may not lie on ``cell`` (§4.6, §4.7):
    never on another piece, and unless mines are free, touching no ship and no mine (and,
    for a minesweeper, no other minesweeper)."""
    name = cell_name(cell)
    ship_cells, mine_cells, sweeper_cells = set(ships), set(mines), set(sweepers)
    if cell in ship_cells | mine_cells | sweeper_cells:
        raise IllegalActionError(f"{name} is already taken: pieces may not overlap.")
    if rules.free_mines:
        return
    zone = touching(rules, cell)
    for cells, things in (
        (ship_cells, "ships"),
        (mine_cells, "mines"),
        (sweeper_cells, "minesweepers"),
    ):
        if zone & cells:
            raise IllegalActionError(
                f"{with_article(what).capitalize()} on {name} would touch one of your {things}: "
                "mines and minesweepers touch nothing."
            )


def blocked_for_ships(
    rules: SeaBattleRules, mines: Iterable[Cell], sweepers: Iterable[Cell]
) -> set[Cell]:
    """Cells a ship may not use because of mines and minesweepers already placed."""
    blocked: set[Cell] = set()
    for cell in (*mines, *sweepers):
        blocked |= touching(rules, cell)
    return blocked


def validate_items(
    rules: SeaBattleRules,
    ships: Sequence[Ship],
    mines: Sequence[Cell],
    sweepers: Sequence[Cell],
) -> None:
    """Re-check stored mines and minesweepers as if laid one by one after the ships."""
    if len(mines) > rules.mines or len(sweepers) > rules.sweepers:
        raise IllegalActionError("A stored side has more mines or minesweepers than allowed.")
    ship_cells = [cell for ship in ships for cell in ship.cells]
    for index, cell in enumerate(mines):
        check_item(rules, MINE, cell, ship_cells, mines[:index], sweepers)
    for index, cell in enumerate(sweepers):
        check_item(rules, SWEEPER, cell, ship_cells, mines, sweepers[:index])
