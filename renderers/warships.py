"""Warships board images: one ``WarshipsView`` in, PNG bytes out.

The image reads like the printed board: sandy ports behind thick fortification walls, the
exits with their channel walls, the green island in dotted neutral water, and a red-hatched
rim on every field a standing battery bars to the enemy. Each player sees their own port at
the bottom (North's image is turned half round, as North sits at the other end of the
table); the channel sees South at the bottom. Own tokens show their code, enemy tokens are
blank discs unless the rules let the viewer know them, and the last move's fields are
ringed. Everything drawn comes from the view, so the image can never show more than the
view allows (Warships rules §16).

Phones show the image 360 px wide. So the board takes the whole width (no axis on the
right), a token fills its field (28 px on a phone), its code is large and bold, and every
type has a shape of its own (``renderers.warships_tokens``). The key is one row: a token of
each type in the viewer's colour with its range under it; the types' names and the board's
marks are in ``/rules``.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import Phase
from bot.games.grid import Cell, column_letter
from bot.games.warships import board
from bot.games.warships.units import Kind
from bot.games.warships.view import TokenView, WarshipsView
from renderers.common import NO_NAMES, Names, face_of, player_label, text_width
from renderers.png import encode_png
from renderers.warships_tokens import CELL, PALETTE, draw_mine, draw_token
from renderers.warships_words import alt_text as alt_text
from renderers.warships_words import losses_text, side_word, status

MARGIN = 6
AXIS = 18
HEADER = 50
LEFT = MARGIN + AXIS
TOP = MARGIN + HEADER + AXIS
BOARD_BOTTOM = TOP + CELL * board.ROWS
WIDTH = LEFT + CELL * board.COLUMNS + MARGIN
"""No axis on the right: every pixel of width the board does not use makes it smaller on a
phone, which scales the image to its width."""
RANGE_SIZE = 18
"""Each type's range, under its token in the key: 14 px on a phone."""
LOSSES_TOP = BOARD_BOTTOM + AXIS + 10
LOSS_LINE = 22
KEY_TOP = LOSSES_TOP + 4 * LOSS_LINE
KEY_STEP = (WIDTH - 2 * MARGIN) // 11
"""The key: one token of each type, spaced across the width, as the board draws them."""
KEY_NOTE = KEY_TOP + CELL + RANGE_SIZE + 16
HEIGHT = KEY_NOTE + 12 + MARGIN

Box = tuple[int, int, int, int]


def _turned(view: WarshipsView) -> bool:
    """North players see their port at the bottom: the board turned half round."""
    return view.seat is not None and view.seat != view.south


def _box(cell: Cell, turned: bool) -> Box:
    column, row = board.mirror(cell) if turned else cell
    x = LEFT + column * CELL
    y = TOP + (board.ROWS - 1 - row) * CELL
    return x, y, x + CELL, y + CELL


@lru_cache(maxsize=16)
def _board_layer(turned: bool, ranges: tuple[int, ...], colour: str) -> Image.Image:
    """Sea, ports, neutral water, island, walls, axes and the key in the viewer's colour."""
    image = PALETTE.new_image((WIDTH, HEIGHT), "background")
    draw = ImageDraw.Draw(image)
    ports = board.PORTS[0] | board.PORTS[1]
    step = CELL // 4
    for row in range(board.ROWS):
        for column in range(board.COLUMNS):
            cell = (column, row)
            x0, y0, x1, y1 = _box(cell, turned)
            if cell in board.ISLAND:
                draw.rectangle((x0, y0, x1, y1), fill=PALETTE["island"])
                continue
            port = cell in ports
            fill = "port" if port else "neutral" if cell in board.NEUTRAL else "sea"
            if any(cell in exits for exits in board.EXITS):
                fill = "exit"
            lines = "port_grid" if port else "grid"
            draw.rectangle((x0, y0, x1, y1), fill=PALETTE[fill], outline=PALETTE[lines])
            if cell in board.NEUTRAL:
                for dx in (step, 2 * step, 3 * step):
                    for dy in (step, 2 * step, 3 * step):
                        draw.point((x0 + dx, y0 + dy), fill=PALETTE["dots"])
    for wall in board.WALLS:
        a, b = sorted(wall)
        _wall(draw, _box(a, turned), _box(b, turned))
    right = LEFT + CELL * board.COLUMNS
    draw.rectangle(
        (LEFT - 1, TOP - 1, right + 1, BOARD_BOTTOM + 1), outline=PALETTE["wall"], width=3
    )
    for column in range(board.COLUMNS):
        letter = column_letter(board.COLUMNS - 1 - column if turned else column)
        x = LEFT + column * CELL + CELL // 2
        PALETTE.text(image, (x, TOP - 4), letter, 15, "muted", "background", "mb")
        PALETTE.text(image, (x, BOARD_BOTTOM + 4), letter, 15, "muted", "background", "mt")
    for row in range(board.ROWS):
        number = str(row + 1 if turned else board.ROWS - row)
        y = TOP + row * CELL + CELL // 2
        PALETTE.text(image, (LEFT - 5, y), number, 15, "muted", "background", "rm")
    _key(image, ranges, colour)
    return image


