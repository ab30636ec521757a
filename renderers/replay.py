"""Animated replays: a finished game's boards, one frame per change, as one GIF.

A replay is drawn by the game's own board renderer, frame by frame, from views only (what
one audience knew after each move), so it can show no more than that audience was shown.
GIF is the format Discord animates inline for everyone (APNG shows as a still); animated
WebP is far slower to encode (docs/performance/records.md).

Every board of one game is drawn in its renderer's fixed palette, so the frames share one
global colour table (no frame carries its own) and nothing is quantised. A replay shows
each board at a replay scale (``SCALES``, nearest neighbour: palette indices stay exact,
so no quantising either): a 300-move game stays under Discord-friendly 1 MB for every
audience. Renderers that label pieces draw those labels for this size (``replay=True``:
one bold glyph per piece; it is the replay frame a game registers in ``bot.catalog``).
Each later frame keeps only the rectangle that changed since the frame before, and in it
only the pixels that changed; the rest become one transparent index (the first one the
palette leaves free, so the colour table, and with it every LZW code, stays as small as the
board's colours allow).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from bot.games.core import View

FrameRenderer = Callable[[Any], Image.Image]
"""A game's view -> its board as a palette-mode image (the renderer's ``render_image``)."""

FRAME_MS = 700
"""How long each move stays on screen: long enough to see what changed."""
LAST_FRAME_MS = 4000
"""The final board stays longer, as the replay's conclusion, before it loops."""
GAP = 12
"""Pixels between two boards shown side by side (the whole truth: both seats), at the
boards' full size: the frame shrinks it with them."""
SCALES = {1: 3 / 5, 2: 2 / 5}
"""A frame's size against the boards players were sent, by the boards it shows side by side.

Every move changes thousands of pixels (the turn banner, the last move's highlights, the
footer), so a replay's size follows its area: at these scales a 300-move replay of every
game stays under 1 MB, one board still readable and both seats' boards still side by side.
"""


def frame(boards: Sequence[Image.Image]) -> Image.Image:
    """One frame: a single board, or several side by side, drawn at the replay scale.

    Each board is shrunk before they are put together, so no full-size canvas is made.
    """
    scale = SCALES.get(len(boards), min(SCALES.values()))
    shrunk = [_shrunk(board, scale) for board in boards]
    return shrunk[0] if len(shrunk) == 1 else _side_by_side(shrunk, round(GAP * scale))


def _shrunk(board: Image.Image, scale: float) -> Image.Image:
    size = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
    return board.resize(size, Image.Resampling.NEAREST)


def _side_by_side(boards: Sequence[Image.Image], gap: int) -> Image.Image:
    """The boards in a row on the first one's background, in its palette."""
    width = sum(board.width for board in boards) + gap * (len(boards) - 1)
    height = max(board.height for board in boards)
    canvas = Image.new("P", (width, height), _background(boards[0]))
    canvas.putpalette(boards[0].getpalette() or [])
    x = 0
    for board in boards:
        canvas.paste(board, (x, 0))
        x += board.width + gap
    return canvas


def draw_frames(render: FrameRenderer, moments: Sequence[Sequence[View]]) -> list[Image.Image]:
    """Each moment's views drawn as one frame (one view, or both seats side by side).

    A moment drawn exactly like the one before (a change the board does not show) is
    left out, so every frame of a replay shows something new.
    """
    frames: list[Image.Image] = []
    previous = b""
    for views in moments:
        drawn = frame([render(view) for view in views])
        pixels = drawn.tobytes()
        if not frames or pixels != previous or drawn.size != frames[-1].size:
            frames.append(drawn)
        previous = pixels
    return frames


def animate(frames: Sequence[Image.Image]) -> bytes:
    """The frames as a looping GIF; every frame is padded to the largest size.

    Frames must share one palette (a game's renderer draws every board in its own); a
    frame drawn in another mode is mapped onto the first frame's palette. The palette is
    written once, as the global colour table. Each later frame is drawn over the one before
    (disposal 1) and keeps only the rectangle that changed, its unchanged pixels the one
    transparent index. Pillow's own animated writer does the same but maps every frame
    onto the palette again (docs/performance/records.md), so the file is put
    together here from its GIF header and frame writers.
    """
    sized = same_size(frames)
    durations = [FRAME_MS] * (len(sized) - 1) + [LAST_FRAME_MS]
    colours = (sized[0].getpalette() or [])[: 3 * 255]
    unchanged = len(colours) // 3  # the first index no colour uses
    table = 1 << max(1, unchanged.bit_length())  # GIF colour tables hold 2**n entries
    palette = colours + [0] * (3 * table - len(colours))
    first = sized[0].copy()
    first.putpalette(palette)
    header, _ = GifImagePlugin.getheader(first, None, {"loop": 0, "duration": FRAME_MS})
    pieces: list[tuple[Image.Image, tuple[int, int], int]] = [(first, (0, 0), durations[0])]
    for previous, image, duration in zip(sized, sized[1:], durations[1:], strict=False):
        changed = ImageChops.subtract_modulo(image, previous).getbbox(alpha_only=False)
        if changed is None:  # nothing new: the frame before stays up longer
            shown, at, before = pieces[-1]
            pieces[-1] = (shown, at, before + duration)
            continue
        part = image.crop(changed)
        kept = ImageChops.subtract_modulo(part, previous.crop(changed)).point(_SAME, "1")
        part.paste(unchanged, mask=kept)
        pieces.append((part, (changed[0], changed[1]), duration))
    data = [*header]
    for index, (image, at, duration) in enumerate(pieces):
        shown_over = {"transparency": unchanged} if index else {}
        data += GifImagePlugin.getdata(image, at, duration=duration, disposal=1, **shown_over)
    data.append(b";")
    return b"".join(data)


_SAME = [255] + [0] * 255
"""A frame difference's zero (an unchanged pixel) as 1 in a mask, anything else as 0."""


def same_size(frames: Sequence[Image.Image]) -> list[Image.Image]:
    """The frames in the first one's palette, each padded to the largest size."""
    if not frames:
        raise ValueError("A replay needs at least one frame.")
    first = frames[0]
    width = max(image.width for image in frames)
    height = max(image.height for image in frames)
    background = _background(first)
    palette = first.getpalette() or []
    return [_fit(image, first, (width, height), background, palette) for image in frames]


def _background(image: Image.Image) -> int:
    """The palette index of the board's background: its top-left pixel."""
    value = image.getpixel((0, 0))
    return value if isinstance(value, int) else 0


def _fit(
    image: Image.Image,
    first: Image.Image,
    size: tuple[int, int],
    background: int,
    palette: list[int],
) -> Image.Image:
    if image.mode != "P":
        image = image.convert("RGB").quantize(palette=first)
    if image.size == size:
        return image
    canvas = Image.new("P", size, background)
    canvas.putpalette(palette)
    canvas.paste(image, (0, 0))
    return canvas
