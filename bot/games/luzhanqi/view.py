"""What one audience may know of a Luzhanqi game (rules section 9, A12, 8.6).

Views are the only thing renderers, messages and autocomplete ever see.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from bot.games.core import SEATS, Outcome, Phase, secrecy
from bot.games.luzhanqi.board import (
    CAMPS,
    FILES,
    HQS,
    RANKS,
    STATIONS,
    Colour,
    Station,
    half,
    name,
    station,
)
from bot.games.luzhanqi.pieces import COUNTS, Kind, Piece
from bot.games.luzhanqi.rules import LuzhanqiRules
from bot.games.luzhanqi.state import LastMove, LuzhanqiState
from bot.games.setup import seats_to_move


@dataclass(frozen=True)
class Losses:
    """One colour's pieces removed so far, as one audience may know them."""

    colour: Colour
    known: tuple[Kind, ...]
    """The kinds this audience may know, strongest first."""
    unknown: int
    """Removed pieces whose kind this audience may not know."""

    @property
    def count(self) -> int:
        return len(self.known) + self.unknown

    def text(self) -> str:
        """E.g. "Blue lost 3: field marshal, 2 unknown"."""
        counted = Counter(self.known)
        parts = [
            kind.title + (f" ×{counted[kind]}" if counted[kind] > 1 else "")
            for kind in sorted(counted, key=list(Kind).index)
        ]
        if self.unknown:
            parts.append(f"{self.unknown} unknown")
        return f"{self.colour.value.title()} lost {self.count}" + (
            ": " + ", ".join(parts) if parts else ""
        )


def losses_seen(state: LuzhanqiState, seat: int | None) -> tuple[Losses, Losses]:
    """Red's and Blue's removed pieces as ``seat`` (None: the channel) may know them.

    Every clash is public as a removal (9.2, 9.3), so how many pieces each side lost is
    known to all; which kinds is known only for one's own pieces, for a Field Marshal
    whose fall revealed the flag to the players (section 7; not to the channel, as the
    flag itself is not), in the flip game, where only face-up pieces
    can clash (A4, A12), and once the game is over (8.6).
    """
    mine = None if seat is None else state.colour_of(seat)
    result = []
    for colour in (Colour.RED, Colour.BLUE):
        if state.phase is Phase.SETUP:
            result.append(Losses(colour, (), 0))
            continue
        standing = Counter(
            p.kind for p in state.board if p is not None and p.colour is colour and p.kind
        )
        lost = sorted((Counter(COUNTS) - standing).elements(), key=list(Kind).index)
        if state.phase is Phase.FINISHED or state.rules.flip or colour is mine:
            result.append(Losses(colour, tuple(lost), 0))
            continue
        told = seat is not None and colour in state.flags_shown  # the players, not the channel
        known = (Kind.MARSHAL,) if told and Kind.MARSHAL in lost else ()
        result.append(Losses(colour, known, len(lost) - len(known)))
    return result[0], result[1]


