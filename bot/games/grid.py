"""Square-grid coordinates in letter-then-number notation (``A1`` is the top-left cell).

Shared by every game played on a lettered grid, so one parser serves them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from bot.games.core import NotationError, shorten  # games import it from here too

Cell = tuple[int, int]
"""(column, row), both counted from 0; ``(0, 0)`` is ``A1``."""

_CELL = re.compile(r"\s*([A-Za-z])\s*(\d{1,2})\s*")


def column_letter(column: int) -> str:
    return chr(ord("A") + column)


@lru_cache(maxsize=1024)
def cell_name(cell: Cell) -> str:
    """``B7`` for ``(1, 6)``; remembered, since every stored state names each of its cells."""
    column, row = cell
    return f"{column_letter(column)}{row + 1}"


def parse_cell(text: str, columns: int, rows: int) -> Cell:
    """Read ``B7`` (any case, spaces allowed) into a cell on a ``columns`` x ``rows`` grid."""
    match = _CELL.fullmatch(text)
    if match is None:
        raise NotationError(
            f"`{shorten(text)}` is not a cell: write a letter and a number, like `B7`."
        )
    column = ord(match.group(1).upper()) - ord("A")
    row = int(match.group(2)) - 1
    if not (0 <= column < columns and 0 <= row < rows):
        last = cell_name((columns - 1, rows - 1))
        raise NotationError(f"`{shorten(text)}` is off the board, which runs from A1 to {last}.")
    return column, row


def neighbours(cell: Cell, columns: int, rows: int, *, diagonal: bool) -> Iterator[Cell]:
    """The cells touching ``cell`` by a side, and by a corner too when ``diagonal``."""
    column, row = cell
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (dc, dr) == (0, 0) or (not diagonal and dc and dr):
                continue
            c, r = column + dc, row + dr
            if 0 <= c < columns and 0 <= r < rows:
                yield c, r


