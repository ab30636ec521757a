"""The small steps every move is made of in Seachess: taking a piece off a square (with the
castling rights and the airborne aircraft that go with it), and the notes a move writes of
what each audience is told (§9.1) and of its record in the author's notation (§9.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.seachess.moves import castling_squares
from bot.games.seachess.pieces import COLOURS, Kind, Piece
from bot.games.seachess.position import Position


class Barred(Exception):
    """The commando ship may not do this (§4.7, §6.2); ``mine`` says whether a mine is why."""

    def __init__(self, mine: bool) -> None:
        super().__init__("mine" if mine else "attacked")
        self.mine = mine


@dataclass
class Notes:
    """What one move made known: lines for the mover, for everyone, and its record."""

    mover: list[str] = field(default_factory=list)
    public: list[str] = field(default_factory=list)
    author: list[str] = field(default_factory=list)
    removal: bool = False
    boat: bool = False
    last: tuple[int, ...] = ()
    """Squares of the move everyone saw, for the images' last-move marks."""

    def both(self, text: str) -> None:
        self.mover.append(text)
        self.public.append(text)

    def removed(self, text: str, author: str) -> None:
        """Something left the board (a piece, a mine): everyone hears ``text``, the record
        gets ``author``, and the move counts as a removal for the draw rules (§8)."""
        self.removal = True
        self.both(text)
        self.author.append(author)


def whose(piece: Piece) -> str:
    """A piece named with its owner, as the notes say it: "White's cruiser"."""
    return f"{COLOURS[piece.owner]}'s {piece.kind.noun}"


def remove(pos: Position, sq: int) -> Piece | None:
    """Take the visible piece off ``sq`` with what goes with it: castling rights tied to the
    square, and an airborne aircraft whose carrier this was (§3.7: it is lost)."""
    piece = pos.at.pop(sq, None)
    touch(pos, sq)
    if piece is not None and piece.kind is Kind.CARRIER and pos.airborne[piece.owner] == sq:
        pos.airborne[piece.owner] = None
    return piece


def touch(pos: Position, sq: int) -> None:
    """A piece left or was taken from ``sq``: castling that needs a piece there is gone."""
    for index, (seat, long) in enumerate(((0, True), (0, False), (1, True), (1, False))):
        if pos.castling[index]:
            king, _, partner, _, _ = castling_squares(seat, long)
            if sq in (king, partner):
                pos.castling[index] = False
