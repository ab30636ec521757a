"""The board of the simple Seachess generator (see ``tests/support/seachess_simple.py``): squares as
(file, rank) pairs, the position as plain lists and dictionaries, the lines and jumps the
pieces move along, and whether a square is attacked, found by asking every enemy piece."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Sq = tuple[int, int]
LETTERS = "abcdefghijkl"
PROMOTE = "CTSDA"


def on_board(s: Sq) -> bool:
    f, r = s
    return 0 <= f < 12 and 0 <= r < 12 and (2 <= r <= 9 or 2 <= f <= 9)


ALL = [(f, r) for r in range(12) for f in range(12) if on_board((f, r))]


def nm(s: Sq) -> str:
    return f"{LETTERS[s[0]]}{s[1] + 1}"


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def dist(a: Sq, b: Sq) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@dataclass
class Simple:
    """pieces: square -> [kind letter, owner, loaded, facing (0 N 1 E 2 S 3 W), count]."""

    pieces: dict[Sq, list[Any]]
    mines: dict[Sq, int]
    subs: list[list[Any]]  # [square, owner, surfaces_at]
    rights: dict[tuple[int, str], bool]
    ep: tuple[Sq, Sq] | None
    air: list[Sq | None]
    ply: int
    turn: int
    removed: bool = field(default=False)


HOME = {0: 0, 1: 11}
CASTLE = {  # (king from, king to, partner from, partner to, strictly between)
    "long": lambda r: ((6, r), (4, r), (2, r), (5, r), [(3, r), (4, r), (5, r)]),
    "short": lambda r: ((6, r), (8, r), (9, r), (7, r), [(7, r), (8, r)]),
}
FWD = {0: 1, 1: -1}
DIRS = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}


def haven(s: Sq, seat: int) -> bool:
    return 2 <= s[0] <= 9 and (s[1] in (0, 1) if seat == 0 else s[1] in (10, 11))


def between(a: Sq, b: Sq) -> list[Sq] | None:
    """Squares strictly between a and b on a line, or None if not on a line."""
    df, dr = b[0] - a[0], b[1] - a[1]
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)) or (df, dr) == (0, 0):
        return None
    n = max(abs(df), abs(dr))
    return [(a[0] + sign(df) * k, a[1] + sign(dr) * k) for k in range(1, n)]


def carrier_path(a: Sq, b: Sq) -> list[Sq] | None:
    df, dr = b[0] - a[0], b[1] - a[1]
    if dist(a, b) == 1:
        return []
    if dist(a, b) == 2 and (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return [(a[0] + sign(df), a[1] + sign(dr))]
    if sorted((abs(df), abs(dr))) == [1, 2]:
        if abs(df) == 2:
            return [(a[0] + sign(df), a[1]), (a[0] + 2 * sign(df), a[1])]
        return [(a[0], a[1] + sign(dr)), (a[0], a[1] + 2 * sign(dr))]
    return None


def torpedo_dirs(facing: int) -> list[tuple[int, int]]:
    dx, dy = DIRS[facing]
    if dx == 0:
        return [(-1, dy), (1, dy)]
    return [(dx, 1), (dx, -1)]


def is_knight(a: Sq, b: Sq) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def attacks(pos: Simple, target: Sq, by: int) -> bool:
    def clear(s: Sq) -> bool:
        return on_board(s) and s not in pos.pieces and s not in pos.mines

    for s, (kind, owner, loaded, facing, _) in pos.pieces.items():
        if owner != by:
            continue
        d = dist(s, target)
        if kind == "K" and d == 1:
            return True
        if kind in "CT" and (s[0] == target[0] or s[1] == target[1]):
            way = between(s, target)
            if way is not None and all(clear(q) for q in way):
                return True
        if kind == "D" and abs(s[0] - target[0]) == abs(s[1] - target[1]):
            way = between(s, target)
            if way is not None and all(clear(q) for q in way):
                return True
        if kind == "T" and loaded:
            for dx, dy in torpedo_dirs(facing):
                if (s[0] + dx, s[1] + dy) == target:
                    return True
                if (s[0] + 2 * dx, s[1] + 2 * dy) == target and clear((s[0] + dx, s[1] + dy)):
                    return True
        if kind == "S" and is_knight(s, target):
            return True
        if kind == "A":
            if d == 3:
                return True
            path = carrier_path(s, target)
            if path is not None and all(clear(q) for q in path):
                return True
        if kind == "B" and target[1] - s[1] == FWD[by] and abs(target[0] - s[0]) == 1:
            return True
    return any(owner == by and is_knight(sq, target) for sq, owner, _ in pos.subs)


def king(pos: Simple, seat: int) -> Sq:
    return next(s for s, p in pos.pieces.items() if p[0] == "K" and p[1] == seat)


def clone(pos: Simple) -> Simple:
    return Simple(
        {s: list(p) for s, p in pos.pieces.items()},
        dict(pos.mines),
        [list(sub) for sub in pos.subs],
        dict(pos.rights),
        pos.ep,
        list(pos.air),
        pos.ply,
        pos.turn,
    )


def view_of(pos: Simple, seat: int) -> Simple:
    seen = clone(pos)
    seen.mines = {s: o for s, o in seen.mines.items() if o == seat}
    seen.subs = [sub for sub in seen.subs if sub[1] == seat]
    return seen


def sq_of(text: str) -> Sq:
    return LETTERS.index(text[0]), int(text[1:]) - 1


def lose_rights(pos: Simple, s: Sq) -> None:
    """Castling rights end for good once the king or the partner leaves or is taken."""
    for owner, side in list(pos.rights):
        k, _, p, _, _ = CASTLE[side](HOME[owner])
        if s in (k, p):
            pos.rights[(owner, side)] = False


def take(pos: Simple, s: Sq) -> None:
    """Take whatever stands on ``s``; an airborne carrier taken leaves its planes unflown."""
    piece = pos.pieces.pop(s, None)
    lose_rights(pos, s)
    if piece is not None:
        pos.removed = True
        if piece[0] == "A" and pos.air[piece[1]] == s:
            pos.air[piece[1]] = None


def sub_at(pos: Simple, s: Sq, owner: int) -> list[Any] | None:
    """``owner``'s submerged submarine under ``s``, if there is one."""
    return next((x for x in pos.subs if x[0] == s and x[1] == owner), None)
