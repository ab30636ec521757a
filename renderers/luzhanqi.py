"""Luzhanqi boards as images: posts, camps as circles, HQs, railroads drawn as tracks and
roads as thin lines, the mountains and the front line, and pieces as labelled tokens.

Only a ``LuzhanqiView`` reaches this module, so an image can show no more than its
audience may know: enemy pieces in the referee game are blank tokens of their colour, and
face-down pieces of the flip game are blank grey tokens for everyone.

Tokens and chips are drawn by ``renderers.luzhanqi_pieces``. Each side's lost pieces, as
far as the audience may know them, are listed in a strip next to that side's end of the
board. Phones show the image
about 360 px wide, so everything that must be read there is large, and the strips lie
above and below the board rather than beside it, which would shrink the whole board.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.core import EndReason, Phase
from bot.games.luzhanqi.board import (
    CAMPS,
    HQS,
    RAIL_EDGES,
    ROAD_EDGES,
    STATIONS,
    Colour,
    Station,
    file_of,
    name,
    rank_of,
    swap_example,
)
from bot.games.luzhanqi.pieces import Kind, Piece
from bot.games.luzhanqi.view import LuzhanqiView
from renderers.common import (
    NO_NAMES,
    Names,
    face_of,
    player_label,
    player_text,
)
from renderers.luzhanqi_pieces import (
    CHIP,
    PALETTE,
    STRIP_LINE,
    STRIP_LINES,
    TOKEN,
    draw_strip,
    labelled_token,
    replay_token,
)
from renderers.png import encode_png

MARGIN = 16
HEADER = 62
AXIS = 28
COLUMN = 104
ROW = 50
FRONT = 56
"""The front-line band between ranks 6 and 7: not a row of stations."""
STRIP = 18 + (STRIP_LINES - 1) * STRIP_LINE + CHIP[1] // 2 + 7
"""Height of one side's lost-pieces strip: a line with its label and chips, and more lines
of chips should they not fit."""
FOOTER = 62
WIDTH = MARGIN + AXIS + 5 * COLUMN + MARGIN
TOP_STRIP = MARGIN + HEADER
BOARD_TOP = TOP_STRIP + STRIP
BOARD_HEIGHT = 12 * ROW + FRONT
BOTTOM_STRIP = BOARD_TOP + BOARD_HEIGHT + AXIS
HEIGHT = BOTTOM_STRIP + STRIP + FOOTER


def _centre(column: int, row: int) -> tuple[int, int]:
    """Pixel centre of the station drawn at ``column`` (0-4), ``row`` (0 = top, 11 = bottom)."""
    x = MARGIN + AXIS + column * COLUMN + COLUMN // 2
    y = BOARD_TOP + row * ROW + ROW // 2 + (FRONT if row >= 6 else 0)
    return x, y


def _place(where: Station, bottom: Colour) -> tuple[int, int]:
    """Drawing column and row of a station, with ``bottom``'s back row at the bottom."""
    if bottom is Colour.RED:
        return file_of(where), 12 - rank_of(where)
    return 4 - file_of(where), rank_of(where) - 1


def centre_of(where: Station, bottom: Colour) -> tuple[int, int]:
    """Where ``render`` draws a station, for tests that look at its pixels."""
    return _centre(*_place(where, bottom))


@lru_cache(maxsize=2)
def _static_layer(bottom: Colour) -> Image.Image:
    """Board, lines, stations, coordinates: identical for every move from one side."""
    image = PALETTE.new_image((WIDTH, HEIGHT), "background")
    draw = ImageDraw.Draw(image)
    left, right = MARGIN + AXIS, MARGIN + AXIS + 5 * COLUMN
    draw.rectangle((left, BOARD_TOP, right, BOARD_TOP + BOARD_HEIGHT), fill=PALETTE["field"])
    front_top = BOARD_TOP + 6 * ROW
    draw.rectangle((left, front_top, right, front_top + FRONT), fill=PALETTE["front"])
    for column in (1, 3):  # the mountains between b6/b7 and d6/d7
        x = _centre(column, 0)[0]
        for dx, height in ((-18, 30), (12, 22)):
            base = front_top + FRONT // 2 + 14
            draw.polygon(
                ((x + dx - 20, base), (x + dx, base - height), (x + dx + 20, base)),
                fill=PALETTE["mountain"],
            )
    for edge in ROAD_EDGES:
        a, b = (centre_of(s, bottom) for s in edge)
        draw.line((a, b), fill=PALETTE["road"], width=2)
    for edge in RAIL_EDGES:
        a, b = (centre_of(s, bottom) for s in edge)
        draw.line((a, b), fill=PALETTE["rail"], width=9)
        _ties(draw, a, b)
    for where in STATIONS:
        _station(draw, where, bottom)
    PALETTE.text(image, (left + 8, front_top + 12), "front line", 14, "muted", "front", "lm")
    for where in STATIONS:
        column, row = _place(where, bottom)
        x, y = _centre(column, row)
        if column == 0:
            PALETTE.text(image, (left - 8, y), str(rank_of(where)), 16, "muted", "background", "rm")
        if row == 11:
            bottom_y = BOARD_TOP + BOARD_HEIGHT + AXIS // 2
            PALETTE.text(image, (x, bottom_y), name(where)[0], 16, "muted", "background", "mm")
    return image


