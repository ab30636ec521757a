"""A Sea Battle field laid out as one layer: every cell's mark, the ships shown and flags.

A board copies each of its two fields' layers in one go. A move changes a field in a cell
or a few, so a layer is mostly the layer of the field drawn before it with those cells
repainted, which gives exactly the pixels of drawing it whole.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Iterator
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.grid import Cell
from bot.games.seabattle.rules import SUBMARINE
from bot.games.seabattle.view import FieldView, Mark, ShipOutline
from renderers.common import Sprite
from renderers.seabattle_marks import (
    PALETTE,
    hull_sprite,
    mark_sprite,
    shaped_hull_sprite,
    submarine_sprite,
)

REPAINTED_AT_MOST = 40
"""Cells repainted one by one (a sinking repaints its ship, and the water around it where
that is marked); a field with more is drawn whole."""


@lru_cache(maxsize=256)
def field_layer(cell: int, size: int, field: FieldView) -> Image.Image:
    """The inside of one field's grid (its border excluded) with every mark and ship on
    it, cached by the field as seen: opaque, so it is copied onto a board in one go.

    A shot changes one field only, and the channel sees a field exactly as the shooter
    does, so most fields of a move's three images were drawn before. The last-shot ring
    reaches past its cell onto the border, so the board stamps it afterwards.

    A field that differs in a few cells from one drawn lately on the same ground (where
    its ships lie, and its flags) is that field's layer with those cells repainted
    (``_repainted``), as drawing a large field whole is a move's whole share of the
    drawing (docs/performance/moves.md).
    """
    layer = _from_recent(cell, size, field)
    if layer is None:
        layer = _drawn_layer(cell, size, field)
    RECENT.keep(_ground(cell, size, field.disclosed, field.ships), field, layer)
    return layer


def _from_recent(cell: int, size: int, field: FieldView) -> Image.Image | None:
    """``field``'s layer repainted from the first field kept that it differs little from."""
    for ground in _grounds(cell, size, field):
        for before, drawn in RECENT.get(ground):
            layer = _repainted(before, drawn, field, cell)
            if layer is not None:
                return layer
    return None


def _ground(
    cell: int, size: int, disclosed: tuple[Cell, ...], ships: Iterable[ShipOutline]
) -> Hashable:
    """What a field is drawn on: where its ships lie (sunk or not) and its flags."""
    return cell, size, disclosed, tuple(ship.cells for ship in ships)


def _grounds(cell: int, size: int, field: FieldView) -> Iterator[Hashable]:
    """``field``'s own ground, then, only if asked for, each ground it could have had
    before one of its ships was shown (a ship just sunk, as its opponent sees it)."""
    ships = field.ships
    yield _ground(cell, size, field.disclosed, ships)
    for index in range(len(ships)):
        yield _ground(cell, size, field.disclosed, ships[:index] + ships[index + 1 :])


class RecentLayers:
    """The fields drawn lately with their layers, a few for each ground, ``kept`` in all
    (each layer an 18x18 field's 190 KB at most): the next field of a game starts from
    one of them.

    Several are kept for each ground: until a ship sinks, both players' fields as their
    opponents see them show no ship, nor do other games' fields. Any of them with few
    cells changed will do, whichever game it came from: the repainting is exact.
    """

    def __init__(self, kept: int = 256, each: int = 8) -> None:
        self.kept = kept
        self.each = each
        self._grounds: OrderedDict[Hashable, tuple[tuple[FieldView, Image.Image], ...]]
        self._grounds = OrderedDict()
        self._count = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    def get(self, ground: Hashable) -> tuple[tuple[FieldView, Image.Image], ...]:
        """The fields kept for ``ground``, the latest first."""
        with self._lock:
            return self._grounds.get(ground, ())

    def keep(self, ground: Hashable, field: FieldView, layer: Image.Image) -> None:
        with self._lock:
            before = self._grounds.pop(ground, ())
            kept = ((field, layer), *before[: self.each - 1])
            self._grounds[ground] = kept
            self._count += len(kept) - len(before)
            while self._count > self.kept:
                _, dropped = self._grounds.popitem(last=False)
                self._count -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._grounds.clear()
            self._count = 0


RECENT = RecentLayers()
"""The fields this process drew lately."""


