"""Drawing helpers shared by every game's renderer: fonts, a named palette, PNG encoding.

Board images are drawn straight into palette mode ("P"): a board has a few dozen flat
colours, so an 8-bit (or smaller) PNG is both the smallest file and the fastest to encode,
and drawing with palette indices needs no colour conversion or quantising afterwards.
Pillow only antialiases text, so ``Palette.text`` maps the font's coverage onto a short
ramp of in-between colours to keep letters smooth without leaving palette mode.
"""

from __future__ import annotations

import threading
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

COLOURS: Mapping[str, RGB] = {
    # Surfaces: a dark card reads well in Discord's dark theme and still frames itself
    # cleanly on the light theme, so images never need a transparent background.
    "background": (24, 28, 38),
    "text": (236, 240, 245),
    "muted": (150, 162, 178),
    # Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
    "orange": (230, 159, 0),
    "sky": (86, 180, 233),
    "green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "vermillion": (213, 94, 0),
    "purple": (204, 121, 167),
}
"""Named colours every game may share; a renderer adds its own on top."""

TEXT_RAMP_STEPS = 3
"""In-between colours per text ramp; three look smooth at 14-24 px and keep palettes small."""


FREETYPE_LOCK = threading.Lock()
"""A FreeType face must not be used by two threads at once; boards render in a thread pool.
Text is drawn once into cached sprites, so the lock is taken only on a cache miss."""


Face = Literal["sans", "glyphs"]
"""``sans``: Pillow's bundled font (ASCII only, plus ``·`` and ``…``). ``glyphs``: the
bot's own subset of Noto Sans CJK SC Bold (``renderers/fonts``, made by
``scripts/make-font``): the Chinese piece names of Luzhanqi, and Latin, Greek and
Cyrillic letters for players' names."""

GLYPHS_FONT = Path(__file__).parent / "fonts" / "BoardGlyphs-Bold.otf"


@lru_cache(maxsize=64)
def font(size: int, face: Face = "sans") -> ImageFont.FreeTypeFont:
    """A scalable font at ``size`` px, always from the bot's own files: same glyphs everywhere.

    Pillow's bundled face covers Latin letters, digits and ASCII punctuation (plus ``·``
    and ``…``); texts that need more use the ``glyphs`` face.
    """
    if face == "glyphs":
        return ImageFont.truetype(str(GLYPHS_FONT), size)
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; board images need it.")
    return loaded


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, face: Face = "sans") -> int:
    """The advance width of ``text``, for centring and right-aligning."""
    with FREETYPE_LOCK:
        return round(font(size, face).getlength(text))


_MISSING = "\ue000"
"""A private-use character no bundled face has: it draws as the face's missing-glyph box."""


@lru_cache(maxsize=4096)
def can_draw(char: str, face: Face) -> bool:
    """Whether ``face`` has a glyph for ``char``: its drawing differs from the missing box."""
    with FREETYPE_LOCK:
        drawn, missing = font(24, face).getmask(char), font(24, face).getmask(_MISSING)
        return drawn.size != missing.size or bytes(drawn) != bytes(missing)


def face_for(text: str) -> Face | None:
    """The first face that draws every character of ``text``, or None if neither does."""
    for face in ("sans", "glyphs"):
        if all(can_draw(char, face) for char in text):
            return face
    return None


def _folded(char: str) -> str:
    """``char``, or its base letter when no face has the accented one (ί → ι, ő → o)."""
    if face_for(char) is not None:
        return char
    base = "".join(
        part for part in unicodedata.normalize("NFKD", char) if not unicodedata.combining(part)
    )
    return base if base and face_for(base) is not None else char


def drawable_name(name: str, fallback: str, size: int, width: int) -> tuple[str, Face]:
    """A player's name as a board can draw it in ``width`` px, with the face to draw it in.

    Names are hostile input, cleaned beforehand (``bot.names.clean``). A letter whose
    accent no face has is drawn without it; symbols and emoji
    no bundled face draws are left out; a name with letters no face draws (a script the
    bot ships no font for) gives way to ``fallback`` ("Player 1") rather than to boxes.
    A name too long for ``width`` is cut, ending in "…" (or "..." in the ``glyphs`` face).
    """
    text = unicodedata.normalize("NFC", name)
    text = "".join(_folded(char) for char in text if unicodedata.category(char)[0] != "C")
    if any(char.isalnum() and face_for(char) is None for char in text):
        return fallback, "sans"
    text = " ".join("".join(char for char in text if face_for(char) is not None).split())
    face = face_for(text)
    if face is None or not any(char.isalnum() for char in text):
        return fallback, "sans"
    if text_width(text, size, face) > width:
        ellipsis = "…" if face == "sans" else "..."  # the CJK face centres its "…"
        while text and text_width(text + ellipsis, size, face) > width:
            text = text[:-1]
        text = text.rstrip() + ellipsis
    return text, face


