"""Sea Battle moves and their one text notation (``str(parse(text)) == text`` when canonical).

Setup: ``A1 A4`` places a ship from A1 to A4, ``J10`` a one-cell ship, ``remove B2`` takes
back the ship on B2, ``clear`` empties the board, ``random`` deals a legal fleet, ``ready``
confirms, and ``fleet A1 A4, C1 C3, J10`` lays out a whole fleet at once (what a saved fleet
plays). Play: ``B5`` shoots at B5; in Salvo (§4.3) ``A1 B2 C3`` fires a whole salvo.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.actions import CellWord, Word
from bot.games.core import NotationError, Phase
from bot.games.grid import Cell, cell_name, parse_cell, shorten
from bot.games.setup import Ready


@dataclass(frozen=True)
class PlaceShip:
    start: Cell
    end: Cell

    def __str__(self) -> str:
        if self.start == self.end:
            return cell_name(self.start)
        return f"{cell_name(self.start)} {cell_name(self.end)}"


@dataclass(frozen=True)
class PlaceShape:
    """A ship named by all its cells, in reading order: ``A1 A2 B2`` (an L, §4.4)."""

    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return " ".join(cell_name(cell) for cell in self.cells)


@dataclass(frozen=True)
class PlaceFleet:
    """A whole layout at once, replacing the board: how a saved fleet is loaded."""

    ships: tuple[Placement, ...]

    def __str__(self) -> str:
        return "fleet " + ", ".join(str(ship) for ship in self.ships)


class RemoveShip(CellWord):
    word = "remove"


class RandomFleet(Word):
    word = "random"


class ClearFleet(Word):
    word = "clear"


class PlaceSub(CellWord):
    """§4.8: ``sub J10`` places the submarine (a plain ``J10`` is a torpedo boat)."""

    word = "sub"


class PlaceMine(CellWord):
    """§4.6: ``mine C5`` lays a mine."""

    word = "mine"


class PlaceSweeper(CellWord):
    """§4.7: ``sweeper C5`` lays a minesweeper."""

    word = "sweeper"


@dataclass(frozen=True)
class Shot:
    cell: Cell
    confirmed: bool = False
    """§4.7: ``B5 confirm`` shoots a mine the shooter knows of, on purpose."""

    def __str__(self) -> str:
        return cell_name(self.cell) + (" confirm" if self.confirmed else "")


class Disclose(CellWord):
    """§4.6-4.7: ``reveal B2`` discloses one of the player's own cells, as a mine or a
    minesweeper makes them."""

    word = "reveal"


@dataclass(frozen=True)
class Salvo:
    """§4.3: all of a turn's shots at once, ``A1 B2 C3``, in the order they were named."""

    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return " ".join(cell_name(cell) for cell in self.cells)


class Stay(Word):
    """§5.4: the Flying Dutchman's captain leaves the hit ship where it is."""

    word = "stay"


@dataclass(frozen=True)
class MoveShip:
    """§5.4: ``move A1 B2 C3`` re-places the hit Flying Dutchman's remaining decks."""

    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return "move " + " ".join(cell_name(cell) for cell in self.cells)


Placement = PlaceShip | PlaceShape | PlaceSub | PlaceMine | PlaceSweeper
SetupAction = Placement | PlaceFleet | RemoveShip | RandomFleet | ClearFleet | Ready
Action = SetupAction | Shot | Salvo | Disclose | Stay | MoveShip

_WORDS: dict[str, SetupAction] = {"random": RandomFleet(), "clear": ClearFleet(), "ready": Ready()}
_SPAN = re.compile(r"([A-Za-z]\s*\d{1,2})\s*(?:[-–—:]|\s|to)\s*([A-Za-z]\s*\d{1,2})", re.I)
_CELLS = re.compile(r"[A-Za-z]\s*\d{1,2}")
_LOOKS_LIKE_CELL = re.compile(r"[a-z]\s*\d{1,2}", re.I)


