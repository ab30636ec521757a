"""Marine Game moves and their one text notation (``str(parse(text)) == text`` when canonical).

``46-41`` moves a cruiser or destroyer along one or two hex sides (corner numbers, §5.2);
``R-O`` moves a U-boat to a neighbouring hex (hex letters, §5.3); ``offer draw`` and
``accept draw`` are the draw by agreement of §8.1. Letters may be typed in either case and
spaces around the dash are allowed; the canonical form is ``46-41`` and ``R-O``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.games.core import NotationError
from bot.games.draws import DRAW_WORDS, AcceptDraw, OfferDraw
from bot.games.grid import shorten
from bot.games.marine.board import Corner, Hex, parse_point

Point = TypeVar("Point", Corner, Hex)


@dataclass(frozen=True)
class Route(Generic[Point]):
    """A piece from one point to another, written as the two points: ``46-41``, ``R-O``."""

    start: Point
    end: Point

    def __str__(self) -> str:
        return f"{self.start}-{self.end}"


class ShipMove(Route[Corner]):
    """§5.2: a cruiser or destroyer from one corner to another, one or two sides away."""


class BoatMove(Route[Hex]):
    """§5.3: a U-boat from its hex to a neighbouring one."""


Move = ShipMove | BoatMove
Action = ShipMove | BoatMove | OfferDraw | AcceptDraw

_MOVE = re.compile(r"\s*([^\s-]+)\s*-\s*([^\s-]+)\s*")
HINT = "write a corner move like `46-41`, a U-boat move like `R-O`, or `offer draw`"


def parse(text: str) -> Action:
    """Read one action; raises NotationError with a plain sentence for anything else."""
    words = " ".join(text.lower().split())
    if words in DRAW_WORDS:
        return DRAW_WORDS[words]
    match = _MOVE.fullmatch(text)
    if match is None:
        raise NotationError(f"`{shorten(text)}` is not a Marine Game move: {HINT}.")
    start, end = parse_point(match.group(1)), parse_point(match.group(2))
    if isinstance(start, int) and isinstance(end, int):
        return ShipMove(start, end)
    if isinstance(start, str) and isinstance(end, str):
        return BoatMove(start, end)
    raise NotationError(
        f"`{shorten(text)}` mixes a hex and a corner: cruisers and destroyers move between "
        "corners (`46-41`), U-boats between hexes (`R-O`)."
    )