def _mix(front: RGB, back: RGB, amount: float) -> RGB:
    r, g, b = (round(f * amount + b * (1 - amount)) for f, b in zip(front, back, strict=True))
    return r, g, b


class Palette:
    """An ordered set of named colours that becomes the PLTE chunk of every image.

    ``ramps`` names (text colour, background colour) pairs that text is drawn in; each
    gets ``TEXT_RAMP_STEPS`` blended colours so that antialiased glyph edges survive
    palette mode. Text in a pair without a ramp is drawn without antialiasing.
    """

    def __init__(self, colours: Mapping[str, RGB], ramps: Iterable[tuple[str, str]] = ()) -> None:
        self._rgb: dict[str, RGB] = dict(colours)
        self._ramps: dict[tuple[str, str], tuple[int, ...]] = {}
        names = list(self._rgb)
        for front, back in ramps:
            steps = []
            for step in range(1, TEXT_RAMP_STEPS + 1):
                name = f"{front}/{back}/{step}"
                amount = step / (TEXT_RAMP_STEPS + 1)
                self._rgb[name] = _mix(self._rgb[front], self._rgb[back], amount)
                names.append(name)
                steps.append(len(names) - 1)
            self._ramps[(front, back)] = (*steps, names.index(front))
        if len(names) > 255:
            # Index 255 stays free: sprites use it to mean "not drawn".
            raise ValueError("A palette holds at most 255 colours.")
        self._index = {name: i for i, name in enumerate(names)}
        self._flat = [channel for name in names for channel in self._rgb[name]]

    def __getitem__(self, name: str) -> int:
        """The palette index of a named colour, the ``fill`` value for ImageDraw on "P"."""
        return self._index[name]

    def rgb(self, name: str) -> RGB:
        return self._rgb[name]

    def __len__(self) -> int:
        return len(self._index)

    def new_image(self, size: tuple[int, int], background: str) -> Image.Image:
        """A blank "P" image carrying exactly this palette, so PLTE holds no unused entries."""
        image = Image.new("P", size, self[background])
        image.putpalette(self._flat)
        return image

    def text(
        self,
        image: Image.Image,
        xy: tuple[float, float],
        text: str,
        size: int,
        colour: str,
        background: str,
        anchor: str = "la",
        face: Face = "sans",
    ) -> None:
        """Draw antialiased ``text`` onto a "P" image over a flat ``background`` colour.

        Pillow blends glyph edges only in RGB/L images; here the coverage is rendered to
        a greyscale mask once and each level is replaced by the nearest ramp colour. The
        result is cached, because boards repeat the same few labels on every move.
        """
        sprite = _text_sprite(self, text, size, colour, background, anchor, face)
        if sprite is not None:
            sprite.stamp(image, (round(xy[0]), round(xy[1])))

    def ramp(self, colour: str, background: str) -> tuple[int, ...]:
        """Indices from faint to full ``colour``; just the colour when no ramp was declared."""
        return self._ramps.get((colour, background), (self[colour],))


BOARD_COLOURS: Mapping[str, RGB] = {
    "background": COLOURS["background"],
    "text": COLOURS["text"],
    "muted": COLOURS["muted"],
    "accent": COLOURS["yellow"],
}
"""The colours of a board image's frame: the card, its text and labels, and the yellow
accent that marks the last move and whose turn it is."""

BOARD_RAMPS = (("text", "background"), ("muted", "background"), ("accent", "background"))
"""The frame's text ramps: the title, the labels and the status line on the card."""


PALETTES = Path(__file__).parent / "palettes.toml"
"""Every board's own colours and text ramps, as data (the file says how they are read)."""


@lru_cache(maxsize=8)
def board_palette(board: str) -> Palette:
    """A board's palette: the frame's colours and ramps first, then the board's own from
    ``palettes.toml``, in its order (which is the PNG palette's).

    The frame's colours come first so that every board indexes them alike; a colour the
    file gives by name is the shared one (``COLOURS``).
    """
    declared = tomllib.loads(PALETTES.read_text(encoding="utf-8"))[board]
    colours: dict[str, RGB] = {}
    for name, value in declared["colours"].items():
        red, green, blue = COLOURS[value] if isinstance(value, str) else value
        colours[name] = (red, green, blue)
    ramps = [(front, back) for front, back in declared.get("ramps", [])]
    return Palette({**BOARD_COLOURS, **colours}, (*BOARD_RAMPS, *ramps))


