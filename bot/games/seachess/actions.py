"""Seachess moves and their one text notation (``str(parse(text)) == text`` when canonical).

``e2-e4`` moves or captures (``x`` may stand for ``-``), ``d11-d12=C`` promotes, ``O-O``
castles with the torpedo boat and ``O-O-O`` with the cruiser; ``mine e5`` plants the mine
of the cruiser on e5; ``dive e4-f6`` submerges the submarine on e4 and moves it under f6;
``sub f6-g8`` moves a submerged submarine; ``emerge f6`` brings it up where it is and
``emerge f6xg8`` with a capture; ``torpedo j5xh7`` launches; ``air f5xc8`` sends the
aircraft of the carrier on f5 (or strikes again); ``land`` brings it home; ``offer draw``
and ``accept draw``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.actions import Word
from bot.games.core import NotationError
from bot.games.draws import AcceptDraw, OfferDraw
from bot.games.grid import shorten
from bot.games.seachess.board import name, parse_square
from bot.games.seachess.pieces import Kind


@dataclass(frozen=True)
class Move:
    """A piece moves (and captures, takes en passant, side-steps or promotes)."""

    start: int
    end: int
    promotion: Kind | None = None

    def __str__(self) -> str:
        text = f"{name(self.start)}-{name(self.end)}"
        return text + (f"={self.promotion.value}" if self.promotion else "")


@dataclass(frozen=True)
class Castle:
    """§6: long with the cruiser, short with the torpedo boat."""

    long: bool

    def __str__(self) -> str:
        return "O-O-O" if self.long else "O-O"


@dataclass(frozen=True)
class Plant:
    """§4.1: the loaded cruiser on ``square`` leaves its mine there (a hidden move)."""

    square: int

    def __str__(self) -> str:
        return f"mine {name(self.square)}"


@dataclass(frozen=True)
class Dive:
    """§5.2: the submarine on ``start`` submerges and makes one knight move (hidden)."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"dive {name(self.start)}-{name(self.end)}"


@dataclass(frozen=True)
class Steer:
    """§5.3: a submerged submarine makes one knight move (hidden)."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"sub {name(self.start)}-{name(self.end)}"


@dataclass(frozen=True)
class Emerge:
    """§5.5: a submerged submarine comes up in place, or with a knight move and a capture."""

    square: int
    target: int | None = None

    def __str__(self) -> str:
        return f"emerge {name(self.square)}" + (
            f"x{name(self.target)}" if self.target is not None else ""
        )


@dataclass(frozen=True)
class Torpedo:
    """§3.4: the torpedo boat on ``start`` fires at ``target``."""

    start: int
    target: int

    def __str__(self) -> str:
        return f"torpedo {name(self.start)}x{name(self.target)}"


@dataclass(frozen=True)
class Strike:
    """§3.7: the aircraft of the carrier on ``carrier`` takes the piece on ``target``."""

    carrier: int
    target: int

    def __str__(self) -> str:
        return f"air {name(self.carrier)}x{name(self.target)}"


class Land(Word):
    """§3.7: the airborne aircraft returns to its carrier."""

    word = "land"


Action = (
    Move | Castle | Plant | Dive | Steer | Emerge | Torpedo | Strike | Land | OfferDraw | AcceptDraw
)
HIDDEN = (Plant, Dive, Steer)
"""§9.3: moves the opponent learns only as "a hidden move"."""

_SQ = r"([a-l](?:1[0-2]|[1-9]))"
_PAIR = _SQ + r"\s*[-x ]?\s*" + _SQ
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), kind)
    for pattern, kind in (
        (r"(?:o-o-o|0-0-0|ooo|000)", "long"),
        (r"(?:o-o|0-0|oo|00)", "short"),
        (r"mine\s+" + _SQ, "mine"),
        (r"dive\s+" + _PAIR, "dive"),
        (r"sub\s+" + _PAIR, "sub"),
        (r"emerge\s+" + _SQ, "emerge"),
        (r"emerge\s+" + _PAIR, "emerge to"),
        (r"torpedo\s+" + _PAIR, "torpedo"),
        (r"air\s+" + _PAIR, "air"),
        (r"land", "land"),
        (r"offer\s+draw", "offer"),
        (r"accept\s+draw", "accept"),
        (_PAIR + r"\s*(?:=\s*)?([ctsda])?", "move"),
    )
)


def parse(text: str) -> Action:
    """Read one move; raises NotationError with the notation when it is not one."""
    flat = " ".join(text.strip().lower().split())
    for pattern, kind in _PATTERNS:
        match = pattern.fullmatch(flat)
        if match is None:
            continue
        squares = [parse_square(g) for g in match.groups() if g and len(g) > 1]
        match kind:
            case "long" | "short":
                return Castle(long=kind == "long")
            case "mine":
                return Plant(squares[0])
            case "dive":
                return Dive(*squares)
            case "sub":
                return Steer(*squares)
            case "emerge":
                return Emerge(squares[0])
            case "emerge to":
                return Emerge(squares[0], squares[1])
            case "torpedo":
                return Torpedo(*squares)
            case "air":
                return Strike(*squares)
            case "land":
                return Land()
            case "offer":
                return OfferDraw()
            case "accept":
                return AcceptDraw()
            case _:
                letter = match.group(3)
                promotion = Kind(letter.upper()) if letter else None
                return Move(squares[0], squares[1], promotion)
    raise NotationError(
        f"`{shorten(text)}` is not a Seachess move. Write `e2-e4` (`d11-d12=C` to promote), "
        "`O-O` or `O-O-O`, `mine e5`, `dive e4-f6`, `sub f6-g8`, `emerge f6` or "
        "`emerge f6xg8`, `torpedo j5xh7`, `air f5xc8`, `land`, `offer draw` or `accept draw`."
    )
