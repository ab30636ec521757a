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
type has a shape of its own (octagon, diamond, hexagon, arrow, capsule, cross, shield, hull,
fort, spiked mine). The key is one row: a token of each type in the viewer's colour with
its range under it; the types' names and the board's marks are in ``/rules``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import Phase
from bot.games.grid import Cell, cell_name, column_letter
from bot.games.warships import board
from bot.games.warships.units import Kind
from bot.games.warships.view import LossView, TokenView, WarshipsView
from renderers.common import (
    COLOURS,
    NO_NAMES,
    Names,
    Palette,
    Sprite,
    face_of,
    make_sprite,
    player_label,
    player_text,
    text_width,
)
from renderers.png import encode_png

PALETTE = Palette(
    {
        "background": COLOURS["background"],
        "text": COLOURS["text"],
        "muted": COLOURS["muted"],
        "accent": COLOURS["yellow"],
        "sea": (27, 62, 99),
        "grid": (45, 86, 126),
        "port": (196, 176, 128),
        "port_grid": (160, 142, 100),
        "exit": (236, 222, 184),
        "neutral": (34, 92, 110),
        "dots": (120, 180, 190),
        "island": (46, 122, 60),
        "wall": (240, 240, 235),
        "zone": (170, 60, 50),
        "south": (213, 94, 0),  # red in the original
        "north": (240, 228, 66),  # yellow in the original
        "ink": (16, 18, 24),
        "mine": (60, 60, 70),
    },
    ramps=[
        ("text", "background"),
        ("muted", "background"),
        ("accent", "background"),
        ("ink", "south"),
        ("ink", "north"),
        ("text", "mine"),
        ("text", "sea"),
        ("muted", "sea"),
    ],
)

CELL = 36
MARGIN = 6
AXIS = 18
HEADER = 50
LEFT = MARGIN + AXIS
TOP = MARGIN + HEADER + AXIS
BOARD_BOTTOM = TOP + CELL * board.ROWS
WIDTH = LEFT + CELL * board.COLUMNS + MARGIN
"""No axis on the right: every pixel of width the board does not use makes it smaller on a
phone, which scales the image to its width."""
CODE_SIZE = 20
"""A unit's code on its token, in px: 15 px on a 360 px phone."""
RANGE_SIZE = 18
"""Each type's range, under its token in the key: 14 px on a phone."""
MINE_CODE = 15
"""``MN`` on a mine, smaller than a ship's code: the spiked ball leaves less room."""
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


# -- token shapes -------------------------------------------------------------------------
# Each shape fills most of a field, leaving room in its middle for a two-letter code.

Points = list[tuple[float, float]]


def _polygon(size: int, corners: list[tuple[float, float]]) -> Points:
    """``corners`` given in fractions of a field, turned into pixels inside ``size``."""
    pad = 2
    span = size - 2 * pad
    return [(pad + x * span, pad + y * span) for x, y in corners]


SHAPES: dict[Kind | None, list[tuple[float, float]] | str] = {
    None: "disc",  # a token whose type the viewer may not know
    Kind.BATTLESHIP: [
        (0.3, 0),
        (0.7, 0),
        (1, 0.3),
        (1, 0.7),
        (0.7, 1),
        (0.3, 1),
        (0, 0.7),
        (0, 0.3),
    ],
    Kind.MISSILE_SHIP: [(0.5, -0.04), (1.04, 0.5), (0.5, 1.04), (-0.04, 0.5)],
    Kind.CRUISER: [(0.25, 0.04), (0.75, 0.04), (1, 0.5), (0.75, 0.96), (0.25, 0.96), (0, 0.5)],
    Kind.DESTROYER: [(0.5, 0), (1, 0.38), (1, 1), (0, 1), (0, 0.38)],
    Kind.SUBMARINE: "capsule",
    Kind.ESCORT: [
        (0.3, 0),
        (0.7, 0),
        (0.7, 0.22),
        (1, 0.22),
        (1, 0.78),
        (0.7, 0.78),
        (0.7, 1),
        (0.3, 1),
        (0.3, 0.78),
        (0, 0.78),
        (0, 0.22),
        (0.3, 0.22),
    ],
    Kind.MINESWEEPER: [(0, 0), (1, 0), (1, 0.6), (0.5, 1), (0, 0.6)],
    Kind.LANDING_SHIP: [(0, 0.12), (1, 0.12), (0.8, 0.9), (0.2, 0.9)],
    Kind.BATTERY: "fort",
    Kind.MINE: "mine",
}
"""Each type's outline, so that types differ by shape as well as by their code."""


