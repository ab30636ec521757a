"""What one audience may know of a Seachess game (§9.2–9.3a).

Everyone sees every visible piece with its public state (torpedo and aircraft loads, facings,
submarine counts), each submerged submarine as a "surfaces on move N" marker without its
square, castling and en passant chances, and who is in check. A player also sees their own
mines, the squares of their own submerged submarines and their own cruisers' loads. A
finished game shows everything, and the full move list (§9.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.core import Outcome, Phase
from bot.games.seachess.board import FACING_NAMES, FILE_LETTERS, RANKS, exists, name, square
from bot.games.seachess.pieces import COLOURS, Kind, Piece, Submerged
from bot.games.seachess.position import Position


@dataclass(frozen=True)
class SubMarker:
    """A submerged submarine: whose, where it dived, the ply it surfaces at (public), and
    its square only for its owner or once the game is over."""

    owner: int
    dived_from: int
    surfaces_at: int
    square: int | None

    @property
    def surfaces_on_move(self) -> int:
        return self.surfaces_at // 2 + 1


@dataclass(frozen=True)
class SeachessView:
    seat: int | None
    phase: Phase
    variant: str
    pieces: tuple[tuple[int, Piece], ...]
    """Visible pieces; an opponent's cruiser always shows as unloaded (its load is secret)."""
    mines: tuple[tuple[int, int], ...]
    subs: tuple[SubMarker, ...]
    castling: tuple[bool, bool, bool, bool]
    ep: tuple[int, int] | None
    airborne: tuple[int | None, int | None]
    turn: int
    ply: int
    checks: tuple[bool, bool]
    last: tuple[int, ...]
    refused: tuple[str, ...]
    """The viewer's own attempts refused this turn (empty for anyone else)."""
    draw_offer: int | None
    outcome: Outcome | None
    record: tuple[str, ...]
    """The move list with hidden moves filled in: only once the game is over."""
    revealed: bool = False
    """The game is over and everything is shown (not so after an unplayed end)."""

    @property
    def movers(self) -> frozenset[int]:
        return frozenset({self.turn}) if self.phase is Phase.PLAY else frozenset()

    def knows_load(self, piece: Piece) -> bool:
        """Whether this audience may see the piece's load (§9.2: cruisers only to owners)."""
        if piece.kind is Kind.CRUISER:
            return self.revealed or piece.owner == self.seat
        return piece.kind in (Kind.TORPEDO_BOAT, Kind.CARRIER)

    def position(self) -> Position:
        """The view position of §7.2a, for autocomplete: what the viewer knows, nothing more."""
        subs = [
            Submerged(m.square, m.owner, m.surfaces_at, m.dived_from)
            for m in self.subs
            if m.square is not None
        ]
        return Position(
            dict(self.pieces),
            dict(self.mines),
            subs,
            list(self.castling),
            self.ep,
            list(self.airborne),
            self.turn,
            self.ply,
        )

    def text(self) -> str:
        """A text twin of the board, rank 12 at the top: White in capitals, Black in lower
        case, ``*`` after a piece or ``.`` for the viewer's mine, ``~`` open sea, ``:`` haven."""
        at = dict(self.pieces)
        mined = dict(self.mines)
        under = {m.square: m for m in self.subs if m.square is not None}
        lines = ["      " + "   ".join(FILE_LETTERS)]
        for rank in reversed(range(RANKS)):
            cells = []
            for file in range(12):
                sq = square(file, rank)
                if not exists(file, rank):
                    cells.append("   ")
                    continue
                piece = at.get(sq)
                mark = piece.code if piece else ("~" if 2 <= rank <= 9 else ":")
                mark += "*" if sq in mined else ("s" if sq in under else " ")
                cells.append(f" {mark}")
            lines.append(f"{rank + 1:>3} " + " ".join(cells).rstrip())
        lines.append(
            "Legend: White in capitals, Black in lower case; K commando ship, A carrier, "
            "C cruiser, T torpedo boat, D destroyer, S submarine, B boat; * a mine, "
            "s a submerged submarine below; ~ open sea, : haven."
        )
        lines.extend(self.notes())
        return "\n".join(lines)

    def notes(self) -> list[str]:
        """The public states beside the board, one sentence each."""
        out = []
        if self.seat is not None:
            out.append(f"You play {COLOURS[self.seat]}.")
        for sq, piece in self.pieces:
            who = f"{COLOURS[piece.owner]}'s {piece.kind.noun} on {name(sq)}"
            if piece.kind is Kind.TORPEDO_BOAT:
                state = "loaded" if piece.loaded else "empty"
                out.append(f"{who}: {state}, facing {FACING_NAMES[piece.facing]}.")
            elif piece.kind is Kind.CRUISER and self.knows_load(piece):
                out.append(f"{who}: {'mine aboard' if piece.loaded else 'no mine aboard'}.")
            elif piece.kind is Kind.SUBMARINE:
                out.append(f"{who}: visible count {piece.count}.")
            elif piece.kind is Kind.CARRIER and not piece.loaded:
                out.append(f"{who}: its aircraft is airborne.")
        for marker in self.subs:
            where = f", under {name(marker.square)}" if marker.square is not None else ""
            out.append(
                f"{COLOURS[marker.owner]}'s submarine from {name(marker.dived_from)} is "
                f"submerged{where}; it surfaces on move {marker.surfaces_on_move}."
            )
        for seat in (0, 1):
            if self.checks[seat]:
                out.append(f"{COLOURS[seat]} is in check.")
        if self.last:
            out.append("Last move: " + ", ".join(name(sq) for sq in self.last) + ".")
        if self.record:
            out.append("Moves: " + " ".join(self.record))
        return out
