"""A deliberately simple, independent Seachess move generator, written only for tests.

It shares nothing with the engine but the rules text: squares are (file, rank) pairs, every
piece is tried against every square of the board by brute force, attacks are found by
asking every enemy piece in turn, and a move is accepted as §7.2a says, by playing it on
the mover's view and on the true position. It is slow and obvious on purpose, so that a
perft count that agrees with the engine's means two readings of the rules agree.

The board and attacks are in ``seachess_simple_board``, the move shapes in
``seachess_simple_moves``, playing a move in ``seachess_simple_play``.
"""

from __future__ import annotations

from tests.support.seachess_simple_board import Simple, attacks, king, sq_of, view_of
from tests.support.seachess_simple_moves import tries
from tests.support.seachess_simple_play import Barred, play, rise


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
    from tests.support.seachess_positions import ENGINE

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
