"""The Warships computer's setup, built like a careful person's.

Fast fighting ships and missile ships stand at the exits, the landing ship on a deep field
no missile ship can reach over the wall, mines on the exposed fields beside it and the
minesweepers behind. The order is a plan and the dice only break ties between fields of
the same depth, so the computer's fleet is never one fixed layout a player could learn.
"""

from __future__ import annotations

import random

from bot.ai.warships_distances import port_depth
from bot.games.grid import Cell
from bot.games.warships import board
from bot.games.warships.board import Shore
from bot.games.warships.units import Kind

FRONT_CODES = "SS DD BS MS SS DD BS MS ES SS DD CR BS MS ES SS DD CR ES CR ES MW MW MW MW"
FRONT_ORDER = tuple(Kind(code) for code in FRONT_CODES.split())
"""The ships from the exits inwards, by their codes on the help card; the landing ship
and the mines go behind them."""


def _exposed(cell: Cell, shore: Shore) -> bool:
    """Whether an enemy missile ship at sea could fire at ``cell`` over the wall."""
    return any(
        board.is_field(near) and near not in board.PORTS[shore]
        for near in board.king_neighbours(cell)
    )


def planned_setup(shore: Shore, dice: random.Random) -> dict[Cell, Kind]:
    """A careful fleet: fighters and missile ships at the exits, the landing ship deep and
    out of reach over the wall, mines on the exposed fields at the back, sweepers behind."""
    depth = port_depth(shore)
    fields = sorted(board.SETUP_FIELDS[shore], key=lambda c: (-depth[c], dice.random()))
    layout: dict[Cell, Kind] = {}
    landing = next(c for c in fields if not _exposed(c, shore))
    layout[landing] = Kind.LANDING_SHIP
    exposed = [c for c in fields if c not in layout and _exposed(c, shore)]
    for cell in exposed[:3]:
        layout[cell] = Kind.MINE
    rest = [c for c in reversed(fields) if c not in layout]
    order = list(FRONT_ORDER)
    for cell, kind in zip(rest, order, strict=False):
        layout[cell] = kind
    return layout
