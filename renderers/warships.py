"""Warships board images: one ``WarshipsView`` in, PNG bytes out.

The image reads like the printed board: sandy ports behind thick fortification walls, the
exits with their channel walls, the green island in dotted neutral water, and a red-hatched
rim on every field a standing battery bars to the enemy. Each player sees their own port at
the bottom (North's image is turned half round, as North sits at the other end of the
table); the channel sees South at the bottom. Own tokens show their code and range, enemy
tokens are blank discs unless the rules let the viewer know them, and the last move's
fields are ringed. Everything drawn comes from the view, so the image can never show more
than the view allows (rules/warships.md §16).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import Phase
from bot.games.grid import Cell, cell_name, column_letter
from bot.games.warships import board
from bot.games.warships.units import Kind
from bot.games.warships.view import TokenView, WarshipsView
from renderers.common import COLOURS, Palette, encode_png

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
        "hidden_edge": (20, 22, 28),
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
        ("muted", "sea"),
    ],
)

CELL = 34
MARGIN = 16
AXIS = 20
HEADER = 34
FOOTER = 126
WIDTH = MARGIN * 2 + AXIS * 2 + CELL * board.COLUMNS
HEIGHT = MARGIN * 2 + HEADER + AXIS * 2 + CELL * board.ROWS + FOOTER
TOP = MARGIN + HEADER + AXIS
LEFT = MARGIN + AXIS

Box = tuple[int, int, int, int]


def _turned(view: WarshipsView) -> bool:
    """North players see their port at the bottom: the board turned half round."""
    return view.seat is not None and view.seat != view.south


def _box(cell: Cell, turned: bool) -> Box:
    column, row = board.mirror(cell) if turned else cell
    x = LEFT + column * CELL
    y = TOP + (board.ROWS - 1 - row) * CELL
    return x, y, x + CELL, y + CELL


@lru_cache(maxsize=4)
def _board_layer(turned: bool) -> Image.Image:
    """Sea, ports, neutral water, island, walls and axes: the same for every game."""
    image = PALETTE.new_image((WIDTH, HEIGHT), "background")
    draw = ImageDraw.Draw(image)
    ports = board.PORTS[0] | board.PORTS[1]
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
                for dx in (8, 17, 26):
                    for dy in (8, 17, 26):
                        draw.point((x0 + dx, y0 + dy), fill=PALETTE["dots"])
    for wall in board.WALLS:
        a, b = sorted(wall)
        _wall(draw, _box(a, turned), _box(b, turned))
    left, top = LEFT, TOP
    right, bottom = LEFT + CELL * board.COLUMNS, TOP + CELL * board.ROWS
    draw.rectangle((left - 1, top - 1, right + 1, bottom + 1), outline=PALETTE["wall"], width=3)
    for column in range(board.COLUMNS):
        letter = column_letter(board.COLUMNS - 1 - column if turned else column)
        x = LEFT + column * CELL + CELL // 2
        PALETTE.text(image, (x, TOP - 4), letter, 13, "muted", "background", "mb")
        PALETTE.text(image, (x, bottom + 4), letter, 13, "muted", "background", "mt")
    for row in range(board.ROWS):
        number = str(row + 1 if turned else board.ROWS - row)
        y = TOP + row * CELL + CELL // 2
        PALETTE.text(image, (LEFT - 5, y), number, 13, "muted", "background", "rm")
        PALETTE.text(image, (right + 5, y), number, 13, "muted", "background", "lm")
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
        draw.line((x0 + 3, y1 - 9, x0 + 9, y1 - 3), fill=PALETTE["zone"], width=2)


def _manoeuvre_area(draw: ImageDraw.ImageDraw, view: WarshipsView, turned: bool) -> None:
    """During setup under §15.3, the viewer's initial-manoeuvre area gets corner marks."""
    if view.phase is not Phase.SETUP or view.seat is None or not view.rules.manoeuvres:
        return
    for cell in board.MANOEUVRE_AREAS[view.shore(view.seat)]:
        x0, y0, x1, y1 = _box(cell, turned)
        for x, y, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            draw.line((x + 3 * dx, y + 3 * dy, x + 9 * dx, y + 3 * dy), fill=PALETTE["accent"])
            draw.line((x + 3 * dx, y + 3 * dy, x + 3 * dx, y + 9 * dy), fill=PALETTE["accent"])


