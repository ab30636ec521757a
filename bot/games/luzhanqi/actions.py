"""Luzhanqi moves and their one text notation (``str(parse(text)) == text`` when canonical).

Deployment: ``random`` deals a new legal deployment, ``swap a1 e1`` exchanges two of your
pieces, ``deploy <codes>`` sets a whole deployment (what ``save``/``load`` store), ``ready``
confirms. Play: ``a4-a5`` moves (a rail run or an engineer's route names only its
destination), and in the flip game ``flip c3`` turns a piece face up. ``offer draw`` and
``accept draw`` are the draw by agreement of rule 8.5.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.actions import Word
from bot.games.core import NotationError, Phase
from bot.games.draws import DRAW_WORDS, AcceptDraw, OfferDraw
from bot.games.grid import shorten
from bot.games.luzhanqi.board import Station, name, parse_station
from bot.games.luzhanqi.deployment import Layout, layout_text, parse_layout_codes
from bot.games.setup import Ready


@dataclass(frozen=True)
class Move:
    start: Station
    target: Station

    def __str__(self) -> str:
        return f"{name(self.start)}-{name(self.target)}"


@dataclass(frozen=True)
class Flip:
    where: Station

    def __str__(self) -> str:
        return f"flip {name(self.where)}"


@dataclass(frozen=True)
class Swap:
    first: Station
    second: Station

    def __str__(self) -> str:
        return f"swap {name(self.first)} {name(self.second)}"


class RandomLayout(Word):
    word = "random"


@dataclass(frozen=True)
class Deploy:
    layout: Layout

    def __str__(self) -> str:
        return layout_text(self.layout)


SetupAction = Swap | RandomLayout | Ready | Deploy
PlayAction = Move | Flip
Action = SetupAction | PlayAction | OfferDraw | AcceptDraw

_STATION = r"[a-e]\s*\d{1,2}"
_MOVE = re.compile(rf"({_STATION})\s*(?:-|–|—|\s|to)\s*({_STATION})", re.I)
_SWAP = re.compile(rf"swap\s+({_STATION})\s*(?:,|\s|and)\s*({_STATION})", re.I)
_FLIP = re.compile(rf"flip\s+({_STATION})", re.I)
_DEPLOY = re.compile(r"deploy\s+([0-9a-z/ ]+)", re.I)
SETUP_HELP = (
    "While you deploy write `swap a1 e1` (Blue: `swap a12 e12`) to exchange two of your "
    "pieces, `random` for a new "
    "deployment, `save <name>` or `load <name>`, and `ready` when you are done."
)
PLAY_HELP = (
    "Move by naming the start and the destination, like `a4-a5`; `offer draw` and "
    "`accept draw` agree a draw."
)
FLIP_HELP = "Flip a face-down piece with `flip c3`, or move one of yours like `a4-a5`."


def parse(text: str, phase: Phase, flip_game: bool) -> Action:
    """Read one action for the given phase; raises NotationError with a hint otherwise."""
    words = text.strip()
    lowered = " ".join(words.lower().split())
    if not words:
        raise NotationError("That message is empty: write a move, like `a4-a5`.")
    if phase is Phase.FINISHED:
        raise NotationError("This game is over.")
    if lowered in DRAW_WORDS:  # refused in deployment by the engine
        return DRAW_WORDS[lowered]
    if phase is Phase.SETUP:
        if lowered == "random":
            return RandomLayout()
        if lowered == "ready":
            return Ready()
        if swap := _SWAP.fullmatch(lowered):
            return Swap(parse_station(swap.group(1)), parse_station(swap.group(2)))
        if deploy := _DEPLOY.fullmatch(lowered):
            try:
                return Deploy(parse_layout_codes(deploy.group(1)))
            except ValueError:
                raise NotationError(
                    "A deployment is written as `deploy` and 25 piece codes (9 marshal ... "
                    "1 engineer, B bomb, L landmine, F flag)."
                ) from None
        raise NotationError(f"`{shorten(text)}` is not a deployment move. {SETUP_HELP}")
    if flip := _FLIP.fullmatch(lowered):
        if not flip_game:
            raise NotationError(f"Pieces are never flipped in this variant. {PLAY_HELP}")
        return Flip(parse_station(flip.group(1)))
    if move := _MOVE.fullmatch(lowered):
        return Move(parse_station(move.group(1)), parse_station(move.group(2)))
    if lowered in ("random", "ready") or lowered.startswith(("swap", "deploy")):
        raise NotationError(f"The armies are deployed and can no longer change. {PLAY_HELP}")
    raise NotationError(f"`{shorten(text)}` is not a move. {FLIP_HELP if flip_game else PLAY_HELP}")
