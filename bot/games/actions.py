"""Building blocks for the games' actions: an action written as one fixed word, and one
written as a word and a grid cell. The word is declared once, on the action's class, and
is the action's text, so ``str(parse(text)) == text`` holds for every such action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.games.grid import Cell, cell_name


@dataclass(frozen=True)
class Word:
    """An action that is a fixed word or phrase (``ready``, ``random``, ``offer draw``)."""

    word: ClassVar[str]

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class CellWord:
    """An action that is a word and one cell of a lettered grid (``mine C5``)."""

    cell: Cell
    word: ClassVar[str]

    def __str__(self) -> str:
        return f"{self.word} {cell_name(self.cell)}"
