"""Sea Battle board images: one ``SeaBattleView`` in, PNG bytes out.

The image shows two fields side by side. A player sees "Your fleet" (their ships and the
enemy's shots at them) and "Your shots" (what they have learnt of the enemy field); the
channel sees both fields as shot grids. Everything drawn comes from the view, so the image
can never show more than the view allows (Sea Battle rules §3).

Discord shrinks images to about 400 px wide on phones, so cells are large, markers are
thick, and every mark differs by shape as well as colour (dot = miss, X = hit, hull = ship,
filled hull with X = sunk, ring = last shot) for colour-blind readers. The fixed parts
(background, grids, axes, legend) are drawn once per layout and cached; a render copies
that layer and adds only the marks and the texts that change.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import Phase, other
from bot.games.grid import Cell, column_letter
from bot.games.seabattle.view import FieldView, Mark, SeaBattleView
from renderers.common import (
    NO_NAMES,
    Names,
    face_of,
    player_label,
    text_width,
)
from renderers.png import encode_png
from renderers.seabattle_layers import field_layer
from renderers.seabattle_marks import PALETTE, hull_sprite, mark_sprite
from renderers.seabattle_words import (
    Namer,
    field_counts,
    field_titles,
    header_status,
    panel_fields,
    ready_word,
    setup_line,
)
from renderers.seabattle_words import alt_text as alt_text

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
    items = _legend_items(cell, "Ship afloat", blind, mines, sweepers)
    rows = next(
        r
        for r in range(1, len(items) + 1)
        if all(
            _legend_width(chunk, _spacing(size)) <= width - 2 * MARGIN
            for chunk in _rows_of(items, r)
        )
    )
    height = legend_top + rows * LEGEND + MARGIN // 2
    grids = ((left, top), second)
    return Layout(size, cell, width, height, grids, footer_top, legend_top, rows, notes_top)


def _spacing(size: int) -> int:
    return NARROW_SPACING if size >= STACKED_FROM else LEGEND_SPACING


def _rows_of(items: list[tuple[str, int]], rows: int) -> list[list[tuple[str, int]]]:
    per_row = -(-len(items) // rows)
    return [items[i : i + per_row] for i in range(0, len(items), per_row)]


def legend_labels(view: SeaBattleView) -> list[str]:
    """The legend's entries under this view's board, in order."""
    geo = layout_for(view)
    ship = _ship_label(view.seat is None, view.phase is Phase.FINISHED)
    labels = _legend_items(geo.cell, ship, view.blind_report, view.mines, view.sweepers)
    return [label for label, _ in labels]


def layout_for(view: SeaBattleView) -> Layout:
    """The geometry ``render`` uses for this view, e.g. to find a cell's pixels in tests."""
    setup = view.phase is Phase.SETUP and view.seat is not None
    return layout(view.size, setup, view.blind_report, view.mines, view.sweepers)


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
    size: int,
    setup: bool,
    public: bool,
    finished: bool,
    variant: str,
    blind: bool,
    mines: bool,
    sweepers: bool,
) -> Image.Image:
    """Background, title, empty grids with coordinates, legend: identical for every move."""
    geo = layout(size, setup and not public, blind, mines, sweepers)
    image = PALETTE.new_image((geo.width, geo.height), "background")
    draw = ImageDraw.Draw(image)
    title = "Sea Battle"
    PALETTE.text(image, (MARGIN, HEADER_BASELINE), title, 26, "text", "background", "ls")
    subtitle = variant if variant.startswith(f"{size}x{size}") else f"{variant} · {size}x{size}"
    x = MARGIN + text_width(title, 26) + 14
    if text_width(subtitle, 17) > geo.width // 2 - x:
        # Options make a long name: it goes under the title, clear of the status line.
        PALETTE.text(
            image, (MARGIN, HEADER_BASELINE + 20), subtitle, 15, "muted", "background", "ls"
        )
    else:
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
    _draw_legend(image, geo, public, finished, blind, mines, sweepers)
    return image


SWATCH = 28
LEGEND_SPACING = 22
NARROW_SPACING = 12
"""Between legend entries; a stacked (narrow) board packs them closer."""


def _ship_label(public: bool, finished: bool) -> str:
    """The legend's word for a ship: the viewer's own, or any ship once all are shown."""
    return "Ship afloat" if public or finished else "Your ship"


