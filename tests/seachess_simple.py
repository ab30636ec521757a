"""A deliberately simple, independent Seachess move generator, written only for tests.

It shares nothing with the engine but the rules text: squares are (file, rank) pairs, every
piece is tried against every square of the board by brute force, attacks are found by
asking every enemy piece in turn, and a move is accepted as §7.2a says, by playing it on
the mover's view and on the true position. It is slow and obvious on purpose, so that a
perft count that agrees with the engine's means two readings of the rules agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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

    pieces: dict[Sq, list]  # type: ignore[type-arg]
    mines: dict[Sq, int]
    subs: list[list]  # [square, owner, surfaces_at]  # type: ignore[type-arg]
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


def tries(view: Simple, seat: int) -> list[str]:
    """Every move text whose shape the rules allow in this view."""
    out: list[str] = []
    P, M = view.pieces, view.mines

    def own(s: Sq) -> bool:
        return s in P and P[s][1] == seat

    def takeable(s: Sq) -> bool:
        return s not in P or (P[s][1] != seat and P[s][0] != "K")

    def no_own_sub(s: Sq) -> bool:
        return not any(sub[0] == s and sub[1] == seat for sub in view.subs)

    def may_hide(s: Sq) -> bool:
        return not (s in P and P[s][0] == "D") and M.get(s) != seat and no_own_sub(s)

    if view.air[seat] is not None:
        c = view.air[seat]
        out += [
            f"air {nm(c)}x{nm(t)}"
            for t in ALL
            if dist(c, t) == 3 and t in P and P[t][1] != seat and P[t][0] != "K"
        ]
        return [*out, "land"]
    for s, (kind, owner, loaded, facing, count) in list(P.items()):
        if owner != seat:
            continue
        for t in ALL:
            if t == s:
                continue
            if kind == "S" and is_knight(s, t) and count >= 2 and may_hide(t):
                out.append(f"dive {nm(s)}-{nm(t)}")  # under own pieces too (§5.3)
            if own(t):
                continue
            way = between(s, t)
            if kind == "K" and dist(s, t) == 1 and takeable(t) and M.get(t) != seat:
                out.append(f"{nm(s)}-{nm(t)}")
            if kind in "CTD" and way is not None and takeable(t):
                straight = s[0] == t[0] or s[1] == t[1]
                if (straight if kind in "CT" else not straight) and all(
                    on_board(q) and q not in P and M.get(q) != seat for q in way
                ):
                    out.append(f"{nm(s)}-{nm(t)}")
            if kind == "S" and is_knight(s, t) and takeable(t):
                out.append(f"{nm(s)}-{nm(t)}")
            if kind == "A":
                path = carrier_path(s, t)
                if (
                    path is not None
                    and takeable(t)
                    and all(on_board(q) and q not in P and M.get(q) != seat for q in path)
                ):
                    out.append(f"{nm(s)}-{nm(t)}")
                if loaded and dist(s, t) == 3 and t in P and P[t][1] != seat and P[t][0] != "K":
                    out.append(f"air {nm(s)}x{nm(t)}")
            if kind == "T" and loaded and t in P and P[t][1] != seat and P[t][0] != "K":
                for dx, dy in torpedo_dirs(facing):
                    mid = (s[0] + dx, s[1] + dy)
                    if t == mid or (
                        t == (s[0] + 2 * dx, s[1] + 2 * dy)
                        and on_board(mid)
                        and mid not in P
                        and M.get(mid) != seat
                    ):
                        out.append(f"torpedo {nm(s)}x{nm(t)}")
            if kind == "B":
                last = t[1] == (11 if seat == 0 else 0)
                suffixes = [f"={k}" for k in PROMOTE] if last else [""]
                steps = t[1] - s[1]
                start = s[1] == (1 if seat == 0 else 10)
                forward_ok = (
                    t[0] == s[0]
                    and steps * FWD[seat] >= 1
                    and (abs(steps) == 1 or (start and abs(steps) <= 4))
                    and t not in P
                    and all(q not in P and M.get(q) != seat for q in between(s, t) or [])
                )
                capture_ok = (
                    abs(t[0] - s[0]) == 1
                    and steps == FWD[seat]
                    and (
                        (t in P and P[t][1] != seat and P[t][0] != "K")
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
                    blocked_edge
                    and t[1] == s[1]
                    and t[0] - s[0] == (1 if s[0] < 6 else -1)
                    and t not in P
                )
                if forward_ok or capture_ok or side_ok:
                    out += [f"{nm(s)}-{nm(t)}{x}" for x in suffixes]
        if kind == "C" and loaded and no_own_sub(s):
            out.append(f"mine {nm(s)}")
        if kind == "K":
            for side, partner_kind in (("long", "C"), ("short", "T")):
                k, _, p, _, gap = CASTLE[side](HOME[seat])
                if (
                    view.rights[(seat, side)]
                    and s == k
                    and p in P
                    and P[p][0] == partner_kind
                    and P[p][1] == seat
                    and all(q not in P and M.get(q) != seat for q in gap)
                ):
                    out.append("O-O-O" if side == "long" else "O-O")
    for sq, owner, _ in list(view.subs):
        if owner != seat:
            continue
        for t in ALL:
            if is_knight(sq, t) and may_hide(t):
                out.append(f"sub {nm(sq)}-{nm(t)}")
            if is_knight(sq, t) and t in P and P[t][1] != seat and P[t][0] not in "KD":
                out.append(f"emerge {nm(sq)}x{nm(t)}")
        if sq not in P or (P[sq][1] != seat and P[sq][0] != "K"):
            out.append(f"emerge {nm(sq)}")
    return out


class Barred(Exception):
    pass


def sq_of(text: str) -> Sq:
    return LETTERS.index(text[0]), int(text[1:]) - 1


def play(pos: Simple, seat: int, text: str) -> Simple:
    """The move on a copy of ``pos``, with mines, hunting, sonar and the airborne rules."""
    pos = clone(pos)
    ep, pos.ep = pos.ep, None
    foe = 1 - seat
    P = pos.pieces

    def lose_rights(s: Sq) -> None:
        for owner, side in list(pos.rights):
            k, _, p, _, _ = CASTLE[side](HOME[owner])
            if s in (k, p):
                pos.rights[(owner, side)] = False

    def take(s: Sq) -> None:
        piece = P.pop(s, None)
        lose_rights(s)
        if piece is not None:
            pos.removed = True
            if piece[0] == "A" and pos.air[piece[1]] == s:
                pos.air[piece[1]] = None

    def sub_at(s: Sq, owner: int) -> list | None:  # type: ignore[type-arg]
        return next((x for x in pos.subs if x[0] == s and x[1] == owner), None)

    words = text.split()
    if text in ("O-O", "O-O-O"):
        side = "long" if text == "O-O-O" else "short"
        k, kt, p, pt, gap = CASTLE[side](HOME[seat])
        if any(q in pos.mines for q in gap):
            raise Barred
        crossing = [k, (k[0] + sign(kt[0] - k[0]), k[1]), kt]
        if any(attacks(pos, q, foe) for q in crossing):
            raise Barred
        kp, pp = P.pop(k), P.pop(p)
        lose_rights(k)
        lose_rights(p)
        pp[2] = True
        if pp[0] == "T":
            pp[3] = 1 if pt[0] > p[0] else 3
        P[kt], P[pt] = kp, pp
    elif words[0] == "mine":
        s = sq_of(words[1])
        P[s][2] = False
        victim = sub_at(s, foe)
        if victim:
            pos.subs.remove(victim)
            pos.removed = True
        else:
            pos.mines[s] = seat
    elif words[0] in ("dive", "sub"):
        a, b = (sq_of(x) for x in words[1].split("-"))
        if words[0] == "dive":
            piece = P.pop(a)
            lose_rights(a)
            sub = [b, seat, pos.ply + 2 * min(piece[4] // 2, 4)]
        else:
            sub = sub_at(a, seat)
            assert sub is not None
            pos.subs.remove(sub)
            sub = [b, sub[1], sub[2]]
        if b in pos.mines:
            del pos.mines[b]
            pos.removed = True
        else:
            pos.subs.append(sub)
    elif words[0] == "emerge":
        a, _, b = words[1].partition("x")
        here = sq_of(a)
        sub = sub_at(here, seat)
        assert sub is not None
        pos.subs.remove(sub)
        end = sq_of(b) if b else here
        if end in P:
            take(end)
        if end in pos.mines:
            del pos.mines[end]
            pos.removed = True
        else:
            P[end] = ["S", seat, False, 0, 0]
    elif words[0] == "torpedo":
        a, b = (sq_of(x) for x in words[1].split("x"))
        P[a][2] = False
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        if dist(a, b) == 2 and mid in pos.mines:
            del pos.mines[mid]
            pos.removed = True
        else:
            take(b)
    elif words[0] == "air":
        a, b = (sq_of(x) for x in words[1].split("x"))
        if pos.air[seat] is None:
            P[a][2] = False
            pos.air[seat] = a
        take(b)
    elif words[0] == "land":
        c = pos.air[seat]
        assert c is not None
        P[c][2] = True
        pos.air[seat] = None
    else:
        move, _, promo = text.partition("=")
        a, b = (sq_of(x) for x in move.split("-"))
        kind = P[a][0]
        if kind == "K" and pos.mines.get(b) == foe:
            raise Barred
        if kind in "CTDB":
            path = between(a, b) or []
        elif kind == "A":
            path = carrier_path(a, b) or []
        else:
            path = []
        hit = next((q for q in path if q in pos.mines), None)
        piece = P.pop(a)
        lose_rights(a)
        if hit is not None:
            del pos.mines[hit]
            pos.removed = True
        else:
            if b in P:
                take(b)
            elif kind == "B" and a[0] != b[0] and ep is not None and ep[0] == b:
                take(ep[1])
            if b in pos.mines:
                del pos.mines[b]
                pos.removed = True
            else:
                if promo:
                    piece = [promo, seat, promo in "CTA", 0 if seat == 0 else 2, 0]
                elif kind == "T" and (a[0] == b[0] or a[1] == b[1]):
                    piece[3] = {(0, 1): 0, (1, 0): 1, (0, -1): 2, (-1, 0): 3}[
                        (sign(b[0] - a[0]), sign(b[1] - a[1]))
                    ]
                if kind in "CT" and haven(b, seat):
                    piece[2] = True
                P[b] = piece
                if kind == "B" and a[0] == b[0] and abs(b[1] - a[1]) >= 2:
                    pos.ep = ((a[0], a[1] + FWD[seat]), b)
                hunted = sub_at(b, foe) if piece[0] == "D" else None
                if hunted:
                    pos.subs.remove(hunted)
                    pos.removed = True
    # §5.7 sonar, all at once
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
    return pos


def rise(pos: Simple, sub: list) -> None:  # type: ignore[type-arg]
    pos.subs.remove(sub)
    s = sub[0]
    if s in pos.pieces and pos.pieces[s][0] == "K":
        pos.removed = True
        return
    if s in pos.pieces:
        pos.removed = True
        gone = pos.pieces.pop(s)
        for owner, side in list(pos.rights):
            k, _, p, _, _ = CASTLE[side](HOME[owner])
            if s in (k, p):
                pos.rights[(owner, side)] = False
        if gone[0] == "A" and pos.air[gone[1]] == s:
            pos.air[gone[1]] = None
    pos.pieces[s] = ["S", sub[1], False, 0, 0]


def safe(pos: Simple, seat: int, text: str) -> Simple | None:
    try:
        after = play(pos, seat, text)
    except Barred:
        return None
    return None if attacks(after, king(after, seat), 1 - seat) else after


def accepted(pos: Simple, seat: int) -> list[tuple[str, Simple]]:
    """§7.2a: legal in the mover's view and in the true position."""
    view = view_of(pos, seat)
    out = []
    for text in tries(view, seat):
        if safe(view, seat, text) is not None:
            after = safe(pos, seat, text)
            if after is not None:
                out.append((text, after))
    return out