def _repainted(
    before: FieldView, layer: Image.Image, field: FieldView, cell: int
) -> Image.Image | None:
    """``layer`` (``before`` drawn) made into ``field``'s, or None when too much differs.

    The cells to repaint are those whose mark changed and those of a ship shown
    differently (sunk, or just shown). Each gets its tile again (its grid lines and
    mark, as ``_cell_marks`` lays it out), which also wipes whatever a ship or flag
    stamped on it. Then every ship on or next to a repainted cell is stamped again, in
    the order the whole drawing stamps them (a Flying Dutchman joined at a corner
    reaches into the two cells beside it), and every flag after them, as drawn last. So
    each pixel ends with the same last stamp as when the field is drawn whole.

    ``before`` was kept on a ground of ``field``'s, so it has the same size and flags.
    """
    repaint: set[Cell] = set()
    for row, (old, new) in enumerate(zip(before.marks, field.marks, strict=True)):
        if old is new or old == new:  # rows the engine carried over are the same tuple
            continue
        repaint.update((column, row) for column, mark in enumerate(new) if mark is not old[column])
        if len(repaint) > REPAINTED_AT_MOST:
            return None
    if before.ships != field.ships:  # a ship sunk, or shown since it sank
        for ship in set(before.ships) ^ set(field.ships):
            repaint.update(ship.cells)
    if not repaint:
        return layer  # never drawn on: a layer is only ever copied
    if len(repaint) > REPAINTED_AT_MOST:
        return None
    if any(_flagged(before, at) != _flagged(field, at) for at in repaint):
        return None  # a flag's reach past its cell could not be wiped
    ship_at = {part: index for index, ship in enumerate(field.ships) for part in ship.cells}
    repainted = layer.copy()
    for at in repaint:
        kind = None if at in ship_at else MARK_SPRITES.get(field.mark(at))
        column, row = at
        repainted.paste(_tile_image(kind, cell), (column * cell - 1, row * cell - 1))
    restamped = {ship_at[near] for at in repaint for near in _within(at, 1) if near in ship_at}
    for index in sorted(restamped):
        _stamp_ship(repainted, field, field.ships[index], cell, -1)
    _stamp_flags(repainted, field, cell, -1)
    return repainted


def _within(at: Cell, reach: int) -> Iterable[Cell]:
    """The cells at most ``reach`` rows and columns from ``at`` (some may lie off the
    field), ``at`` included."""
    column, row = at
    span = range(-reach, reach + 1)
    return [(column + dc, row + dr) for dr in span for dc in span]


def _drawn_layer(cell: int, size: int, field: FieldView) -> Image.Image:
    """``field_layer`` drawn whole.

    Cell marks stay inside their cell, so they need no pasting at all: the field is laid
    out as bytes, a row of cells at a time, with each cell's grid lines and mark; only
    the few ships, the X on their hits and the disclosed-cell flags are pasted on top.
    """
    span = cell * size
    layer = Image.frombytes(
        "P", (span, span), b"".join(_mark_band(kinds, cell) for kinds in _cell_marks(field))
    )
    for ship in field.ships:
        _stamp_ship(layer, field, ship, cell, 0)
    _stamp_flags(layer, field, cell, 0)
    return layer.crop((1, 1, span, span))  # the grid's first line is its border


def _stamp_ship(
    layer: Image.Image, field: FieldView, ship: ShipOutline, cell: int, origin: int
) -> None:
    """Stamp ``ship``'s hull and an X on each of its hit cells; ``origin`` is where the
    field's first grid line lies on ``layer`` (-1 once the border is cropped off)."""

    def stamp(sprite: Sprite, at: Cell) -> None:
        column, row = at
        sprite.stamp(layer, (origin + column * cell, origin + row * cell))

    columns = {c for c, _ in ship.cells}
    rows = {r for _, r in ship.cells}
    if ship.kind == SUBMARINE:  # §4.8: drawn as a rhombus, as on paper
        stamp(submarine_sprite(cell, ship.sunk), ship.cells[0])
    elif len(columns) * len(rows) != len(ship.cells):  # an L or a zigzag (§4.4)
        corner = (min(columns), min(rows))
        pattern = tuple((c - corner[0], r - corner[1]) for c, r in ship.cells)
        stamp(shaped_hull_sprite(cell, pattern, ship.sunk), corner)
    elif len(columns) > 1 and len(rows) > 1:  # the square four-decker
        square = ((0, 0), (1, 0), (0, 1), (1, 1))
        stamp(shaped_hull_sprite(cell, square, ship.sunk), min(ship.cells))
    else:
        vertical = len(columns) == 1 and len(ship.cells) > 1
        stamp(hull_sprite(cell, len(ship.cells), vertical, ship.sunk), min(ship.cells))
    cross = mark_sprite("x", cell)
    for part in ship.cells:
        if field.mark(part) in (Mark.HIT, Mark.SUNK):
            stamp(cross, part)


