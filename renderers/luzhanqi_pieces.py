"""Luzhanqi pieces as drawn: the palette, the labelled tokens of the board and the chips
of the lost-pieces strips.

A known piece's token reads as players of the printed game know it: the rank number and
the Chinese name large (司令 ... 工兵, 地雷, 炸弹, 军旗, from the bot's own font subset),
the English name small beneath. A lost piece's chip has room for one line: the rank
number and the Chinese name, or for the bomb, landmine and flag, which have no rank, the
English name and the Chinese one, so a reader of either language knows every chip.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.luzhanqi.pieces import Kind, Piece
from bot.games.luzhanqi.view import Losses
from renderers.common import COLOURS, Palette, Sprite, make_sprite, text_width

PALETTE = Palette(
    {
        **COLOURS,
        "field": (46, 58, 48),
        "front": (34, 44, 64),
        "road": (150, 160, 140),
        "rail": (20, 20, 24),
        "tie": (225, 225, 210),
        "post": (70, 84, 72),
        "outline": (190, 200, 185),
        "camp": (90, 110, 92),
        "hq": (110, 96, 70),
        "mountain": (120, 104, 84),
        "red": (196, 48, 40),
        "red-edge": (255, 170, 160),
        "blue": (36, 96, 196),
        "blue-edge": (160, 200, 255),
        "hidden": (110, 114, 124),
        "hidden-edge": (190, 194, 204),
        "highlight": (255, 214, 10),
        "flag-mark": (255, 214, 10),
    },
    ramps=(
        ("text", "background"),
        ("muted", "background"),
        ("text", "red"),
        ("text", "blue"),
        ("text", "hidden"),
        ("muted", "field"),
        ("text", "hq"),
        ("highlight", "background"),
        ("text", "front"),
    ),
)

CHINESE: dict[Kind, str] = {
    Kind.MARSHAL: "司令",
    Kind.GENERAL: "军长",
    Kind.MAJOR_GENERAL: "师长",
    Kind.BRIGADIER: "旅长",
    Kind.COLONEL: "团长",
    Kind.MAJOR: "营长",
    Kind.CAPTAIN: "连长",
    Kind.LIEUTENANT: "排长",
    Kind.ENGINEER: "工兵",
    Kind.LANDMINE: "地雷",
    Kind.BOMB: "炸弹",
    Kind.FLAG: "军旗",
}
"""The pieces' names as printed on Chinese sets."""

TOKEN = (96, 44)
CHIP = (64, 30)
CHIP_LABEL = 16
"""The size of a chip's label in px."""
STRIP_LINE = CHIP[1] + 6
"""From one line of chips to the next, in px."""
STRIP_LINES = 3
"""Lines of chips in a strip: a side's every kind, with counts, needs three."""


def _token_colours(piece: Piece) -> tuple[str, str]:
    if not piece.face_up or piece.colour is None:
        return "hidden", "hidden-edge"
    return piece.colour.value, f"{piece.colour.value}-edge"


