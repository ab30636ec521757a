"""The Marine Game board (Marine Game rules §2), checked against its printed tables."""

from __future__ import annotations

import pytest

from bot.games.core import NotationError
from bot.games.marine import board

# §2.4, as printed: hex, corners NW NE E SE SW W, neighbour hexes.
HEX_TABLE = """
A 1 2 5 9 8 4 BCD
B 3 4 8 12 11 7 ADE
C 5 6 10 14 13 9 ADF
D 8 9 13 18 17 12 ABCEFH
E 11 12 17 23 22 16 BDGHJ
F 13 14 19 25 24 18 CDHIK
G 15 16 22 28 27 21 EJL
H 17 18 24 30 29 23 DEFJKM
I 19 20 26 32 31 25 FKN
J 22 23 29 35 34 28 EGHLMO
K 24 25 31 37 36 30 FHIMNP
L 27 28 34 40 39 33 GJO
M 29 30 36 42 41 35 HJKOPQ
N 31 32 38 44 43 37 IKP
O 34 35 41 46 45 40 JLMQR
P 36 37 43 48 47 42 KMNQS
Q 41 42 47 51 50 46 MOPRST
R 45 46 50 54 53 49 OQT
S 47 48 52 56 55 51 PQT
T 50 51 55 58 57 54 QRS
"""

# §2.6, as printed.
SIDES = (
    "1-2 1-4 2-5 3-4 3-7 4-8 5-6 5-9 6-10 7-11 8-9 8-12 9-13 10-14 11-12 11-16 12-17 13-14 "
    "13-18 14-19 15-16 15-21 16-22 17-18 17-23 18-24 19-20 19-25 20-26 21-27 22-23 22-28 "
    "23-29 24-25 24-30 25-31 26-32 27-28 27-33 28-34 29-30 29-35 30-36 31-32 31-37 32-38 "
    "33-39 34-35 34-40 35-41 36-37 36-42 37-43 38-44 39-40 40-45 41-42 41-46 42-47 43-44 "
    "43-48 45-46 45-49 46-50 47-48 47-51 48-52 49-53 50-51 50-54 51-55 52-56 53-54 54-57 "
    "55-56 55-58 57-58"
)

# §2.5, a sample of rows as printed: corner, (u, v), adjacent corners, on hexes.
CORNER_ROWS = [
    (1, (-1, -6), {2, 4}, "A"),
    (8, (-1, -4), {4, 9, 12}, "ABD"),
    (21, (-8, -1), {15, 27}, "G"),
    (29, (-1, 0), {23, 30, 35}, "HJM"),
    (46, (-2, 3), {41, 45, 50}, "OQR"),
    (58, (1, 6), {55, 57}, "T"),
]


def test_2_1_twenty_hexes_fifty_eight_corners_seventy_seven_sides() -> None:
    assert len(board.HEXES) == 20 and "".join(board.HEXES) == "ABCDEFGHIJKLMNOPQRST"
    assert tuple(range(1, 59)) == board.CORNERS
    assert len(board.SIDES) == 77


def test_2_1_columns_of_two_five_six_five_two_hexes() -> None:
    columns = [sum(1 for c, _ in board.HEX_CENTRES.values() if c == col) for col in range(-2, 3)]
    assert columns == [2, 5, 6, 5, 2]


def test_2_4_each_hex_has_the_printed_corners_and_neighbours() -> None:
    for line in HEX_TABLE.strip().splitlines():
        letter, *corners, neighbours = line.split()
        assert board.HEX_CORNERS[letter] == tuple(int(c) for c in corners), letter
        assert board.HEX_NEIGHBOURS[letter] == frozenset(neighbours), letter


def test_2_6_the_sides_are_exactly_the_printed_list() -> None:
    printed = {frozenset(int(c) for c in side.split("-")) for side in SIDES.split()}
    assert len(printed) == 77 and printed == board.SIDES


@pytest.mark.parametrize(("corner", "uv", "adjacent", "hexes"), CORNER_ROWS)
def test_2_5_corner_positions_adjacency_and_hexes(
    corner: int, uv: tuple[int, int], adjacent: set[int], hexes: str
) -> None:
    assert board.position_of(corner) == uv
    assert board.CORNER_NEIGHBOURS[corner] == adjacent
    assert board.CORNER_HEXES[corner] == frozenset(hexes)


def test_2_5_every_corner_has_two_or_three_sides_and_one_to_three_hexes() -> None:
    assert {len(board.CORNER_NEIGHBOURS[c]) for c in board.CORNERS} == {2, 3}
    assert {len(board.CORNER_HEXES[c]) for c in board.CORNERS} == {1, 2, 3}
    assert sum(len(board.CORNER_NEIGHBOURS[c]) for c in board.CORNERS) == 2 * 77
    assert sum(len(board.CORNER_HEXES[c]) for c in board.CORNERS) == 20 * 6


def test_2_3_corners_are_numbered_in_reading_order() -> None:
    positions = [board.position_of(c) for c in board.CORNERS]
    assert positions == sorted(positions, key=lambda uv: (uv[1], uv[0]))


def test_2_3_a_half_turn_maps_hex_n_to_21_minus_n_and_corner_k_to_59_minus_k() -> None:
    for n, letter in enumerate(board.HEXES, start=1):
        col, row = board.HEX_CENTRES[letter]
        assert board.HEX_CENTRES[board.HEXES[20 - n]] == (-col, -row)
    for k in board.CORNERS:
        u, v = board.position_of(k)
        assert board.position_of(59 - k) == (-u, -v)
        assert board.CORNER_NEIGHBOURS[59 - k] == {59 - c for c in board.CORNER_NEIGHBOURS[k]}


def test_5_2_the_corner_graph_has_no_three_or_four_cycles() -> None:
    """So a two-side move has exactly one path (§5.2)."""
    for start in board.CORNERS:
        for end in board.CORNERS:
            if start == end:
                continue
            middles = [
                m for m in board.CORNER_NEIGHBOURS[start] if end in board.CORNER_NEIGHBOURS[m]
            ]
            assert len(middles) <= 1
            assert not (middles and end in board.CORNER_NEIGHBOURS[start])


def test_2_7_harbours() -> None:
    assert board.U_BOAT_HARBOURS == ("T", "A")
    assert (frozenset({50, 51}), frozenset({8, 9})) == board.BATTLESHIP_HARBOURS
    # "the top two corners" of each end hex: the side of it that faces the board.
    assert board.HEX_CORNERS["T"][:2] == (50, 51) and board.HEX_CORNERS["A"][3:5] == (9, 8)
    assert board.HEX_NEIGHBOURS["A"] == {"B", "C", "D"}
    assert board.HEX_NEIGHBOURS["T"] == {"Q", "R", "S"}


def test_points_are_read_in_either_case_and_refused_off_the_board() -> None:
    assert board.parse_point(" r ") == "R" and board.parse_point("46") == 46
    for text in ("U", "0", "59", "AA", "", "4 6"):
        with pytest.raises(NotationError):
            board.parse_point(text)
