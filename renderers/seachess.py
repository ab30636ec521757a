"""Seachess board images: one ``SeachessView`` in, PNG bytes out.

Pieces are drawn as ships: a hull whose bow points the way the piece faces (a torpedo boat
its facing, every other piece towards the enemy) with its letter on deck, ivory for White
and charcoal for Black. The havens are sandy harbour basins, the open sea blue, and the 16
missing corners are not drawn at all. Small badges show what is aboard (a torpedo, an
aircraft, and to its owner a cruiser's mine) and a submarine's visible count. A player's own
mines and submerged submarines are drawn; the opponent's never are: each submerged enemy
submarine appears only as a "surfaces on move N" line below the board. Black sees the board
from its own side. Everything drawn comes from the view (Seachess rules §9.2).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import Phase
from bot.games.seachess.board import (
    FACING_NAMES,
    FILE_LETTERS,
    FILES,
    HAVENS,
    RANKS,
    RING,
    SQUARES,
    file_of,
    name,
    rank_of,
)
from bot.games.seachess.pieces import COLOURS, Kind, Piece
from bot.games.seachess.view import SeachessView
from renderers.common import (
    NO_NAMES,
    Names,
    Sprite,
    board_palette,
    make_sprite,
    player_label,
    player_text,
    text_width,
)
from renderers.png import encode_png

PALETTE = board_palette("seachess")
"""The board's colours: ``renderers/palettes.toml``."""

CELL = 36
MARGIN = 14
AXIS = 18
HEADER = 58
"""The title and, beside it, the players; the status line below the title, running on
under the players when it is long."""
FOOTER = 118
BOARD = CELL * FILES
WIDTH = MARGIN * 2 + AXIS * 2 + BOARD
HEIGHT = MARGIN * 2 + HEADER + AXIS * 2 + BOARD + FOOTER
TOP = MARGIN + HEADER + AXIS
LEFT = MARGIN + AXIS

Box = tuple[int, int, int, int]


def _flipped(view: SeachessView) -> bool:
    """Black sees its own haven at the bottom."""
    return view.seat == 1


def _box(sq: int, flipped: bool) -> Box:
    f, r = file_of(sq), rank_of(sq)
    column, row = (FILES - 1 - f, r) if flipped else (f, RANKS - 1 - r)
    x, y = LEFT + column * CELL, TOP + row * CELL
    return x, y, x + CELL, y + CELL


@lru_cache(maxsize=2)
def _board_layer(flipped: bool) -> Image.Image:
    """Sea, havens, grid and coordinates: the same for every game."""
    image = PALETTE.new_image((WIDTH, HEIGHT), "background")
    draw = ImageDraw.Draw(image)
    havens = HAVENS[0] | HAVENS[1]
    for sq in SQUARES:
        haven = sq in havens
        draw.rectangle(
            _box(sq, flipped),
            fill=PALETTE["haven" if haven else "sea"],
            outline=PALETTE["haven_grid" if haven else "sea_grid"],
        )
    for index in range(FILES):
        letter = FILE_LETTERS[FILES - 1 - index if flipped else index]
        x = LEFT + index * CELL + CELL // 2
        PALETTE.text(image, (x, TOP - 3), letter, 13, "muted", "background", "mb")
        PALETTE.text(image, (x, TOP + BOARD + 3), letter, 13, "muted", "background", "mt")
        number = str(index + 1 if flipped else RANKS - index)
        y = TOP + index * CELL + CELL // 2
        PALETTE.text(image, (LEFT - 4, y), number, 12, "muted", "background", "rm")
        PALETTE.text(image, (LEFT + BOARD + 4, y), number, 12, "muted", "background", "lm")
    return image


_HULL = ((0.5, 0.08), (0.78, 0.32), (0.78, 0.88), (0.22, 0.88), (0.22, 0.32))
"""A ship seen from above, bow up, in units of the cell."""


