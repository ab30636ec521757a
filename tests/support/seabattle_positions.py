"""Named Sea Battle positions written as text diagrams, and helpers that set them up.

Diagrams look like the one in Sea Battle rules §1.2: a header of column letters, then one
line per row starting with its number. ``.`` is sea; any other character is a ship cell, and
the cells of one ship are a side-connected group of the same character. Using a second
character (``=``, ``@``) lets a diagram show ships that touch (§4.1, §4.2) or a ship that a
test is about to try. A diagram may cover only the top-left corner of the board.

Fleets are placed through the engine's own notation (``A1 A4``, ``J10``), never by building
states by hand, so these positions exercise the same path as a player typing moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest

from bot.games import ENGINES
from bot.games.core import Event, GameError, IllegalActionError, Phase
from bot.games.grid import Cell, cell_name, parse_cell
from bot.games.seabattle.engine import SeaBattle
from bot.games.seabattle.fleet import Ship
from bot.games.seabattle.rules import SeaBattleRules, Touching
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark, SeaBattleView

ENGINE: SeaBattle = ENGINES["seabattle"]  # type: ignore[assignment]
"""The registered engine: tests go through the same object the referee uses."""

SEA = "."

MODES: dict[str, SeaBattleRules] = {
    **ENGINE.presets,
    "named-hits": ENGINE.configure("milton-bradley", "named-hits"),
    "salvo": ENGINE.configure("milton-bradley", "salvo"),
    "salvo-equal": ENGINE.configure("milton-bradley", "salvo equal-rounds"),
    "salvo-blind": ENGINE.configure("milton-bradley", "salvo blind-report equal-rounds"),
    "shapes": ENGINE.configure("classic", "shapes"),
    "shapes-corners": ENGINE.configure("classic", "shapes corners"),
    "mines": ENGINE.configure("classic", "mines2"),
    "free-mines": ENGINE.configure("classic", "mines3 free-mines"),
    "submarine": ENGINE.configure("classic", "submarine"),
    "submarine-mines": ENGINE.configure("classic", "corners mines submarine"),
}
"""Every preset and every optional module (and combination) the tests play, by name."""


def diagram_cells(diagram: str) -> dict[Cell, str]:
    """Every ship cell of ``diagram`` with its character; sea cells are left out."""
    lines = [line.split() for line in diagram.strip("\n").splitlines() if line.strip()]
    header, rows = lines[0], lines[1:]
    if not all(len(letter) == 1 and letter.isalpha() for letter in header):
        raise ValueError(f"the first diagram line must be column letters, not {header!r}")
    cells: dict[Cell, str] = {}
    for tokens in rows:
        row = int(tokens[0]) - 1
        if len(tokens) - 1 > len(header):
            raise ValueError(f"row {row + 1} is wider than the header")
        for column, char in enumerate(tokens[1:]):
            if char != SEA:
                cells[(column, row)] = char
    return cells


def diagram_ships(diagram: str, chars: str | None = None) -> list[tuple[Cell, ...]]:
    """The ships of ``diagram`` (only those drawn with one of ``chars``), in reading order.

    Each ship is its cells in reading order, so its first and last cells are its ends.
    """
    cells = diagram_cells(diagram)
    seen: set[Cell] = set()
    ships: list[tuple[Cell, ...]] = []
    for start in sorted(cells, key=lambda cell: (cell[1], cell[0])):
        char = cells[start]
        if start in seen or (chars is not None and char not in chars):
            continue
        group: set[Cell] = set()
        todo = [start]
        while todo:
            cell = todo.pop()
            if cell in group:
                continue
            group.add(cell)
            column, row = cell
            for near in (
                (column + 1, row),
                (column - 1, row),
                (column, row + 1),
                (column, row - 1),
            ):
                if cells.get(near) == char and near not in group:
                    todo.append(near)
        seen |= group
        columns, rows = {c for c, _ in group}, {r for _, r in group}
        if len(columns) > 1 and len(rows) > 1:
            raise ValueError(f"the ship at {cell_name(start)} is not straight: draw it apart")
        ships.append(tuple(sorted(group, key=lambda cell: (cell[1], cell[0]))))
    return ships


def placement_text(cells: tuple[Cell, ...]) -> str:
    """The engine's placement notation for a ship: ``A1 A4``, or ``J10`` for one cell."""
    if len(cells) == 1:
        return cell_name(cells[0])
    return f"{cell_name(cells[0])} {cell_name(cells[-1])}"