@lru_cache(maxsize=64)
def token(piece: Piece, size: tuple[int, int] = TOKEN) -> Sprite:
    fill, edge = _token_colours(piece)
    w, h = size

    def paint(draw: ImageDraw.ImageDraw) -> None:
        draw.rounded_rectangle(
            (0, 0, w - 1, h - 1), radius=8, fill=PALETTE[fill], outline=PALETTE[edge], width=2
        )

    return make_sprite(size, paint, (-w // 2, -h // 2))


def chip_prefix(kind: Kind) -> str:
    """What a lost piece's chip shows before the Chinese name: the rank, or for the bomb,
    landmine and flag, which have none, the English name their board tokens carry."""
    return kind.short if kind.rank is None else str(kind.rank)


def _name_width(prefix: str, kind: Kind, size: int) -> int:
    lead = f"{prefix} " if prefix else ""
    return text_width(lead, size) + text_width(CHINESE[kind], size, "glyphs")


def _name_line(
    image: Image.Image,
    centre: tuple[int, int],
    kind: Kind,
    size: int,
    background: str,
    prefix: str,
) -> None:
    """``prefix`` (the rank number, or a name) and the Chinese name, centred on one line."""
    x, y = centre
    chinese = CHINESE[kind]
    lead = f"{prefix} " if prefix else ""
    left = x - _name_width(prefix, kind, size) // 2
    if lead:
        PALETTE.text(image, (left, y), lead, size, "text", background, "lm")
    PALETTE.text(
        image,
        (left + text_width(lead, size), y),
        chinese,
        size,
        "text",
        background,
        "lm",
        "glyphs",
    )


@lru_cache(maxsize=128)
def labelled_token(piece: Piece) -> Sprite:
    """A board token with its labels drawn in: one paste per piece on every render."""
    blank = token(piece)
    image = blank.image.copy()
    fill, _ = _token_colours(piece)
    x, y = TOKEN[0] // 2, TOKEN[1] // 2
    if piece.kind is not None and piece.face_up:
        rank = "" if piece.kind.rank is None else str(piece.kind.rank)
        _name_line(image, (x, y - 8), piece.kind, 20, fill, rank)
        PALETTE.text(image, (x, y + 13), piece.kind.short, 13, "text", fill, "mm")
    elif not piece.face_up:
        PALETTE.text(image, (x, y + 1), "?", 20, "text", fill, "mm")
    return Sprite(image, blank.mask, blank.offset)


REPLAY_LABEL = 42
"""The one glyph a token shows in a replay frame, in px: a replay shows the board at two
fifths or less (a phone then shows it at about a third), where the rank, the Chinese name
and the English one would be a blur; one bold glyph nearly the token's height stays legible."""
REPLAY_CHIP_LABEL = 28
"""The same for the chips of the lost pieces' strips."""


@lru_cache(maxsize=128)
def replay_token(piece: Piece) -> Sprite:
    """A token with its kind's one-glyph code alone (the rank, or B, L, F), for replays."""
    blank = token(piece)
    image = blank.image.copy()
    fill, _ = _token_colours(piece)
    label = "?" if not piece.face_up else (piece.kind.value if piece.kind is not None else "")
    if label:
        centre = (TOKEN[0] // 2, TOKEN[1] // 2 + 1)
        PALETTE.text(image, centre, label, REPLAY_LABEL, "text", fill, "mm", "glyphs")
    return Sprite(image, blank.mask, blank.offset)


def _chip_width(kind: Kind) -> int:
    """A chip holds its label with room to spare, and is never narrower than ``CHIP``."""
    return max(CHIP[0], _name_width(chip_prefix(kind), kind, CHIP_LABEL) + 14)


@dataclass(frozen=True)
class Chip:
    """One chip of a strip: a kind lost (``None``: unknown to the audience), how many, and
    where it goes: its left edge, its middle line and its own width."""

    kind: Kind | None
    count: int
    left: int
    y: int
    width: int


def strip_chips(
    losses: Losses, top: int, span: tuple[int, int], replay: bool = False
) -> tuple[list[Chip], bool]:
    """The chips of one side's strip, whose label starts at ``top`` and the left end of
    ``span`` (left and right, in px), laid out after the label and wrapping onto up to
    ``STRIP_LINES`` lines; and whether any were left out for lack of room."""
    left, right = span
    counted: dict[Kind | None, int] = {}
    for known in losses.known:
        counted[known] = counted.get(known, 0) + 1
    if losses.unknown:
        counted[None] = losses.unknown
    y = top + 18
    x = left + text_width(_strip_label(losses), 17) + 14
    chips: list[Chip] = []
    for kind, count in counted.items():
        width = CHIP[0] if kind is None or replay else _chip_width(kind)
        whole = width + (text_width(f"×{count}", 16, "glyphs") + 4 if count > 1 else 0)
        if x + whole > right:
            if y >= top + 18 + (STRIP_LINES - 1) * STRIP_LINE:
                return chips, True
            x, y = left, y + STRIP_LINE
        chips.append(Chip(kind, count, x, y, width))
        x += whole + 8
    return chips, False


def _strip_label(losses: Losses) -> str:
    colour = losses.colour.value.title()
    return f"{colour} lost {losses.count}" if losses.count else f"{colour}: none lost"


def draw_strip(
    image: Image.Image, losses: Losses, top: int, span: tuple[int, int], replay: bool = False
) -> None:
    """One side's lost pieces: a label, then a chip per kind known (with its count) and a
    blank chip for those the audience may not know. In a replay a chip shows its kind's
    one glyph, large, like the tokens."""
    colour = losses.colour.value
    PALETTE.text(image, (span[0], top + 18), _strip_label(losses), 17, "text", "background", "lm")
    chips, cut = strip_chips(losses, top, span, replay)
    for chip in chips:
        centre = (chip.left + chip.width // 2, chip.y)
        token(Piece(losses.colour, chip.kind), (chip.width, CHIP[1])).stamp(image, centre)
        if replay:
            glyph = "?" if chip.kind is None else chip.kind.value
            PALETTE.text(image, centre, glyph, REPLAY_CHIP_LABEL, "text", colour, "mm", "glyphs")
        elif chip.kind is None:
            PALETTE.text(image, centre, "?", 18, "text", colour, "mm")
        else:
            _name_line(image, centre, chip.kind, CHIP_LABEL, colour, chip_prefix(chip.kind))
        if chip.count > 1:
            PALETTE.text(
                image,
                (chip.left + chip.width + 3, chip.y),
                f"×{chip.count}",
                16,
                "text",
                "background",
                "lm",
                "glyphs",
            )
    if cut:
        last = chips[-1]
        PALETTE.text(image, (span[1], last.y), "…", 17, "text", "background", "rm")
