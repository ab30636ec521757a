"""A working copy of one Seachess position, and the attack test that check rests on (§2.4).

The frozen state is the record; this mutable copy is what moves are tried on. Trying a move
costs a few dictionary copies, so legality (§7.1–7.2a: try the move, then ask whether the
mover's commando ship is attacked) stays cheap enough to list every legal move.

The same class holds a player's *view position* (§7.2a): the true position without the
opponent's mines and submerged submarines. Whatever is not known is simply absent.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.games.seachess import board
from bot.games.seachess.board import (
    ADJACENT,
    BISHOP_RAYS,
    CARRIER,
    DIAGONAL,
    FORWARD,
    KNIGHT,
    ROOK_RAYS,
    file_of,
    rank_of,
    step,
    torpedo_steps,
)
from bot.games.seachess.pieces import Kind, Piece, Submerged

LINE_KINDS = {
    "rook": (Kind.CRUISER, Kind.TORPEDO_BOAT),
    "bishop": (Kind.DESTROYER,),
}

CARRIER_FROM: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {}
"""Per square, every (carrier square, path) from which a carrier move reaches it."""
for _origin, _moves in CARRIER.items():
    for _target, _path in _moves:
        CARRIER_FROM.setdefault(_target, ())
        CARRIER_FROM[_target] += ((_origin, _path),)


class Position:
    """Visible pieces by square, mines by square (value: owner), submerged submarines,
    castling rights (White long, White short, Black long, Black short), the en passant
    chance (square passed, boat to remove), each side's airborne carrier, and the clock."""

    __slots__ = ("airborne", "at", "castling", "ep", "mines", "ply", "subs", "turn")

    def __init__(
        self,
        at: dict[int, Piece],
        mines: dict[int, int],
        subs: list[Submerged],
        castling: list[bool],
        ep: tuple[int, int] | None,
        airborne: list[int | None],
        turn: int,
        ply: int,
    ) -> None:
        self.at = at
        self.mines = mines
        self.subs = subs
        self.castling = castling
        self.ep = ep
        self.airborne = airborne
        self.turn = turn
        self.ply = ply

    def copy(self) -> Position:
        return Position(
            dict(self.at),
            dict(self.mines),
            list(self.subs),
            list(self.castling),
            self.ep,
            list(self.airborne),
            self.turn,
            self.ply,
        )

    def king(self, seat: int) -> int | None:
        for sq, piece in self.at.items():
            if piece.kind is Kind.COMMANDO and piece.owner == seat:
                return sq
        return None

    def sub_at(self, sq: int, owner: int) -> Submerged | None:
        for sub in self.subs:
            if sub.square == sq and sub.owner == owner:
                return sub
        return None

    def clear(self, sq: int) -> bool:
        """No visible piece and no mine: a line or path may pass (§2.1, §4.6)."""
        return sq not in self.at and sq not in self.mines


def attackers(pos: Position, sq: int, by: int) -> Iterator[tuple[int, Piece | None]]:
    """Every piece of ``by`` attacking ``sq`` (§2.4), as (its square, the visible piece or
    ``None`` for a submerged submarine). Mines and visible pieces block lines; submerged
    submarines attack but never block; whose turn it is and the airborne bar do not matter."""
    at = pos.at
    yield from _line_attackers(pos, sq, by)
    for s in ADJACENT[sq]:
        piece = at.get(s)
        if piece is not None and piece.owner == by and piece.kind in (Kind.COMMANDO, Kind.CARRIER):
            yield s, piece
    for s in KNIGHT[sq]:
        piece = at.get(s)
        if piece is not None and piece.owner == by and piece.kind is Kind.SUBMARINE:
            yield s, piece
    for sub in pos.subs:
        if sub.owner == by and sub.square in KNIGHT[sq]:
            yield sub.square, None
    yield from _carrier_attackers(pos, sq, by)
    back = -FORWARD[by]
    for df in (-1, 1):
        behind = step(sq, (df, back))
        if behind is not None:
            piece = at.get(behind)
            if piece is not None and piece.owner == by and piece.kind is Kind.BOAT:
                yield behind, piece
    yield from _torpedo_attackers(pos, sq, by)


def _line_attackers(pos: Position, sq: int, by: int) -> Iterator[tuple[int, Piece]]:
    """Pieces of ``by`` attacking ``sq`` along a rook's or a bishop's line, which the first
    visible piece or mine on the way blocks."""
    at = pos.at
    mines = pos.mines
    for kinds, rays in (
        (LINE_KINDS["rook"], ROOK_RAYS[sq]),
        (LINE_KINDS["bishop"], BISHOP_RAYS[sq]),
    ):
        for ray in rays:
            for s in ray:
                piece = at.get(s)
                if piece is not None:
                    if piece.owner == by and piece.kind in kinds:
                        yield s, piece
                    break
                if s in mines:
                    break


def _carrier_attackers(pos: Position, sq: int, by: int) -> Iterator[tuple[int, Piece]]:
    """Carriers of ``by`` attacking ``sq``: by their own move over clear squares, and by
    their aircraft on the ring three steps away (§3.7)."""
    at = pos.at
    for origin, path in CARRIER_FROM[sq]:
        if not path:
            continue  # single steps were found with the adjacent squares
        piece = at.get(origin)
        if (
            piece is not None
            and piece.owner == by
            and piece.kind is Kind.CARRIER
            and all(pos.clear(p) for p in path)
        ):
            yield origin, piece
    f, r = file_of(sq), rank_of(sq)
    for origin, piece in at.items():
        if piece.owner != by or piece.kind is not Kind.CARRIER:
            continue
        if max(abs(file_of(origin) - f), abs(rank_of(origin) - r)) == 3:
            yield origin, piece  # §3.7: the aircraft's ring, aboard or airborne


def _torpedo_attackers(pos: Position, sq: int, by: int) -> Iterator[tuple[int, Piece]]:
    """Torpedo boats of ``by`` aimed at ``sq`` along a diagonal from one or two squares
    away, the nearer square empty of pieces and mines (§3.4)."""
    at = pos.at
    mines = pos.mines
    for d in DIAGONAL:
        near = step(sq, (-d[0], -d[1]))
        if near is None:
            continue
        piece = at.get(near)
        if piece is not None:
            if _aims(piece, by, d):
                yield near, piece
            continue
        if near in mines:
            continue
        far = step(near, (-d[0], -d[1]))
        if far is not None:
            piece = at.get(far)
            if piece is not None and _aims(piece, by, d):
                yield far, piece


def _aims(piece: Piece, by: int, direction: tuple[int, int]) -> bool:
    """A loaded torpedo boat of ``by`` whose torpedo runs in ``direction`` (§3.4)."""
    return (
        piece.owner == by
        and piece.kind is Kind.TORPEDO_BOAT
        and piece.loaded
        and direction in torpedo_steps(piece.facing)
    )


def attacked(pos: Position, sq: int, by: int) -> bool:
    return next(attackers(pos, sq, by), None) is not None


def in_check(pos: Position, seat: int) -> bool:
    king = pos.king(seat)
    return king is not None and attacked(pos, king, 1 - seat)


def chebyshev(a: int, b: int) -> int:
    return max(abs(board.file_of(a) - board.file_of(b)), abs(board.rank_of(a) - board.rank_of(b)))