def _wall(draw: ImageDraw.ImageDraw, a: Box, b: Box) -> None:
    """A thick line on the edge two boxes share."""
    if a[2] == b[0] or b[2] == a[0]:  # side by side
        x = max(a[0], b[0])
        line = (x, max(a[1], b[1]) - 1, x, min(a[3], b[3]) + 1)
    else:
        y = max(a[1], b[1])
        line = (max(a[0], b[0]) - 1, y, min(a[2], b[2]) + 1, y)
    draw.line(line, fill=PALETTE["wall"], width=4)


# -- tokens and marks ---------------------------------------------------------------------


def _token(
    image: Image.Image, view: WarshipsView, token: TokenView, turned: bool, replay: bool = False
) -> None:
    """A token on its field; a corner tab marks one whose type the enemy has learnt."""
    x0, y0, x1, _ = _box(token.cell, turned)
    colour = "south" if token.owner == view.south else "north"
    own = view.seat == token.owner and view.phase is not Phase.FINISHED
    if token.kind is Kind.MINE and not own:
        draw_mine(image, (x0, y0), colour, replay)
        return
    draw_token(image, (x0, y0), token.kind, colour, replay)
    if token.kind is None:
        return
    if token.known and view.phase is not Phase.FINISHED:
        draw = ImageDraw.Draw(image)
        draw.polygon(((x1 - 11, y0 + 1), (x1 - 1, y0 + 1), (x1 - 1, y0 + 11)), PALETTE["accent"])


def _neutral_count(image: Image.Image, token: TokenView, turned: bool) -> None:
    """§13.2: a unit's own turns on neutral water so far, on a dark badge (public)."""
    if token.neutral:
        x0, _, _, y1 = _box(token.cell, turned)
        ImageDraw.Draw(image).rectangle((x0 + 1, y1 - 14, x0 + 12, y1 - 1), PALETTE["background"])
        PALETTE.text(image, (x0 + 7, y1 - 7), str(token.neutral), 12, "text", "background", "mm")


def _zones(draw: ImageDraw.ImageDraw, view: WarshipsView, turned: bool) -> None:
    """A hatched rim on every field a standing battery bars to its enemy (§11.1).

    A player sees the enemy's zones (their own never bar them, §11.4); the channel sees all.
    """
    fields = {
        near
        for token in view.tokens
        if token.kind is Kind.BATTERY and token.owner != view.seat
        for near in board.zone(token.cell)
    }
    for cell in fields:
        x0, y0, x1, y1 = _box(cell, turned)
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=PALETTE["zone"], width=2)
        draw.line((x0 + 3, y1 - 10, x0 + 10, y1 - 3), fill=PALETTE["zone"], width=2)


def _manoeuvre_area(draw: ImageDraw.ImageDraw, view: WarshipsView, turned: bool) -> None:
    """During setup under §15.3, the viewer's initial-manoeuvre area gets corner marks."""
    if view.phase is not Phase.SETUP or view.seat is None or not view.rules.manoeuvres:
        return
    for cell in board.MANOEUVRE_AREAS[view.shore(view.seat)]:
        x0, y0, x1, y1 = _box(cell, turned)
        for x, y, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            draw.line((x + 3 * dx, y + 3 * dy, x + 9 * dx, y + 3 * dy), fill=PALETTE["accent"])
            draw.line((x + 3 * dx, y + 3 * dy, x + 3 * dx, y + 9 * dy), fill=PALETTE["accent"])


def _last(draw: ImageDraw.ImageDraw, view: WarshipsView, turned: bool) -> None:
    last = view.last
    if last is None:
        return
    for cell in sorted({c for c in (last.start, last.end, last.target) if c is not None}):
        x0, y0, x1, y1 = _box(cell, turned)
        draw.rectangle((x0, y0, x1, y1), outline=PALETTE["accent"], width=3)
    for cell in last.emptied:
        _cross(draw, _box(cell, turned))