def parse(
    text: str,
    phase: Phase,
    size: int,
    *,
    salvo: bool = False,
    shapes: bool = False,
    setup_help: str = "",
    salvo_example: str = "A1 B2 C3",
) -> Action:
    """Read one move for the given phase; raises NotationError with a hint otherwise
    (``setup_help``: the variant's own list of setup moves, for a setup move not read;
    ``salvo_example``: a salvo of the size the player now fires)."""
    words = text.strip()  # original case, so that refusals quote what the player wrote
    lowered = words.lower()
    if not words:
        raise NotationError("That message is empty: write a move, like `B5`.")
    if phase is Phase.PLAY and salvo:
        if lowered in _WORDS or lowered.startswith("remove"):
            raise NotationError(f"The fleets are set; now fire a salvo, like `{salvo_example}`.")
        parts = _CELLS.findall(words)
        if not parts or _CELLS.sub("", words).strip(" ,;"):
            raise NotationError(
                f"`{shorten(words)}` is not a salvo: name cells separated by spaces, "
                f"like `{salvo_example}`."
            )
        return Salvo(tuple(parse_cell(part, size, size) for part in parts))
    if phase is Phase.PLAY and lowered == "stay":
        return Stay()
    if phase is Phase.PLAY and lowered.startswith("move"):
        cells = _CELLS.findall(words[len("move") :])
        if not cells or _CELLS.sub("", words[len("move") :]).strip(" ,;"):
            raise NotationError("Name the ship's new cells after `move`, like `move A1 B2 C2`.")
        listed = [parse_cell(cell, size, size) for cell in cells]
        return MoveShip(tuple(sorted(listed, key=lambda cell: (cell[1], cell[0]))))
    if phase is Phase.PLAY and lowered.startswith("reveal"):
        return Disclose(parse_cell(words[len("reveal") :], size, size))
    if phase is Phase.PLAY:
        if lowered in _WORDS or lowered.startswith("remove") or _SPAN.fullmatch(words):
            raise NotationError("The fleets are set; now shoot by naming one cell, like `B5`.")
        if lowered.endswith("confirm"):
            return Shot(parse_cell(words[: -len("confirm")], size, size), confirmed=True)
        return Shot(parse_cell(words, size, size))
    if phase is Phase.FINISHED:
        raise NotationError("This game is over.")
    if lowered in _WORDS:
        return _WORDS[lowered]
    if lowered.startswith("remove"):
        return RemoveShip(parse_cell(words[len("remove") :], size, size))
    if lowered.startswith("fleet"):
        parts = [part for part in words[len("fleet") :].split(",") if part.strip()]
        if not parts:
            raise NotationError("Name the fleet's ships after `fleet`, like `fleet A1 A4, J10`.")
        return PlaceFleet(tuple(_placement(part, size, shapes, setup_help) for part in parts))
    return _placement(words, size, shapes, setup_help)


def _placement(text: str, size: int, shapes: bool, setup_help: str = "") -> Placement:
    """One ship as its end cells (``A1 A4``), for a one-cell ship one cell (``J10``), or as
    three or more cells (``A1 A2 B2``), which is how a shaped ship (§4.4) is named."""
    words = text.strip()
    lowered = words.lower()
    for word, piece in (
        ("minesweeper", PlaceSweeper),
        ("sweeper", PlaceSweeper),
        ("mine", PlaceMine),
        ("submarine", PlaceSub),
        ("sub", PlaceSub),
    ):
        if lowered.startswith(word):
            return piece(parse_cell(words[len(word) :], size, size))
    listed = _CELLS.findall(words)
    if shapes and len(listed) >= 3 and not _CELLS.sub("", words).strip(" ,;"):
        cells = [parse_cell(part, size, size) for part in listed]
        return PlaceShape(tuple(sorted(cells, key=lambda cell: (cell[1], cell[0]))))
    span = _SPAN.fullmatch(words)
    if span:
        return PlaceShip(
            parse_cell(span.group(1), size, size), parse_cell(span.group(2), size, size)
        )
    if not _LOOKS_LIKE_CELL.fullmatch(words):
        raise NotationError(f"`{shorten(words)}` is not a setup move. {setup_help}".strip())
    cell = parse_cell(words, size, size)  # a cell off the board is refused as such
    return PlaceShip(cell, cell)
