"""Marine Game boards as images: one ``MarineView`` in, PNG bytes out.

The image reads like the hex board of Marine Game rules §2.2, North at the top: twenty
lettered hexes of sea whose sides are the battleships' paths, every corner a small numbered
station, the two U-boat harbours tinted in their owners' colours and the four battleship-
harbour corners drawn as squares. Pieces are naval symbols in their side's colour, each with
its own token shape as well as its own silhouette: a cruiser is a round token with a big
gunship, a destroyer a diamond with a slim ship, a U-boat a long pill with a submarine. An
occupied corner keeps its number on a plate under the token. The last move is drawn as a
yellow track with a ring where it began and where it ended, and every piece it took (the
mover's own, on a suicide) as a dark ghost of that piece, crossed out in yellow.

The game has no hidden element, so the image depends on the board alone: every seat and the
channel get the same bytes.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.marine import board
from bot.games.marine.board import Point
from bot.games.marine.pieces import SIDE_NAMES, Kind, Piece
from bot.games.marine.view import MarineView, describe
from renderers.common import (
    NO_NAMES,
    Names,
    Sprite,
    board_palette,
    face_of,
    make_sprite,
    player_label,
    player_text,
)
from renderers.png import encode_png

PALETTE = board_palette("marine")
"""The board's colours: ``renderers/palettes.toml``."""

