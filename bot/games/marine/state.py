"""The Marine Game state and its JSON form (version 1), re-validated on every load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.games.core import SEATS, CorruptStateError, GameError, Outcome, Phase
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


def state_to_json(state: MarineState) -> dict[str, Any]:
    last = state.last
    return {
        "version": STATE_VERSION,
        "rules": state.rules.to_json(),
        "seed": state.seed,
        "south": state.south,
        "phase": state.phase.value,
        "pieces": [_piece_json(p) for p in state.pieces],
        "turn": state.turn,
        "last": None
        if last is None
        else {
            "side": last.side,
            "kind": last.kind.value,
            "start": last.start,
            "end": last.end,
            "via": last.via,
            "taken": [_piece_json(p) for p in last.taken],
        },
        "losses": [_piece_json(p) for p in state.losses],
        "plies": state.plies,
        "quiet": state.quiet,
        "draw_offer": state.draw_offer,
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def state_from_json(data: Mapping[str, Any]) -> MarineState:
    if not isinstance(data, Mapping) or data.get("version") != STATE_VERSION:
        raise CorruptStateError("Unknown Marine Game state version.")
    try:
        last = data["last"]
        state = MarineState(
            rules=MarineRules.from_json(data["rules"]),
            seed=int(data["seed"]),
            south=data["south"],
            phase=Phase(data["phase"]),
            pieces=tuple(_piece(p) for p in data["pieces"]),
            turn=data["turn"],
            last=None
            if last is None
            else LastMove(
                side=last["side"],
                kind=Kind(last["kind"]),
                start=last["start"],
                end=last["end"],
                via=_via(last["via"]),
                taken=tuple(_piece(p) for p in last["taken"]),
            ),
            losses=tuple(_piece(p) for p in data["losses"]),
            plies=data["plies"],
            quiet=data["quiet"],
            draw_offer=data["draw_offer"],
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
        )
    except (KeyError, TypeError, ValueError, GameError) as error:
        raise CorruptStateError(f"The stored Marine Game is unreadable: {error}") from None
    validate(state)
    return state


def _counter(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def validate(state: MarineState) -> None:
    """Reject stored data that no sequence of legal moves could have produced."""
    seats = (state.south, state.turn, state.draw_offer)
    if any(seat is not None and type(seat) is not int for seat in seats):
        raise CorruptStateError("The stored Marine Game has bad seats.")
    if state.south not in SEATS or state.draw_offer not in (None, *SEATS):
        raise CorruptStateError("The stored Marine Game has bad seats.")
    if not (_counter(state.plies) and _counter(state.quiet)) or state.quiet > state.plies:
        raise CorruptStateError("A stored Marine Game counter is impossible.")
    if state.quiet >= state.rules.quiet_plies and state.phase is Phase.PLAY:
        raise CorruptStateError("A stored Marine Game should have ended in a draw.")
    if len(state.at) != len(state.pieces) or state.pieces != in_order(state.pieces):
        raise CorruptStateError("Stored Marine Game pieces share a point or are out of order.")
    for side in (0, 1):
        kinds = Counter(p.kind for p in (*state.pieces, *state.losses) if p.side == side)
        if kinds != FLEET:
            raise CorruptStateError("A stored Marine Game side does not have its nine pieces.")
    if (state.phase is Phase.FINISHED) != (state.outcome is not None):
        raise CorruptStateError("Only a finished Marine Game has an outcome.")
    if state.phase is Phase.SETUP:
        raise CorruptStateError("The Marine Game has no setup phase.")
    if state.phase is Phase.PLAY:
        expected = state.south if state.plies % 2 == 0 else 1 - state.south
        if state.turn != expected:
            raise CorruptStateError("The stored Marine Game has the wrong player to move.")
    elif state.turn is not None or state.draw_offer is not None:
        raise CorruptStateError("A finished Marine Game has no turn and no draw offer.")
    last = state.last
    if (last is None) != (state.plies == 0):
        raise CorruptStateError("A stored Marine Game's last move does not fit its plies.")
    if last is not None:
        if last.side not in (0, 1) or type(last.start) is not type(last.end):
            raise CorruptStateError("The stored last move is malformed.")
        on_point = board.is_corner if last.kind.is_battleship else board.is_hex
        if not (on_point(last.start) and on_point(last.end)):
            raise CorruptStateError("The stored last move is off the board.")
        if last.taken and state.losses[-len(last.taken) :] != last.taken:
            raise CorruptStateError("The stored last move took pieces the losses do not list.")
        if last.side != (state.plies - 1) % 2:  # South makes the odd plies
            raise CorruptStateError("The stored last move was made out of turn.")
        mover = state.at.get(last.end)
        died = any(p.side == last.side for p in last.taken)
        arrived = mover is not None and (mover.side, mover.kind) == (last.side, last.kind)
        if arrived == died:
            raise CorruptStateError("The stored last move does not fit the board.")
