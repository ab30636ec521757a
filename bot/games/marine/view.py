"""What an audience knows of a Marine Game: everything (Marine Game rules §9).

The game has no hidden element, so every seat and the channel get the same board; the view
still is the only door, so renderers, texts and autocomplete are written once, against it.
``seat`` records whose view it is and changes nothing drawn or written from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from bot.games.core import Outcome, Phase
from bot.games.marine import board
from bot.games.marine.board import Point
from bot.games.marine.pieces import SIDE_NAMES, Kind, Piece
from bot.games.marine.rules import MarineRules
from bot.games.marine.state import LastMove


@dataclass(frozen=True)
class MarineView:
    seat: int | None
    phase: Phase
    variant: str
    rules: MarineRules
    south: int
    """The seat playing South (moves first, harbour at the bottom)."""
    pieces: tuple[Piece, ...]
    turn: int | None
    last: LastMove | None
    losses: tuple[Piece, ...]
    plies: int
    quiet: int
    draw_offer: int | None
    outcome: Outcome | None

    @property
    def movers(self) -> frozenset[int]:
        return frozenset({self.turn}) if self.turn is not None else frozenset()

    @cached_property
    def at(self) -> dict[Point, Piece]:
        return {piece.point: piece for piece in self.pieces}

    def side_of(self, seat: int) -> int:
        return 0 if seat == self.south else 1

    def seat_of(self, side: int) -> int:
        return self.south if side == 0 else 1 - self.south

    @property
    def board(self) -> tuple[object, ...]:
        """Everything the view shows, without whose view it is: equal for every audience."""
        return (
            self.phase,
            self.variant,
            self.rules,
            self.south,
            self.pieces,
            self.turn,
            self.last,
            self.losses,
            self.plies,
            self.quiet,
            self.draw_offer,
            self.outcome,
        )

    def status(self) -> str:
        """Whose move it is, or how the game ended, by side (the same for every audience)."""
        if self.outcome is not None:
            if self.outcome.winner is None:
                return f"Game over: a draw ({self.outcome.detail})."
            side = SIDE_NAMES[self.side_of(self.outcome.winner)]
            return f"Game over: {side} won ({self.outcome.detail})."
        if self.turn is None:
            return "Game over."
        side = SIDE_NAMES[self.side_of(self.turn)]
        offer = ""
        if self.draw_offer is not None:
            offer = f" {SIDE_NAMES[self.side_of(self.draw_offer)]} offers a draw."
        return f"{side} to move.{offer}"

    def text(self) -> str:
        """A text twin of the board: the hex diagram, then every piece and loss in words."""
        lines = [f"Marine Game. {self.status()}", *diagram(self.at)]
        lines.append(
            "Upper case South, lower case North: C cruiser, D destroyer, U U-boat. "
            "Harbours: North hex A and corners 8, 9; South hex T and corners 50, 51."
        )
        for side in (0, 1):
            lines.append(f"{SIDE_NAMES[side]}: {_fleet(self.pieces, side)}.")
            lost = [p for p in self.losses if p.side == side]
            if lost:
                lines.append(
                    f"{SIDE_NAMES[side]} lost: " + ", ".join(_piece(p) for p in lost) + "."
                )
        if self.last is not None:
            lines.append(f"Last move: {describe(self.last)}.")
        lines.append(
            f"Ply {self.plies}; {self.quiet} in a row without a piece taken "
            f"(a draw at {self.rules.quiet_plies})."
        )
        return "\n".join(lines)


def _piece(piece: Piece) -> str:
    return f"{piece.kind.noun} {'in' if isinstance(piece.point, str) else 'on'} {piece.point}"


def _fleet(pieces: tuple[Piece, ...], side: int) -> str:
    parts = []
    for kind in Kind:
        points = [str(p.point) for p in pieces if p.side == side and p.kind is kind]
        if points:
            parts.append(f"{kind.noun}s {' '.join(points)}")
    return "; ".join(parts) or "no pieces"


def describe(last: LastMove) -> str:
    """``South destroyer 46-35 (by 41), took North U-boat in O`` — one line per move."""
    side = SIDE_NAMES[last.side]
    text = f"{side} {last.kind.noun} {last.start}-{last.end}"
    if last.via is not None:
        text += f" (by {last.via})"
    enemy = [p for p in last.taken if p.side != last.side]
    if enemy:
        text += ", took " + ", ".join(f"{SIDE_NAMES[p.side]} {_piece(p)}" for p in enemy)
    if any(p.side == last.side for p in last.taken):
        text += ", and was itself taken"
    return text


SCALE = 3
"""Characters per unit of ``u`` in the text diagram."""


def _code(piece: Piece) -> str:
    return piece.kind.value if piece.side == 0 else piece.kind.value.lower()


def diagram(at: dict[Point, Piece]) -> list[str]:
    """The board drawn in characters, north at the top: corner numbers with any ship's code
    after them (``46D``), hex letters with any U-boat (``R=U``), sides as ``--``, ``/``, ``\\``."""
    width = 17 * SCALE + 3
    rows = [[" "] * width for _ in range(25)]

    def put(x: int, y: int, text: str) -> None:
        for i, char in enumerate(text):
            rows[y][x + i] = char

    for side in board.SIDES:
        a, b = sorted(side)
        (ua, va), (ub, vb) = board.position_of(a), board.position_of(b)
        y = 2 * (va + 6)
        if va == vb:
            put((ua + 8) * SCALE + 3, y, "-" * ((ub - ua) * SCALE - 3))
        else:
            x = int(((ua + ub) / 2 + 8) * SCALE + 1)
            put(x, y + 1, "\\" if ub > ua else "/")
    for corner in board.CORNERS:
        u, v = board.position_of(corner)
        ship = at.get(corner)
        put((u + 8) * SCALE, 2 * (v + 6), f"{corner}{_code(ship) if ship else ''}")
    for letter, (col, row) in board.HEX_CENTRES.items():
        boat = at.get(letter)
        label = f"{letter}={_code(boat)}" if boat else letter
        put((3 * col + 8) * SCALE + 1 - len(label) // 2, 2 * (row + 6), label)
    return ["".join(row).rstrip() for row in rows]