def _cross(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    draw.line((x0 + 9, y0 + 9, x1 - 9, y1 - 9), fill=PALETTE["accent"], width=4)
    draw.line((x0 + 9, y1 - 9, x1 - 9, y0 + 9), fill=PALETTE["accent"], width=4)


# -- texts --------------------------------------------------------------------------------


def _losses(image: Image.Image, view: WarshipsView, names: Names) -> None:
    """Each side's lost tokens in words, and its mines in reserve; the viewer first."""
    y = LOSSES_TOP
    first = view.seat if view.seat is not None else view.south
    for seat in (first, 1 - first):
        who = side_word(view, seat, lambda s: player_label(names, s, 16, 200)[0])
        lost = [loss for loss in view.losses if loss.owner == seat]
        reserve = view.reserves[seat]  # None while setups are secret (§5.2)
        head = f"{who}: lost {len(lost)}"
        head += "" if reserve is None else f" · mines in reserve {reserve}"
        PALETTE.text(image, (MARGIN, y), head, 16, "text", "background", "lm", face_of(head))
        detail = _fitted(losses_text(lost) if lost else "no losses", WIDTH - 2 * MARGIN - 12)
        PALETTE.text(image, (MARGIN + 12, y + LOSS_LINE), detail, 15, "muted", "background", "lm")
        y += 2 * LOSS_LINE


def _fitted(text: str, width: int) -> str:
    """``text`` (a list with commas) cut after the last item that fits, with "…"."""
    parts = text.split(", ")
    while len(parts) > 1 and text_width(", ".join(parts), 15) > width:
        parts = [*parts[:-2], "…"] if parts[-1] == "…" else [*parts[:-1], "…"]
    return ", ".join(parts)


KEY = (
    Kind.BATTLESHIP,
    Kind.MISSILE_SHIP,
    Kind.CRUISER,
    Kind.DESTROYER,
    Kind.SUBMARINE,
    Kind.ESCORT,
    Kind.MINESWEEPER,
    Kind.LANDING_SHIP,
    Kind.BATTERY,
    Kind.MINE,
    None,
)
"""The key's order: ships by the help card, then batteries, mines and a hidden token."""

KEY_NOTE_TEXT = "the number under a type is its range; names and marks: /rules"


def _key(image: Image.Image, ranges: tuple[int, ...], colour: str) -> None:
    """One token of each type as the board draws it, in the viewer's colour, with its code
    and range under the rules in play; the names and the board's marks are in ``/rules``
    (``Warships.describe``), so the key takes one row and the board keeps the width."""
    for index, kind in enumerate(KEY):
        x = MARGIN + index * KEY_STEP + (KEY_STEP - CELL) // 2
        if kind is Kind.MINE:
            draw_mine(image, (x, KEY_TOP), colour, replay=False)
            continue
        draw_token(image, (x, KEY_TOP), kind, colour, replay=False)
        if ranges[index]:
            below = (x + CELL / 2, KEY_TOP + CELL + 3)
            PALETTE.text(image, below, str(ranges[index]), RANGE_SIZE, "text", "background", "mt")
    PALETTE.text(image, (WIDTH / 2, KEY_NOTE), KEY_NOTE_TEXT, 15, "muted", "background", "mm")


def _viewer_colour(view: WarshipsView) -> str:
    """The viewer's side colour (South's for the channel): the key's tokens wear it."""
    seat = view.seat if view.seat is not None else view.south
    return "south" if seat == view.south else "north"


def render_image(
    view: WarshipsView, names: Names = NO_NAMES, *, replay: bool = False
) -> Image.Image:
    """The board as a palette image; ``replay`` labels units for a small replay frame."""
    turned = _turned(view)
    ranges = tuple(view.rules.range_of(kind) if kind else 0 for kind in KEY)
    image = _board_layer(turned, ranges, _viewer_colour(view)).copy()
    draw = ImageDraw.Draw(image)
    _zones(draw, view, turned)
    _manoeuvre_area(draw, view, turned)
    for token in view.tokens:
        _token(image, view, token, turned, replay)
        _neutral_count(image, token, turned)
    _last(draw, view, turned)
    PALETTE.text(image, (MARGIN, MARGIN + 12), "Warships", 22, "text", "background", "lm")
    rules = view.variant if len(view.variant) < 40 else view.variant[:37] + "..."
    PALETTE.text(image, (WIDTH - MARGIN, MARGIN + 12), rules, 15, "muted", "background", "rm")
    line = status(view, names, drawn=True)
    PALETTE.text(
        image, (MARGIN, MARGIN + 40), line, 16, "accent", "background", "lm", face_of(line)
    )
    _losses(image, view, names)
    return image


def render(view: WarshipsView, names: Names = NO_NAMES) -> bytes:
    """PNG bytes of the board; the same view and names always give the same bytes."""
    return encode_png(render_image(view, names))


def replay_frame(view: WarshipsView, names: Names = NO_NAMES) -> Image.Image:
    """The board as a replay's frame, labelled to be read at its size: each unit's code
    as wide as its field holds, its range left out."""
    return render_image(view, names, replay=True)