def _hull(box: Box, direction: int) -> list[tuple[float, float]]:
    """The hull turned so that its bow points ``direction`` on screen (0 up, 1 right...)."""
    x0, y0, _, _ = box
    points = []
    for u, v in _HULL:
        for _ in range(direction):
            u, v = 1 - v, u
        points.append((x0 + u * CELL, y0 + v * CELL))
    return points


@lru_cache(maxsize=8)
def _hull_sprite(direction: int, fill: str, outline: str) -> Sprite:
    """A hull drawn once per direction and side, then stamped: Pillow draws a polygon's
    wide outline through a mask the size of the whole image, which made the ships most
    of a board's drawing."""

    def paint(draw: ImageDraw.ImageDraw) -> None:
        draw.polygon(
            _hull((0, 0, CELL, CELL), direction),
            fill=PALETTE[fill],
            outline=PALETTE[outline],
            width=2,
        )

    return make_sprite((CELL, CELL), paint)


def _screen_direction(piece: Piece, flipped: bool) -> int:
    facing = piece.facing if piece.kind is Kind.TORPEDO_BOAT else (0 if piece.owner == 0 else 2)
    return (facing + 2) % 4 if flipped else facing


REPLAY_LETTER = 26
"""A ship's letter in a replay frame, in px: nearly the hull's height, bold, so it stays
legible at the two fifths or less a replay shows the board at."""


def _ship(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SeachessView,
    sq: int,
    piece: Piece,
    replay: bool = False,
) -> None:
    flipped = _flipped(view)
    box = _box(sq, flipped)
    fill, letter_colour = ("white_ship", "ink") if piece.owner == 0 else ("black_ship", "paper")
    outline = "ink" if piece.owner == 0 else "paper"
    x0, y0, x1, y1 = box
    _hull_sprite(_screen_direction(piece, flipped), fill, outline).stamp(image, (x0, y0))
    centre = ((x0 + x1) / 2, (y0 + y1) / 2 + 1)
    if replay:
        letter = piece.kind.value
        PALETTE.text(image, centre, letter, REPLAY_LETTER, letter_colour, fill, "mm", "glyphs")
    else:
        PALETTE.text(image, centre, piece.kind.value, 15, letter_colour, fill, "mm")
    loaded = piece.loaded and view.knows_load(piece)
    if piece.kind in (Kind.TORPEDO_BOAT, Kind.CARRIER, Kind.CRUISER) and loaded:
        draw.ellipse(
            (x1 - 11, y0 + 2, x1 - 2, y0 + 11), fill=PALETTE["load"], outline=PALETTE["ink"]
        )
    if piece.kind is Kind.SUBMARINE:
        draw.rectangle((x1 - 12, y1 - 13, x1 - 1, y1 - 1), fill=PALETTE["background"])
        PALETTE.text(image, (x1 - 6, y1 - 7), str(piece.count), 10, "text", "background", "mm")


def _mine(draw: ImageDraw.ImageDraw, box: Box, small: bool) -> None:
    """A sea mine: a dark ball with red horns; small in a corner when a piece stands on it."""
    x0, y0, x1, y1 = box
    if small:
        cx, cy, r = x0 + 8, y1 - 8, 5
    else:
        cx, cy, r = (x0 + x1) // 2, (y0 + y1) // 2, 9
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        draw.line((cx, cy, cx + dx * (r + 3), cy + dy * (r + 3)), fill=PALETTE["spike"], width=2)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PALETTE["mine"], outline=PALETTE["spike"])


def _submerged(draw: ImageDraw.ImageDraw, box: Box, small: bool) -> None:
    """An own submerged submarine: a dashed cyan outline, or a corner badge under a piece."""
    x0, y0, x1, y1 = box
    if small:
        draw.ellipse((x0 + 2, y0 + 2, x0 + 12, y0 + 12), outline=PALETTE["sub"], width=2)
        return
    draw.ellipse((x0 + 6, y0 + 11, x1 - 6, y1 - 11), outline=PALETTE["sub"], width=2)
    draw.line((x0 + 18, y0 + 11, x0 + 18, y0 + 5), fill=PALETTE["sub"], width=2)