@dataclass(frozen=True)
class LuzhanqiView:
    seat: int | None
    phase: Phase
    variant: str
    rules: LuzhanqiRules
    colours: tuple[Colour | None, Colour | None]
    """Each seat's colour (public); ``None`` in the flip game before the first flip."""
    pieces: tuple[Piece | None, ...]
    """Every station as this audience knows it: blank kinds where hidden."""
    turn: int | None
    ready: tuple[bool, bool]
    last: LastMove | None
    mines_left: tuple[int, int] | None
    """Red's and Blue's landmines on the board: public in the flip game only (rule A7)."""
    flags_shown: frozenset[Colour]
    outcome: Outcome | None
    quiet: int
    plies: int
    losses: tuple[Losses, Losses] = (
        Losses(Colour.RED, (), 0),
        Losses(Colour.BLUE, (), 0),
    )
    """Red's and Blue's pieces removed so far, as this audience may know them."""
    draw_offer: int | None = None
    """The seat whose draw offer stands (8.5): public."""

    @property
    def movers(self) -> frozenset[int]:
        return seats_to_move(self.phase, self.ready, self.turn)

    @property
    def colour(self) -> Colour | None:
        """The viewer's colour, if the viewer is a player and colours are known."""
        return None if self.seat is None else self.colours[self.seat]

    @property
    def bottom(self) -> Colour:
        """The colour drawn at the bottom: the viewer's own, Red for the public."""
        return self.colour or Colour.RED

    def mines_by_colour(self) -> dict[Colour, int]:
        if self.mines_left is None:
            return {}
        return {Colour.RED: self.mines_left[0], Colour.BLUE: self.mines_left[1]}

    def rows(self) -> list[list[Station]]:
        """Stations as drawn, top row first, the viewer's own back row at the bottom."""
        ranks = range(RANKS, 0, -1) if self.bottom is Colour.RED else range(1, RANKS + 1)
        files = range(len(FILES)) if self.bottom is Colour.RED else range(len(FILES) - 1, -1, -1)
        return [[station(f, r) for f in files] for r in ranks]

    def text(self) -> str:
        """A text twin of the image: the board as the viewer sees it, then a legend."""
        lines: list[str] = []
        for row in self.rows():
            cells = [_cell_text(where, self.pieces[where]) for where in row]
            label = name(row[0])[1:]
            lines.append(f"{label:>3} " + " ".join(cells))
            if label in ("7", "6") and len(lines) == RANKS // 2:
                lines.append("    ~~ front line ~~")
        files = "".join(name(s)[0] for s in self.rows()[0])
        lines.append("    " + "  ".join(files))
        if self.last is not None:
            lines.append(f"Last move: {_last_text(self.last)}")
        lines.extend(f"{losses.text()}." for losses in self.losses if losses.count)
        lines.append(
            "Legend: r/b = red/blue piece with its code (9 marshal ... 1 engineer, B bomb, "
            "L landmine, F flag; ? unknown), ?? face down, () empty camp, {} empty HQ, "
            ".. empty post"
        )
        return "\n".join(lines)


def _cell_text(where: Station, piece: Piece | None) -> str:
    if piece is None:
        return "()" if where in CAMPS else "{}" if where in HQS else ".."
    if not piece.face_up or piece.colour is None:
        return "??"
    kind = piece.kind.value if piece.kind is not None else "?"
    return f"{piece.colour.value[0]}{kind}"


def _last_text(last: LastMove) -> str:
    if last.target is None:
        return f"flip {name(last.start)}"
    text = f"{name(last.start)}-{name(last.target)}"
    return text if last.removal is None else f"{text}, attack: {last.removal.value}"


def visible_pieces(state: LuzhanqiState, seat: int | None) -> tuple[Piece | None, ...]:
    """The board as ``seat`` may know it (sections 4.5, 9, A12, 8.6)."""
    phase = secrecy(state.phase, state.outcome)
    if phase is Phase.FINISHED:
        return tuple(None if p is None else replace(p, face_up=True) for p in state.board)
    if phase is Phase.SETUP:
        board: list[Piece | None] = [None] * len(STATIONS)
        for each in SEATS:
            colour = state.colour_of(each)
            assert colour is not None, "deployment games assign colours at the start"
            if each == seat:
                for where, kind in zip(half(colour), state.sides[each].layout, strict=True):
                    board[where] = Piece(colour, kind)
            elif state.sides[each].ready:
                for where in half(colour):
                    board[where] = Piece(colour, None)
        return tuple(board)
    if state.rules.flip:
        return tuple(
            None if p is None else p if p.face_up else Piece(None, None, face_up=False)
            for p in state.board
        )
    mine = None if seat is None else state.colour_of(seat)
    return tuple(
        None
        if p is None
        else p
        if p.colour is mine
        or (seat is not None and p.kind is Kind.FLAG and p.colour in state.flags_shown)
        else Piece(p.colour, None)
        for p in state.board
    )
