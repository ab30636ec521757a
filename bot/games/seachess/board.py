"""The Seachess board (Seachess rules §1): 12 files × 12 ranks minus 16 missing corners.

Squares are small integers, ``rank * 12 + file`` with both counted from 0, so ``a1`` is 0 and
``l12`` is 143. Every geometric question the rules ask (rays, knight leaps, the carrier's
steps with their paths, the aircraft's ring) is answered once here, in tables, because move
generation asks them thousands of times per position and must stay fast enough for a
computer player to search.
"""

from __future__ import annotations

import re
from functools import cache

from bot.games.core import NotationError
from bot.games.grid import shorten

FILES = 12
RANKS = 12
FILE_LETTERS = "abcdefghijkl"


def square(file: int, rank: int) -> int:
    return rank * FILES + file


def file_of(sq: int) -> int:
    return sq % FILES


def rank_of(sq: int) -> int:
    return sq // FILES


def exists(file: int, rank: int) -> bool:
    """§1.1: open sea on ranks 3–10 of every file; havens on files c–j of ranks 1, 2, 11, 12."""
    if not (0 <= file < FILES and 0 <= rank < RANKS):
        return False
    return 2 <= rank <= 9 or 2 <= file <= 9


SQUARES: tuple[int, ...] = tuple(
    square(f, r) for r in range(RANKS) for f in range(FILES) if exists(f, r)
)
ON_BOARD: frozenset[int] = frozenset(SQUARES)
MISSING: frozenset[int] = frozenset(
    square(f, r) for r in range(RANKS) for f in range(FILES) if not exists(f, r)
)
HAVENS: tuple[frozenset[int], frozenset[int]] = (
    frozenset(square(f, r) for f in range(2, 10) for r in (0, 1)),
    frozenset(square(f, r) for f in range(2, 10) for r in (10, 11)),
)
"""§1.2: White's haven c1–j2 (seat 0) and Black's haven c11–j12 (seat 1)."""

FORWARD = (1, -1)
"""Rank step towards the enemy: White (seat 0) goes up, Black (seat 1) down."""
LAST_RANK = (11, 0)
START_RANK = (1, 10)
"""Where each side's boats start (§1.3): ranks 2 and 11."""

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
FACING_NAMES = ("N", "E", "S", "W")
ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""Steps for N, E, S, W, indexed by facing."""
DIAGONAL: tuple[tuple[int, int], ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
ALL_STEPS = ORTHOGONAL + DIAGONAL
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


@cache
def step(sq: int, delta: tuple[int, int], times: int = 1) -> int | None:
    """The square ``times`` steps of ``delta`` away, or ``None`` if it does not exist.

    Cached: move generation asks the same few thousand questions over and over."""
    f, r = file_of(sq) + delta[0] * times, rank_of(sq) + delta[1] * times
    return square(f, r) if exists(f, r) else None


def _ray(sq: int, delta: tuple[int, int]) -> tuple[int, ...]:
    out: list[int] = []
    here: int | None = sq
    while True:
        here = step(here, delta) if here is not None else None
        if here is None:  # §1.1: nothing passes through a missing square
            return tuple(out)
        out.append(here)


RAYS: dict[int, tuple[tuple[int, ...], ...]] = {
    sq: tuple(_ray(sq, d) for d in ALL_STEPS) for sq in SQUARES
}
"""Per square, the squares along each of the 8 directions (N E S W NE SE SW NW order)."""
ROOK_RAYS = {sq: rays[:4] for sq, rays in RAYS.items()}
BISHOP_RAYS = {sq: rays[4:] for sq, rays in RAYS.items()}
ADJACENT: dict[int, tuple[int, ...]] = {
    sq: tuple(s for d in ALL_STEPS if (s := step(sq, d)) is not None) for sq in SQUARES
}
ORTHOGONAL_NEIGHBOURS: dict[int, tuple[int, ...]] = {
    sq: tuple(s for d in ORTHOGONAL if (s := step(sq, d)) is not None) for sq in SQUARES
}
KNIGHT: dict[int, tuple[int, ...]] = {
    sq: tuple(s for d in KNIGHT_STEPS if (s := step(sq, d)) is not None) for sq in SQUARES
}


def _carrier_reach(sq: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """§3.6: (target, path) for the carrier's steps, straight doubles and horse moves."""
    out: list[tuple[int, tuple[int, ...]]] = []
    for d in ALL_STEPS:
        one = step(sq, d)
        if one is None:
            continue
        out.append((one, ()))
        two = step(sq, d, 2)
        if two is not None:
            out.append((two, (one,)))
    for d in ORTHOGONAL:
        one, two = step(sq, d), step(sq, d, 2)
        if one is None or two is None:
            continue
        for side in ORTHOGONAL:
            if side[0] * d[0] + side[1] * d[1] != 0:
                continue  # the last step turns at a right angle
            target = step(two, side)
            if target is not None:
                out.append((target, (one, two)))
    return tuple(out)


CARRIER: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {
    sq: _carrier_reach(sq) for sq in SQUARES
}
"""Per square, every carrier move as (target, path squares): a horse move's path is the two
squares of its straight leg (§3.6, ruling 18)."""
RING: dict[int, tuple[int, ...]] = {
    sq: tuple(
        s for s in SQUARES if max(abs(file_of(s) - file_of(sq)), abs(rank_of(s) - rank_of(sq))) == 3
    )
    for sq in SQUARES
}
"""§3.7: the existing squares at Chebyshev distance exactly 3: the aircraft's outline."""


def torpedo_steps(facing: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """§3.4: the two diagonals next to the facing (N → NW and NE)."""
    df, dr = ORTHOGONAL[facing]
    if df == 0:
        return ((-1, dr), (1, dr))
    return ((df, 1), (df, -1))


def facing_of(start: int, end: int) -> int | None:
    """The orthogonal direction from ``start`` to ``end``, if they share a file or rank."""
    df, dr = file_of(end) - file_of(start), rank_of(end) - rank_of(start)
    if (df and dr) or not (df or dr):
        return None
    unit = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
    return ORTHOGONAL.index(unit)


def between(start: int, end: int) -> tuple[int, ...]:
    """Squares strictly between two squares on one line (empty if not on a line)."""
    df, dr = file_of(end) - file_of(start), rank_of(end) - rank_of(start)
    n = max(abs(df), abs(dr))
    if n < 2 or (df and dr and abs(df) != abs(dr)):
        return ()
    unit = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
    return tuple(
        square(file_of(start) + unit[0] * k, rank_of(start) + unit[1] * k) for k in range(1, n)
    )


def name(sq: int) -> str:
    return f"{FILE_LETTERS[file_of(sq)]}{rank_of(sq) + 1}"


_SQUARE = re.compile(r"([a-lA-L])(1[0-2]|[1-9])")


def parse_square(text: str) -> int:
    """Read ``e5`` (any case) into a square, refusing the 16 missing corners by name."""
    match = _SQUARE.fullmatch(text.strip())
    if match is None:
        raise NotationError(
            f"`{shorten(text)}` is not a square: write a file a–l and a rank 1–12, like `e5`."
        )
    f, r = FILE_LETTERS.index(match.group(1).lower()), int(match.group(2)) - 1
    if not exists(f, r):
        raise NotationError(
            f"`{match.group(0).lower()}` is not on the board: files a, b, k and l have no "
            "ranks 1, 2, 11 or 12."
        )
    return square(f, r)
