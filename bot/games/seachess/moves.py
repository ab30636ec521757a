"""Every move a player may try, as far as they can know (§3–§6, §7.2a).

``candidates`` reads a *view position*: the mover's own mines and submerged submarines are in
it, the opponent's are not. A candidate is a move whose shape the rules allow in that view;
whether it leaves the commando ship attacked is decided by ``legality``.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.games.seachess import actions as act
from bot.games.seachess.board import (
    ADJACENT,
    BISHOP_RAYS,
    CARRIER,
    FORWARD,
    HAVENS,
    KNIGHT,
    LAST_RANK,
    RING,
    ROOK_RAYS,
    START_RANK,
    file_of,
    rank_of,
    square,
    step,
    torpedo_steps,
)
from bot.games.seachess.pieces import PROMOTIONS, Kind, Piece
from bot.games.seachess.position import Position

CASTLING = {
    # (seat, long): (king from, king to, partner from, partner to, squares strictly between)
    (0, True): (square(6, 0), square(4, 0), square(2, 0), square(5, 0), (3, 4, 5)),
    (0, False): (square(6, 0), square(8, 0), square(9, 0), square(7, 0), (7, 8)),
    (1, True): (square(6, 11), square(4, 11), square(2, 11), square(5, 11), (3, 4, 5)),
    (1, False): (square(6, 11), square(8, 11), square(9, 11), square(7, 11), (7, 8)),
}


def castling_squares(seat: int, long: bool) -> tuple[int, int, int, int, tuple[int, ...]]:
    king, king_to, partner, partner_to, files = CASTLING[(seat, long)]
    rank = rank_of(king)
    return king, king_to, partner, partner_to, tuple(square(f, rank) for f in files)


def candidates(pos: Position, seat: int) -> Iterator[act.Action]:
    """The moves ``seat`` may try in this (view) position, before the check test."""
    carrier = pos.airborne[seat]
    if carrier is not None:  # §3.7: only the aircraft may act while it is airborne
        yield from _strikes(pos, seat, carrier)
        yield act.Land()
        return
    for sq, piece in list(pos.at.items()):
        if piece.owner != seat:
            continue
        kind = piece.kind
        if kind is Kind.BOAT:
            yield from _boat(pos, seat, sq)
        elif kind is Kind.COMMANDO:
            yield from _king(pos, seat, sq)
        elif kind is Kind.CARRIER:
            yield from _carrier(pos, seat, sq)
            if piece.loaded:
                yield from _strikes(pos, seat, sq)
        elif kind is Kind.SUBMARINE:
            for target in KNIGHT[sq]:
                if _may_end(pos, seat, target):
                    yield act.Move(sq, target)
            if piece.count >= 2:
                for target in KNIGHT[sq]:
                    if _may_hide(pos, seat, target):
                        yield act.Dive(sq, target)
        else:
            rays = BISHOP_RAYS[sq] if kind is Kind.DESTROYER else ROOK_RAYS[sq]
            yield from _slides(pos, seat, sq, rays)
            if kind is Kind.CRUISER and piece.loaded and pos.sub_at(sq, seat) is None:
                yield act.Plant(sq)
            if kind is Kind.TORPEDO_BOAT and piece.loaded:
                yield from _torpedoes(pos, seat, sq, piece)
    for sub in list(pos.subs):
        if sub.owner != seat:
            continue
        here = sub.square
        for target in KNIGHT[here]:
            if _may_hide(pos, seat, target):
                yield act.Steer(here, target)
        above = pos.at.get(here)
        if above is None or (above.owner != seat and above.kind is not Kind.COMMANDO):
            yield act.Emerge(here)
        for target in KNIGHT[here]:
            victim = pos.at.get(target)
            if (
                victim is not None
                and victim.owner != seat
                and victim.kind not in (Kind.COMMANDO, Kind.DESTROYER)
            ):
                yield act.Emerge(here, target)


def _may_end(pos: Position, seat: int, target: int) -> bool:
    """A visible move may end here: no own piece, no commando ship (never captured)."""
    piece = pos.at.get(target)
    return piece is None or (piece.owner != seat and piece.kind is not Kind.COMMANDO)


def _may_hide(pos: Position, seat: int, target: int) -> bool:
    """§5.3–5.3a, §4.5: a submerged submarine may end under anything but a destroyer, never
    on its own mine or under another own submerged submarine."""
    piece = pos.at.get(target)
    if piece is not None and piece.kind is Kind.DESTROYER:
        return False
    if pos.mines.get(target) == seat:
        return False
    return pos.sub_at(target, seat) is None


def _slides(
    pos: Position, seat: int, sq: int, rays: tuple[tuple[int, ...], ...]
) -> Iterator[act.Move]:
    for ray in rays:
        for s in ray:
            piece = pos.at.get(s)
            if piece is not None:
                if piece.owner != seat and piece.kind is not Kind.COMMANDO:
                    yield act.Move(sq, s)
                break
            yield act.Move(sq, s)
            if pos.mines.get(s) == seat:
                break  # §4.4: it may end on its own mine, never cross it


def _king(pos: Position, seat: int, sq: int) -> Iterator[act.Action]:
    for s in ADJACENT[sq]:
        if pos.mines.get(s) == seat:
            continue  # §4.7
        if _may_end(pos, seat, s):
            yield act.Move(sq, s)
    for long in (True, False):
        if pos.castling[2 * seat + (0 if long else 1)]:
            king, _, partner, _, gap = castling_squares(seat, long)
            partner_piece = pos.at.get(partner)
            if (
                sq == king
                and partner_piece is not None
                and partner_piece.owner == seat
                and all(s not in pos.at and pos.mines.get(s) != seat for s in gap)
            ):
                yield act.Castle(long)


def _carrier(pos: Position, seat: int, sq: int) -> Iterator[act.Move]:
    for target, path in CARRIER[sq]:
        if any(s in pos.at or pos.mines.get(s) == seat for s in path):
            continue
        if _may_end(pos, seat, target):
            yield act.Move(sq, target)


def _strikes(pos: Position, seat: int, carrier: int) -> Iterator[act.Strike]:
    for target in RING[carrier]:
        piece = pos.at.get(target)
        if piece is not None and piece.owner != seat and piece.kind is not Kind.COMMANDO:
            yield act.Strike(carrier, target)


def _torpedoes(pos: Position, seat: int, sq: int, piece: Piece) -> Iterator[act.Torpedo]:
    for direction in torpedo_steps(piece.facing):
        near = step(sq, direction)
        if near is None:
            continue
        target = pos.at.get(near)
        if target is not None:
            if target.owner != seat and target.kind is not Kind.COMMANDO:
                yield act.Torpedo(sq, near)
            continue
        if pos.mines.get(near) == seat:
            continue  # §3.4: an own mine in the middle makes the launch illegal
        far = step(near, direction)
        if far is None:
            continue
        target = pos.at.get(far)
        if target is not None and target.owner != seat and target.kind is not Kind.COMMANDO:
            yield act.Torpedo(sq, far)


def _boat(pos: Position, seat: int, sq: int) -> Iterator[act.Move]:
    forward = FORWARD[seat]
    ahead = step(sq, (0, forward))
    if ahead is not None:
        reach = 4 if rank_of(sq) == START_RANK[seat] else 1
        for distance in range(1, reach + 1):
            s = step(sq, (0, forward), distance)
            if s is None or s in pos.at:
                break
            yield from _promoting(seat, sq, s)
            if pos.mines.get(s) == seat:
                break
    elif rank_of(sq) != LAST_RANK[seat]:  # §3.8: the side step towards the centre
        side = 1 if file_of(sq) < 6 else -1
        s = step(sq, (side, 0))
        if s is not None and s not in pos.at:
            yield act.Move(sq, s)
    for df in (-1, 1):
        s = step(sq, (df, forward))
        if s is None:
            continue
        piece = pos.at.get(s)
        if piece is not None:
            if piece.owner != seat and piece.kind is not Kind.COMMANDO:
                yield from _promoting(seat, sq, s)
        elif pos.ep is not None and pos.ep[0] == s:
            victim = pos.at.get(pos.ep[1])
            if victim is not None and victim.owner != seat:
                yield act.Move(sq, s)


def _promoting(seat: int, start: int, end: int) -> Iterator[act.Move]:
    if rank_of(end) == LAST_RANK[seat]:
        for kind in PROMOTIONS:
            yield act.Move(start, end, kind)
    else:
        yield act.Move(start, end)


def reloads(piece: Piece, seat: int, end: int) -> bool:
    """§3.4, §4.2: a cruiser or torpedo boat ending a move in its own haven is loaded."""
    return piece.kind in (Kind.CRUISER, Kind.TORPEDO_BOAT) and end in HAVENS[seat]
