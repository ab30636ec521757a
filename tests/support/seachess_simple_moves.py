"""The move shapes of the simple Seachess generator (see ``tests/support/seachess_simple.py``).

Every piece is tried against every square of the board, and a text is offered wherever the
rules allow the shape of the move in the mover's view; whether it leaves the king safe, and
what the hidden pieces make of it, is for :func:`tests.support.seachess_simple.accepted` to judge.
"""

from __future__ import annotations

from tests.support.seachess_simple_board import (
    ALL,
    CASTLE,
    FWD,
    HOME,
    PROMOTE,
    Simple,
    Sq,
    between,
    carrier_path,
    dist,
    is_knight,
    nm,
    on_board,
    torpedo_dirs,
)


def own(view: Simple, seat: int, s: Sq) -> bool:
    return s in view.pieces and view.pieces[s][1] == seat


def takeable(view: Simple, seat: int, s: Sq) -> bool:
    """Empty, or an enemy piece other than the king."""
    P = view.pieces
    return s not in P or (P[s][1] != seat and P[s][0] != "K")


def enemy(view: Simple, seat: int, s: Sq) -> bool:
    """An enemy piece other than the king stands on ``s``."""
    P = view.pieces
    return s in P and P[s][1] != seat and P[s][0] != "K"


def no_own_sub(view: Simple, seat: int, s: Sq) -> bool:
    return not any(sub[0] == s and sub[1] == seat for sub in view.subs)


def may_hide(view: Simple, seat: int, s: Sq) -> bool:
    """A square a submarine of ``seat`` may submerge under (§5.3)."""
    P = view.pieces
    return (
        not (s in P and P[s][0] == "D") and view.mines.get(s) != seat and no_own_sub(view, seat, s)
    )


def clear_way(view: Simple, seat: int, way: list[Sq]) -> bool:
    """Every square on the board, empty, and without a mine of the mover's own."""
    return all(on_board(q) and q not in view.pieces and view.mines.get(q) != seat for q in way)


def tries(view: Simple, seat: int) -> list[str]:
    """Every move text whose shape the rules allow in this view."""
    carrier = view.air[seat]
    if carrier is not None:
        strikes = [
            f"air {nm(carrier)}x{nm(t)}"
            for t in ALL
            if dist(carrier, t) == 3 and enemy(view, seat, t)
        ]
        return [*strikes, "land"]
    out: list[str] = []
    for s, piece in list(view.pieces.items()):
        if piece[1] == seat:
            out += piece_tries(view, seat, s)
    for sq, owner, _ in list(view.subs):
        if owner == seat:
            out += submarine_tries(view, seat, sq)
    return out


def piece_tries(view: Simple, seat: int, s: Sq) -> list[str]:
    """The moves of ``seat``'s piece on ``s``."""
    kind, _, loaded, _, count = view.pieces[s]
    out: list[str] = []
    for t in ALL:
        if t == s:
            continue
        if kind == "S" and is_knight(s, t) and count >= 2 and may_hide(view, seat, t):
            out.append(f"dive {nm(s)}-{nm(t)}")  # under own pieces too (§5.3)
        if not own(view, seat, t):
            out += moves_to(view, seat, s, t)
    if kind == "C" and loaded and no_own_sub(view, seat, s):
        out.append(f"mine {nm(s)}")
    if kind == "K":
        out += castlings(view, seat, s)
    return out


def moves_to(view: Simple, seat: int, s: Sq, t: Sq) -> list[str]:
    """The moves of the piece on ``s`` that end on ``t``, a square it does not hold itself."""
    kind, _, loaded, facing, _ = view.pieces[s]
    move = f"{nm(s)}-{nm(t)}"
    out: list[str] = []
    way = between(s, t)
    if kind == "K" and dist(s, t) == 1 and takeable(view, seat, t) and view.mines.get(t) != seat:
        out.append(move)
    if kind in "CTD" and way is not None and takeable(view, seat, t):
        straight = s[0] == t[0] or s[1] == t[1]
        if (straight if kind in "CT" else not straight) and clear_way(view, seat, way):
            out.append(move)
    if kind == "S" and is_knight(s, t) and takeable(view, seat, t):
        out.append(move)
    if kind == "A":
        path = carrier_path(s, t)
        if path is not None and takeable(view, seat, t) and clear_way(view, seat, path):
            out.append(move)
        if loaded and dist(s, t) == 3 and enemy(view, seat, t):
            out.append(f"air {nm(s)}x{nm(t)}")
    if kind == "T" and loaded and enemy(view, seat, t):
        for dx, dy in torpedo_dirs(facing):
            mid = (s[0] + dx, s[1] + dy)
            if t == mid or (t == (s[0] + 2 * dx, s[1] + 2 * dy) and clear_way(view, seat, [mid])):
                out.append(f"torpedo {nm(s)}x{nm(t)}")
    if kind == "B":
        out += boat_moves_to(view, seat, s, t)
    return out


def boat_moves_to(view: Simple, seat: int, s: Sq, t: Sq) -> list[str]:
    """A boat's step, double step from its first rank, capture (en passant too), or sideways
    step where the board's edge blocks its way forward; promoted on the last rank."""
    P = view.pieces
    last = t[1] == (11 if seat == 0 else 0)
    suffixes = [f"={k}" for k in PROMOTE] if last else [""]
    steps = t[1] - s[1]
    start = s[1] == (1 if seat == 0 else 10)
    forward_ok = (
        t[0] == s[0]
        and steps * FWD[seat] >= 1
        and (abs(steps) == 1 or (start and abs(steps) <= 4))
        and t not in P
        and all(q not in P and view.mines.get(q) != seat for q in between(s, t) or [])
    )
    capture_ok = (
        abs(t[0] - s[0]) == 1
        and steps == FWD[seat]
        and (
            enemy(view, seat, t)
            or (
                t not in P
                and view.ep is not None
                and view.ep[0] == t
                and view.ep[1] in P
                and P[view.ep[1]][1] != seat
            )
        )
    )
    blocked_edge = not on_board((s[0], s[1] + FWD[seat]))
    side_ok = (
        blocked_edge and t[1] == s[1] and t[0] - s[0] == (1 if s[0] < 6 else -1) and t not in P
    )
    if forward_ok or capture_ok or side_ok:
        return [f"{nm(s)}-{nm(t)}{x}" for x in suffixes]
    return []


def castlings(view: Simple, seat: int, s: Sq) -> list[str]:
    """Castling long with the cruiser or short with the torpedo boat, from the king on ``s``."""
    P = view.pieces
    out: list[str] = []
    for side, partner_kind in (("long", "C"), ("short", "T")):
        k, _, p, _, gap = CASTLE[side](HOME[seat])
        if (
            view.rights[(seat, side)]
            and s == k
            and p in P
            and P[p][0] == partner_kind
            and P[p][1] == seat
            and all(q not in P and view.mines.get(q) != seat for q in gap)
        ):
            out.append("O-O-O" if side == "long" else "O-O")
    return out


def submarine_tries(view: Simple, seat: int, sq: Sq) -> list[str]:
    """The moves of ``seat``'s submerged submarine under ``sq``."""
    P = view.pieces
    out: list[str] = []
    for t in ALL:
        if is_knight(sq, t) and may_hide(view, seat, t):
            out.append(f"sub {nm(sq)}-{nm(t)}")
        if is_knight(sq, t) and t in P and P[t][1] != seat and P[t][0] not in "KD":
            out.append(f"emerge {nm(sq)}x{nm(t)}")
    if takeable(view, seat, sq):
        out.append(f"emerge {nm(sq)}")
    return out
