"""Warships moves and their one text notation (``str(parse(text)) == text`` when canonical).

Play: ``C5-C7`` moves; ``C5xD7`` attacks from where the ship stands and ``C5-C7xD8`` moves
first (a battery as the target is a take-out, §11.3); ``C5 defuse D7`` and
``C5-C7 defuse D8`` defuse with a minesweeper; ``mine E5`` lays a reserve mine before the
action, and `` mine E5`` after an action lays it afterwards; ``pass`` only when nothing can act;
``offer draw`` and ``accept draw``.
Setup: ``random``, ``swap A1 B2``, ``place mine E3``, ``remove mine E3``, ``ready``, and the
whole-setup move ``setup BS:A1,B1,C1 MS:…`` that saved setups are replayed as.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.actions import CellWord, Word
from bot.games.core import NotationError, Phase
from bot.games.draws import DRAW_WORDS, AcceptDraw, OfferDraw
from bot.games.grid import Cell, cell_name, shorten
from bot.games.setup import Ready
from bot.games.warships import board
from bot.games.warships.units import SHIPS, Kind


def _mines(cells: tuple[Cell, ...]) -> str:
    return "".join(f" mine {cell_name(cell)}" for cell in cells)


@dataclass(frozen=True)
class Move:
    start: Cell
    end: Cell
    mines: tuple[Cell, ...] = ()

    def __str__(self) -> str:
        return f"{cell_name(self.start)}-{cell_name(self.end)}{_mines(self.mines)}"


@dataclass(frozen=True)
class Attack:
    """An attack, a take-out (the target is a battery) or, with ``defuse``, a defusing."""

    start: Cell
    via: Cell | None
    target: Cell
    defuse: bool = False
    mines: tuple[Cell, ...] = ()

    @property
    def origin(self) -> Cell:
        return self.via or self.start

    def __str__(self) -> str:
        path = cell_name(self.start) + (f"-{cell_name(self.via)}" if self.via else "")
        aim = f" defuse {cell_name(self.target)}" if self.defuse else f"x{cell_name(self.target)}"
        return path + aim + _mines(self.mines)


class Pass(Word):
    word = "pass"


class LayMine(CellWord):
    word = "mine"


class RandomSetup(Word):
    word = "random"


@dataclass(frozen=True)
class Swap:
    first: Cell
    second: Cell

    def __str__(self) -> str:
        return f"swap {cell_name(self.first)} {cell_name(self.second)}"


class PlaceMine(CellWord):
    word = "place mine"


class RemoveMine(CellWord):
    word = "remove mine"


@dataclass(frozen=True)
class WholeSetup:
    """A complete setup: the fields of each ship type and of the mines put in port."""

    layout: tuple[tuple[Kind, tuple[Cell, ...]], ...]

    def __str__(self) -> str:
        groups = (
            f"{kind.value}:{','.join(cell_name(c) for c in cells)}"
            for kind, cells in self.layout
            if cells
        )
        return "setup " + " ".join(groups)

    @classmethod
    def of(cls, placed: Mapping[Cell, Kind]) -> WholeSetup:
        order = (*SHIPS, Kind.MINE)
        return cls(
            tuple(
                (kind, tuple(sorted((c for c, k in placed.items() if k is kind), key=_by_name)))
                for kind in order
            )
        )


def _by_name(cell: Cell) -> tuple[int, int]:
    return cell[0], cell[1]


PlayAction = Move | Attack | Pass | LayMine | OfferDraw | AcceptDraw
SetupAction = RandomSetup | Swap | PlaceMine | RemoveMine | Ready | WholeSetup
Action = PlayAction | SetupAction

_CELL = r"[a-l]\s*\d{1,2}"
_ATTACK = re.compile(
    rf"({_CELL})\s*(?:-\s*({_CELL}))?\s*(x|attack|defuse)\s*({_CELL})", re.IGNORECASE
)
_MOVE = re.compile(rf"({_CELL})\s*(?:-|\s|to)\s*({_CELL})", re.IGNORECASE)
_TRAILING = re.compile(rf"\s+(?:then\s+)?mine\s+({_CELL})\s*$", re.IGNORECASE)
PLAY_HELP = (
    "Write a move as `C5-C7`, an attack as `C5xD7` or `C5-C7xD8`, a defusing as "
    "`C5 defuse D7`, a mine as `mine E5`, `offer draw`, or `pass` when nothing can act."
)
SETUP_HELP = (
    "During setup write `random`, `swap A1 B2`, `place mine E3`, `remove mine E3` or `ready`."
)


def cell(text: str) -> Cell:
    return board.field(text)


def parse(text: str, phase: Phase) -> Action:
    """Read one move for the given phase; raises NotationError with a hint otherwise."""
    words = " ".join(text.split())
    lowered = words.lower()
    if not words:
        raise NotationError("That message is empty: write a move, like `C5-C7`.")
    if phase is Phase.FINISHED:
        raise NotationError("This game is over.")
    if phase is Phase.SETUP:
        return _parse_setup(words, lowered)
    if lowered.split(" ", 1)[0] in ("random", "ready", "swap", "place", "remove", "setup"):
        raise NotationError(f"The setups are done and can no longer change. {PLAY_HELP}")
    if lowered == "pass":
        return Pass()
    if lowered == "draw":
        return OfferDraw()
    if lowered in DRAW_WORDS:
        return DRAW_WORDS[lowered]
    if lowered.startswith("mine "):
        return LayMine(cell(words[5:]))
    mines: list[Cell] = []
    while (trailing := _TRAILING.search(words)) is not None:
        mines.insert(0, cell(trailing.group(1)))
        words = words[: trailing.start()]
    attack = _ATTACK.fullmatch(words)
    if attack:
        start, via, verb, target = attack.groups()
        return Attack(
            cell(start),
            cell(via) if via else None,
            cell(target),
            defuse=verb.lower() == "defuse",
            mines=tuple(mines),
        )
    move = _MOVE.fullmatch(words)
    if move:
        return Move(cell(move.group(1)), cell(move.group(2)), tuple(mines))
    raise NotationError(f"`{shorten(text)}` is not a Warships move. {PLAY_HELP}")


def _parse_setup(words: str, lowered: str) -> SetupAction:
    if lowered == "random":
        return RandomSetup()
    if lowered == "ready":
        return Ready()
    head, _, rest = lowered.partition(" ")
    if head == "swap":
        parts = rest.split()
        if len(parts) != 2:
            raise NotationError("Write a swap as two fields, like `swap A1 B2`.")
        return Swap(cell(parts[0]), cell(parts[1]))
    if lowered.startswith(("place mine ", "remove mine ")):
        target = cell(lowered.split(" ", 2)[2])
        return PlaceMine(target) if head == "place" else RemoveMine(target)
    if head == "setup":
        return _parse_whole(rest)
    if _ATTACK.fullmatch(words) or _MOVE.fullmatch(words) or head == "mine":
        raise NotationError("The game has not started: finish your setup and write `ready`.")
    raise NotationError(f"`{shorten(words)}` is not a setup move. {SETUP_HELP}")


def _parse_whole(rest: str) -> WholeSetup:
    placed: dict[Cell, Kind] = {}
    groups = re.sub(r"\s*([:,])\s*", r"\1", rest).split()
    for group in groups:
        code, colon, names = group.partition(":")
        if not colon or not names:
            raise NotationError(
                "Write a whole setup as unit codes with their fields, "
                "like `setup BS:A1,B1,C1 MS:D1`."
            )
        try:
            kind = Kind(code.upper())
        except ValueError:
            raise NotationError(f"`{shorten(code)}` is not a unit code.") from None
        if not kind.is_ship and kind is not Kind.MINE:
            raise NotationError("A setup lists ships and mines; batteries stand on their own.")
        for name in names.split(","):
            field = cell(name)
            if field in placed:
                raise NotationError(f"The setup names {cell_name(field)} twice.")
            placed[field] = kind
    if not placed:
        raise NotationError("Write a whole setup, like `setup BS:A1,B1,C1 MS:D1`.")
    return WholeSetup.of(placed)
