"""One test per clause of the Sea Battle rules, on named positions drawn as text diagrams:
the field, the fleet and its secret placement. Shooting, what each player sees and the
variants' play are in ``test_shooting``.

Each test is named after the clause it checks and cites it, so a failing test points straight
at the sentence of the rules that the engine no longer follows. Positions live in
``tests/support/seabattle_positions.py``; moves are typed in the engine's own notation.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.core import IllegalActionError, NotationError, name_of
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from tests.support.seabattle_positions import (
    ALPHA,
    CORNERS_FLEET,
    MB_FLEET,
    cell,
    classic_game,
    diagram_ships,
    fleet_faults,
    grid_lines,
    new,
    place,
    placement_texts,
    refused,
    ship_marks,
    ships_of,
    side_faults,
    texts_for,
)
from tests.support.seabattle_positions import ENGINE as E

# -- §1 fields and coordinates ----------------------------------------------------------------


def test_1_2_a1_is_top_left_and_j10_bottom_right() -> None:
    """§1.2: columns are letters from the left, rows numbers from the top."""
    state = E.act(new(), 0, "A1").state
    state = E.act(state, 0, "J10").state
    assert ships_of(state, 0) == [((0, 0),), ((9, 9),)]
    view = E.view(state, 0)
    assert view.fields[0].marks[0][0] is Mark.SHIP
    assert view.fields[0].marks[9][9] is Mark.SHIP
    lines = grid_lines(view)[:10]
    assert lines[0].split() == ["1", "#", *["."] * 9]
    assert lines[9].split() == ["10", *["."] * 9, "#"]
    assert "A B C D E F G H I J" in view.text()


def test_1_2_cells_are_case_insensitive() -> None:
    """§1.2: a cell is a letter then a number; players may type it in either case."""
    state = new()
    for typed, canonical in [
        ("a1 d1", "A1 D1"),
        ("j10", "J10"),
        ("RANDOM", "random"),
        ("Remove b2", "remove B2"),
    ]:
        assert E.parse_action(state, 0, typed) == E.parse_action(state, 0, canonical)
    lower = new()
    for text in placement_texts(ALPHA):
        lower = E.act(lower, 0, text.lower()).state
    assert ships_of(lower, 0) == ships_of(place(new(), 0, ALPHA), 0)
    assert E.act(E.act(lower, 0, "READY").state, 1, "Random").state.sides[1].ships


def test_1_2_canonical_notation_round_trips() -> None:
    """§1.2: one notation in every mode, so ``str(action)`` reads back as the same move."""
    game = classic_game()
    setup = new()
    for text in ["A1 A4", "J10", "B7", "remove B2", "clear", "random", "ready"]:
        assert str(E.parse_action(setup, 0, text)) == text
    for text in ["B5", "A1", "J10"]:
        assert str(E.parse_action(game, 0, text)) == text
    assert str(E.parse_action(setup, 0, "a4-a1")) == "A4 A1"
    assert E.parse_action(setup, 0, "a4-a1") == act.PlaceShip(cell("A4"), cell("A1"))


@pytest.mark.parametrize(
    ("phase", "text"),
    [
        ("play", "K1"),
        ("play", "A11"),
        ("play", "A0"),
        ("setup", "K1 K4"),
        ("setup", "A9 A11"),
        ("setup", "K1"),
        ("setup", "A11"),
        pytest.param("setup", "remove K1"),
    ],
)
def test_1_2_cells_off_the_board_are_refused(phase: str, text: str) -> None:
    """§1.2: on 10x10 the field runs from A1 to J10; a cell beyond it is refused as such."""
    game = classic_game()
    state = game if phase == "play" else new()
    message = refused(state, 0, text, NotationError)
    assert "off the board" in message and "J10" in message


def test_1_2_large_field_continues_the_alphabet() -> None:
    """§1.2 / §4.5: the 15x15 field runs A-O and 1-15; O15 is the bottom-right cell."""
    state = E.act(new("large"), 0, "o15").state
    assert ships_of(state, 0) == [((14, 14),)]
    assert "off the board" in refused(new("large"), 0, "P1 P3", NotationError)
    assert "off the board" in refused(new("large"), 0, "A14 A16", NotationError)
    assert "A B C D E F G H I J K L M N O" in E.view(state, 0).text()


# -- §2.1-2.3 the fleet -----------------------------------------------------------------------


def test_2_1_classic_fleet_is_ten_ships_of_twenty_cells() -> None:
    """§2.1: 1 four-deck, 2 three-deck, 3 two-deck, 4 one-deck: 10 ships, 20 cells."""
    fleet = E.presets["classic"].fleet
    assert Counter(kind.length for kind in fleet) == {4: 1, 3: 2, 2: 3, 1: 4}
    assert sum(kind.length for kind in fleet) == 20
    state = place(new(), 0, ALPHA, ready=True)
    assert state.sides[0].ready and len(state.sides[0].ships) == 10


def test_2_1_a_fifth_one_deck_ship_is_refused() -> None:
    """§2.1: only four one-deck ships; a fifth is refused with a sentence naming the rule."""
    state = E.act(place(new(), 0, ALPHA), 0, "remove A1").state  # all but the battleship
    message = refused(state, 0, "A10")
    assert "all of them are placed" in message
    assert "4 torpedo boats" in message


def test_2_4_a_shot_typed_during_setup_is_told_the_game_has_not_started() -> None:
    """A complete fleet cannot grow: a cell typed now is taken for a shot fired too early."""
    message = refused(place(new(), 0, ALPHA), 0, "A10")
    assert "has not started" in message and "`ready`" in message
    assert "all of them are placed" not in message


def test_2_1_a_ship_length_not_in_the_fleet_is_refused() -> None:
    """§2.1: there is no five-deck ship in the classic fleet."""
    message = refused(new(), 0, "A1 A5")
    assert "5 cells" in message and "No ship in this fleet" in message


def test_2_1_ready_with_an_incomplete_fleet_names_what_is_missing() -> None:
    """§2.1 / §2.4: the fleet is confirmed only when complete; the refusal lists the rest."""
    state = place(new(), 0, ALPHA, chars="#")
    state = E.act(state, 0, "remove J1").state
    state = E.act(state, 0, "remove A3").state
    message = refused(state, 0, "ready")
    assert "not complete" in message
    assert "1 cruiser (3 cells)" in message
    assert "1 torpedo boat (1 cell)" in message
    assert "battleship" not in message and "destroyer" not in message


def test_2_2_a_ship_is_a_straight_line() -> None:
    """§2.2: a ship is a straight horizontal or vertical line; A1 C3 is diagonal."""
    message = refused(new(), 0, "A1 C3")
    assert "a ship is a straight line" in message


# Spacing diagrams: ``#`` ships are placed first, then the ``@`` ship is tried.

OVERLAP = """
     A B C D E
   1 # # # # .
   2 . . . . .