def _frame(draw: ImageDraw.ImageDraw, box: Box, colour: str, width: int = 2) -> None:
    x0, y0, x1, y1 = box
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=PALETTE[colour], width=width)


def status(view: SeachessView) -> str:
    """Whose move it is, as the image's audience sees it."""
    if view.outcome is not None:
        shown = " Everything revealed." if view.revealed else ""
        detail = f" ({view.outcome.detail})" if view.outcome.detail else ""
        if view.outcome.winner is None:
            ended = "drawn" if view.outcome.has_result else "no result"
            return f"Game over: {ended}{detail}.{shown}"
        if view.seat is None:
            return f"Game over: {COLOURS[view.outcome.winner]} won{detail}.{shown}"
        won = "You won" if view.outcome.winner == view.seat else "You lost"
        return f"{won}{detail}.{shown}"
    check = " Check!" if view.checks[view.turn] else ""
    offer = ""
    if view.draw_offer is not None:
        offer = f" {COLOURS[view.draw_offer]} offers a draw."
    if view.seat is None:
        return f"{COLOURS[view.turn]} to move.{check}{offer}"
    mine = "Your move." if view.turn == view.seat else "Your opponent's move."
    return f"{mine}{check}{offer}"


def _footer_lines(view: SeachessView) -> list[str]:
    lines = []
    for marker in view.subs:
        where = f" under {name(marker.square)}" if marker.square is not None else ""
        lines.append(
            f"{COLOURS[marker.owner]} submarine from {name(marker.dived_from)}{where}: "
            f"surfaces on move {marker.surfaces_on_move}"
        )
    for seat in (0, 1):
        carrier = view.airborne[seat]
        if carrier is not None:
            lines.append(f"{COLOURS[seat]} aircraft airborne over the carrier on {name(carrier)}")
    return lines


LEGEND = (
    "orange dot: loaded (torpedo, aircraft, own cruiser's mine) · digit: submarine's count",
    "yellow frame: last move · red frame: check · purple: airborne aircraft's ring",
)


NAME_WIDTH = 170
"""Pixels a player's name may take beside its colour at the top right."""
STATUS_SIZE = 13
STATUS_LINE = 18
"""From one status line to the next, in px."""


def _players_left() -> int:
    """The left edge of the players block: its colour words end where the names start."""
    words = max(text_width(f"{colour}:", 13) for colour in COLOURS)
    return WIDTH - MARGIN - NAME_WIDTH - 6 - words


def status_lines(text: str) -> list[str]:
    """``text`` in lines that keep clear of the players block: the first beside it, under
    the title, the next below it, across the whole width."""
    widths = (_players_left() - 12 - MARGIN, WIDTH - 2 * MARGIN)
    lines: list[str] = []
    for word in text.split():
        width = widths[min(len(lines) - 1, 1)] if lines else widths[0]
        if lines and text_width(f"{lines[-1]} {word}", STATUS_SIZE) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _players(image: Image.Image, names: Names) -> None:
    """Who plays which colour, at the top right: public, and drawn from the names alone."""
    for seat, y in ((0, MARGIN + 2), (1, MARGIN + 22)):
        label, face = player_label(names, seat, 13, NAME_WIDTH)
        right = WIDTH - MARGIN
        PALETTE.text(image, (right - NAME_WIDTH, y), label, 13, "text", "background", "la", face)
        PALETTE.text(
            image,
            (right - NAME_WIDTH - 6, y),
            f"{COLOURS[seat]}:",
            13,
            "muted",
            "background",
            "ra",
        )


