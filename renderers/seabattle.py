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

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import Phase, other
from bot.games.grid import column_letter
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
from renderers.seabattle_layout import (
    AXIS,
    HEADER_BASELINE,
    LEGEND,
    MARGIN,
    NOTE_LINE,
    NOTE_LINES,
    PANEL_TITLE,
    SWATCH,
    Layout,
    font_sizes,
    layout,
    layout_for,
    legend_items,
    legend_spacing,
    legend_width,
    ship_label,
)
from renderers.seabattle_marks import PALETTE, hull_sprite, mark_sprite
from renderers.seabattle_setup import draw_setup
from renderers.seabattle_words import (
    Namer,
    field_counts,
    field_titles,
    header_status,
    panel_fields,
)
from renderers.seabattle_words import alt_text as alt_text

NAME_WIDTH = 210
"""The most a player's name may take in the header, in px at 24 px."""


def _drawn_names(names: Names, width: int = NAME_WIDTH) -> Namer:
    return lambda seat: player_label(names, seat, 24, width)[0]


def _title_room(geo: Layout) -> int:
    """What a name may take in a field's title, beside "'s fleet" and "10 afloat"."""
    return geo.grid_span - text_width("'s fleet", 24) - text_width("10 afloat", 20) - 16


# -- the static layer ---------------------------------------------------------------------


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
    for panel in (0, 1):
        _draw_grid(image, draw, geo, panel)
    _draw_legend(image, geo, public, finished, blind, mines, sweepers)
    return image


def _draw_grid(image: Image.Image, draw: ImageDraw.ImageDraw, geo: Layout, panel: int) -> None:
    """One empty field: open sea, grid lines, a border, and its letters and numbers."""
    axis_size, _ = font_sizes(geo.cell)
    left, top = geo.grids[panel]
    span = geo.grid_span
    draw.rectangle((left, top, left + span, top + span), fill=PALETTE["sea"])
    for i in range(1, geo.size):
        offset = i * geo.cell
        draw.line((left + offset, top, left + offset, top + span), fill=PALETTE["grid"])
        draw.line((left, top + offset, left + span, top + offset), fill=PALETTE["grid"])
    draw.rectangle(
        (left - 1, top - 1, left + span + 1, top + span + 1), outline=PALETTE["border"], width=2
    )
    for i in range(geo.size):
        middle = i * geo.cell + geo.cell // 2
        column = column_letter(i)
        PALETTE.text(
            image, (left + middle, top - AXIS // 2), column, axis_size, "muted", "background", "mm"
        )
        row = str(i + 1)
        PALETTE.text(image, (left - 8, top + middle), row, axis_size, "muted", "background", "rm")


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
    items = legend_items(geo.cell, ship_label(public, finished), blind, mines, sweepers)
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
    _, label_size = font_sizes(geo.cell)
    draw = ImageDraw.Draw(image)
    per_row = -(-len(items) // geo.legend_rows)
    for row in range(geo.legend_rows):
        chunk = slice(row * per_row, (row + 1) * per_row)
        x = max(MARGIN, (geo.width - legend_width(items[chunk], legend_spacing(geo.size))) // 2)
        top = geo.legend_top + row * LEGEND + (LEGEND - SWATCH) // 2
        for (label, width), sprites in zip(items[chunk], samples[chunk], strict=True):
            box = (x, top, x + SWATCH, top + SWATCH)
            draw.rectangle(box, fill=PALETTE["sea"], outline=PALETTE["grid"])
            for sprite in sprites:
                sprite.stamp(image, (x, top))
            middle = (x + SWATCH + 8, top + SWATCH // 2)
            PALETTE.text(image, middle, label, label_size, "text", "background", anchor="lm")
            x += width + legend_spacing(geo.size)


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
        draw_setup(image, geo, view, names)


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


replay_frame = render_image
"""A replay's frame is the board as drawn: its cells are large enough at a replay's size."""


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
