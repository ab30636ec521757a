"""Sea Battle cell marks and ship hulls as cached sprites (``seabattle_layers`` lays a
field out with them).

Every mark differs by shape as well as colour (dot = miss, X = hit, hull = ship, filled hull
with X = sunk, ring = last shot, spiked ball = mine, triangle = minesweeper) for
colour-blind readers.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw

from bot.games.grid import Cell
from renderers.common import Sprite, board_palette, make_sprite

PALETTE = board_palette("seabattle")
"""The board's colours: ``renderers/palettes.toml``."""


# -- marks --------------------------------------------------------------------------------
# Each mark is painted by a function on a box (x0, y0, x1, y1) whose edges are the grid
# lines around a cell, then turned into a cached sprite per cell size.

Box = tuple[int, int, int, int]


def _inner(box: Box) -> Box:
    """A cell box without its grid lines."""
    x0, y0, x1, y1 = box
    return x0 + 1, y0 + 1, x1 - 1, y1 - 1


def _paint_miss(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    radius = max(3, round((x1 - x0) * 0.16))
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PALETTE["miss"])


def _paint_x(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A thick X with a dark rim: reads on sea, on grey hulls and on sunk hulls alike."""
    x0, y0, x1, y1 = box
    size = x1 - x0
    inset = round(size * 0.26)
    width = max(3, round(size * 0.13))
    a, b = (x0 + inset, y0 + inset), (x1 - inset, y1 - inset)
    c, d = (x0 + inset, y1 - inset), (x1 - inset, y0 + inset)
    for fill, extra in (("outline", 3), ("hit", 0)):
        draw.line((a, b), fill=PALETTE[fill], width=width + extra)
        draw.line((c, d), fill=PALETTE[fill], width=width + extra)


def _paint_hit(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A hit on a ship the viewer cannot see: the whole cell is tinted as well."""
    draw.rectangle(_inner(box), fill=PALETTE["hit_cell"])
    _paint_x(draw, box)


def _paint_clear(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Known empty: a darker, hatched cell, quieter than a miss so shots stand out."""
    x0, y0, x1, y1 = _inner(box)
    draw.rectangle((x0, y0, x1, y1), fill=PALETTE["clear"])
    size = x1 - x0
    step = max(6, size // 4)
    for offset in range(step, 2 * size, step):
        start = (x0 + offset, y0) if offset <= size else (x1, y0 + offset - size)
        end = (x0, y0 + offset) if offset <= size else (x0 + offset - size, y1)
        draw.line((start, end), fill=PALETTE["hatch"], width=1)


def _paint_shot(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A blind salvo shot (§4.3): a hollow ring; the salvo's number is written inside."""
    x0, y0, x1, y1 = _inner(box)
    inset = max(2, round((x1 - x0) * 0.08))
    width = max(2, round((x1 - x0) * 0.07))
    draw.ellipse(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=PALETTE["miss"], width=width
    )


def _paint_ring(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The last shot: a thick yellow frame with a dark rim, drawn over everything else."""
    x0, y0, x1, y1 = box
    width = max(3, round((x1 - x0) * 0.1))
    draw.rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=PALETTE["outline"], width=1)
    draw.rectangle((x0, y0, x1, y1), outline=PALETTE["accent"], width=width)


def _paint_hull(draw: ImageDraw.ImageDraw, box: Box, cell: int, sunk: bool) -> None:
    """A ship as one rounded hull over its cells, so its length and heading read at a glance."""
    x0, y0, x1, y1 = _inner(box)
    inset = max(3, round(cell * 0.1))
    radius = max(3, round((cell - 2 * inset) * 0.35))
    fill, edge = ("sunk", "sunk_edge") if sunk else ("ship", "ship_edge")
    draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        radius=radius,
        fill=PALETTE[fill],
        outline=PALETTE[edge],
        width=2,
    )


def _paint_mine(draw: ImageDraw.ImageDraw, box: Box, *, spent: bool, known: bool) -> None:
    """A mine (§4.6): a ball with four horns. Spent: hollow with a dot in the middle, as on
    paper; an enemy mine disclosed to the viewer: drawn in the warning colour."""
    x0, y0, x1, y1 = _inner(box)
    size = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    radius = size * 0.26
    horn = size * 0.42
    colour = PALETTE["warn"] if known else PALETTE["mine"]
    width = max(2, round(size * 0.08))
    for dx, dy in ((1, 0), (0, 1), (0.71, 0.71), (0.71, -0.71)):
        draw.line(
            (cx - dx * horn, cy - dy * horn, cx + dx * horn, cy + dy * horn),
            fill=colour,
            width=width,
        )
    ball = (cx - radius, cy - radius, cx + radius, cy + radius)
    if spent:
        draw.ellipse(ball, fill=PALETTE["sea"], outline=colour, width=width)
        dot = max(2, size * 0.08)
        draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=colour)
    else:
        draw.ellipse(ball, fill=colour)


def _paint_sweeper(draw: ImageDraw.ImageDraw, box: Box, *, spent: bool) -> None:
    """A minesweeper (§4.7): an isosceles triangle standing on the cell's lower side, as the
    seed draws it; hollow with a dot once struck."""
    x0, y0, x1, y1 = _inner(box)
    size = x1 - x0
    inset = size * 0.16
    points = [(x0 + inset, y1 - inset), (x1 - inset, y1 - inset), ((x0 + x1) / 2, y0 + inset)]
    width = max(2, round(size * 0.08))
    if spent:
        draw.polygon(points, fill=PALETTE["sea"], outline=PALETTE["sweeper"], width=width)
        cx, cy, dot = (x0 + x1) / 2, y1 - size * 0.36, max(2, size * 0.08)
        draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=PALETTE["sweeper"])
    else:
        draw.polygon(points, fill=PALETTE["sweeper"])


def _paint_disclosed(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """An enemy ship cell disclosed to the viewer (§4.6): a hollow hull, a sure hit."""
    x0, y0, x1, y1 = _inner(box)
    size = x1 - x0
    inset = max(3, round(size * 0.12))
    draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        radius=max(3, round(size * 0.25)),
        outline=PALETTE["warn"],
        width=max(2, round(size * 0.1)),
    )


def _paint_flag(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """On one's own board, a cell one has disclosed: a warning corner, top right."""
    x0, y0, x1, _ = _inner(box)
    size = x1 - x0
    corner = size * 0.42
    draw.polygon([(x1 - corner, y0), (x1, y0), (x1, y0 + corner)], fill=PALETTE["warn"])


_CELL_PAINTERS = {
    "miss": _paint_miss,
    "x": _paint_x,
    "hit": _paint_hit,
    "clear": _paint_clear,
    "ring": _paint_ring,
    "shot": _paint_shot,
    "mine": lambda draw, box: _paint_mine(draw, box, spent=False, known=False),
    "mine_hit": lambda draw, box: _paint_mine(draw, box, spent=True, known=False),
    "known_mine": lambda draw, box: _paint_mine(draw, box, spent=False, known=True),
    "sweeper": lambda draw, box: _paint_sweeper(draw, box, spent=False),
    "sweeper_hit": lambda draw, box: _paint_sweeper(draw, box, spent=True),
    "disclosed": _paint_disclosed,
    "flag": _paint_flag,
}


@lru_cache(maxsize=64)
def mark_sprite(kind: str, cell: int) -> Sprite:
    """The sprite of one cell mark, stamped at the cell's top-left grid corner."""
    pad = 2  # the ring reaches past the grid lines
    side = cell + 1 + 2 * pad
    box = (pad, pad, pad + cell, pad + cell)
    return make_sprite((side, side), lambda draw: _CELL_PAINTERS[kind](draw, box), (-pad, -pad))


@lru_cache(maxsize=128)
def hull_sprite(cell: int, length: int, vertical: bool, sunk: bool) -> Sprite:
    """The sprite of a whole ship, stamped at its first cell's top-left grid corner."""
    span = cell * length
    width, height = (cell, span) if vertical else (span, cell)
    return make_sprite(
        (width + 1, height + 1),
        lambda draw: _paint_hull(draw, (0, 0, width, height), cell, sunk),
    )


@lru_cache(maxsize=8)
def submarine_sprite(cell: int, sunk: bool) -> Sprite:
    """The §4.8 submarine: a rhombus filling its cell, so it never looks like a torpedo boat."""
    fill, edge = ("sunk", "sunk_edge") if sunk else ("ship", "ship_edge")

    def paint(draw: ImageDraw.ImageDraw) -> None:
        inset = max(2, round(cell * 0.08))
        middle = cell / 2
        points = [(middle, inset), (cell - inset, middle), (middle, cell - inset), (inset, middle)]
        draw.polygon(points, fill=PALETTE[fill], outline=PALETTE[edge], width=2)

    return make_sprite((cell + 1, cell + 1), paint)


@lru_cache(maxsize=256)
def shaped_hull_sprite(cell: int, pattern: tuple[Cell, ...], sunk: bool) -> Sprite:
    """The sprite of a ship that is not a line (§4.4): one hull bent through its cells,
    stamped at the top-left grid corner of its bounding box."""
    width = (max(c for c, _ in pattern) + 1) * cell
    height = (max(r for _, r in pattern) + 1) * cell
    inset = max(3, round(cell * 0.1))
    fill, edge = ("sunk", "sunk_edge") if sunk else ("ship", "ship_edge")

    def paint_layer(draw: ImageDraw.ImageDraw, shrink: int, colour: str) -> None:
        """Each cell's rounded hull, and a plain bridge across the gap to each right or
        lower neighbour; ``shrink`` px smaller all round for the fill inside the edge."""
        radius = max(3, round((cell - 2 * inset) * 0.35)) - shrink
        cells = set(pattern)
        for c, r in pattern:
            x0, y0 = c * cell + 1 + inset + shrink, r * cell + 1 + inset + shrink
            x1, y1 = (c + 1) * cell - 1 - inset - shrink, (r + 1) * cell - 1 - inset - shrink
            draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=PALETTE[colour])
            if (c + 1, r) in cells:
                draw.rectangle(
                    (x1 - radius, y0, x1 + cell - (x1 - x0) + radius, y1), fill=PALETTE[colour]
                )
            if (c, r + 1) in cells:
                draw.rectangle(
                    (x0, y1 - radius, x1, y1 + cell - (y1 - y0) + radius), fill=PALETTE[colour]
                )
            for dc in (-1, 1):  # the Flying Dutchman joins decks at corners too (§5.2)
                if (c + dc, r + 1) in cells and {(c + dc, r), (c, r + 1)}.isdisjoint(cells):
                    middle = (c * cell + cell / 2, r * cell + cell / 2)
                    corner = ((c + dc) * cell + cell / 2, (r + 1) * cell + cell / 2)
                    width = max(3, round(cell * 0.42)) - 2 * shrink
                    draw.line((middle, corner), fill=PALETTE[colour], width=width)

    def paint(draw: ImageDraw.ImageDraw) -> None:
        paint_layer(draw, 0, edge)
        paint_layer(draw, 2, fill)

    return make_sprite((width + 1, height + 1), paint)