def render_image(
    view: SeachessView, names: Names = NO_NAMES, *, replay: bool = False
) -> Image.Image:
    """The board as a palette image; ``replay`` letters ships for a small replay frame."""
    flipped = _flipped(view)
    image = _board_layer(flipped).copy()
    draw = ImageDraw.Draw(image)
    at = dict(view.pieces)
    for seat in (0, 1):
        carrier = view.airborne[seat]
        if carrier is not None:
            for sq in RING[carrier]:
                x0, y0, x1, y1 = _box(sq, flipped)
                draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=PALETTE["ring"])
    for sq, _ in view.mines:
        if sq not in at:
            _mine(draw, _box(sq, flipped), small=False)
    for sq in view.last:
        _frame(draw, _box(sq, flipped), "accent")
    for sq, piece in view.pieces:
        _ship(image, draw, view, sq, piece, replay)
        if piece.kind is Kind.COMMANDO and view.checks[piece.owner]:
            _frame(draw, _box(sq, flipped), "check", 3)
    for sq, _ in view.mines:
        if sq in at:  # the planting cruiser stands on it: a badge over the hull
            _mine(draw, _box(sq, flipped), small=True)
    for marker in view.subs:
        if marker.square is not None:
            _submerged(draw, _box(marker.square, flipped), small=marker.square in at)
    _players(image, names)
    title = "Seachess" + (f" · you play {COLOURS[view.seat]}" if view.seat is not None else "")
    PALETTE.text(image, (MARGIN, MARGIN + 1), title, 18, "text", "background")
    colour = "check" if view.phase is Phase.PLAY and view.checks[view.turn] else "accent"
    for row, line in enumerate(status_lines(status(view))[:2]):
        y = MARGIN + 23 + row * STATUS_LINE
        PALETTE.text(image, (MARGIN, y), line, STATUS_SIZE, colour, "background")
    y = TOP + BOARD + AXIS + 6
    for line in _footer_lines(view)[:4]:
        PALETTE.text(image, (MARGIN, y), line, 12, "sub", "background")
        y += 16
    y = HEIGHT - MARGIN - 30
    for line in LEGEND:
        PALETTE.text(image, (MARGIN, y), line, 11, "muted", "background")
        y += 15
    return image


def render(view: SeachessView, names: Names = NO_NAMES) -> bytes:
    """PNG bytes of the board; the same view and names always give the same bytes."""
    return encode_png(render_image(view, names))


def alt_text(view: SeachessView, names: Names = NO_NAMES) -> str:
    """A short description for screen readers; the full text twin is ``view.text()``."""
    players = f" White: {player_text(names, 0)}; Black: {player_text(names, 1)}."
    parts = [
        "Seachess board." + (f" You play {COLOURS[view.seat]}." if view.seat is not None else "")
    ]
    parts[0] += players
    parts.append(status(view))
    for seat in (0, 1):
        count = sum(1 for _, p in view.pieces if p.owner == seat)
        parts.append(f"{COLOURS[seat]} has {count} visible pieces.")
    if view.seat is not None and view.mines:
        parts.append("Your mines: " + ", ".join(name(sq) for sq, _ in view.mines) + ".")
    for line in _footer_lines(view):
        parts.append(line[0].upper() + line[1:] + ".")
    for sq, piece in view.pieces:
        if piece.kind is Kind.TORPEDO_BOAT:
            parts.append(
                f"{COLOURS[piece.owner]} torpedo boat {name(sq)} faces "
                f"{FACING_NAMES[piece.facing]}, {'loaded' if piece.loaded else 'empty'}."
            )
    if view.last:
        parts.append("Last move: " + ", ".join(name(sq) for sq in view.last) + ".")
    return " ".join(parts)


def replay_frame(view: SeachessView, names: Names = NO_NAMES) -> Image.Image:
    """The board as a replay's frame, labelled to be read at its size: each ship's letter
    nearly as tall as its hull."""
    return render_image(view, names, replay=True)
