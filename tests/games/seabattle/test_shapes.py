"""Rule tests for shaped ships (Sea Battle rules §4.4), on named positions typed in the
engine's own notation: a shaped ship is placed by naming all its cells."""

from __future__ import annotations

import random

import pytest

from bot.games.core import IllegalActionError, NotationError, Phase
from bot.games.seabattle import actions as act
from bot.games.seabattle.fleet import shape_name
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from tests.support.seabattle_positions import (
    ENGINE,
    MODES,
    fleet_faults,
    seed_where_first,
    side_faults,
)

E = ENGINE

SHAPED_FLEET = (
    "A1 B1 A2 B2",  # the battleship as a square
    "D1 D2 E2",  # a cruiser as an L
    "G1 G2 H2",  # the other cruiser as an L
    "J1 J2",
    "A4 B4",
    "D4 E4",
    "G4",
    "J4",
    "A6",
    "C6",
)
"""A classic fleet with the shapes of §4.4:

     A B C D E F G H I J
   1 # # . # . . # . . #
   2 # # . # # . # # . #
   3 . . . . . . . . . .
   4 # # . # # . # . . #
   5 . . . . . . . . . .
   6 # . # . . . . . . .
"""


def placing(mode: str = "shapes", seed: int = 0) -> SeaBattleState:
    return E.new_game(MODES[mode], seed)


def place_all(state: SeaBattleState, seat: int, moves: tuple[str, ...]) -> SeaBattleState:
    for move in moves:
        state = E.act(state, seat, move).state
    return state


def refusal(state: SeaBattleState, text: str) -> str:
    before = E.to_json(state)
    with pytest.raises(IllegalActionError) as caught:
        E.act(state, 0, text)
    assert E.to_json(state) == before
    return str(caught.value)


@pytest.mark.parametrize(
    ("cells", "shape"),
    [
        ("A1 A2 B2", "L"),
        ("B1 A2 B2", "L"),
        ("A1 A2 A3 B3", "L"),
        ("B1 B2 B3 A3", "L"),  # the mirror image
        ("A1 B1 C1 A2", "L"),
        ("A1 B1 A2 B2", "square"),
        ("A1 B1 B2 C2", "zigzag"),
        ("B1 C1 A2 B2", "zigzag"),
        ("A1 A2 B2 B3", "zigzag"),
    ],
)
def test_4_4_l_square_and_zigzag_ships_in_any_rotation_or_reflection(
    cells: str, shape: str
) -> None:
    """§4.4: a three-decker may be an L; the four-decker an L, a square or a zigzag."""
    state = placing()
    placed = E.act(state, 0, cells)
    ship = placed.state.sides[0].ships[0]
    assert shape_name(ship.cells) == shape
    assert placed.events[0].text.startswith(
        f"Placed your {E.presets['classic'].fleet[ship.kind].name}"
    )


@pytest.mark.parametrize("cells", ["A1 B1 C1 B2", "B1 A2 B2 B3"])
def test_4_4_a_t_shaped_ship_is_refused(cells: str) -> None:
    assert "is a T." in refusal(placing(), cells)


def test_4_4_cells_not_joined_by_sides_are_refused() -> None:
    assert "not joined by sides." in refusal(placing(), "A1 B2 C3")
    assert "twice" in refusal(placing(), "A1 A1 A2")


def test_4_4_only_three_and_four_deckers_may_bend() -> None:
    """§4.4 names the three- and four-deck ships: the 15x15 carrier stays straight."""
    state = E.new_game(E.configure("large", "shapes"), 0)
    assert "must be straight" in refusal(state, "A1 A2 A3 A4 B4")
    assert E.act(state, 0, "A1 A2 A3 B3").state.sides[0].ships  # a four-decker may


def test_4_4_without_the_option_ships_are_straight_lines() -> None:
    state = placing("classic")
    with pytest.raises(NotationError):
        E.act(state, 0, "A1 A2 B2")
    laid_out = act.PlaceFleet((act.PlaceShape(((0, 0), (0, 1), (1, 1))),))
    with pytest.raises(IllegalActionError, match=r"a ship is a straight line"):
        E.apply(state, 0, laid_out)


def test_4_4_spacing_applies_between_shaped_ships() -> None:
    """§2.3 / §4.1 between different ships, whatever their shapes."""
    state = E.act(placing(), 0, "A1 A2 B2").state
    assert "may not touch" in refusal(state, "C3 D3 D4")  # corner to corner with B2
    corners = E.act(placing("shapes-corners"), 0, "A1 A2 B2").state
    assert E.act(corners, 0, "C3 D3 D4").state.sides[0].ships[1].cells == ((2, 2), (3, 2), (3, 3))
    assert "only at corners" in refusal(corners, "C2 C3 D3")


def test_4_4_a_whole_shaped_fleet_is_legal_saves_and_loads() -> None:
    state = place_all(placing(), 0, SHAPED_FLEET)
    ships = [ship.cells for ship in state.sides[0].ships]
    assert fleet_faults(MODES["shapes"], ships) == []
    saved = E.setup_text(E.view(state, 0))
    assert saved is not None and "A1 B1 A2 B2" in saved and "D1 D2 E2" in saved
    loaded = E.act(placing(seed=1), 0, saved).state
    assert loaded.sides[0].ships == state.sides[0].ships
    assert E.parse_action(state, 0, saved) == E.parse_action(
        state, 0, str(E.parse_action(state, 0, saved))
    )


def test_4_4_a_sunk_l_shows_its_surroundings_as_known_empty() -> None:
    """§2.9 applies to shaped ships: every cell touching the sunk L is known empty."""
    seed = seed_where_first(1, "shapes")
    state = E.new_game(MODES["shapes"], seed)
    state = place_all(state, 0, SHAPED_FLEET)
    state = E.act(state, 0, "ready").state
    state = E.act(E.act(state, 1, "random").state, 1, "ready").state
    assert state.phase is Phase.PLAY and state.turn == 1
    for cell in ("D1", "D2", "E2"):
        state = E.act(state, 1, cell).state
    field = E.view(state, 1).fields[0]
    assert field.mark((3, 0)) is Mark.SUNK
    assert {field.mark(c) for c in ((2, 0), (4, 0), (5, 2), (2, 2), (4, 2))} == {Mark.CLEAR}
    assert [outline.cells for outline in field.ships] == [((3, 0), (3, 1), (4, 1))]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_random_fleets_are_legal_in_every_mode(mode: str) -> None:
    """§2.4: ``random`` deals a legal fleet in every mode, judged by an independent check."""
    shaped = 0
    for seed in range(12):
        state = E.act(E.new_game(MODES[mode], seed), 0, "random").state
        ships = [ship.cells for ship in state.sides[0].ships]
        assert side_faults(MODES[mode], state.sides[0].ships) == [], (mode, seed)
        shaped += sum(shape_name(cells) not in ("straight",) for cells in ships)
    assert (shaped > 0) == MODES[mode].free_form  # shaped modes really deal shaped ships


def test_4_4_legal_setup_moves_offer_every_shape_and_read_back() -> None:
    state = place_all(placing(), 0, SHAPED_FLEET[1:])
    moves = [a for a in E.legal_actions(state, 0) if isinstance(a, act.PlaceShape)]
    shapes = {shape_name(move.cells) for move in moves}
    assert shapes == {"L", "square", "zigzag"}
    rng = random.Random(3)
    for move in rng.sample(moves, 10):
        assert E.parse_action(state, 0, str(move)) == move
        assert E.apply(state, 0, move).state.sides[0].ships