def _ties(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
    """Light sleepers across a dark track, so railroads never look like roads."""
    (x0, y0), (x1, y1) = a, b
    length = max(abs(x1 - x0), abs(y1 - y0))
    steps = max(1, length // 12)
    for i in range(steps + 1):
        t = i / steps
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        if y0 == y1:
            draw.line((x, y - 2, x, y + 2), fill=PALETTE["tie"], width=2)
        else:
            draw.line((x - 2, y, x + 2, y), fill=PALETTE["tie"], width=2)


def _station(draw: ImageDraw.ImageDraw, where: Station, bottom: Colour) -> None:
    x, y = centre_of(where, bottom)
    if where in CAMPS:
        r = 22
        draw.ellipse(
            (x - r, y - r, x + r, y + r), fill=PALETTE["camp"], outline=PALETTE["outline"], width=2
        )
    elif where in HQS:
        w, h = 44, 19
        draw.rounded_rectangle(
            (x - w, y - h, x + w, y + h),
            radius=12,
            fill=PALETTE["hq"],
            outline=PALETTE["outline"],
            width=3,
        )
    else:
        w, h = 32, 12
        draw.rectangle(
            (x - w, y - h, x + w, y + h), fill=PALETTE["post"], outline=PALETTE["outline"], width=1
        )


def _draw_piece(
    image: Image.Image, where: Station, piece: Piece, bottom: Colour, replay: bool = False
) -> None:
    token = replay_token(piece) if replay else labelled_token(piece)
    token.stamp(image, centre_of(where, bottom))


def _highlight(draw: ImageDraw.ImageDraw, view: LuzhanqiView) -> None:
    last = view.last
    if last is None:
        return
    spots = [last.start] if last.target is None else [last.start, last.target]
    for where in spots:
        x, y = centre_of(where, view.bottom)
        w, h = TOKEN[0] // 2 + 4, TOKEN[1] // 2 + 3
        draw.rounded_rectangle(
            (x - w, y - h, x + w, y + h), radius=10, outline=PALETTE["highlight"], width=3
        )


NAME_WIDTH = 190
"""The most a player's name may take in the header, in px at 22 px."""


def _who(view: LuzhanqiView, seat: int, names: Names, drawn: bool) -> str:
    """A seat as the public sees it: its player's name, and the colour once known."""
    who = player_label(names, seat, 22, NAME_WIDTH)[0] if drawn else player_text(names, seat)
    colour = view.colours[seat]
    return f"{who} ({colour.value.title()})" if colour else who


def status(view: LuzhanqiView, names: Names = NO_NAMES, drawn: bool = False) -> str:
    """The header line from the viewer's side; ``drawn``: names fitted to the image."""
    seat = view.seat
    if view.phase is Phase.SETUP:
        if seat is None:
            return "Armies deploying in secret"
        return "Waiting for your opponent" if view.ready[seat] else "Deploy, then send ready"
    if view.phase is Phase.PLAY and view.turn is not None:
        if seat is None:
            return f"{_who(view, view.turn, names, drawn)} to move"
        return "Your move" if view.turn == seat else "Opponent's move"
    outcome = view.outcome
    if outcome is None or outcome.reason is EndReason.ABORTED:
        return "Game aborted"
    if outcome.winner is None:
        return "Draw"
    if seat is None:
        return f"{_who(view, outcome.winner, names, drawn)} wins"
    return "You win!" if outcome.winner == seat else "You lose"


def _offer(view: LuzhanqiView, names: Names, drawn: bool) -> str | None:
    """8.5: who made the standing draw offer, which is public."""
    if view.draw_offer is None or view.phase is not Phase.PLAY:
        return None
    if view.seat is None:
        return f"Draw offered by {_who(view, view.draw_offer, names, drawn)}"
    if view.draw_offer == view.seat:
        return "You offered a draw"
    return "Your opponent offers a draw: accept it, or play on to decline"


def _footer(view: LuzhanqiView) -> str:
    last = view.last
    parts = []
    if last is not None:
        if last.target is None:
            parts.append(f"Last: flip {name(last.start)}")
        else:
            move = f"Last: {name(last.start)}-{name(last.target)}"
            parts.append(move if last.removal is None else f"{move}, {last.removal.value}")
    if view.phase is Phase.PLAY:
        parts.append(f"{view.quiet}/{view.rules.quiet_limit} plies without attack")
    if view.phase is Phase.SETUP and view.seat in view.movers:
        example = swap_example(view.colour or Colour.RED)
        parts.append(f"Edit: {example}, random, save <name>, load <name>, then ready")
    return "   ·   ".join(parts)


LEGEND = "Track: railroad   Thin line: road   Circle: camp (safe)   Large rounded: HQ"


def _players(view: LuzhanqiView, names: Names) -> str:
    """The header's second line: who plays whom, with colours once they are known."""

    def who(seat: int, width: int) -> str:
        drawn = player_label(names, seat, 17, width)[0]
        colour = view.colours[seat]
        return f"{drawn} ({colour.value.title()})" if colour else drawn

    if view.seat is None:
        return f"{who(0, 200)} against {who(1, 200)}"
    opponent = player_label(names, 1 - view.seat, 17, 260)[0]
    mine = f" {view.colour.value.title()}" if view.colour else ""
    return f"You play{mine} against {opponent}"


def render_image(
    view: LuzhanqiView, names: Names = NO_NAMES, *, replay: bool = False
) -> Image.Image:
    """The board as a palette image; ``replay`` labels each piece for a small replay frame."""
    image = _static_layer(view.bottom).copy()
    draw = ImageDraw.Draw(image)
    _highlight(draw, view)
    for where, piece in enumerate(view.pieces):
        if piece is not None:
            _draw_piece(image, where, piece, view.bottom, replay)
    title = f"Luzhanqi · {view.variant}"
    PALETTE.text(image, (MARGIN, MARGIN + 24), title, 24, "text", "background", "ls")
    players = _players(view, names)
    PALETTE.text(
        image, (MARGIN, MARGIN + 50), players, 17, "muted", "background", "ls", face_of(players)
    )
    header = status(view, names, drawn=True)
    PALETTE.text(
        image,
        (WIDTH - MARGIN, MARGIN + 24),
        header,
        22,
        "highlight",
        "background",
        "rs",
        face_of(header),
    )
    by_colour = {losses.colour: losses for losses in view.losses}
    top = Colour.BLUE if view.bottom is Colour.RED else Colour.RED
    for losses, strip_top in ((by_colour[top], TOP_STRIP), (by_colour[view.bottom], BOTTOM_STRIP)):
        draw_strip(image, losses, strip_top, (MARGIN, WIDTH - MARGIN), replay)
    footer_y = BOTTOM_STRIP + STRIP + 14
    PALETTE.text(image, (MARGIN, footer_y), _footer(view), 17, "text", "background", "lm")
    # A standing draw offer takes the legend's line: it matters more for a ply or two.
    offer = _offer(view, names, drawn=True)
    if offer is None:
        PALETTE.text(image, (MARGIN, footer_y + 26), LEGEND, 15, "muted", "background", "lm")
    else:
        PALETTE.text(
            image,
            (MARGIN, footer_y + 26),
            offer,
            17,
            "highlight",
            "background",
            "lm",
            face_of(offer),
        )
    return image


def render(view: LuzhanqiView, names: Names = NO_NAMES) -> bytes:
    """PNG bytes of the board; the same view and names always give the same bytes."""
    return encode_png(render_image(view, names))


def alt_text(view: LuzhanqiView, names: Names = NO_NAMES) -> str:
    """A short description for screen readers: whose view, the status, the pieces' count."""
    parts = [f"Luzhanqi board ({view.variant})."]
    if view.seat is None:
        parts.append(f"{player_text(names, 0)} against {player_text(names, 1)}.")
    else:
        parts.append(f"Your opponent is {player_text(names, 1 - view.seat)}.")
    if view.colour is not None:
        parts.append(f"You play {view.colour.value.title()}, drawn at the bottom.")
    parts.append(status(view, names) + ".")
    for colour in Colour:
        count = sum(1 for p in view.pieces if p is not None and p.colour is colour)
        parts.append(f"{colour.value.title()} pieces on the board: {count}.")
    down = sum(1 for p in view.pieces if p is not None and not p.face_up)
    if down:
        parts.append(f"Face-down pieces: {down}.")
    parts.extend(f"{losses.text()}." for losses in view.losses)
    footer = _footer(view)
    if footer:
        parts.append(footer.replace("   ·   ", ". ") + ".")
    offer = _offer(view, names, drawn=False)
    if offer is not None:
        parts.append(offer + ".")
    return " ".join(parts)[:1024]


def replay_frame(view: LuzhanqiView, names: Names = NO_NAMES) -> Image.Image:
    """The board as a replay's frame, labelled to be read at its size (one bold glyph a
    piece)."""
    return render_image(view, names, replay=True)


__all__ = ["Kind", "alt_text", "centre_of", "render", "render_image", "replay_frame", "status"]