def _legend_items(
    cell: int, ship_label: str, blind: bool = False, mines: bool = False, sweepers: bool = False
) -> list[tuple[str, int]]:
    """(label, width) per legend entry, swatch included."""
    _, size = _font_sizes(cell)
    labels = ["Miss", "Hit", "Sunk", "Known empty", ship_label, "Last shot"]
    if blind:
        labels[3] = "Shot, salvo no."
    if mines:
        labels += ["Mine", "Minesweeper", "Disclosed"] if sweepers else ["Mine", "Disclosed"]
    return [(label, SWATCH + 8 + text_width(label, size)) for label in labels]


def _legend_width(items: list[tuple[str, int]], spacing: int = LEGEND_SPACING) -> int:
    return sum(width for _, width in items) + spacing * (len(items) - 1)


def _draw_legend(
    image: Image.Image,
    geo: Layout,
    public: bool,
    finished: bool,
    blind: bool,
    mines: bool,
    sweepers: bool,
) -> None:
    """Sample cells with labels, stamped from the same sprites as the board, centred in
    as few rows as fit."""
    items = _legend_items(geo.cell, _ship_label(public, finished), blind, mines, sweepers)
    samples = [
        [mark_sprite("miss", SWATCH)],
        [mark_sprite("hit", SWATCH)],
        [hull_sprite(SWATCH, 1, False, True), mark_sprite("x", SWATCH)],
        [mark_sprite("shot" if blind else "clear", SWATCH)],
        [hull_sprite(SWATCH, 1, False, False)],
        [mark_sprite("ring", SWATCH)],
        [mark_sprite("mine", SWATCH)],
        *([[mark_sprite("sweeper", SWATCH)]] if sweepers else []),
        [mark_sprite("disclosed", SWATCH)],
    ][: len(items)]
    _, label_size = _font_sizes(geo.cell)
    draw = ImageDraw.Draw(image)
    per_row = -(-len(items) // geo.legend_rows)
    for row in range(geo.legend_rows):
        chunk = slice(row * per_row, (row + 1) * per_row)
        x = max(MARGIN, (geo.width - _legend_width(items[chunk], _spacing(geo.size))) // 2)
        top = geo.legend_top + row * LEGEND + (LEGEND - SWATCH) // 2
        for (label, width), sprites in zip(items[chunk], samples[chunk], strict=True):
            box = (x, top, x + SWATCH, top + SWATCH)
            draw.rectangle(box, fill=PALETTE["sea"], outline=PALETTE["grid"])
            for sprite in sprites:
                sprite.stamp(image, (x, top))
            middle = (x + SWATCH + 8, top + SWATCH // 2)
            PALETTE.text(image, middle, label, label_size, "text", "background", anchor="lm")
            x += width + _spacing(geo.size)


def _draw_field(image: Image.Image, geo: Layout, panel: int, field: FieldView) -> None:
    left, top = geo.grids[panel]
    image.paste(field_layer(geo.cell, geo.size, field), (left + 1, top + 1))
    # The last-shot ring reaches past its cell onto the grid, so it goes on the board.
    for shot in field.last_salvo or ((field.last_shot,) if field.last_shot else ()):
        column, row = shot
        ring = mark_sprite("ring", geo.cell)
        ring.stamp(image, (left + column * geo.cell, top + row * geo.cell))


# -- texts --------------------------------------------------------------------------------


def _draw_texts(image: Image.Image, geo: Layout, view: SeaBattleView, names: Names) -> None:
    player = _drawn_names(names)
    status, urgent = header_status(view, player)
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
    titles = field_titles(view, _drawn_names(names, _title_room(geo)))
    for panel, (title, count) in enumerate(zip(titles, field_counts(view), strict=True)):
        left, top = geo.grids[panel]
        baseline = top - AXIS - PANEL_TITLE // 2
        colour = "accent" if panel == target else "text"
        PALETTE.text(image, (left, baseline), title, 24, colour, "background", "lm", face_of(title))
        if count is not None:
            PALETTE.text(
                image, (left + geo.grid_span, baseline), count, 20, "muted", "background", "rm"
            )
    if view.phase is Phase.SETUP:
        _draw_setup(image, geo, view, names)


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
    if view.mines:
        _draw_items_left(image, top + 20 + ITEM_LINE, view)
    if view.to_place:
        PALETTE.text(image, (MARGIN, top + 20), "To place:", 20, "text", "background", anchor="lm")
        x = MARGIN + text_width("To place:", 20) + 14
        counts = Counter(kind.length for kind in view.to_place)
        labels = sum(text_width(f"x{n}", 20) + 32 for n in counts.values())
        room = geo.width - MARGIN - x - labels
        icons = sum(counts)  # one icon per distinct length, `length` units long
        unit = room // icons  # shrink the icons for a long fleet
        if unit < 10:  # a narrow, stacked board: lengths as text
            lengths = "  ".join(f"{n}x{counts[n]}" for n in sorted(counts, reverse=True))
            listed = f"{lengths}  (decks x ships)"
            PALETTE.text(image, (x, top + 20), listed, 16, "text", "background", anchor="lm")
            counts = Counter()
        unit = min(26, unit)
        for length in sorted(counts, reverse=True):
            y = top + 20 - unit // 2
            hull_sprite(unit, length, False, False).stamp(image, (x, y))
            for i in range(1, length):
                xi = x + i * unit
                draw.line((xi, y + 6, xi, y + unit - 6), fill=PALETTE["background"], width=2)
            x += unit * length + 8
            label = f"x{counts[length]}"
            PALETTE.text(image, (x, top + 20), label, 20, "text", "background", anchor="lm")
            x += text_width(label, 20) + 24
    else:
        done = setup_line(view) or ""
        PALETTE.text(image, (MARGIN, top + 20), done, 20, "text", "background", anchor="lm")
    _draw_ready(
        image,
        geo,
        top + 58 + (ITEM_LINE if view.mines else 0),
        ("You", "Opponent"),
        (view.ready[seat], view.ready[other(seat)]),
    )


def _draw_items_left(image: Image.Image, y: int, view: SeaBattleView) -> None:
    """§4.6-4.7: the mines and minesweepers still to lay, as their own marks."""
    mines, sweepers = view.items_left
    if not mines and not sweepers:
        PALETTE.text(image, (MARGIN, y), "Mines laid", 20, "text", "background", anchor="lm")
        return
    PALETTE.text(image, (MARGIN, y), "To lay:", 20, "text", "background", anchor="lm")
    x = MARGIN + text_width("To lay:", 20) + 14
    for kind, count in (("mine", mines), ("sweeper", sweepers)):
        if not count:
            continue
        mark_sprite(kind, 26).stamp(image, (x, y - 13))
        x += 34
        label = f"x{count}"
        PALETTE.text(image, (x, y), label, 20, "text", "background", anchor="lm")
        x += text_width(label, 20) + 24


def _draw_ready(
    image: Image.Image, geo: Layout, y: int, who: tuple[str, str], ready: tuple[bool, bool]
) -> None:
    """Both players' setup progress, each under the field it belongs to (on one line when
    the fields are stacked)."""
    if geo.grids[0][0] == geo.grids[1][0]:
        text = "   ".join(
            f"{name}: {ready_word(done)}" for name, done in zip(who, ready, strict=True)
        )
        PALETTE.text(image, (MARGIN, y), text, 18, "text", "background", "lm")
        return
    for column, (name, done) in enumerate(zip(who, ready, strict=True)):
        text = f"{name}: {ready_word(done)}"
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
        view.blind_report,
        view.mines,
        view.sweepers,
    ).copy()
    for panel, field in enumerate(panel_fields(view)):
        _draw_field(image, geo, panel, field)
        _draw_salvo_numbers(image, geo, panel, field)
    _draw_texts(image, geo, view, names)
    return image


def _draw_salvo_numbers(image: Image.Image, geo: Layout, panel: int, field: FieldView) -> None:
    """Blind-report Salvo (§4.3): each shot is numbered by its salvo, and the last reports
    are written under the field, so the shooter can reason as on paper."""
    size = max(11, min(16, geo.cell // 2))
    for cell, number in field.salvo_numbers:
        if field.mark(cell) is Mark.SHOT:
            PALETTE.text(
                image, geo.cell_centre(panel, cell), str(number), size, "text", "sea", "mm"
            )
    if geo.notes_top is None:
        return
    left = geo.grids[panel][0] - AXIS
    first = max(0, len(field.reports) - NOTE_LINES)
    for line, report in enumerate(field.reports[first:]):
        number = first + line + 1
        hits = ", ".join(f"{name} {n}" for name, n in report) or "no hits"
        y = geo.notes_top + line * NOTE_LINE + NOTE_LINE // 2
        PALETTE.text(image, (left, y), f"Salvo {number}: {hits}", 16, "text", "background", "lm")


def render(view: SeaBattleView, names: Names = NO_NAMES) -> bytes:
    """PNG bytes of the board; the same view and names always give the same bytes."""
    return encode_png(render_image(view, names))