"""
OVERLAP_TRY = "B1 B3"

SIDE_TOUCH = """
     A B C D E F
   1 # # # # . .
   2 . @ @ . . .
"""

CORNER_TOUCH = """
     A B C D E F
   1 # # # # . .
   2 . . . . @ @
"""

END_TOUCH = """
     A B C D E F G
   1 # # # # @ @ .
"""


def try_spacing(preset: str, diagram: str) -> SeaBattleState:
    """Place the ``#`` ships of ``diagram`` and return the state before the ``@`` ship."""
    return place(new(preset), 0, diagram, chars="#")


def test_2_3_ships_may_not_overlap() -> None:
    """§2.3: ships do not overlap."""
    state = try_spacing("classic", OVERLAP)
    message = refused(state, 0, OVERLAP_TRY)
    assert "B1" in message and "ships may not overlap" in message


@pytest.mark.parametrize("diagram", [SIDE_TOUCH, CORNER_TOUCH, END_TOUCH])
def test_2_3_ships_may_not_touch_by_side_or_corner(diagram: str) -> None:
    """§2.3 / §1.3: no cell of one ship touches a cell of another, not even at a corner."""
    state = try_spacing("classic", diagram)
    (tried,) = placement_texts(diagram, "@")
    message = refused(state, 0, tried)
    assert "A1-D1" in message and "not even at a corner" in message


def test_4_1_corner_touching_allowed_side_touching_refused() -> None:
    """§4.1: with corner touching, ships may meet at corners but never along a side."""
    (corner,) = placement_texts(CORNER_TOUCH, "@")
    state = E.act(try_spacing("corners", CORNER_TOUCH), 0, corner).state
    assert len(state.sides[0].ships) == 2
    for diagram in (SIDE_TOUCH, END_TOUCH):
        (tried,) = placement_texts(diagram, "@")
        assert "only at corners" in refused(try_spacing("corners", diagram), 0, tried)
    full = place(new("corners"), 0, CORNERS_FLEET, ready=True)
    assert full.sides[0].ready
    assert fleet_faults(E.presets["corners"], list(diagram_ships(CORNERS_FLEET))) == []


def test_4_1_corners_fleet_is_refused_by_the_classic_rules() -> None:
    """§2.3 against §4.1: the corner-touching fleet breaks the classic spacing rule."""
    with pytest.raises(IllegalActionError, match=r"not even at a corner"):
        place(new("classic"), 0, CORNERS_FLEET)