def next_turn(pos: Simple, seat: int) -> Simple:
    for piece in pos.pieces.values():
        if piece[1] == seat and piece[0] == "S":
            piece[4] = min(piece[4] + 1, 8)
    pos.ply += 1
    pos.turn = 1 - seat
    for sub in sorted(pos.subs):
        if sub[1] == pos.turn and sub[2] == pos.ply:
            rise(pos, sub)
    return pos


def over(pos: Simple) -> bool:
    return all(p[0] == "K" for p in pos.pieces.values()) and not pos.subs


def perft(pos: Simple, depth: int) -> int:
    if depth == 0:
        return 1
    if over(pos):
        return 0
    moves = accepted(pos, pos.turn)
    if depth == 1:
        return len(moves)
    return sum(perft(next_turn(after, pos.turn), depth - 1) for _, after in moves)


def from_state(state: object) -> Simple:
    """Translate an engine state through its JSON, the stable public format."""
    from tests.seachess_positions import ENGINE

    data = ENGINE.to_json(state)  # type: ignore[arg-type]
    sides = ((0, "long"), (0, "short"), (1, "long"), (1, "short"))
    return Simple(
        pieces={
            sq_of(s): [k, o, loaded, facing, count]
            for s, k, o, loaded, facing, count in data["pieces"]
        },
        mines={sq_of(s): o for s, o in data["mines"]},
        subs=[[sq_of(s), o, at] for s, o, at, _ in data["subs"]],
        rights=dict(zip(sides, data["castling"], strict=True)),
        ep=None if data["ep"] is None else (sq_of(data["ep"][0]), sq_of(data["ep"][1])),
        air=[None if a is None else sq_of(a) for a in data["airborne"]],
        ply=data["ply"],
        turn=data["turn"],
    )