def _token(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: WarshipsView,
    token: TokenView,
    turned: bool,
) -> None:
    x0, y0, x1, y1 = _box(token.cell, turned)
    colour = "south" if token.owner == view.south else "north"
    inner = (x0 + 4, y0 + 4, x1 - 4, y1 - 4)
    if token.kind is Kind.BATTERY:
        draw.rectangle(inner, fill=PALETTE[colour], outline=PALETTE["ink"], width=2)
        PALETTE.text(image, ((x0 + x1) / 2, (y0 + y1) / 2), "SB", 12, "ink", colour, "mm")
        return
    if token.kind is Kind.MINE and (view.seat != token.owner or view.phase is Phase.FINISHED):
        draw.ellipse(inner, fill=PALETTE["mine"], outline=PALETTE[colour], width=3)
        PALETTE.text(image, ((x0 + x1) / 2, (y0 + y1) / 2), "MN", 11, "text", "mine", "mm")
        return
    draw.ellipse(inner, fill=PALETTE[colour], outline=PALETTE["ink"], width=2)
    if token.kind is None:
        return
    centre_x = (x0 + x1) / 2
    PALETTE.text(image, (centre_x, y0 + 15), token.kind.value, 12, "ink", colour, "mm")
    reach = view.rules.range_of(token.kind)
    if reach and view.seat == token.owner:
        PALETTE.text(image, (centre_x, y0 + 25), str(reach), 9, "ink", colour, "mm")
    if token.known and view.phase is not Phase.FINISHED:
        draw.rectangle((x1 - 9, y0 + 3, x1 - 4, y0 + 8), fill=PALETTE["accent"])


def _neutral_count(
    image: Image.Image, draw: ImageDraw.ImageDraw, token: TokenView, turned: bool
) -> None:
    """§13.2: a unit's own turns on neutral water so far, on a dark badge (public)."""
    if token.neutral:
        x0, _, _, y1 = _box(token.cell, turned)
        draw.rectangle((x0 + 1, y1 - 13, x0 + 11, y1 - 1), fill=PALETTE["background"])
        PALETTE.text(image, (x0 + 6, y1 - 7), str(token.neutral), 10, "text", "background", "mm")


def _last(draw: ImageDraw.ImageDraw, view: WarshipsView, turned: bool) -> None:
    last = view.last
    if last is None:
        return
    for cell in sorted({c for c in (last.start, last.end, last.target) if c is not None}):
        x0, y0, x1, y1 = _box(cell, turned)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=PALETTE["accent"], width=2)
    for cell in last.emptied:
        x0, y0, x1, y1 = _box(cell, turned)
        draw.line((x0 + 9, y0 + 9, x1 - 9, y1 - 9), fill=PALETTE["accent"], width=3)
        draw.line((x0 + 9, y1 - 9, x1 - 9, y0 + 9), fill=PALETTE["accent"], width=3)


def status(view: WarshipsView) -> str:
    """Whose move it is, as the image's audience sees it."""
    if view.outcome is not None:
        # A game ended before its first move reveals nothing (core.secrecy).
        revealed = "" if view.outcome.unplayed else " All tokens revealed."
        if view.outcome.winner is None:
            return f"Game over: no winner.{revealed}"
        if view.seat is None:
            side = "South" if view.outcome.winner == view.south else "North"
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
    side = "South" if view.turn == view.south else "North"
    offer = ""
    if view.draw_offer is not None:
        offerer = "South" if view.draw_offer == view.south else "North"
        if view.seat is not None:
            offerer = "You" if view.draw_offer == view.seat else "Your opponent"
        offer = f" {offerer} offered a draw."
    if view.seat is None:
        return f"{side} to move.{offer}"
    return ("Your move." if view.turn == view.seat else "Your opponent's move.") + offer


