"""Where everything sits on a Sea Battle board image: its cells, grids, footer and legend.

Pure geometry, worked out once per board size and phase and cached: how large a cell is,
whether the two fields stand side by side or stacked, and how many rows the legend takes
at that width. The drawing (``renderers.seabattle``) and its tests ask here where a cell's
pixels are, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.games.core import Phase
from bot.games.grid import Cell
from bot.games.seabattle.view import SeaBattleView
from renderers.common import text_width

MARGIN = 20
HEADER = 52
HEADER_BASELINE = MARGIN + 26
PANEL_TITLE = 34
AXIS = 30
GAP = 40
LEGEND = 48
"""Height of one legend row."""
FOOTER = 92
"""Heights and widths in px. Only a player's setup image has the footer (ships to place)."""
ITEM_LINE = 34
"""A setup footer's extra line for the mines and minesweepers still to lay (§4.6, §4.7)."""
NOTE_LINE = 22
NOTE_LINES = 3
"""Blind-report Salvo (§4.3): the last reports are written under each field."""


def cell_size(size: int) -> int:
    """30 px cells at 10x10 (a 740 px wide image) and 22 px at 15x15 (800 px).

    Phones scale a board to the screen's width, so what counts there is the share of the
    image the grids take, not their pixels: 30 px cells keep nearly the share 36 px had
    (81 % against 84 %; 16.2 px against 16.7 px a cell on a 400 px wide phone image) and
    make every image a quarter cheaper to draw and to compress. Small boards get bigger
    cells so the two fields, titles and legend still have room.
    """
    if size >= STACKED_FROM:
        return min(24, 440 // size)
    return min(50, 300 // size) if size <= 10 else max(20, 330 // size)


@dataclass(frozen=True)
class Layout:
    """Where everything sits for one board size and phase; pure geometry, cached."""

    size: int
    cell: int
    width: int
    height: int
    grids: tuple[tuple[int, int], tuple[int, int]]
    """Top-left pixel of the left and the right grid."""
    footer_top: int | None
    legend_top: int
    legend_rows: int
    notes_top: int | None = None

    def cell_box(self, panel: int, cell: Cell) -> tuple[int, int, int, int]:
        """The pixel box of ``cell`` in panel 0 (left) or 1 (right), grid lines included."""
        left, top = self.grids[panel]
        column, row = cell
        x, y = left + column * self.cell, top + row * self.cell
        return x, y, x + self.cell, y + self.cell

    def cell_centre(self, panel: int, cell: Cell) -> tuple[int, int]:
        x0, y0, x1, y1 = self.cell_box(panel, cell)
        return (x0 + x1) // 2, (y0 + y1) // 2

    @property
    def grid_span(self) -> int:
        return self.cell * self.size


STACKED_FROM = 16
"""Boards this large put the two fields one above the other: side by side, a phone would
shrink an 18x18 cell to 9 px; stacked, it keeps 16 px."""


@lru_cache(maxsize=32)
def layout(
    size: int, footer: bool, blind: bool = False, mines: bool = False, sweepers: bool = False
) -> Layout:
    """Geometry for a board of ``size``; ``footer`` adds the setup lines under the fields,
    ``blind`` the lines of blind salvo reports (§4.3), ``mines`` their legend (§4.6), and
    ``sweepers`` the minesweepers' (§4.7)."""
    cell = cell_size(size)
    span = cell * size
    top = MARGIN + HEADER + PANEL_TITLE + AXIS
    left = MARGIN + AXIS
    if size >= STACKED_FROM:
        second = (left, top + span + 16 + PANEL_TITLE + AXIS)
        width = left + span + MARGIN
    else:
        second = (left + span + GAP + AXIS, top)
        width = second[0] + span + MARGIN
    below = second[1] + span + 16
    footer_top = below if footer else None
    notes_top = None
    if blind and not footer:
        notes_top = below
        below += NOTE_LINE * NOTE_LINES + 8
    legend_top = below + (FOOTER + (ITEM_LINE if mines else 0) if footer else 0)
    items = legend_items(cell, "Ship afloat", blind, mines, sweepers)
    rows = next(
        r
        for r in range(1, len(items) + 1)
        if all(
            legend_width(chunk, legend_spacing(size)) <= width - 2 * MARGIN
            for chunk in legend_rows_of(items, r)
        )
    )
    height = legend_top + rows * LEGEND + MARGIN // 2
    grids = ((left, top), second)
    return Layout(size, cell, width, height, grids, footer_top, legend_top, rows, notes_top)


def legend_spacing(size: int) -> int:
    return NARROW_SPACING if size >= STACKED_FROM else LEGEND_SPACING


def legend_rows_of(items: list[tuple[str, int]], rows: int) -> list[list[tuple[str, int]]]:
    per_row = -(-len(items) // rows)
    return [items[i : i + per_row] for i in range(0, len(items), per_row)]


def legend_labels(view: SeaBattleView) -> list[str]:
    """The legend's entries under this view's board, in order."""
    geo = layout_for(view)
    ship = ship_label(view.seat is None, view.phase is Phase.FINISHED)
    labels = legend_items(geo.cell, ship, view.blind_report, view.mines, view.sweepers)
    return [label for label, _ in labels]


def layout_for(view: SeaBattleView) -> Layout:
    """The geometry ``render`` uses for this view, e.g. to find a cell's pixels in tests."""
    setup = view.phase is Phase.SETUP and view.seat is not None
    return layout(view.size, setup, view.blind_report, view.mines, view.sweepers)


def font_sizes(cell: int) -> tuple[int, int]:
    """(axis labels, legend) in px, scaled with the cells."""
    return (19, 18) if cell >= 32 else (16, 17)


SWATCH = 28
LEGEND_SPACING = 22
NARROW_SPACING = 12
"""Between legend entries; a stacked (narrow) board packs them closer."""


def ship_label(public: bool, finished: bool) -> str:
    """The legend's word for a ship: the viewer's own, or any ship once all are shown."""
    return "Ship afloat" if public or finished else "Your ship"


def legend_items(
    cell: int, ship_label: str, blind: bool = False, mines: bool = False, sweepers: bool = False
) -> list[tuple[str, int]]:
    """(label, width) per legend entry, swatch included."""
    _, size = font_sizes(cell)
    labels = ["Miss", "Hit", "Sunk", "Known empty", ship_label, "Last shot"]
    if blind:
        labels[3] = "Shot, salvo no."
    if mines:
        labels += ["Mine", "Minesweeper", "Disclosed"] if sweepers else ["Mine", "Disclosed"]
    return [(label, SWATCH + 8 + text_width(label, size)) for label in labels]


def legend_width(items: list[tuple[str, int]], spacing: int = LEGEND_SPACING) -> int:
    return sum(width for _, width in items) + spacing * (len(items) - 1)
