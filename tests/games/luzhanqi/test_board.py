"""The board data of Luzhanqi rules §2, checked against the rules' own counts."""

from __future__ import annotations

import pytest

from bot.games.core import NotationError
from bot.games.luzhanqi.board import (
    CAMPS,
    HQS,
    NEIGHBOURS,
    RAIL_EDGES,
    RAIL_LINES,
    RAIL_STATIONS,
    ROAD_EDGES,
    STATIONS,
    Colour,
    file_of,
    half,
    name,
    parse_station,
    rank_of,
    station,
)


def edge(text: str) -> frozenset[int]:
    left, right = text.split("-")
    return frozenset((parse_station(left), parse_station(right)))


def mirror(where: int) -> int:
    return station(file_of(where), 13 - rank_of(where))


def test_2_1_sixty_stations_named_a1_to_e12() -> None:
    assert len(STATIONS) == 60
    assert [name(s) for s in STATIONS[:6]] == ["a1", "b1", "c1", "d1", "e1", "a2"]
    assert name(STATIONS[-1]) == "e12"
    assert all(parse_station(name(s)) == s for s in STATIONS)
    for bad in ("f1", "a0", "a13", "", "c"):
        with pytest.raises(NotationError):
            parse_station(bad)


def test_2_2_station_types_and_counts() -> None:
    assert {name(s) for s in HQS} == {"b1", "d1", "b12", "d12"}
    assert len(CAMPS) == 10
    for colour in Colour:
        stations = half(colour)
        assert len(stations) == 25 and len(set(stations)) == 25
        assert sum(1 for s in stations if s in HQS) == 2
        assert not CAMPS & set(stations)


def test_2_4_edge_counts() -> None:
    assert len(RAIL_EDGES) == 35 and len(set(RAIL_EDGES)) == 35
    assert len(ROAD_EDGES) == 98 and len(set(ROAD_EDGES)) == 98
    assert not set(RAIL_EDGES) & set(ROAD_EDGES)


def test_2_4_the_board_is_mirror_symmetric() -> None:
    edges = set(RAIL_EDGES) | set(ROAD_EDGES)
    assert {frozenset(mirror(s) for s in e) for e in edges} == edges
    assert {mirror(s) for s in CAMPS} == CAMPS and {mirror(s) for s in HQS} == HQS


def test_2_4_every_edge_joins_neighbouring_stations_and_diagonals_touch_a_camp() -> None:
    for pair in (*RAIL_EDGES, *ROAD_EDGES):
        left, right = sorted(pair)
        files, ranks = abs(file_of(left) - file_of(right)), abs(rank_of(left) - rank_of(right))
        assert (files, ranks) in ((0, 1), (1, 0), (1, 1))
        if files and ranks:
            assert pair & CAMPS, f"diagonal {name(left)}-{name(right)} touches no camp"


def test_2_4_every_camp_has_eight_neighbours() -> None:
    assert all(len(NEIGHBOURS[camp]) == 8 for camp in CAMPS)


def test_2_5_railroad_lines_and_stations() -> None:
    # The rules say "the 30 stations"; its own lines hold 4 ranks of 5 plus 6 more on each
    # of files a and e: 32 (docs/rules/luzhanqi.md, "Rulings").
    assert len(RAIL_STATIONS) == 32
    assert not RAIL_STATIONS & (CAMPS | HQS)
    assert all(rank_of(s) not in (1, 12) for s in RAIL_STATIONS)
    line_edges = {
        frozenset((line[i], line[i + 1])) for line in RAIL_LINES for i in range(len(line) - 1)
    }
    assert line_edges == set(RAIL_EDGES)


def test_2_6_three_crossings_and_two_mountains() -> None:
    crossing = {e for e in (*RAIL_EDGES, *ROAD_EDGES) if {rank_of(s) for s in e} == {6, 7}}
    assert crossing == {edge("a6-a7"), edge("c6-c7"), edge("e6-e7")}
    assert crossing <= set(RAIL_EDGES)
    for mountain in ("b6-b7", "d6-d7", "b6-c7", "a6-b7"):
        assert edge(mountain) not in set(RAIL_EDGES) | set(ROAD_EDGES)


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("a1", "a2 b1"),
        ("b3", "a2 b2 c2 a3 c3 a4 b4 c4"),
        ("c6", "b6 d6 c5 c7 b5 d5"),
        ("a12", "a11 b12"),
        ("c1", "b1 d1 c2"),
    ],
)
def test_2_3_neighbours_match_the_diagram(where: str, expected: str) -> None:
    assert {name(s) for s in NEIGHBOURS[parse_station(where)]} == set(expected.split())
