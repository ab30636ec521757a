"""Playing a move in the simple Seachess generator (see ``tests/support/seachess_simple.py``):
mines,
hunting, sonar and the airborne rules, one small function per kind of move."""

from __future__ import annotations

from typing import Any

from tests.support.seachess_simple_board import (
    CASTLE,
    DIRS,
    FWD,
    HOME,
    Simple,
    Sq,
    attacks,
    between,
    carrier_path,
    clone,
    dist,
    haven,
    lose_rights,
    sign,
    sq_of,
    sub_at,
    take,
)


class Barred(Exception):
    """The move may not be played at all (a castling through a mine or an attack, a king
    onto an enemy mine): it is no move, rather than a move that loses something."""


def play(pos: Simple, seat: int, text: str) -> Simple:
    """The move on a copy of ``pos``, with mines, hunting, sonar and the airborne rules."""
    pos = clone(pos)
    ep, pos.ep = pos.ep, None
    words = text.split()
    if text in ("O-O", "O-O-O"):
        castle(pos, seat, text)
    elif words[0] == "mine":
        plant_mine(pos, seat, sq_of(words[1]))
    elif words[0] in ("dive", "sub"):
        submerge(pos, seat, words[0], *(sq_of(x) for x in words[1].split("-")))
    elif words[0] == "emerge":
        a, _, b = words[1].partition("x")
        emerge(pos, seat, sq_of(a), sq_of(b) if b else None)
    elif words[0] == "torpedo":
        torpedo(pos, *(sq_of(x) for x in words[1].split("x")))
    elif words[0] == "air":
        air_strike(pos, seat, *(sq_of(x) for x in words[1].split("x")))
    elif words[0] == "land":
        carrier = pos.air[seat]
        assert carrier is not None
        pos.pieces[carrier][2] = True
        pos.air[seat] = None
    else:
        move(pos, seat, text, ep)
    sonar(pos)
    return pos


def castle(pos: Simple, seat: int, text: str) -> None:
    P = pos.pieces
    side = "long" if text == "O-O-O" else "short"
    k, kt, p, pt, gap = CASTLE[side](HOME[seat])
    if any(q in pos.mines for q in gap):
        raise Barred
    crossing = [k, (k[0] + sign(kt[0] - k[0]), k[1]), kt]
    if any(attacks(pos, q, 1 - seat) for q in crossing):
        raise Barred
    kp, pp = P.pop(k), P.pop(p)
    lose_rights(pos, k)
    lose_rights(pos, p)
    pp[2] = True
    if pp[0] == "T":
        pp[3] = 1 if pt[0] > p[0] else 3
    P[kt], P[pt] = kp, pp


def explode(pos: Simple, s: Sq) -> None:
    """The mine on ``s`` goes off: it is spent, and whatever set it off is lost."""
    del pos.mines[s]
    pos.removed = True


def plant_mine(pos: Simple, seat: int, s: Sq) -> None:
    pos.pieces[s][2] = False
    victim = sub_at(pos, s, 1 - seat)
    if victim:
        pos.subs.remove(victim)
        pos.removed = True
    else:
        pos.mines[s] = seat


def submerge(pos: Simple, seat: int, word: str, a: Sq, b: Sq) -> None:
    """``dive``: the submarine on ``a`` goes under ``b``; ``sub``: a submerged one moves on."""
    if word == "dive":
        piece = pos.pieces.pop(a)
        lose_rights(pos, a)
        sub = [b, seat, pos.ply + 2 * min(piece[4] // 2, 4)]
    else:
        old = sub_at(pos, a, seat)
        assert old is not None
        pos.subs.remove(old)
        sub = [b, old[1], old[2]]
    if b in pos.mines:
        explode(pos, b)
    else:
        pos.subs.append(sub)


def emerge(pos: Simple, seat: int, here: Sq, target: Sq | None) -> None:
    sub = sub_at(pos, here, seat)
    assert sub is not None
    pos.subs.remove(sub)
    end = target or here
    if end in pos.pieces:
        take(pos, end)
    if end in pos.mines:
        explode(pos, end)
    else:
        pos.pieces[end] = ["S", seat, False, 0, 0]


def torpedo(pos: Simple, a: Sq, b: Sq) -> None:
    pos.pieces[a][2] = False
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    if dist(a, b) == 2 and mid in pos.mines:
        explode(pos, mid)
    else:
        take(pos, b)


def air_strike(pos: Simple, seat: int, a: Sq, b: Sq) -> None:
    if pos.air[seat] is None:
        pos.pieces[a][2] = False
        pos.air[seat] = a
    take(pos, b)


def move(pos: Simple, seat: int, text: str, ep: tuple[Sq, Sq] | None) -> None:
    """A plain move along the piece's path: a mine on the way or at the end takes it."""
    P = pos.pieces
    step, _, promo = text.partition("=")
    a, b = (sq_of(x) for x in step.split("-"))
    kind = P[a][0]
    if kind == "K" and pos.mines.get(b) == 1 - seat:
        raise Barred
    if kind in "CTDB":
        path = between(a, b) or []
    elif kind == "A":
        path = carrier_path(a, b) or []
    else:
        path = []
    hit = next((q for q in path if q in pos.mines), None)
    piece = P.pop(a)
    lose_rights(pos, a)
    if hit is not None:
        explode(pos, hit)
        return
    if b in P:
        take(pos, b)
    elif kind == "B" and a[0] != b[0] and ep is not None and ep[0] == b:
        take(pos, ep[1])
    if b in pos.mines:
        explode(pos, b)
    else:
        arrive(pos, seat, a, b, piece, promo)


def arrive(pos: Simple, seat: int, a: Sq, b: Sq, piece: list[Any], promo: str) -> None:
    """The moved piece stands on ``b``: promoted, turned, reloaded in a haven, leaving an
    en passant square, or hunting the submarine under it."""
    kind = piece[0]
    if promo:
        piece = [promo, seat, promo in "CTA", 0 if seat == 0 else 2, 0]
    elif kind == "T" and (a[0] == b[0] or a[1] == b[1]):
        piece[3] = {(0, 1): 0, (1, 0): 1, (0, -1): 2, (-1, 0): 3}[
            (sign(b[0] - a[0]), sign(b[1] - a[1]))
        ]
    if kind in "CT" and haven(b, seat):
        piece[2] = True
    pos.pieces[b] = piece
    if kind == "B" and a[0] == b[0] and abs(b[1] - a[1]) >= 2:
        pos.ep = ((a[0], a[1] + FWD[seat]), b)
    hunted = sub_at(pos, b, 1 - seat) if piece[0] == "D" else None
    if hunted:
        pos.subs.remove(hunted)
        pos.removed = True


def sonar(pos: Simple) -> None:
    """§5.7: every submarine beside an enemy destroyer rises, all at once."""
    P = pos.pieces
    up = [
        sub
        for sub in pos.subs
        if any(
            (sub[0][0] + dx, sub[0][1] + dy) in P
            and P[(sub[0][0] + dx, sub[0][1] + dy)][0] == "D"
            and P[(sub[0][0] + dx, sub[0][1] + dy)][1] != sub[1]
            for dx, dy in DIRS.values()
        )
    ]
    for sub in up:
        rise(pos, sub)


def rise(pos: Simple, sub: list[Any]) -> None:
    """A submarine surfaces: it takes what stands above it, but a king above sinks it."""
    pos.subs.remove(sub)
    s = sub[0]
    if s in pos.pieces and pos.pieces[s][0] == "K":
        pos.removed = True
        return
    if s in pos.pieces:
        take(pos, s)
    pos.pieces[s] = ["S", sub[1], False, 0, 0]