def _paint_shape(
    draw: ImageDraw.ImageDraw, kind: Kind | None, size: int, fill: int, edge: int
) -> None:
    shape = SHAPES[kind]
    pad = 2
    inner = (pad, pad, size - 1 - pad, size - 1 - pad)
    if shape == "disc":
        draw.ellipse((3, 3, size - 4, size - 4), fill=fill, outline=edge, width=2)
    elif shape == "capsule":
        top, bottom = round(size * 0.18), round(size * 0.82)
        draw.rounded_rectangle(
            (pad, top, size - 1 - pad, bottom), (bottom - top) // 2, fill, edge, 2
        )
    elif shape == "fort":
        merlon = size // 5
        x0, y0, x1, y1 = inner
        draw.rectangle((x0, y0 + merlon, x1, y1), fill=fill, outline=edge, width=2)
        for i in (0, 2, 4):
            left = x0 + i * (x1 - x0) // 5
            draw.rectangle((left, y0, left + merlon, y0 + merlon + 2), fill=fill, outline=edge)
    elif shape == "mine":
        centre, ball = size / 2, size * 0.34
        spokes: tuple[tuple[float, float], ...] = ((0, 1), (1, 0), (0.7, 0.7), (0.7, -0.7))
        for dx, dy in spokes:
            reach = size * 0.47
            draw.line(
                (
                    centre - dx * reach,
                    centre - dy * reach,
                    centre + dx * reach,
                    centre + dy * reach,
                ),
                fill=edge,
                width=3,
            )
        draw.ellipse(
            (centre - ball, centre - ball, centre + ball, centre + ball),
            fill=fill,
            outline=edge,
            width=2,
        )
    else:
        assert isinstance(shape, list)
        draw.polygon(_polygon(size, shape), fill=fill, outline=edge, width=2)


@lru_cache(maxsize=64)
def _shape(kind: Kind | None, size: int, colour: str, edge: str) -> Sprite:
    return make_sprite(
        (size, size), lambda draw: _paint_shape(draw, kind, size, PALETTE[colour], PALETTE[edge])
    )


REPLAY_CODE = 20
"""A unit's code in a replay frame, in px: as wide as a cell holds, and the firing range
left out (a replay shows the board at two fifths or less, where 13 px is a blur)."""


def _token(
    image: Image.Image, view: WarshipsView, token: TokenView, turned: bool, replay: bool = False
) -> None:
    x0, y0, x1, y1 = _box(token.cell, turned)
    colour = "south" if token.owner == view.south else "north"
    own = view.seat == token.owner and view.phase is not Phase.FINISHED
    if token.kind is Kind.MINE and not own:
        # A mine in the open is a hazard for both sides: drawn dark, rimmed in its colour.
        _shape(Kind.MINE, CELL, "mine", colour).stamp(image, (x0, y0))
        size = REPLAY_CODE if replay else MINE_CODE
        PALETTE.text(
            image, ((x0 + x1) / 2, (y0 + y1) / 2), "MN", size, "text", "mine", "mm", "glyphs"
        )
        return
    _shape(token.kind, CELL, colour, "ink").stamp(image, (x0, y0))
    if token.kind is None:
        return
    _code(image, (x0, y0), token.kind, colour, replay)
    if token.known and view.phase is not Phase.FINISHED:
        draw = ImageDraw.Draw(image)
        draw.polygon(((x1 - 11, y0 + 1), (x1 - 1, y0 + 1), (x1 - 1, y0 + 11)), PALETTE["accent"])


def _code(
    image: Image.Image, corner: tuple[int, int], kind: Kind, colour: str, replay: bool = False
) -> None:
    """A unit's code, large in the middle of its token: its range is in the key below the
    board, since a digit small enough to share the token could not be read on a phone."""
    x0, y0 = corner
    size = REPLAY_CODE if replay else CODE_SIZE
    middle = (x0 + CELL / 2, y0 + CELL / 2)
    PALETTE.text(image, middle, kind.value, size, "ink", colour, "mm", "glyphs")


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

NAME_WIDTH = 170
"""The most a player's name may take in the status line, in px."""


def _side(view: WarshipsView, seat: int, names: Names, drawn: bool) -> str:
    """A seat as the public sees it: its player's name and its shore."""
    shore = "South" if seat == view.south else "North"
    who = player_label(names, seat, 16, NAME_WIDTH)[0] if drawn else player_text(names, seat)
    return f"{who} ({shore})"