@dataclass(frozen=True)
class Sprite:
    """A small pre-drawn "P" picture with a 0/255 mask, stamped onto boards by ``paste``.

    Drawing a mark once and pasting it is several times faster than redrawing its shapes
    for every cell, which keeps a full 15x15 board within a few milliseconds.
    """

    image: Image.Image
    mask: Image.Image
    offset: tuple[int, int] = (0, 0)

    def stamp(self, target: Image.Image, xy: tuple[int, int]) -> None:
        """Paste the sprite through its mask, its top left at ``xy`` plus its offset.

        ``Image.paste`` checks modes, sizes and loading on every call, which costs more than
        the copying for small stamps (docs/performance/moves.md). A sprite and its mask are
        "P" and "L" and loaded, and a board is a "P" image of its own, so the check is made once
        per board by ``_pasted_onto`` and the pixels go straight to Pillow's core paste,
        which clips at the edges.
        """
        x, y = xy[0] + self.offset[0], xy[1] + self.offset[1]
        pixels = _pasted_onto(target)
        if pixels is None:
            target.paste(self.image, (x, y), self.mask)
            return
        width, height = self.image.size
        pixels.paste(self.image.im, (x, y, x + width, y + height), self.mask.im)


def _pasted_onto(target: Image.Image) -> Any:
    """``target``'s pixels, ready to paste into (loaded, and its own rather than shared),
    or None where ``Image.paste`` must decide: a board not in "P", or a Pillow whose image
    internals differ from the releases this was measured with."""
    make_own = getattr(target, "_ensure_mutable", None)
    if target.mode != "P" or make_own is None:
        return None
    target.load()
    make_own()
    return target.im


_UNSET = 255
"""Canvas value meaning "not drawn"; palettes stop at 255 colours so it is never an index."""
_COVER_LUT = [255 if value != _UNSET else 0 for value in range(256)]


def make_sprite(
    size: tuple[int, int],
    paint: Callable[[ImageDraw.ImageDraw], None],
    offset: tuple[int, int] = (0, 0),
) -> Sprite:
    """Run ``paint`` (ImageDraw calls with palette indices) on a blank canvas of ``size``.

    Pixels ``paint`` leaves untouched stay transparent when stamped; ``offset`` shifts
    the stamp, for marks that reach past the box they are stamped at.
    """
    canvas = Image.new("L", size, _UNSET)
    paint(ImageDraw.Draw(canvas))
    image = Image.frombytes("P", size, canvas.tobytes())
    return Sprite(image, canvas.point(_COVER_LUT), offset)


@lru_cache(maxsize=1024)
def _text_sprite(
    palette: Palette,
    text: str,
    size: int,
    colour: str,
    background: str,
    anchor: str,
    face: Face = "sans",
) -> Sprite | None:
    loaded = font(size, face)
    with FREETYPE_LOCK:
        left, top, right, bottom = loaded.getbbox(text, anchor=anchor)
        width, height = round(right - left), round(bottom - top)
        if width <= 0 or height <= 0:
            return None
        coverage = Image.new("L", (width, height), 0)
        ImageDraw.Draw(coverage).text((-left, -top), text, font=loaded, fill=255, anchor=anchor)
    ramp = palette.ramp(colour, background)
    levels = len(ramp)
    index_lut = [ramp[max(0, round(v * levels / 255) - 1)] for v in range(256)]
    cover_lut = [255 if round(v * levels / 255) > 0 else 0 for v in range(256)]
    image = Image.frombytes("P", coverage.size, coverage.point(index_lut).tobytes())
    return Sprite(image, coverage.point(cover_lut), (int(left), int(top)))


Names = tuple[str, str]
"""The seats' display names (cleaned), passed beside a view: they are public, and keeping
them out of views keeps the engines free of user data."""

NO_NAMES: Names = ("", "")


def seat_word(seat: int) -> str:
    """What a board calls a player whose name it has not got (or cannot draw)."""
    return f"Player {seat + 1}"


def player_label(names: Names, seat: int, size: int, width: int) -> tuple[str, Face]:
    """A seat's name as drawn at ``size`` px in at most ``width`` px, and its face."""
    return drawable_name(names[seat], seat_word(seat), size, width)


def player_text(names: Names, seat: int) -> str:
    """A seat's name for alt texts: screen readers read any script, so it is not folded."""
    return names[seat] or seat_word(seat)


def face_of(text: str) -> Face:
    """The face to draw ``text`` in: ``sans`` unless it holds a name that needs ``glyphs``."""
    return face_for(text) or "sans"
