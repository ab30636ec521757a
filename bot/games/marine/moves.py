"""Where pieces may go (Marine Game rules §3, §5), on any board position.

A position is a mapping from each occupied point to its piece. Both the state and the view
carry one, so the referee's checks and the autocomplete of a player's view share this code.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import NoReturn

from bot.games.core import IllegalActionError
from bot.games.marine.actions import BoatMove, Move, ShipMove
from bot.games.marine.board import CORNER_NEIGHBOURS, HEX_NEIGHBOURS, Corner, Point
from bot.games.marine.pieces import Kind, Piece, where

Position = Mapping[Point, Piece]


def ship_destinations(at: Position, start: Corner) -> dict[Corner, Corner | None]:
    """§5.2: each corner a battleship on ``start`` may reach, with the corner passed (if any).

    One side to an empty neighbour, or two sides through an empty middle corner to an
    empty corner other than the start (R-7). The corner graph has no 3- or 4-cycles, so
    every destination has exactly one path.
    """
    found: dict[Corner, Corner | None] = {}
    for middle in CORNER_NEIGHBOURS[start]:
        if middle in at:
            continue
        found[middle] = None
        for end in CORNER_NEIGHBOURS[middle]:
            if end != start and end not in at:
                found[end] = middle
    return found


def boat_destinations(at: Position, start: str) -> frozenset[str]:
    """§5.3: neighbouring hexes holding no U-boat (battleships on their corners do not bar)."""
    return frozenset(h for h in HEX_NEIGHBOURS[start] if h not in at)


def legal_moves(at: Position, side: int) -> Iterator[Move]:
    """Every move ``side`` has, pieces in point order, destinations ascending."""
    for point, piece in at.items():
        if piece.side != side:
            continue
        if isinstance(point, int):
            for end in sorted(ship_destinations(at, point)):
                yield ShipMove(point, end)
        else:
            for hex_ in sorted(boat_destinations(at, point)):
                yield BoatMove(point, hex_)


def has_move(at: Position, side: int) -> bool:
    """§7.2: whether ``side`` can move at all."""
    return next(legal_moves(at, side), None) is not None


def check(at: Position, side: int, move: Move) -> tuple[Piece, Corner | None]:
    """The piece that makes ``move`` and the corner it passes, or a refusal naming the rule."""
    piece = at.get(move.start)
    if piece is None or piece.side != side:
        raise IllegalActionError(f"You have no piece {where(move.start)}.")
    if isinstance(move, BoatMove):
        if move.end not in HEX_NEIGHBOURS[move.start]:
            raise IllegalActionError(
                f"A U-boat moves to a neighbouring hex only; {move.end} is not next to "
                f"{move.start}."
            )
        if move.end in at:
            raise IllegalActionError(f"Hex {move.end} already holds a U-boat.")
        return piece, None
    assert piece.kind is not Kind.U_BOAT  # corners hold battleships only
    reach = ship_destinations(at, move.start)
    if move.end not in reach:
        _refuse_ship(at, move)
    return piece, reach[move.end]


def _refuse_ship(at: Position, move: ShipMove) -> NoReturn:
    """Say which part of §5.2 a battleship move breaks."""
    start, end = move.start, move.end
    if end == start:
        raise IllegalActionError("A cruiser or destroyer must leave its corner.")
    if end in at:
        raise IllegalActionError(
            f"Corner {end} is occupied; pieces never move onto another."
        )
    middles = [m for m in CORNER_NEIGHBOURS[start] if end in CORNER_NEIGHBOURS[m]]
    if middles:
        raise IllegalActionError(
            f"The way from {start} to {end} passes corner {middles[0]}, which is occupied."
        )
    raise IllegalActionError(f"Corner {end} is not one or two hex sides from {start}.")
