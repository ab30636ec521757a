"""What one audience may know of a Sea Battle game (Sea Battle rules §3).

Views are the only thing renderers, messages and autocomplete ever see.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.games.core import Outcome, Phase
from bot.games.grid import Cell, cell_name, column_letter
from bot.games.seabattle.rules import ShipKind
from bot.games.setup import seats_to_move


class Mark(Enum):
    """One cell of a field as the viewer knows it. The value is its text-twin character."""

    SEA = "."  # nothing known, or the owner's own open water
    SHIP = "#"  # an intact ship cell: the owner's own, or any ship once the game is over
    MISS = "o"
    HIT = "x"  # a hit on a ship still afloat
    SUNK = "X"  # a cell of a sunk ship
    CLEAR = "-"  # known empty because a sunk ship's spacing proves it (§2.9)
    SHOT = "?"  # shot in a blind-report salvo (§4.3): what it hit is not told
    MINE = "*"  # the owner's own mine, not set off (§4.6)
    SWEEPER = "^"  # the owner's own minesweeper, not struck (§4.7)
    MINE_HIT = "m"  # a mine that a shot set off: spent
    SWEEPER_HIT = "w"  # a minesweeper that a shot struck: spent
    DISCLOSED = "!"  # an enemy ship cell disclosed to the viewer after a mine (§4.6)
    KNOWN_MINE = "@"  # an enemy mine disclosed to the viewer after a minesweeper (§4.7)

    # Each mark is one object for good, so its identity is its hash: a field's hundreds
    # of marks are hashed whenever a board looks up its cached drawing, and ``Enum``'s
    # own hash is a Python call per mark.
    __hash__ = object.__hash__


Report = tuple[tuple[str, int], ...]
"""A blind salvo report (§4.3): how many hits each ship, by name, took; empty if none."""


def report_text(report: Report) -> str:
    """``2 hits: 1 on the carrier, 1 on the cruiser.`` or ``no hits.``"""
    total = sum(n for _, n in report)
    if not total:
        return "no hits."
    each = ", ".join(f"{n} on the {name}" for name, n in report)
    return f"{total} hit{'s' if total != 1 else ''}: {each}."


@dataclass(frozen=True)
class ShipOutline:
    """A ship the viewer may see whole: their own, a sunk one, or any at the end."""

    kind: ShipKind
    cells: tuple[Cell, ...]
    sunk: bool


@dataclass(frozen=True)
class FieldView:
    """One player's field: ``owner``'s ships and the opponent's shots at them."""

    owner: int
    marks: tuple[tuple[Mark, ...], ...]
    """Rows top to bottom, columns left to right."""
    ships: tuple[ShipOutline, ...]
    last_shot: Cell | None
    afloat: int
    """How many of ``owner``'s ships are not sunk: public, since sinkings are announced."""
    last_salvo: tuple[Cell, ...] = ()
    """Salvo (§4.3): every cell of the last salvo at this field, ringed like a last shot."""
    salvo_numbers: tuple[tuple[Cell, int], ...] = ()
    """Blind-report Salvo (§4.3): each shot cell with the number of the salvo that named it."""
    reports: tuple[Report, ...] = ()
    """Blind-report Salvo: the answer each salvo at this field received, in order."""
    disclosed: tuple[Cell, ...] = ()
    """§4.6-4.7: cells the owner has disclosed (to the two players only)."""
    decks_lost: int | None = None
    """The Flying Dutchman (§5.5): how many decks the owner's ship has lost (public)."""

    def mark(self, cell: Cell) -> Mark:
        column, row = cell
        return self.marks[row][column]


@dataclass(frozen=True)
class SeaBattleView:
    seat: int | None
    phase: Phase
    variant: str
    size: int
    fields: tuple[FieldView, FieldView]
    """Seat 0's field and seat 1's field."""
    turn: int | None
    ready: tuple[bool, bool]
    to_place: tuple[ShipKind, ...]
    """The viewer's ships still to place during setup (empty for the public)."""
    outcome: Outcome | None
    extra_shot: bool
    salvo_size: int | None = None
    """Salvo (§4.3): how many cells the seat to move names in its salvo (public)."""
    blind_report: bool = False
    """Salvo with blind report (§4.3): shot cells are numbered by salvo, not answered."""
    items_left: tuple[int, int] = (0, 0)
    """The viewer's mines and minesweepers still to lay during setup."""
    owed: tuple[int, str] | None = None
    """A seat owing a choice, and which: a disclosure (``ship`` or ``mine``, §4.6-4.7), or
    the Flying Dutchman's captain choosing to move the ship or not (``move``, §5.4): public."""
    choices: tuple[Cell, ...] = ()
    """The cells the viewer may disclose now, if they owe a disclosure."""
    mines: bool = False
    """Whether the game has mines (and so the images a legend for them)."""
    sweepers: bool = False
    """Whether the game has minesweepers too (Sea Battle rules §4.7): only then does a
    legend name them."""

    @property
    def movers(self) -> frozenset[int]:
        return seats_to_move(self.phase, self.ready, self.turn)

    @property
    def fleets_set(self) -> bool:
        """Whether both fleets were set, so that a count of ships afloat (or decks lost)
        means something: a game that ended during setup never had them placed."""
        if self.phase is Phase.SETUP:
            return False
        return self.outcome is None or self.outcome.unplayed is not Phase.SETUP

    def text(self) -> str:
        """A text twin of the image: every field as a letter-number grid, then a legend."""
        lines: list[str] = []
        for field in self.fields:
            if self.seat is None:
                title = f"Field of seat {field.owner}"
            else:
                title = "Your fleet" if field.owner == self.seat else "Your shots at the enemy"
            if not self.fleets_set:
                lines.append(title)
            elif field.decks_lost is not None:
                lost = field.decks_lost
                lines.append(f"{title} ({lost} deck{'s' if lost != 1 else ''} lost)")
            else:
                afloat = field.afloat
                lines.append(f"{title} ({afloat} ship{'s' if afloat != 1 else ''} afloat)")
            lines.append("    " + " ".join(column_letter(c) for c in range(self.size)))
            for row, marks in enumerate(field.marks):
                lines.append(f"{row + 1:>3} " + " ".join(mark.value for mark in marks))
            if field.last_shot is not None:
                lines.append(f"Last shot here: {cell_name(field.last_shot)}")
            if field.salvo_numbers:
                numbered = ", ".join(f"{cell_name(c)} {n}" for c, n in field.salvo_numbers)
                lines.append(f"Salvo of each shot: {numbered}")
            lines.extend(
                f"Salvo {n}: {report_text(report)}" for n, report in enumerate(field.reports, 1)
            )
            if field.disclosed:
                lines.append("Disclosed: " + ", ".join(cell_name(c) for c in field.disclosed))
            lines.append("")
        legend = "Legend: . sea  # ship  o miss  x hit  X sunk  - known empty"
        if any(field.salvo_numbers for field in self.fields):
            legend += "  ? shot, answer not told"
        if self.mines:
            legend += "  * mine  m mine set off"
            if self.sweepers:
                legend += "  ^ minesweeper  w minesweeper struck"
            legend += "  ! disclosed ship cell  @ disclosed mine"
        lines.append(legend)
        return "\n".join(lines)
