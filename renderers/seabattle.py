"""Sea Battle board images: one ``SeaBattleView`` in, PNG bytes out.

The image shows two fields side by side. A player sees "Your fleet" (their ships and the
enemy's shots at them) and "Your shots" (what they have learnt of the enemy field); the
channel sees both fields as shot grids. Everything drawn comes from the view, so the image
can never show more than the view allows (rules/sea-battle.md §3).

Discord shrinks images to about 400 px wide on phones, so cells are large, markers are
thick, and every mark differs by shape as well as colour (dot = miss, X = hit, hull = ship,
filled hull with X = sunk, ring = last shot) for colour-blind readers. The fixed parts
(background, grids, axes, legend) are drawn once per layout and cached; a render copies
that layer and adds only the marks and the texts that change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import EndReason, Phase, other
from bot.games.grid import Cell, cell_name, column_letter
from bot.games.seabattle.view import FieldView, Mark, SeaBattleView
from renderers.common import (
    COLOURS,
    NO_NAMES,
    Names,
    Palette,
    Sprite,
    encode_png,
    face_of,
    make_sprite,
    player_label,
    player_text,
    text_width,
)

PALETTE = Palette(
    {
        "background": COLOURS["background"],
        "text": COLOURS["text"],
        "muted": COLOURS["muted"],
        "accent": COLOURS["yellow"],  # last shot, and whose turn it is
        "sea": (27, 62, 99),
        "grid": (52, 96, 138),
        "border": (86, 132, 176),
        "clear": (20, 42, 66),  # known empty: darker than open sea, hatched
        "hatch": (58, 86, 116),
        "miss": (220, 230, 240),
        "ship": (150, 166, 184),
        "ship_edge": (212, 222, 232),
        "hit": (255, 140, 26),  # Okabe-Ito orange, brightened to stand out on grey hulls
        "hit_cell": (92, 60, 40),  # hit on an unknown ship: the cell is tinted too
        "sunk": (196, 64, 30),
        "sunk_edge": (255, 178, 140),
        "outline": (12, 14, 20),  # dark rim under every X so it reads on any fill
    },
    ramps=[
        ("text", "background"),
        ("muted", "background"),
        ("accent", "background"),
        ("text", "sea"),
        ("muted", "sea"),
    ],
)

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


def cell_size(size: int) -> int:
    """30 px cells at 10x10 (a 740 px wide image) and 22 px at 15x15 (800 px).

    Phones scale a board to the screen's width, so what counts there is the share of the
    image the grids take, not their pixels: 30 px cells keep nearly the share 36 px had
    (81 % against 84 %; 16.2 px against 16.7 px a cell on a 400 px wide phone image) and
    make every image a quarter cheaper to draw and to compress. Small boards get bigger
    cells so the two fields, titles and legend still have room.
    """
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


@lru_cache(maxsize=16)
def layout(size: int, footer: bool) -> Layout:
    """Geometry for a board of ``size``; ``footer`` adds the setup lines under the fields."""
    cell = cell_size(size)
    span = cell * size
    top = MARGIN + HEADER + PANEL_TITLE + AXIS
    left = MARGIN + AXIS
    right = left + span + GAP + AXIS
    below = top + span + 16
    footer_top = below if footer else None
    legend_top = below + (FOOTER if footer else 0)
    width = right + span + MARGIN
    rows = 1 if _legend_width(_legend_items(cell, "Ship afloat")) <= width - 2 * MARGIN else 2
    height = legend_top + rows * LEGEND + MARGIN // 2
    grids = ((left, top), (right, top))
    return Layout(size, cell, width, height, grids, footer_top, legend_top, rows)


def layout_for(view: SeaBattleView) -> Layout:
    """The geometry ``render`` uses for this view, e.g. to find a cell's pixels in tests."""
    return layout(view.size, view.phase is Phase.SETUP and view.seat is not None)


def panel_fields(view: SeaBattleView) -> tuple[FieldView, FieldView]:
    """The fields as drawn left to right: a player's own fleet first, else seat order."""
    if view.seat is None:
        return view.fields
    return view.fields[view.seat], view.fields[other(view.seat)]


Namer = Callable[[int], str]
"""A seat's name as one output can show it: fitted to the image, or whole for alt text."""