def placement_texts(diagram: str, chars: str | None = None) -> list[str]:
    """The moves that place the ships of ``diagram``, in reading order."""
    return [placement_text(ship) for ship in diagram_ships(diagram, chars)]


def place(
    state: SeaBattleState, seat: int, diagram: str, *, chars: str | None = None, ready: bool = False
) -> SeaBattleState:
    """Place the ships of ``diagram`` for ``seat``, one typed move each, then maybe ``ready``."""
    for text in placement_texts(diagram, chars):
        state = ENGINE.act(state, seat, text).state
    if ready:
        state = ENGINE.act(state, seat, "ready").state
    return state


def first_shooter(preset: str, seed: int) -> int:
    """Who shoots first in a game of ``preset`` with ``seed``, asked of the engine itself."""
    state = ENGINE.new_game(MODES[preset], seed)
    for seat in (0, 1):
        state = ENGINE.act(state, seat, "random").state
        state = ENGINE.act(state, seat, "ready").state
    assert state.turn is not None
    return state.turn


def seed_where_first(seat: int, preset: str = "classic", start: int = 0) -> int:
    """The smallest seed from ``start`` on whose game opens with ``seat`` shooting."""
    seed = start
    while first_shooter(preset, seed) != seat:
        seed += 1
    return seed


def start_game(
    preset: str, fleet0: str, fleet1: str, *, first: int = 0, seed_from: int = 0
) -> SeaBattleState:
    """A game in play with the two diagrams as fleets and ``first`` to shoot."""
    seed = seed_where_first(first, preset, seed_from)
    state = ENGINE.new_game(MODES[preset], seed)
    state = place(state, 0, fleet0, ready=True)
    state = place(state, 1, fleet1, ready=True)
    assert state.phase is Phase.PLAY and state.turn == first
    return state


@cache
def classic_game() -> SeaBattleState:
    """The game most tests play: seat 0 has ALPHA, seat 1 has BRAVO, seat 0 shoots first."""
    return start_game("classic", ALPHA, BRAVO, first=0)


def shoot(state: SeaBattleState, seat: int, *cells: str) -> SeaBattleState:
    """Fire the named shots one after another, all by ``seat``."""
    for text in cells:
        state = ENGINE.act(state, seat, text).state
    return state


def texts_for(events: tuple[Event, ...], audience: int | None) -> list[str]:
    """The texts addressed to one audience, in order."""
    return [event.text for event in events if event.audience == audience]


def random_ready_game(preset: str, seed: int) -> SeaBattleState:
    """Both seats take a random fleet and confirm it: the quickest game in play."""
    state = ENGINE.new_game(MODES[preset], seed)
    for seat in (0, 1):
        state = ENGINE.act(state, seat, "random").state
        state = ENGINE.act(state, seat, "ready").state
    return state


def new(preset: str = "classic", seed: int = 0) -> SeaBattleState:
    """A fresh game of ``preset``, both seats still placing their fleets."""
    return ENGINE.new_game(ENGINE.presets[preset], seed)


def cell(name: str, size: int = 10) -> tuple[int, int]:
    """A cell's coordinates from its name on a ``size`` by ``size`` field."""
    return parse_cell(name, size, size)


def ships_of(state: SeaBattleState, seat: int) -> list[tuple[tuple[int, int], ...]]:
    """The cells of every ship of ``seat``, in a stable order."""
    return sorted(ship.cells for ship in state.sides[seat].ships)