def status(view: WarshipsView, names: Names = NO_NAMES, drawn: bool = False) -> str:
    """Whose move it is, as the image's audience sees it; ``drawn``: names fitted to it."""
    if view.outcome is not None:
        # A game ended before its first move reveals nothing (core.secrecy).
        revealed = "" if view.outcome.unplayed else " All tokens revealed."
        if view.outcome.winner is None:
            return f"Game over: no winner.{revealed}"
        if view.seat is None:
            side = _side(view, view.outcome.winner, names, drawn)
            return f"Game over: {side} won.{revealed}"
        return ("You won!" if view.outcome.winner == view.seat else "You lost.") + revealed
    if view.phase is Phase.SETUP:
        if view.seat is None:
            return "Setting up in secret."
        return (
            "Your setup: swap, place mines, then ready."
            if view.seat in view.movers
            else ("Setup confirmed; waiting for your opponent.")
        )
    side = _side(view, view.turn, names, drawn) if view.turn is not None else ""
    offer = ""
    if view.draw_offer is not None:
        offerer = _side(view, view.draw_offer, names, drawn)
        if view.seat is not None:
            offerer = "You" if view.draw_offer == view.seat else "Your opponent"
        offer = f" {offerer} offered a draw."
    if view.seat is None:
        return f"{side} to move.{offer}"
    return ("Your move." if view.turn == view.seat else "Your opponent's move.") + offer


def losses_text(lost: list[LossView]) -> str:
    """A side's losses in words: known types by name, the rest as "of hidden type"."""
    named = Counter(loss.kind.unit.name for loss in lost if loss.kind is not None)
    interned = sum(1 for loss in lost if loss.interned)
    hidden = sum(1 for loss in lost if loss.kind is None)
    parts = [f"{count} {name}s" if count > 1 else name for name, count in sorted(named.items())]
    if hidden:
        parts.append(f"{hidden} of hidden type" if hidden > 1 else "1 of hidden type")
    text = ", ".join(parts) if parts else "nothing"
    return text + (f" ({interned} interned)" if interned else "")


def _who(view: WarshipsView, seat: int, name: Callable[[int], str]) -> str:
    """A side in the losses: its player's name for the channel, else you or your opponent."""
    shore = "South" if seat == view.south else "North"
    if view.seat is None:
        return f"{name(seat)} ({shore})"
    return f"You ({shore})" if seat == view.seat else f"Opponent ({shore})"


def _losses(image: Image.Image, view: WarshipsView, names: Names) -> None:
    """Each side's lost tokens in words, and its mines in reserve; the viewer first."""
    y = LOSSES_TOP
    first = view.seat if view.seat is not None else view.south
    for seat in (first, 1 - first):
        who = _who(view, seat, lambda s: player_label(names, s, 16, 200)[0])
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
            _shape(kind, CELL, "mine", colour).stamp(image, (x, KEY_TOP))
            mid = (x + CELL / 2, KEY_TOP + CELL / 2)
            PALETTE.text(image, mid, "MN", MINE_CODE, "text", "mine", "mm", "glyphs")
            continue
        _shape(kind, CELL, colour, "ink").stamp(image, (x, KEY_TOP))
        if kind is not None:
            _code(image, (x, KEY_TOP), kind, colour)
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


def alt_text(view: WarshipsView, names: Names = NO_NAMES) -> str:
    """A short description for screen readers; the full text twin is ``view.text()``."""
    own = [t for t in view.tokens if view.seat is not None and t.owner == view.seat]
    enemy = [t for t in view.tokens if view.seat is None or t.owner != view.seat]
    known = sum(1 for t in enemy if t.kind is not None and t.kind is not Kind.BATTERY)
    parts = [f"Warships board. {status(view, names)}"]
    if view.seat is not None:
        parts.append(f"You have {len(own)} tokens on the board.")
    parts.append(
        f"{len(enemy)} other tokens on the board, {known} of them known apart from batteries."
    )
    first = view.seat if view.seat is not None else view.south
    for seat in (first, 1 - first):
        lost = [loss for loss in view.losses if loss.owner == seat]
        who = _who(view, seat, lambda s: player_text(names, s))
        parts.append(f"{who} lost {len(lost)}: {losses_text(lost)}.")
    if view.last is not None and view.last.end is not None:
        parts.append(
            f"Last move {cell_name(view.last.start or view.last.end)}"
            f" to {cell_name(view.last.end)}"
            + (f", target {cell_name(view.last.target)}" if view.last.target else "")
            + "."
        )
    return " ".join(parts)[:1024]
