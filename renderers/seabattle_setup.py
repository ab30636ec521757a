"""The extras of a Sea Battle board during setup: what each field's owner is doing, and
under a player's own fleet the ships, mines and minesweepers still to place and who has
confirmed a fleet (Sea Battle rules §4.6, §4.7).
"""

from __future__ import annotations

from collections import Counter

from PIL import Image, ImageDraw

from bot.games.core import other
from bot.games.seabattle.view import SeaBattleView
from renderers.common import Names, player_label, text_width
from renderers.seabattle_layout import AXIS, ITEM_LINE, MARGIN, Layout
from renderers.seabattle_marks import PALETTE, hull_sprite, mark_sprite
from renderers.seabattle_words import panel_fields, ready_word, setup_line


def draw_setup(image: Image.Image, geo: Layout, view: SeaBattleView, names: Names) -> None:
    """Setup extras: which ships are left to place and who has confirmed a fleet."""
    seat = view.seat
    _draw_waiting(image, geo, view, names)
    if seat is None or geo.footer_top is None:
        return  # the public sees each player's progress on their field
    top = geo.footer_top
    if view.mines:
        _draw_items_left(image, top + 20 + ITEM_LINE, view)
    if view.to_place:
        _draw_to_place(image, geo, view, top + 20)
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


def _draw_waiting(image: Image.Image, geo: Layout, view: SeaBattleView, names: Names) -> None:
    """The shot grids are empty during setup: say why instead of showing a blank sea."""
    seat = view.seat
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


def _draw_to_place(image: Image.Image, geo: Layout, view: SeaBattleView, y: int) -> None:
    """The ships still to place, one hull per length with its count: drawn as words on a
    board too narrow for the hulls."""
    draw = ImageDraw.Draw(image)
    PALETTE.text(image, (MARGIN, y), "To place:", 20, "text", "background", anchor="lm")
    x = MARGIN + text_width("To place:", 20) + 14
    counts = Counter(kind.length for kind in view.to_place)
    labels = sum(text_width(f"x{n}", 20) + 32 for n in counts.values())
    room = geo.width - MARGIN - x - labels
    icons = sum(counts)  # one icon per distinct length, `length` units long
    unit = room // icons  # shrink the icons for a long fleet
    if unit < 10:  # a narrow, stacked board: lengths as text
        lengths = "  ".join(f"{n}x{counts[n]}" for n in sorted(counts, reverse=True))
        listed = f"{lengths}  (decks x ships)"
        PALETTE.text(image, (x, y), listed, 16, "text", "background", anchor="lm")
        counts = Counter()
    unit = min(26, unit)
    for length in sorted(counts, reverse=True):
        top = y - unit // 2
        hull_sprite(unit, length, False, False).stamp(image, (x, top))
        for i in range(1, length):
            xi = x + i * unit
            draw.line((xi, top + 6, xi, top + unit - 6), fill=PALETTE["background"], width=2)
        x += unit * length + 8
        label = f"x{counts[length]}"
        PALETTE.text(image, (x, y), label, 20, "text", "background", anchor="lm")
        x += text_width(label, 20) + 24


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
