"""The Marine Game state and its JSON form (version 1), re-validated on every load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.games import codec
from bot.games.codec import Check, Codec, Field, ListOf, Maybe, Plain, Record, Rule
from bot.games.core import Outcome, Phase
from bot.games.marine import board
from bot.games.marine.board import Corner, Point
from bot.games.marine.pieces import OPENING, Kind, Piece
from bot.games.marine.rules import MarineRules

STATE_VERSION = 1
FLEET: Mapping[Kind, int] = Counter(piece.kind for piece in OPENING if piece.side == 0)
"""§1.2: 3 U-boats, 2 cruisers and 4 destroyers per side."""


@dataclass(frozen=True)
class LastMove:
    """The last move as everyone saw it (§9): who, from where, by which corner, what fell."""

    side: int
    kind: Kind
    start: Point
    end: Point
    via: Corner | None = None
    taken: tuple[Piece, ...] = ()
    """Every piece the move took, the mover itself last on a suicide (§6.1)."""


@dataclass(frozen=True)
class MarineState:
    rules: MarineRules
    seed: int
    south: int
    """The seat playing South, who moves first (R-5), drawn from the seed."""
    phase: Phase = Phase.PLAY
    pieces: tuple[Piece, ...] = ()
    """Every piece on the board, in point order (corners, then hexes)."""
    turn: int | None = None
    last: LastMove | None = None
    losses: tuple[Piece, ...] = ()
    """Every piece taken, in the order taken, at the point where it was taken."""
    plies: int = 0
    quiet: int = 0
    """§8.2: plies in a row in which no piece was taken."""
    draw_offer: int | None = None
    """§8.1: the seat whose draw offer stands until the opponent's turn ends."""
    outcome: Outcome | None = None

    @cached_property
    def at(self) -> dict[Point, Piece]:
        """The piece on each occupied point."""
        return {piece.point: piece for piece in self.pieces}

    def side_of(self, seat: int) -> int:
        """0 for the seat playing South, 1 for North."""
        return 0 if seat == self.south else 1

    def seat_of(self, side: int) -> int:
        return self.south if side == 0 else 1 - self.south

    def with_pieces(self, pieces: list[Piece] | tuple[Piece, ...]) -> MarineState:
        return replace(self, pieces=in_order(pieces))


def in_order(pieces: list[Piece] | tuple[Piece, ...]) -> tuple[Piece, ...]:
    return tuple(sorted(pieces, key=lambda p: board.sort_key(p.point)))


def _piece_json(piece: Piece) -> list[Any]:
    return [piece.kind.value, piece.side, piece.point]


def _piece(data: Any) -> Piece:
    kind, side, point = data
    if not isinstance(side, int) or isinstance(point, bool):
        raise ValueError("a stored piece is malformed")
    return Piece(Kind(kind), side, point)


def _via(data: Any) -> Corner | None:
    if data is not None and not board.is_corner(data):
        raise ValueError("a stored corner is off the board")
    return data


PIECE = Plain(_piece, _piece_json)
STATE = Record(
    MarineState,
    codec.SEED,
    Field("south"),
    codec.PHASE,
    Field("pieces", ListOf(PIECE)),
    Field("turn"),
    Field(
        "last",
        Maybe(
            Record(
                LastMove,
                Field("side"),
                Field("kind", codec.enum(Kind)),
                Field("start"),
                Field("end"),
                Field("via", Plain(_via)),
                Field("taken", ListOf(PIECE)),
            )
        ),
    ),
    Field("losses", ListOf(PIECE)),
    Field("plies"),
    Field("quiet"),
    Field("draw_offer"),
    codec.OUTCOME,
)


def _counter(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _seats(state: MarineState) -> bool:
    """Whether the seats named are all 0 or 1 (``None`` where none may be named)."""
    named = (state.south, state.turn, state.draw_offer)
    if any(seat is not None and type(seat) is not int for seat in named):
        return False
    return codec.is_seat(state.south) and codec.is_seat(state.draw_offer, True)


def _turn(state: MarineState) -> str | None:
    """South moves on even plies (R-5); a finished game has no turn and no draw offer."""
    if state.phase is Phase.PLAY:
        expected = state.south if state.plies % 2 == 0 else 1 - state.south
        if state.turn != expected:
            return "The stored Marine Game has the wrong player to move."
    elif state.turn is not None or state.draw_offer is not None:
        return "A finished Marine Game has no turn and no draw offer."
    return None


def _last_move(state: MarineState) -> str | None:
    """The last move everyone saw fits the plies, the board and the losses (§9)."""
    last = state.last
    if (last is None) != (state.plies == 0):
        return "A stored Marine Game's last move does not fit its plies."
    if last is None:
        return None
    if last.side not in (0, 1) or type(last.start) is not type(last.end):
        return "The stored last move is malformed."
    on_point = board.is_corner if last.kind.is_battleship else board.is_hex
    if not (on_point(last.start) and on_point(last.end)):
        return "The stored last move is off the board."
    if last.taken and state.losses[-len(last.taken) :] != last.taken:
        return "The stored last move took pieces the losses do not list."
    if last.side != (state.plies - 1) % 2:  # South makes the odd plies
        return "The stored last move was made out of turn."
    mover = state.at.get(last.end)
    died = any(p.side == last.side for p in last.taken)
    arrived = mover is not None and (mover.side, mover.kind) == (last.side, last.kind)
    if arrived == died:
        return "The stored last move does not fit the board."
    return None


def _fleet(state: MarineState, side: int) -> Counter[Kind]:
    return Counter(p.kind for p in (*state.pieces, *state.losses) if p.side == side)


CHECKS: tuple[Check[MarineState], ...] = (
    Rule("The stored Marine Game has bad seats.", lambda s: not _seats(s)),
    Rule(
        "A stored Marine Game counter is impossible.",
        lambda s: not (_counter(s.plies) and _counter(s.quiet)) or s.quiet > s.plies,
    ),
    Rule(
        "A stored Marine Game should have ended in a draw.",
        lambda s: s.quiet >= s.rules.quiet_plies and s.phase is Phase.PLAY,
    ),
    Rule(
        "Stored Marine Game pieces share a point or are out of order.",
        lambda s: len(s.at) != len(s.pieces) or s.pieces != in_order(s.pieces),
    ),
    Rule(
        "A stored Marine Game side does not have its nine pieces.",
        lambda s: any(_fleet(s, side) != FLEET for side in (0, 1)),
    ),
    codec.outcome_when_finished("Only a finished Marine Game has an outcome."),
    codec.no_setup("The Marine Game has no setup phase."),
    _turn,
    _last_move,
)
"""Stored data no sequence of legal moves could have produced is refused."""

CODEC: Codec[MarineState] = Codec("Marine Game", MarineRules.from_json, STATE, CHECKS)
state_to_json = CODEC.dump
state_from_json = CODEC.load