LEGEND = (
    "SB battery · MN mine · red rim: enemy battery zone · dots: neutral water",
    "yellow frame: last move · X: emptied · corner mark: known to enemy · digit: range",
    "dark badge: own turns ended on neutral water (a unit is interned at 4)",
)


def _footer(image: Image.Image, view: WarshipsView) -> None:
    y = TOP + CELL * board.ROWS + AXIS + 8
    for seat in sorted((0, 1), key=lambda s: s != (view.seat if view.seat is not None else 0)):
        side = "South" if seat == view.south else "North"
        who = side if view.seat is None else ("You" if seat == view.seat else "Enemy")
        who += "" if view.seat is None else f" ({side})"
        lost = [loss for loss in view.losses if loss.owner == seat]
        codes = " ".join(
            (loss.kind.value if loss.kind else "??") + ("*" if loss.interned else "")
            for loss in lost
        )
        reserve = view.reserves[seat]
        line = f"{who}: lost {len(lost)}"
        line += "" if reserve is None else f"   mines in reserve {reserve}"
        if lost:
            line += "   (* interned)" if any(loss.interned for loss in lost) else ""
        PALETTE.text(image, (MARGIN, y), line, 13, "text", "background")
        if codes:
            PALETTE.text(image, (MARGIN, y + 17), codes[:72], 12, "muted", "background")
        y += 36
    PALETTE.text(image, (MARGIN, y + 2), LEGEND[0], 11, "muted", "background")
    PALETTE.text(image, (MARGIN, y + 16), LEGEND[1], 11, "muted", "background")
    PALETTE.text(image, (MARGIN, y + 30), LEGEND[2], 11, "muted", "background")
    rules = view.variant if len(view.variant) < 60 else view.variant[:57] + "..."
    PALETTE.text(image, (WIDTH - MARGIN, MARGIN + 4), rules, 12, "muted", "background", "ra")


def render_image(view: WarshipsView) -> Image.Image:
    turned = _turned(view)
    image = _board_layer(turned).copy()
    draw = ImageDraw.Draw(image)
    _zones(draw, view, turned)
    _manoeuvre_area(draw, view, turned)
    for token in view.tokens:
        _token(image, draw, view, token, turned)
        _neutral_count(image, draw, token, turned)
    _last(draw, view, turned)
    PALETTE.text(image, (MARGIN, MARGIN + 2), "Warships", 18, "text", "background")
    PALETTE.text(image, (MARGIN, MARGIN + 24), status(view), 13, "accent", "background")
    _footer(image, view)
    return image


def render(view: WarshipsView) -> bytes:
    return encode_png(render_image(view))


def alt_text(view: WarshipsView) -> str:
    """A short description for screen readers; the full text twin is ``view.text()``."""
    own = [t for t in view.tokens if view.seat is not None and t.owner == view.seat]
    enemy = [t for t in view.tokens if view.seat is None or t.owner != view.seat]
    known = sum(1 for t in enemy if t.kind is not None and t.kind is not Kind.BATTERY)
    parts = [f"Warships board. {status(view)}"]
    if view.seat is not None:
        parts.append(f"You have {len(own)} tokens on the board.")
    parts.append(
        f"{len(enemy)} other tokens on the board, {known} of them known apart from batteries."
    )
    if view.last is not None and view.last.end is not None:
        parts.append(
            f"Last move {cell_name(view.last.start or view.last.end)}"
            f" to {cell_name(view.last.end)}"
            + (f", target {cell_name(view.last.target)}" if view.last.target else "")
            + "."
        )
    return " ".join(parts)