def refused(
    state: SeaBattleState, seat: int, text: str, error: type[GameError] = IllegalActionError
) -> str:
    """Type a move that must be refused, check it changes nothing, and return the sentence."""
    before = ENGINE.to_json(state)
    with pytest.raises(error) as caught:
        ENGINE.act(state, seat, text)
    assert ENGINE.to_json(state) == before
    return str(caught.value)


def grid_lines(view: SeaBattleView) -> list[str]:
    """The board rows of the text twin, without titles and legend."""
    return [line for line in view.text().splitlines() if line[:3].strip().isdigit()]


def ship_marks(view: SeaBattleView, owner: int) -> set[tuple[int, int]]:
    """The cells ``view`` shows as ``owner``'s ships."""
    field = view.fields[owner]
    return {
        (column, row)
        for row in range(view.size)
        for column in range(view.size)
        if field.mark((column, row)) is Mark.SHIP
    }


# -- named positions --------------------------------------------------------------------------

ALPHA = """
     A B C D E F G H I J
   1 # # # # . . . . . #
   2 . . . . . . . . . .
   3 # # # . # # # . . #
   4 . . . . . . . . . .
   5 # # . # # . # # . #
   6 . . . . . . . . . .
   7 # . . . . . . . . .
   8 . . . . . . . . . .
   9 . . . . . . . . . .
  10 . . . . . . . . . .
"""
"""A classic fleet packed into the top rows, all ships horizontal."""

BRAVO = """
     A B C D E F G H I J
   1 . . . . . . . . . #
   2 . # # # # . . . . .
   3 . . . . . . . . # .
   4 . . . . . . . . . .
   5 . # . # . . # # # .
   6 . # . # . . . . . .
   7 . . . # . . . # . .
   8 . . . . . . . . . #
   9 # . . . . # . . . #
  10 # . . . . . . . . .
"""
"""A classic fleet around the example of §1.2 (B2-E2, I3, B5-B6), with vertical ships."""

CORNERS_FLEET = """
     A B C D E F G H I J
   1 # # # # . . . . . .
   2 . . . . = = = . . .
   3 . . . # . . . = = =
   4 . . . # . . . . . .
   5 # . . . # # . # . #
   6 . . . . . . = . = .
   7 . . . . . . = . . .
   8 . . . . . . . . . .
   9 . . . . . . . . . .
  10 . . . . . . . . . .
"""
"""A legal fleet for §4.1 in which ships touch only at corners."""

MB_FLEET = """
     A B C D E F G H I J
   1 # # # # # . . . . .
   2 = = = = . . . . . .
   3 # # # . . . . . . .
   4 = = = . . . . . . .
   5 # # . . . . . . . .
   6 . . . . . . . . . .
   7 . . . . . . . . . .
   8 . . . . . . . . . .
   9 . . . . . . . . . .
  10 . . . . . . . . . .
"""
"""A Milton Bradley fleet (§4.2) stacked side to side, which touching allows."""

LARGE_FLEET = """
     A B C D E F G H I J K L M N O
   1 # # # # # . # # # # . # # # #
   2 . . . . . . . . . . . . . . .
   3 # # # . # # # . # # # . . . .
   4 . . . . . . . . . . . . . . .
   5 # # . # # . # # . # # . . . .
   6 . . . . . . . . . . . . . . .
   7 # . # . # . # . # . . . . . .
"""
"""A 15x15 fleet (§4.5): 1x5, 2x4, 3x3, 4x2, 5x1."""


# -- an independent fleet check ---------------------------------------------------------------


