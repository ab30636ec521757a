"""What one audience may know of a Warships game (Warships rules §16).

Views are the only thing renderers, messages and autocomplete ever see: an enemy token whose
type the viewer may not know carries ``kind=None``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.core import Outcome, Phase
from bot.games.grid import Cell, cell_name, column_letter
from bot.games.setup import seats_to_move
from bot.games.warships import board
from bot.games.warships.board import Shore
from bot.games.warships.rules import WarshipsRules
from bot.games.warships.state import LastAction
from bot.games.warships.units import Kind


@dataclass(frozen=True)
class TokenView:
    cell: Cell
    owner: int
    kind: Kind | None
    """``None``: face down to this viewer."""
    known: bool
    """For the owner's own tokens: the opponent knows this one's type."""
    neutral: int
    """§13.2: own turns in a row it has ended on neutral water (public)."""


@dataclass(frozen=True)
class LossView:
    owner: int
    kind: Kind | None
    cell: Cell
    interned: bool


@dataclass(frozen=True)
class WarshipsView:
    seat: int | None
    phase: Phase
    variant: str
    rules: WarshipsRules
    south: int
    tokens: tuple[TokenView, ...]
    losses: tuple[LossView, ...]
    reserves: tuple[int | None, int | None]
    """Each side's mines off the board (§16: public in play). ``None`` while setups are
    secret: an opponent's reserve would tell how many mines they put in port (§5.2)."""
    ready: tuple[bool, bool]
    turn: int | None
    last: LastAction | None
    outcome: Outcome | None
    draw_offer: int | None = None
    """The seat whose draw offer stands (§14.4), public."""

    @property
    def movers(self) -> frozenset[int]:
        return seats_to_move(self.phase, self.ready, self.turn)

    def shore(self, seat: int) -> Shore:
        return Shore.SOUTH if seat == self.south else Shore.NORTH

    def token_at(self, cell: Cell) -> TokenView | None:
        return next((token for token in self.tokens if token.cell == cell), None)

    def text(self) -> str:
        """A text twin of the board, north at the top: codes for known tokens, ``##`` hidden."""
        at = {token.cell: token for token in self.tokens}
        lines = ["     " + "  ".join(column_letter(c) for c in range(board.COLUMNS))]
        for row in reversed(range(board.ROWS)):
            marks = [self._mark((column, row), at) for column in range(board.COLUMNS)]
            lines.append(f"{row + 1:>3}  " + " ".join(marks))
        lines.append(
            "Legend: own tokens in capitals, known enemy tokens in lower case, ## a hidden "
            "token, :: port, ~~ neutral water, xx exit, [] island, .. open sea."
        )
        for seat in (0, 1):
            lost = [loss for loss in self.losses if loss.owner == seat]
            names = ", ".join(
                (loss.kind.unit.name if loss.kind else "unknown")
                + (" (interned)" if loss.interned else "")
                for loss in lost
            )
            lines.append(
                f"{self._who(seat)} ({self.shore(seat).name.lower()}): {len(lost)} lost"
                + (f" ({names})" if names else "")
                + _reserve_text(self.reserves[seat])
            )
        if self.last is not None and self.last.end is not None:
            lines.append(f"Last move: {_describe(self.last)}.")
        return "\n".join(lines)

    def _who(self, seat: int) -> str:
        if self.seat is None:
            return f"Seat {seat}"
        return "You" if seat == self.seat else "Your opponent"

    def _mark(self, cell: Cell, at: dict[Cell, TokenView]) -> str:
        token = at.get(cell)
        if token is not None:
            if token.kind is None:
                return "##"
            own = self.seat is None or token.owner == self.seat
            code = token.kind.value
            return code if own and self.seat is not None else code.lower()
        if cell in board.ISLAND:
            return "[]"
        if cell in board.NEUTRAL:
            return "~~"
        if any(cell in exits for exits in board.EXITS):
            return "xx"
        if any(cell in port for port in board.PORTS):
            return "::"
        return ".."


def _describe(last: LastAction) -> str:
    text = cell_name(last.start) if last.start else ""
    if last.end and last.end != last.start:
        text += f"-{cell_name(last.end)}"
    if last.target:
        text += f" at {cell_name(last.target)}"
    if last.emptied:
        text += ", emptied " + " ".join(cell_name(cell) for cell in last.emptied)
    return text


def _reserve_text(reserve: int | None) -> str:
    return "." if reserve is None else f", {reserve} mines in reserve."