def test_4_2_milton_bradley_ships_may_touch_but_not_overlap() -> None:
    """§4.2: touching is allowed (sides and corners); only overlap and the edge are refused."""
    for diagram in (SIDE_TOUCH, CORNER_TOUCH, END_TOUCH):
        (tried,) = placement_texts(diagram, "@")
        state = place(new("milton-bradley"), 0, diagram, chars="#")
        assert len(E.act(state, 0, tried).state.sides[0].ships) == 2
    state = place(new("milton-bradley"), 0, MB_FLEET, ready=True)
    assert state.sides[0].ready
    assert "overlap" in refused(place(new("milton-bradley"), 0, OVERLAP, chars="#"), 0, "B1 B3")


def test_4_2_milton_bradley_fleet_is_five_named_ships() -> None:
    """§4.2: carrier 5, battleship 4, cruiser 3, submarine 3, destroyer 2 (17 cells)."""
    fleet = E.presets["milton-bradley"].fleet
    assert [(kind.name, kind.length) for kind in fleet] == [
        ("carrier", 5),
        ("battleship", 4),
        ("cruiser", 3),
        ("submarine", 3),
        ("destroyer", 2),
    ]


# -- §2.4 placement ---------------------------------------------------------------------------


def test_2_4_placement_is_secret() -> None:
    """§2.4 / §3: each player places secretly: the opponent and the channel see no ship."""
    state = new()
    for text in placement_texts(ALPHA):
        transition = E.act(state, 0, text)
        assert {event.audience for event in transition.events} == {0}
        state = transition.state
    for viewer in (1, None):
        view = E.view(state, viewer)
        assert view.fields[0].ships == ()
        assert ship_marks(view, 0) == set()
    assert E.view(state, None).to_place == ()
    assert E.view(state, 1).to_place == E.presets["classic"].fleet
    assert len(E.view(state, 0).fields[0].ships) == 10
    ready = E.act(state, 0, "ready")
    assert texts_for(ready.events, None) == [f"{name_of(0)} has set their fleet."]
    assert texts_for(ready.events, 1) == []


def test_2_4_random_deals_a_legal_full_fleet() -> None:
    """§2.4: the bot offers random valid placement, for every preset."""
    for preset, rules in E.presets.items():
        for seed in range(5):
            state = E.act(new(preset, seed), 0, "random").state
            assert side_faults(rules, state.sides[0].ships) == [], (preset, seed)
            assert E.view(state, 0).to_place == ()


def test_2_4_random_again_deals_another_fleet_deterministically() -> None:
    """§2.4: a second ``random`` gives a different fleet; both follow from the game's seed."""
    first = E.act(new(seed=7), 0, "random").state
    second = E.act(first, 0, "random").state
    assert ships_of(first, 0) != ships_of(second, 0)
    replay = E.act(E.act(new(seed=7), 0, "random").state, 0, "random").state
    assert ships_of(replay, 0) == ships_of(second, 0)
    other_seed = E.act(new(seed=8), 0, "random").state
    assert ships_of(other_seed, 0) != ships_of(first, 0)


def test_2_4_remove_takes_back_the_ship_on_a_cell() -> None:
    """§2.4: before confirming, a ship may be taken back by naming any of its cells."""
    state = place(new(), 0, ALPHA)
    transition = E.act(state, 0, "remove C1")
    assert texts_for(transition.events, 0)[0].startswith("Removed your battleship from A1-D1.")
    removed = transition.state
    assert ((0, 0), (1, 0), (2, 0), (3, 0)) not in ships_of(removed, 0)
    assert [kind.length for kind in E.view(removed, 0).to_place] == [4]
    assert "None of your ships lies on A2" in refused(state, 0, "remove A2")
    back = E.act(removed, 0, "A1 D1").state
    assert ships_of(back, 0) == ships_of(state, 0)


def test_2_4_clear_empties_the_board() -> None:
    """§2.4: ``clear`` takes back every ship."""
    state = E.act(place(new(), 0, ALPHA), 0, "clear").state
    assert state.sides[0].ships == ()
    assert E.view(state, 0).to_place == E.presets["classic"].fleet


@pytest.mark.parametrize("text", ["A10", "remove A1", "random", "clear", "ready", "A9 A10"])
def test_2_4_nothing_moves_after_ready(text: str) -> None:
    """§2.4: once a fleet is confirmed nothing moves, even while the opponent still places."""
    state = place(new(), 0, ALPHA, ready=True)
    message = refused(state, 0, text)
    assert "confirmed" in message
    assert 0 not in E.to_move(state) and list(E.legal_actions(state, 0)) == []