def side_faults(
    rules: SeaBattleRules, ships: Sequence[Ship], *, complete: bool = True
) -> list[str]:
    """``fleet_faults`` for placed ships, telling it which one is the §4.8 submarine; for the
    Flying Dutchman (§5), one ship of at most its decks (it loses them, and may lie apart)."""
    if rules.dutchman:
        decks = rules.fleet[0].length
        (ship,) = ships
        inside = all(0 <= c < rules.size and 0 <= r < rules.size for c, r in ship.cells)
        ok = inside and len(set(ship.cells)) == len(ship.cells) <= decks
        return [] if ok else ["not a Flying Dutchman"]
    cells = [ship.cells for ship in ships]
    kinds = [ship.kind for ship in ships]
    sub = kinds.index(rules.submarine_kind) if rules.submarine_kind in kinds else None
    return fleet_faults(rules, cells, complete=complete, submarine=sub)


def fleet_faults(
    rules: SeaBattleRules,
    ships: list[tuple[Cell, ...]],
    *,
    complete: bool = True,
    submarine: int | None = None,
) -> list[str]:
    """What is wrong with a fleet under ``rules``, judged without the engine's own checker.

    Written straight from §2.1-2.3, §4.1 and §4.2 so that the engine's geometry is tested
    against a second reading of the rules rather than against itself. With ``complete``
    false, a fleet still being placed passes if it holds no more ships of a length than the
    rules allow.
    """
    faults: list[str] = []
    allowed = Counter(kind.length for kind in rules.fleet)
    have = Counter(len(cells) for cells in ships)
    if complete and have != allowed:
        faults.append(f"lengths {sorted(have.elements())} are not the fleet's")
    if not complete and any(have[length] > allowed[length] for length in have):
        faults.append(f"lengths {sorted(have.elements())} exceed the fleet's")
    owner: dict[Cell, int] = {}
    for index, cells in enumerate(ships):
        faults += ship_faults(rules, index, cells)
        for cell in cells:
            if cell in owner:
                faults.append(f"ships {owner[cell]} and {index} overlap")
            owner[cell] = index
    return faults + touching_faults(rules, owner, submarine)


def ship_faults(rules: SeaBattleRules, index: int, cells: tuple[Cell, ...]) -> list[str]:
    """What is wrong with ship number ``index`` alone: off the board, or of a wrong shape."""
    faults: list[str] = []
    columns = {column for column, _ in cells}
    rows = {row for _, row in cells}
    if not all(0 <= c < rules.size and 0 <= r < rules.size for c, r in cells):
        faults.append(f"ship {index} leaves the board")
    straight = (len(columns) == 1 and len(rows) == len(cells)) or (
        len(rows) == 1 and len(columns) == len(cells)
    )
    spans = max(columns) - min(columns) + max(rows) - min(rows) + 1 == len(cells)
    if rules.shapes and len(cells) in (3, 4):
        # §4.4: any side-connected three or four cells, except the T (a cell with three
        # neighbours in the ship).
        cellset = set(cells)
        degrees = [
            sum((c + dc, r + dr) in cellset for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            for c, r in cells
        ]
        connected = (len(cells) == 3 and sorted(degrees) == [1, 1, 2]) or (
            len(cells) == 4 and sum(degrees) >= 6 and max(degrees) < 3
        )
        if len(cellset) != len(cells) or not connected:
            faults.append(f"ship {index} is not a straight line, an L, a square or a zigzag")
    elif not straight or not spans:
        faults.append(f"ship {index} is not a straight line")
    return faults


def touching_faults(
    rules: SeaBattleRules, owner: dict[Cell, int], submarine: int | None
) -> list[str]:
    """Ships that touch where the rules forbid it (§4.1, §4.2); ``owner`` maps each ship cell
    to its ship's number, and the §4.8 submarine may touch its own ships."""
    faults: list[str] = []
    if rules.touching is Touching.ANY:
        return faults
    for (column, row), index in owner.items():
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if rules.touching is Touching.CORNERS and dc and dr:
                    continue
                near = owner.get((column + dc, row + dr))
                if submarine in (index, near):
                    continue  # §4.8: the submarine may touch its own ships
                if near is not None and near != index:
                    faults.append(f"ships {index} and {near} touch")
    return faults
