"""The Luzhanqi board (rules 2.1-2.6) as data: 60 stations and the 133 edges of 2.4.

A station is an int ``0..59``: ``(rank - 1) * 5 + file``, so ``a1`` is 0 and ``e12`` is 59.
The edge list is written out exactly as the rules print it, and everything else (railroad
stations, adjacency, the sides' halves) is derived from it, so the data has one source.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import Enum

from bot.games.core import NotationError
from bot.games.grid import shorten

Station = int
FILES = "abcde"
RANKS = 12
STATIONS: tuple[Station, ...] = tuple(range(len(FILES) * RANKS))


class Colour(Enum):
    RED = "red"
    BLUE = "blue"

    @property
    def opponent(self) -> Colour:
        return Colour.BLUE if self is Colour.RED else Colour.RED


def station(file: int, rank: int) -> Station:
    return (rank - 1) * len(FILES) + file


def file_of(where: Station) -> int:
    return where % len(FILES)


def rank_of(where: Station) -> int:
    return where // len(FILES) + 1


def name(where: Station) -> str:
    return f"{FILES[file_of(where)]}{rank_of(where)}"


_STATION = re.compile(r"\s*([a-eA-E])\s*(\d{1,2})\s*")


def parse_station(text: str) -> Station:
    """Read ``c3`` (any case) into a station; refuses anything off the 5x12 board."""
    match = _STATION.fullmatch(text)
    if match is None or not 1 <= int(match.group(2)) <= RANKS:
        raise NotationError(
            f"`{shorten(text)}` is not a station: write a file a-e and a rank 1-12, like `c3`."
        )
    return station(FILES.index(match.group(1).lower()), int(match.group(2)))


def _stations(text: str) -> frozenset[Station]:
    return frozenset(parse_station(word) for word in text.split())


HQS = _stations("b1 d1 b12 d12")
CAMPS = _stations("b3 d3 c4 b5 d5 b8 d8 c9 b10 d10")

RAIL_TEXT = """
a2-b2 b2-c2 c2-d2 d2-e2 a6-b6 b6-c6 c6-d6 d6-e6 a7-b7 b7-c7 c7-d7 d7-e7
a11-b11 b11-c11 c11-d11 d11-e11
a2-a3 a3-a4 a4-a5 a5-a6 a6-a7 a7-a8 a8-a9 a9-a10 a10-a11 e2-e3 e3-e4 e4-e5
e5-e6 e6-e7 e7-e8 e8-e9 e9-e10 e10-e11 c6-c7
"""
"""Rule 2.4, railroad edges: 16 horizontal and 19 vertical."""

ROAD_TEXT = """
a1-b1 b1-c1 c1-d1 d1-e1 a3-b3 b3-c3 c3-d3 d3-e3 a4-b4 b4-c4 c4-d4 d4-e4 a5-b5 b5-c5
c5-d5 d5-e5
a1-a2 b1-b2 c1-c2 d1-d2 e1-e2 b2-b3 c2-c3 d2-d3 b3-b4 c3-c4 d3-d4 b4-b5 c4-c5 d4-d5
b5-b6 c5-c6 d5-d6
a2-b3 c2-b3 c2-d3 e2-d3 b3-a4 b3-c4 d3-c4 d3-e4 a4-b5 c4-b5 c4-d5 e4-d5 b5-a6 b5-c6
d5-c6 d5-e6
a8-b8 b8-c8 c8-d8 d8-e8 a9-b9 b9-c9 c9-d9 d9-e9 a10-b10 b10-c10 c10-d10 d10-e10
a12-b12 b12-c12 c12-d12 d12-e12
b7-b8 c7-c8 d7-d8 b8-b9 c8-c9 d8-d9 b9-b10 c9-c10 d9-d10 b10-b11 c10-c11 d10-d11
a11-a12 b11-b12 c11-c12 d11-d12 e11-e12
a7-b8 c7-b8 c7-d8 e7-d8 b8-a9 b8-c9 d8-c9 d8-e9 a9-b10 c9-b10 c9-d10 e9-d10 b10-a11
b10-c11 d10-c11 d10-e11
"""
"""Rule 2.4, road edges: 49 on each half (horizontal, vertical, diagonal to and from camps)."""

Edge = frozenset[Station]


def _edges(text: str) -> tuple[Edge, ...]:
    pairs = []
    for word in text.split():
        left, right = word.split("-")
        pairs.append(frozenset((parse_station(left), parse_station(right))))
    return tuple(pairs)


RAIL_EDGES: tuple[Edge, ...] = _edges(RAIL_TEXT)
ROAD_EDGES: tuple[Edge, ...] = _edges(ROAD_TEXT)

RAIL_LINES: tuple[tuple[Station, ...], ...] = tuple(
    tuple(parse_station(word) for word in line.split())
    for line in (
        "a2 b2 c2 d2 e2",
        "a6 b6 c6 d6 e6",
        "a7 b7 c7 d7 e7",
        "a11 b11 c11 d11 e11",
        "a2 a3 a4 a5 a6 a7 a8 a9 a10 a11",
        "e2 e3 e4 e5 e6 e7 e8 e9 e10 e11",
        "c6 c7",
    )
)
"""Rule 2.5, L1-L7: a straight rail run stays on one of these lines."""


def _adjacency(edges: tuple[Edge, ...]) -> tuple[frozenset[Station], ...]:
    linked: list[set[Station]] = [set() for _ in STATIONS]
    for edge in edges:
        left, right = sorted(edge)
        linked[left].add(right)
        linked[right].add(left)
    return tuple(frozenset(s) for s in linked)


NEIGHBOURS: tuple[frozenset[Station], ...] = _adjacency(RAIL_EDGES + ROAD_EDGES)
"""Stations one step away along any edge (rule 5.3)."""
RAIL_NEIGHBOURS: tuple[frozenset[Station], ...] = _adjacency(RAIL_EDGES)
RAIL_STATIONS: frozenset[Station] = frozenset(s for line in RAIL_LINES for s in line)


def owner_of(where: Station) -> Colour:
    """Whose half a station lies on: Red ranks 1-6, Blue 7-12 (rule 2.1)."""
    return Colour.RED if rank_of(where) <= RANKS // 2 else Colour.BLUE


def relative_rank(where: Station, colour: Colour) -> int:
    """The rank as ``colour`` counts it: 1 is their back row, 6 their front rank."""
    rank = rank_of(where)
    return rank if colour is Colour.RED else RANKS + 1 - rank


def half(colour: Colour) -> tuple[Station, ...]:
    """``colour``'s 25 deployment stations (posts and HQs) from their back row forward.

    The order is the same for both colours when ranks are counted from one's own back
    row, so a deployment written for Red reads the same for Blue.
    """
    return tuple(
        s
        for rank in range(1, RANKS // 2 + 1)
        for f in range(len(FILES))
        if (s := station(f, rank if colour is Colour.RED else RANKS + 1 - rank)) not in CAMPS
    )


def half_ranks(colour: Colour) -> str:
    """Where ``colour`` deploys, in words: "ranks 1-6" for Red, "ranks 7-12" for Blue."""
    return "ranks 1-6" if colour is Colour.RED else f"ranks 7-{RANKS}"


def swap_example(colour: Colour) -> str:
    """A swap ``colour`` can always make: the two corners of their back row.

    Neither corner is a camp or an HQ, and any piece but the flag (which stays in an HQ)
    may stand in the back row, so the example is legal in every deployment.
    """
    back = 1 if colour is Colour.RED else RANKS
    return f"swap a{back} e{back}"


def lines_through(where: Station) -> Iterator[tuple[Station, ...]]:
    return (line for line in RAIL_LINES if where in line)