NAME_WIDTH = 210
"""The most a player's name may take in the header, in px at 24 px."""


def _drawn_names(names: Names, width: int = NAME_WIDTH) -> Namer:
    return lambda seat: player_label(names, seat, 24, width)[0]


def _title_room(geo: Layout) -> int:
    """What a name may take in a field's title, beside "'s fleet" and "10 afloat"."""
    return geo.grid_span - text_width("'s fleet", 24) - text_width("10 afloat", 20) - 16


# -- the static layer ---------------------------------------------------------------------


def _font_sizes(cell: int) -> tuple[int, int]:
    """(axis labels, legend) in px, scaled with the cells."""
    return (19, 18) if cell >= 32 else (16, 17)


@lru_cache(maxsize=32)
def _static_layer(
    size: int, setup: bool, public: bool, finished: bool, variant: str
) -> Image.Image:
    """Background, title, empty grids with coordinates, legend: identical for every move."""
    geo = layout(size, setup and not public)
    image = PALETTE.new_image((geo.width, geo.height), "background")
    draw = ImageDraw.Draw(image)
    title = "Sea Battle"
    PALETTE.text(image, (MARGIN, HEADER_BASELINE), title, 26, "text", "background", "ls")
    subtitle = f"{variant} · {size}x{size}"
    x = MARGIN + text_width(title, 26) + 14
    PALETTE.text(image, (x, HEADER_BASELINE), subtitle, 17, "muted", "background", "ls")
    axis_size, _ = _font_sizes(geo.cell)
    for panel in (0, 1):
        left, top = geo.grids[panel]
        span = geo.grid_span
        draw.rectangle((left, top, left + span, top + span), fill=PALETTE["sea"])
        for i in range(1, size):
            offset = i * geo.cell
            draw.line((left + offset, top, left + offset, top + span), fill=PALETTE["grid"])
            draw.line((left, top + offset, left + span, top + offset), fill=PALETTE["grid"])
        draw.rectangle(
            (left - 1, top - 1, left + span + 1, top + span + 1), outline=PALETTE["border"], width=2
        )
        for i in range(size):
            middle = i * geo.cell + geo.cell // 2
            PALETTE.text(
                image,
                (left + middle, top - AXIS // 2),
                column_letter(i),
                axis_size,
                "muted",
                "background",
                anchor="mm",
            )
            PALETTE.text(
                image,
                (left - 8, top + middle),
                str(i + 1),
                axis_size,
                "muted",
                "background",
                anchor="rm",
            )
    _draw_legend(image, geo, public, finished)
    return image


SWATCH = 28
LEGEND_SPACING = 22


def _legend_items(cell: int, ship_label: str) -> list[tuple[str, int]]:
    """(label, width) per legend entry, swatch included."""
    _, size = _font_sizes(cell)
    labels = ["Miss", "Hit", "Sunk", "Known empty", ship_label, "Last shot"]
    return [(label, SWATCH + 8 + text_width(label, size)) for label in labels]


def _legend_width(items: list[tuple[str, int]]) -> int:
    return sum(width for _, width in items) + LEGEND_SPACING * (len(items) - 1)


def _draw_legend(image: Image.Image, geo: Layout, public: bool, finished: bool) -> None:
    """Sample cells with labels, stamped from the same sprites as the board, centred in
    one row (two on small boards)."""
    items = _legend_items(geo.cell, "Ship afloat" if public or finished else "Your ship")
    samples = [
        [_mark("miss", SWATCH)],
        [_mark("hit", SWATCH)],
        [_hull(SWATCH, 1, False, True), _mark("x", SWATCH)],
        [_mark("clear", SWATCH)],
        [_hull(SWATCH, 1, False, False)],
        [_mark("ring", SWATCH)],
    ]
    _, label_size = _font_sizes(geo.cell)
    draw = ImageDraw.Draw(image)
    per_row = -(-len(items) // geo.legend_rows)
    for row in range(geo.legend_rows):
        chunk = slice(row * per_row, (row + 1) * per_row)
        x = max(MARGIN, (geo.width - _legend_width(items[chunk])) // 2)
        top = geo.legend_top + row * LEGEND + (LEGEND - SWATCH) // 2
        for (label, width), sprites in zip(items[chunk], samples[chunk], strict=True):
            box = (x, top, x + SWATCH, top + SWATCH)
            draw.rectangle(box, fill=PALETTE["sea"], outline=PALETTE["grid"])
            for sprite in sprites:
                sprite.stamp(image, (x, top))
            middle = (x + SWATCH + 8, top + SWATCH // 2)
            PALETTE.text(image, middle, label, label_size, "text", "background", anchor="lm")
            x += width + LEGEND_SPACING


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


_CELL_PAINTERS = {
    "miss": _paint_miss,
    "x": _paint_x,
    "hit": _paint_hit,
    "clear": _paint_clear,
    "ring": _paint_ring,
}


@lru_cache(maxsize=64)
def _mark(kind: str, cell: int) -> Sprite:
    """The sprite of one cell mark, stamped at the cell's top-left grid corner."""
    pad = 2  # the ring reaches past the grid lines
    side = cell + 1 + 2 * pad
    box = (pad, pad, pad + cell, pad + cell)
    return make_sprite((side, side), lambda draw: _CELL_PAINTERS[kind](draw, box), (-pad, -pad))


@lru_cache(maxsize=128)
def _hull(cell: int, length: int, vertical: bool, sunk: bool) -> Sprite:
    """The sprite of a whole ship, stamped at its first cell's top-left grid corner."""
    span = cell * length
    width, height = (cell, span) if vertical else (span, cell)
    return make_sprite(
        (width + 1, height + 1),
        lambda draw: _paint_hull(draw, (0, 0, width, height), cell, sunk),
    )


def _draw_field(image: Image.Image, geo: Layout, panel: int, field: FieldView) -> None:
    left, top = geo.grids[panel]
    image.paste(_field_layer(geo.cell, geo.size, field), (left + 1, top + 1))
    if field.last_shot is not None:
        column, row = field.last_shot
        _mark("ring", geo.cell).stamp(image, (left + column * geo.cell, top + row * geo.cell))


@lru_cache(maxsize=256)
def _field_layer(cell: int, size: int, field: FieldView) -> Image.Image:
    """The inside of one field's grid (its border excluded) with every mark and ship on
    it, cached by the field as seen: opaque, so it is copied onto a board in one go.

    A shot changes one field only, and the channel sees a field exactly as the shooter
    does, so most fields of a move's three images were drawn before. The last-shot ring
    reaches past its cell onto the border, so it is stamped on the board afterwards.

    Cell marks stay inside their cell, so they need no pasting at all: the field is laid
    out as bytes, a row of cells at a time, with each cell's grid lines and mark; only
    the few ships and the X on their hits are pasted on top.
    """
    span = cell * size
    layer = Image.frombytes(
        "P", (span, span), b"".join(_mark_band(kinds, cell) for kinds in _cell_marks(field))
    )

    def stamp(sprite: Sprite, at: Cell) -> None:
        column, row = at
        xy = (column * cell + sprite.offset[0], row * cell + sprite.offset[1])
        layer.paste(sprite.image, xy, sprite.mask)

    cross = _mark("x", cell)
    for ship in field.ships:
        vertical = len({c for c, _ in ship.cells}) == 1 and len(ship.cells) > 1
        stamp(_hull(cell, len(ship.cells), vertical, ship.sunk), min(ship.cells))
        for part in ship.cells:
            if field.mark(part) in (Mark.HIT, Mark.SUNK):
                stamp(cross, part)
    return layer.crop((1, 1, span, span))  # the grid's first line is its border


def _cell_marks(field: FieldView) -> list[tuple[str | None, ...]]:
    """Per row, the mark drawn in each cell; none under a ship, whose hull covers it."""
    on_hulls = {c for ship in field.ships for c in ship.cells}
    return [
        tuple(
            None if (column, row) in on_hulls else _MARK_SPRITES.get(mark)
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


@lru_cache(maxsize=32)
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
        sprite = _mark(kind, cell)
        edge = -sprite.offset[0]  # where the cell's top-left grid corner sits in the sprite
        box = (edge, edge, edge + cell, edge + cell)
        tile.paste(sprite.image.crop(box), (0, 0), sprite.mask.crop(box))
    data = tile.tobytes()
    return tuple(data[y : y + cell] for y in range(0, len(data), cell))


_MARK_SPRITES = {
    Mark.MISS: "miss",
    Mark.HIT: "hit",
    Mark.SUNK: "hit",  # sunk cells lie under their hull; this is a fallback
    Mark.CLEAR: "clear",
}


# -- texts --------------------------------------------------------------------------------


def _status(view: SeaBattleView, player: Namer) -> tuple[str, bool]:
    """The header line from the viewer's side, and whether it calls the viewer to act."""
    seat = view.seat
    if view.phase is Phase.SETUP:
        if seat is None:
            return "Fleets are being placed", False
        if view.ready[seat]:
            return "Waiting for your opponent", False
        return "Place your ships", True
    if view.phase is Phase.PLAY:
        if view.turn is None:
            return "", False
        if seat is None:
            return f"{player(view.turn)} to shoot", False
        return ("Your turn", True) if view.turn == seat else ("Opponent's turn", False)
    outcome = view.outcome
    if outcome is None or outcome.reason is EndReason.ABORTED:
        return "Game aborted" if outcome else "Game over", False
    how = {EndReason.RESIGNATION: " by resignation", EndReason.TIMEOUT: " on time"}.get(
        outcome.reason, ""
    )
    if outcome.winner is None:
        return "Draw", False
    if seat is None:
        return f"{player(outcome.winner)} wins{how}", False
    if outcome.winner == seat:
        return f"You win{how}!", True
    return f"You lose{how}", False


def _titles(view: SeaBattleView, player: Namer) -> tuple[str, str]:
    if view.seat is None:
        return f"{player(0)}'s fleet", f"{player(1)}'s fleet"
    return "Your fleet", "Your shots"


def _draw_texts(image: Image.Image, geo: Layout, view: SeaBattleView, names: Names) -> None:
    player = _drawn_names(names)
    status, urgent = _status(view, player)
    PALETTE.text(
        image,
        (geo.width - MARGIN, HEADER_BASELINE),
        status,
        24,
        "accent" if urgent else "text",
        "background",
        anchor="rs",
        face=face_of(status),
    )
    fields = panel_fields(view)
    target = None
    if view.phase is Phase.PLAY and view.turn is not None:
        target = 0 if fields[0].owner == other(view.turn) else 1
    titles = _titles(view, _drawn_names(names, _title_room(geo)))
    for panel, (title, field) in enumerate(zip(titles, fields, strict=True)):
        left, top = geo.grids[panel]
        baseline = top - AXIS - PANEL_TITLE // 2
        colour = "accent" if panel == target else "text"
        PALETTE.text(image, (left, baseline), title, 24, colour, "background", "lm", face_of(title))
        if view.phase is not Phase.SETUP:
            afloat = f"{field.afloat} afloat"
            PALETTE.text(
                image, (left + geo.grid_span, baseline), afloat, 20, "muted", "background", "rm"
            )
    if view.phase is Phase.SETUP:
        _draw_setup(image, geo, view, names)


def _ready_word(ready: bool) -> str:
    return "ready" if ready else "placing ships"


def _draw_setup(image: Image.Image, geo: Layout, view: SeaBattleView, names: Names) -> None:
    """Setup extras: which ships are left to place and who has confirmed a fleet."""
    seat = view.seat
    draw = ImageDraw.Draw(image)
    # The shot grids are empty during setup: say why instead of showing a blank sea.
    for panel, field in enumerate(panel_fields(view)):
        if seat is not None and field.owner == seat:
            continue
        left, grid_top = geo.grids[panel]
        middle = (left + geo.grid_span // 2, grid_top + geo.grid_span // 2)
        verb = "is ready" if view.ready[field.owner] else "is placing ships"
        if seat is not None:
            PALETTE.text(image, middle, f"Opponent {verb}", 22, "muted", "sea", anchor="mm")
            continue
        # The public sees a name: it gets a line of its own, the whole field's width.
        who, face = player_label(names, field.owner, 22, geo.grid_span - 20)
        x, y = middle
        PALETTE.text(image, (x, y - 14), who, 22, "text", "sea", "mm", face)
        PALETTE.text(image, (x, y + 14), verb, 22, "muted", "sea", "mm")
    if seat is None or geo.footer_top is None:
        return  # the public sees each player's progress on their field
    top = geo.footer_top
    if view.to_place:
        PALETTE.text(image, (MARGIN, top + 20), "To place:", 20, "text", "background", anchor="lm")
        x = MARGIN + text_width("To place:", 20) + 14
        counts = Counter(kind.length for kind in view.to_place)
        labels = sum(text_width(f"x{n}", 20) + 32 for n in counts.values())
        room = geo.width - MARGIN - x - labels
        icons = sum(counts)  # one icon per distinct length, `length` units long
        unit = max(8, min(26, room // icons))  # shrink the icons for a long fleet
        for length in sorted(counts, reverse=True):
            y = top + 20 - unit // 2
            _hull(unit, length, False, False).stamp(image, (x, y))
            for i in range(1, length):
                xi = x + i * unit
                draw.line((xi, y + 6, xi, y + unit - 6), fill=PALETTE["background"], width=2)
            x += unit * length + 8
            label = f"x{counts[length]}"
            PALETTE.text(image, (x, top + 20), label, 20, "text", "background", anchor="lm")
            x += text_width(label, 20) + 24
    else:
        done = "All ships placed" if view.ready[seat] else "All ships placed: send ready"
        PALETTE.text(image, (MARGIN, top + 20), done, 20, "text", "background", anchor="lm")
    _draw_ready(
        image, geo, top + 58, ("You", "Opponent"), (view.ready[seat], view.ready[other(seat)])
    )


def _draw_ready(
    image: Image.Image, geo: Layout, y: int, who: tuple[str, str], ready: tuple[bool, bool]
) -> None:
    """Both players' setup progress, each under the field it belongs to."""
    for column, (name, done) in enumerate(zip(who, ready, strict=True)):
        text = f"{name}: {_ready_word(done)}"
        colour = "text" if done else "muted"
        left = geo.grids[column][0] - AXIS
        PALETTE.text(image, (left, y), text, 20, colour, "background", "lm")


# -- public API ---------------------------------------------------------------------------


def render_image(view: SeaBattleView, names: Names = NO_NAMES) -> Image.Image:
    """The board as a palette-mode Pillow image (``render`` encodes it).

    ``names`` are the seats' display names, drawn where the public board names players."""
    geo = layout_for(view)
    image = _static_layer(
        view.size,
        view.phase is Phase.SETUP,
        view.seat is None,
        view.phase is Phase.FINISHED,
        view.variant,
    ).copy()
    for panel, field in enumerate(panel_fields(view)):
        _draw_field(image, geo, panel, field)
    _draw_texts(image, geo, view, names)
    return image


def render(view: SeaBattleView, names: Names = NO_NAMES) -> bytes:
    """PNG bytes of the board; the same view and names always give the same bytes."""
    return encode_png(render_image(view, names))


def alt_text(view: SeaBattleView, names: Names = NO_NAMES) -> str:
    """A short description for screen readers (Discord allows 1024 characters).

    The full cell-by-cell twin is ``view.text()``; this says what the picture is about.
    """

    def player(seat: int) -> str:
        return player_text(names, seat)

    status, _ = _status(view, player)
    parts = [f"Sea Battle board ({view.variant}, {view.size}x{view.size})."]
    if status:
        parts.append(status + ".")
    for title, field in zip(_titles(view, player), panel_fields(view), strict=True):
        misses, hits = _count(field, Mark.MISS), _count(field, Mark.HIT, Mark.SUNK)
        bits = [f"{title}: {misses + hits} shots taken, {misses} misses", f"{hits} hits"]
        if view.phase is not Phase.SETUP:
            bits.append(f"{field.afloat} ships afloat")
        if field.last_shot is not None:
            bits.append(f"last shot {cell_name(field.last_shot)}")
        parts.append(", ".join(bits) + ".")
    if view.phase is Phase.SETUP and view.seat is not None:
        if view.to_place:
            lengths = ", ".join(str(kind.length) for kind in view.to_place)
            parts.append(f"Ships still to place, by length: {lengths}.")
        parts.append(f"You are {_ready_word(view.ready[view.seat])}.")
    return " ".join(parts)[:1024]


def _count(field: FieldView, *marks: Mark) -> int:
    """How many cells carry any of ``marks`` (``tuple.count`` compares in C, without
    hashing each cell's mark as a ``Counter`` would)."""
    return sum(row.count(mark) for row in field.marks for mark in marks)