def _stamp_flags(layer: Image.Image, field: FieldView, cell: int, origin: int) -> None:
    """Flag the owner's own disclosed cells (§4.6-4.7), over everything else."""
    flag = mark_sprite("flag", cell)
    for column, row in field.disclosed:
        if _flagged(field, (column, row)):
            flag.stamp(layer, (origin + column * cell, origin + row * cell))


def _flagged(field: FieldView, at: Cell) -> bool:
    """Whether ``at`` carries a flag: a cell its owner disclosed, seen by the owner."""
    return at in field.disclosed and field.mark(at) not in (Mark.DISCLOSED, Mark.KNOWN_MINE)


def _cell_marks(field: FieldView) -> list[tuple[str | None, ...]]:
    """Per row, the mark drawn in each cell; none under a ship, whose hull covers it."""
    on_hulls = {c for ship in field.ships for c in ship.cells}
    return [
        tuple(
            None if (column, row) in on_hulls else MARK_SPRITES.get(mark)
            for column, mark in enumerate(marks)
        )
        for row, marks in enumerate(field.marks)
    ]


@lru_cache(maxsize=128)
def _mark_band(kinds: tuple[str | None, ...], cell: int) -> bytes:
    """One row of cells (``kinds``: a mark or nothing each) as the layer's pixel bytes,
    ``cell`` pixel rows of the whole row's width."""
    tiles = [_mark_tile(kind, cell) for kind in kinds]
    return b"".join(tile[y] for y in range(cell) for tile in tiles)


@lru_cache(maxsize=64)
def _tile_image(kind: str | None, cell: int) -> Image.Image:
    """One cell's tile (``_mark_tile``) as an image, to paste over a repainted cell."""
    return Image.frombytes("P", (cell, cell), b"".join(_mark_tile(kind, cell)))


@lru_cache(maxsize=64)
def _mark_tile(kind: str | None, cell: int) -> tuple[bytes, ...]:
    """One cell as pixel rows: sea, the grid lines above and left of it (as the board's
    static layer draws them), and the mark ``kind`` if any.

    Only for marks drawn inside their cell (not the ring), so cropping their sprite to
    the cell loses nothing.
    """
    tile = Image.new("P", (cell, cell), PALETTE["sea"])
    draw = ImageDraw.Draw(tile)
    draw.line((0, 0, cell - 1, 0), fill=PALETTE["grid"])
    draw.line((0, 0, 0, cell - 1), fill=PALETTE["grid"])
    if kind is not None:
        sprite = mark_sprite(kind, cell)
        edge = -sprite.offset[0]  # where the cell's top-left grid corner sits in the sprite
        box = (edge, edge, edge + cell, edge + cell)
        tile.paste(sprite.image.crop(box), (0, 0), sprite.mask.crop(box))
    data = tile.tobytes()
    return tuple(data[y : y + cell] for y in range(0, len(data), cell))


MARK_SPRITES = {
    Mark.MISS: "miss",
    Mark.HIT: "hit",
    Mark.SUNK: "hit",  # sunk cells lie under their hull; this is a fallback
    Mark.CLEAR: "clear",
    Mark.SHOT: "shot",
    Mark.MINE: "mine",
    Mark.MINE_HIT: "mine_hit",
    Mark.KNOWN_MINE: "known_mine",
    Mark.SWEEPER: "sweeper",
    Mark.SWEEPER_HIT: "sweeper_hit",
    Mark.DISCLOSED: "disclosed",
}
"""The sprite of each mark drawn inside its cell, by name (none for open sea or a ship)."""