SIZE = 54
"""Pixels from a hex's centre to its corners."""
MARGIN = 16
HEADER = 58
PAD = 30
"""Room around the board for tokens on the outermost corners."""
FOOTER = 140
BOARD_W = round(8 * SIZE)
BOARD_H = round(12 * SIZE * math.sqrt(3) / 2)
WIDTH = MARGIN * 2 + PAD * 2 + BOARD_W
HEIGHT = HEADER + PAD * 2 + BOARD_H + FOOTER
ORIGIN = (WIDTH // 2, HEADER + PAD + BOARD_H // 2)
SIDE_COLOURS = ("south", "north")
HARBOUR_FILLS = ("south-harbour", "north-harbour")


def corner_xy(corner: int) -> tuple[int, int]:
    """Where a corner is drawn (§2.3: ``x = u/2``, ``y = v·√3/2`` for a unit hex)."""
    u, v = board.position_of(corner)
    return round(ORIGIN[0] + u * SIZE / 2), round(ORIGIN[1] + v * SIZE * math.sqrt(3) / 2)


def hex_xy(letter: str) -> tuple[int, int]:
    col, row = board.HEX_CENTRES[letter]
    return round(ORIGIN[0] + 3 * col * SIZE / 2), round(ORIGIN[1] + row * SIZE * math.sqrt(3) / 2)


def point_xy(point: Point) -> tuple[int, int]:
    """Where a piece on ``point`` is drawn: a corner, or a hex's centre."""
    return hex_xy(point) if isinstance(point, str) else corner_xy(point)


# -- the board: the same for every game ------------------------------------------------------


@lru_cache(maxsize=1)
def _board_layer() -> Image.Image:
    image = PALETTE.new_image((WIDTH, HEIGHT), "background")
    draw = ImageDraw.Draw(image)
    harbours = {letter: side for side, letter in enumerate(board.U_BOAT_HARBOURS)}
    for letter, ring in board.HEX_CORNERS.items():
        fill = HARBOUR_FILLS[harbours[letter]] if letter in harbours else "sea"
        draw.polygon([corner_xy(c) for c in ring], fill=PALETTE[fill])
    for side in board.SIDES:
        a, b = sorted(side)
        draw.line((corner_xy(a), corner_xy(b)), fill=PALETTE["side"], width=3)
    for letter in board.HEXES:
        x, y = hex_xy(letter)
        back = HARBOUR_FILLS[harbours[letter]] if letter in harbours else "sea"
        PALETTE.text(image, (x, y - 31), letter, 15, "text", back, "mm")
    for owner, harbour in enumerate(board.U_BOAT_HARBOURS):
        x, y = hex_xy(harbour)
        # Beside the outer side of the hex, clear of the tokens on its two end corners.
        spot, anchor = ((x - 50, y + 50), "rm") if owner == 0 else ((x + 50, y - 50), "lm")
        label = f"{SIDE_NAMES[owner]}'s harbour"
        PALETTE.text(image, spot, label, 12, SIDE_COLOURS[owner], "background", anchor)
    for corner in board.CORNERS:
        _station(image, draw, corner)
    return image


def _station(image: Image.Image, draw: ImageDraw.ImageDraw, corner: int) -> None:
    """An empty corner: a small disc with its number (a square on a battleship harbour)."""
    x, y = corner_xy(corner)
    r = 10
    harbour = next((s for s, c in enumerate(board.BATTLESHIP_HARBOURS) if corner in c), None)
    if harbour is None:
        draw.ellipse(
            (x - r, y - r, x + r, y + r),
            fill=PALETTE["station"],
            outline=PALETTE["station-edge"],
            width=1,
        )
    else:
        draw.rectangle(
            (x - r - 1, y - r - 1, x + r + 1, y + r + 1),
            fill=PALETTE["station"],
            outline=PALETTE[SIDE_COLOURS[harbour]],
            width=3,
        )
    PALETTE.text(image, (x, y), str(corner), 11, "text", "station", "mm")


# -- pieces ----------------------------------------------------------------------------------

TOKEN = 44
"""Sprite box of a battleship token; a U-boat's is wider (``PILL``)."""
PILL = (50, 28)


def _silhouette(draw: ImageDraw.ImageDraw, kind: Kind, cx: int, cy: int, ink: int) -> None:
    """A side view of the ship, 28 px long, centred on (cx, cy)."""
    if kind is Kind.CRUISER:  # heavy hull, tall bridge, a turret fore and aft
        draw.polygon(
            [(cx - 14, cy + 1), (cx + 14, cy + 1), (cx + 10, cy + 7), (cx - 11, cy + 7)], fill=ink
        )
        draw.rectangle((cx - 5, cy - 5, cx + 4, cy + 1), fill=ink)
        draw.rectangle((cx - 2, cy - 10, cx + 1, cy - 5), fill=ink)
        for x in (cx - 11, cx + 7):
            draw.rectangle((x, cy - 3, x + 4, cy + 1), fill=ink)
        draw.line((cx - 14, cy - 2, cx - 10, cy - 2), fill=ink, width=2)
        draw.line((cx + 10, cy - 2, cx + 14, cy - 2), fill=ink, width=2)
    elif kind is Kind.DESTROYER:  # long low hull, one small bridge and a raked funnel
        draw.polygon([(cx - 13, cy), (cx + 15, cy), (cx + 10, cy + 5), (cx - 11, cy + 5)], fill=ink)
        draw.rectangle((cx - 6, cy - 4, cx - 1, cy), fill=ink)
        draw.polygon([(cx + 2, cy), (cx + 3, cy - 6), (cx + 6, cy - 6), (cx + 6, cy)], fill=ink)
    else:  # a submarine: cigar hull, conning tower, periscope
        draw.ellipse((cx - 16, cy - 1, cx + 16, cy + 7), fill=ink)
        draw.rectangle((cx - 4, cy - 6, cx + 4, cy + 1), fill=ink)
        draw.line((cx + 1, cy - 11, cx + 1, cy - 6), fill=ink, width=2)
        draw.line((cx + 1, cy - 11, cx + 4, cy - 11), fill=ink, width=2)


def _diamond() -> list[tuple[int, int]]:
    """The destroyer's token shape, inside its sprite box."""
    c, r = TOKEN // 2, TOKEN // 2 - 1
    return [(c, c - r), (c + r, c), (c, c + r), (c - r, c)]


@lru_cache(maxsize=16)
def _token(kind: Kind, side: int, ghost: bool) -> Sprite:
    """A piece's token; a ghost (a piece the last move took) is dark with a coloured edge."""
    colour = SIDE_COLOURS[side]
    fill, edge, ink = ("ghost", colour, colour) if ghost else (colour, "ink", "ink")
    box = PILL if kind is Kind.U_BOAT else (TOKEN, TOKEN)

    def paint(draw: ImageDraw.ImageDraw) -> None:
        w, h = box
        if kind is Kind.U_BOAT:
            draw.rounded_rectangle(
                (0, 0, w - 1, h - 1),
                radius=h // 2,
                fill=PALETTE[fill],
                outline=PALETTE[edge],
                width=2,
            )
        elif kind is Kind.DESTROYER:
            draw.polygon(_diamond(), fill=PALETTE[fill], outline=PALETTE[edge], width=2)
        else:
            draw.ellipse((3, 3, w - 4, h - 4), fill=PALETTE[fill], outline=PALETTE[edge], width=2)
        _silhouette(draw, kind, w // 2, h // 2, PALETTE[ink])
        if ghost:
            a, b = (w // 2 - 13, h // 2 - 11), (w // 2 + 13, h // 2 + 11)
            draw.line((a, b), fill=PALETTE["accent"], width=4)
            draw.line(((a[0], b[1]), (b[0], a[1])), fill=PALETTE["accent"], width=4)

    return make_sprite(box, paint, (-box[0] // 2, -box[1] // 2))


def _piece(image: Image.Image, piece: Piece, ghost: bool = False) -> None:
    x, y = point_xy(piece.point)
    _token(piece.kind, piece.side, ghost).stamp(image, (x, y))
    if isinstance(piece.point, int):  # the corner's number, on a plate under the token
        draw = ImageDraw.Draw(image)
        draw.rectangle((x - 9, y + 14, x + 9, y + 26), fill=PALETTE["plate"])
        PALETTE.text(image, (x, y + 20), str(piece.point), 10, "text", "plate", "mm")


def _last_move(image: Image.Image, view: MarineView) -> None:
    last = view.last
    if last is None:
        return
    draw = ImageDraw.Draw(image)
    track = [last.start, *([last.via] if last.via is not None else []), last.end]
    points = [point_xy(p) for p in track]
    draw.line(points, fill=PALETTE["accent"], width=5, joint="curve")
    for point in (last.start, last.end):
        x, y = point_xy(point)
        r = 14 if isinstance(point, int) else 18
        draw.ellipse((x - r, y - r, x + r, y + r), outline=PALETTE["accent"], width=3)


def _end_ring(image: Image.Image, view: MarineView) -> None:
    """A ring round the piece that moved, drawn over its token so it shows who went where."""
    last = view.last
    if last is None or any(p.side == last.side for p in last.taken):
        return
    x, y = point_xy(last.end)
    draw = ImageDraw.Draw(image)
    if isinstance(last.end, str):
        draw.rounded_rectangle(
            (x - 29, y - 18, x + 29, y + 18), radius=18, outline=PALETTE["accent"], width=3
        )
    else:
        draw.ellipse((x - 24, y - 24, x + 24, y + 24), outline=PALETTE["accent"], width=3)


# -- header and footer -------------------------------------------------------------------------


def _losses(view: MarineView, side: int) -> str:
    lost = [p for p in view.losses if p.side == side]
    if not lost:
        return "nothing"
    counts = [(sum(1 for p in lost if p.kind is kind), kind.noun) for kind in Kind]
    return ", ".join(f"{n} {noun}{'s' if n > 1 else ''}" for n, noun in counts if n)


LEGEND_ROW = HEIGHT - FOOTER + 56


def _footer(image: Image.Image, view: MarineView, names: Names) -> None:
    top = HEIGHT - FOOTER + 16
    for side in (0, 1):
        y = top + 18 * side
        draw = ImageDraw.Draw(image)
        draw.rectangle((MARGIN, y + 3, MARGIN + 11, y + 14), fill=PALETTE[SIDE_COLOURS[side]])
        harbour = "hex T, corners 50, 51" if side == 0 else "hex A, corners 8, 9"
        who = player_label(names, view.seat_of(side), 12, 120)[0]
        text = f"{SIDE_NAMES[side]}, {who} (harbour {harbour}) lost {_losses(view, side)}"
        PALETTE.text(
            image, (MARGIN + 18, y + 9), text, 12, "text", "background", "lm", face_of(text)
        )
    y = LEGEND_ROW + 14
    for kind, x in (
        (Kind.CRUISER, MARGIN + 22),
        (Kind.DESTROYER, MARGIN + 150),
        (Kind.U_BOAT, MARGIN + 292),
    ):
        _token(kind, 0, False).stamp(image, (x, y))
        PALETTE.text(image, (x + 28, y), kind.noun, 12, "text", "background", "lm")
    lines = (
        "Yellow track and rings: the last move. Crossed-out ghost: a piece it took.",
        "Cruiser takes destroyer, destroyer takes U-boat, U-boat takes cruiser.",
    )
    for i, line in enumerate(lines):
        PALETTE.text(image, (MARGIN, y + 28 + 16 * i), line, 11, "muted", "background", "lm")


def render_image(view: MarineView, names: Names = NO_NAMES) -> Image.Image:
    image = _board_layer().copy()
    _last_move(image, view)
    for piece in view.pieces:
        _piece(image, piece)
    if view.last is not None:
        for piece in view.last.taken:
            _piece(image, piece, ghost=True)
    _end_ring(image, view)
    PALETTE.text(image, (MARGIN, MARGIN + 8), "Marine Game", 18, "text", "background", "lm")
    PALETTE.text(image, (MARGIN, MARGIN + 32), view.status(), 13, "accent", "background", "lm")
    ply = f"ply {view.plies}, {view.quiet} quiet of {view.rules.quiet_plies}"
    PALETTE.text(image, (WIDTH - MARGIN, MARGIN + 8), ply, 12, "muted", "background", "rm")
    _footer(image, view, names)
    return image


replay_frame = render_image
"""A replay's frame is the board as drawn: its pieces are symbols that read at any size."""


def render(view: MarineView, names: Names = NO_NAMES) -> bytes:
    """The board's PNG; one move's three images (both players, the channel) are drawn once.

    ``names`` are the seats' display names, written beside each side's colour."""
    return _png(replace(view, seat=None), names)


@lru_cache(maxsize=4)
def _png(view: MarineView, names: Names) -> bytes:
    return encode_png(render_image(view, names))


def alt_text(view: MarineView, names: Names = NO_NAMES) -> str:
    """A short description for screen readers; the full text twin is ``view.text()``."""
    parts = [f"Marine Game board. {view.status()}"]
    for side in (0, 1):
        count = sum(1 for p in view.pieces if p.side == side)
        who = f"{SIDE_NAMES[side]} ({player_text(names, view.seat_of(side))})"
        parts.append(f"{who} has {count} pieces, lost {_losses(view, side)}.")
    if view.last is not None:
        parts.append(f"Last move: {describe(view.last)}.")
    return " ".join(parts)
