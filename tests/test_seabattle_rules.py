"""One test per clause of rules/sea-battle.md, on named positions drawn as text diagrams.

Each test is named after the clause it checks and cites it, so a failing test points straight
at the sentence of the rules that the engine no longer follows. Positions live in
``tests/seabattle_positions.py``; moves are typed in the engine's own notation.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.core import (
    EndReason,
    GameError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Outcome,
    Phase,
    name_of,
)
from bot.games.grid import cell_name, parse_cell
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark, SeaBattleView
from tests.seabattle_positions import (
    ALPHA,
    BRAVO,
    CORNERS_FLEET,
    ENGINE,
    LARGE_FLEET,
    MB_FLEET,
    diagram_cells,
    diagram_ships,
    first_shooter,
    fleet_faults,
    place,
    placement_texts,
    seed_where_first,
    shoot,
    side_faults,
    start_game,
    texts_for,
)

E = ENGINE


def new(preset: str = "classic", seed: int = 0) -> SeaBattleState:
    return E.new_game(E.presets[preset], seed)


def cell(name: str, size: int = 10) -> tuple[int, int]:
    return parse_cell(name, size, size)


def ships_of(state: SeaBattleState, seat: int) -> list[tuple[tuple[int, int], ...]]:
    return sorted(ship.cells for ship in state.sides[seat].ships)


def refused(
    state: SeaBattleState, seat: int, text: str, error: type[GameError] = IllegalActionError
) -> str:
    """Type a move that must be refused, check it changes nothing, and return the sentence."""
    before = E.to_json(state)
    with pytest.raises(error) as caught:
        E.act(state, seat, text)
    assert E.to_json(state) == before
    return str(caught.value)


def grid_lines(view: SeaBattleView) -> list[str]:
    """The board rows of the text twin, without titles and legend."""
    return [line for line in view.text().splitlines() if line[:3].strip().isdigit()]


def ship_marks(view: SeaBattleView, owner: int) -> set[tuple[int, int]]:
    field = view.fields[owner]
    return {
        (column, row)
        for row in range(view.size)
        for column in range(view.size)
        if field.mark((column, row)) is Mark.SHIP
    }


# The game used by most play tests: seat 0 has ALPHA, seat 1 has BRAVO, seat 0 shoots first.


@pytest.fixture(scope="module")
def game() -> SeaBattleState:
    return start_game("classic", ALPHA, BRAVO, first=0)


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


def test_1_2_canonical_notation_round_trips(game: SeaBattleState) -> None:
    """§1.2: one notation in every mode, so ``str(action)`` reads back as the same move."""
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
def test_1_2_cells_off_the_board_are_refused(phase: str, text: str, game: SeaBattleState) -> None:
    """§1.2: on 10x10 the field runs from A1 to J10; a cell beyond it is refused as such."""
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
    assert "rule 2.1" in message
    assert "4 torpedo boats" in message


def test_2_4_a_shot_typed_during_setup_is_told_the_game_has_not_started() -> None:
    """A complete fleet cannot grow: a cell typed now is taken for a shot fired too early."""
    message = refused(place(new(), 0, ALPHA), 0, "A10")
    assert "has not started" in message and "`ready`" in message
    assert "rule 2.1" not in message


def test_2_1_a_ship_length_not_in_the_fleet_is_refused() -> None:
    """§2.1: there is no five-deck ship in the classic fleet."""
    message = refused(new(), 0, "A1 A5")
    assert "5 cells" in message and "rule 2.1" in message


def test_2_1_ready_with_an_incomplete_fleet_names_what_is_missing() -> None:
    """§2.1 / §2.4: the fleet is confirmed only when complete; the refusal lists the rest."""
    state = place(new(), 0, ALPHA, chars="#")
    state = E.act(state, 0, "remove J1").state
    state = E.act(state, 0, "remove A3").state
    message = refused(state, 0, "ready")
    assert "rule 2.1" in message
    assert "1 cruiser (3 cells)" in message
    assert "1 torpedo boat (1 cell)" in message
    assert "battleship" not in message and "destroyer" not in message


def test_2_2_a_ship_is_a_straight_line() -> None:
    """§2.2: a ship is a straight horizontal or vertical line; A1 C3 is diagonal."""
    message = refused(new(), 0, "A1 C3")
    assert "rule 2.2" in message


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
    assert "B1" in message and "overlap" in message and "rule 2.3" in message


@pytest.mark.parametrize("diagram", [SIDE_TOUCH, CORNER_TOUCH, END_TOUCH])
def test_2_3_ships_may_not_touch_by_side_or_corner(diagram: str) -> None:
    """§2.3 / §1.3: no cell of one ship touches a cell of another, not even at a corner."""
    state = try_spacing("classic", diagram)
    (tried,) = placement_texts(diagram, "@")
    message = refused(state, 0, tried)
    assert "A1-D1" in message and "rule 2.3" in message


def test_4_1_corner_touching_allowed_side_touching_refused() -> None:
    """§4.1: with corner touching, ships may meet at corners but never along a side."""
    (corner,) = placement_texts(CORNER_TOUCH, "@")
    state = E.act(try_spacing("corners", CORNER_TOUCH), 0, corner).state
    assert len(state.sides[0].ships) == 2
    for diagram in (SIDE_TOUCH, END_TOUCH):
        (tried,) = placement_texts(diagram, "@")
        assert "rule 4.1" in refused(try_spacing("corners", diagram), 0, tried)
    full = place(new("corners"), 0, CORNERS_FLEET, ready=True)
    assert full.sides[0].ready
    assert fleet_faults(E.presets["corners"], list(diagram_ships(CORNERS_FLEET))) == []


def test_4_1_corners_fleet_is_refused_by_the_classic_rules() -> None:
    """§2.3 against §4.1: the corner-touching fleet breaks the classic spacing rule."""
    with pytest.raises(IllegalActionError, match=r"rule 2\.3"):
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


# -- §2.5 to §2.8 play ------------------------------------------------------------------------


def test_2_5_first_shot_is_chosen_at_random_and_follows_the_seed() -> None:
    """§2.5: over many games both seats open; the same seed always opens with the same seat."""
    firsts = [first_shooter("classic", seed) for seed in range(40)]
    assert set(firsts) == {0, 1}
    assert firsts == [first_shooter("classic", seed) for seed in range(40)]
    state = place(place(new(seed=3), 0, ALPHA, ready=True), 1, BRAVO)
    transition = E.act(state, 1, "ready")
    first = transition.state.turn
    assert first == firsts[3] and transition.state.phase is Phase.PLAY
    assert "You shoot first" in texts_for(transition.events, first)[0]
    assert "Your opponent shoots first" in texts_for(transition.events, 1 - first)[0]
    assert texts_for(transition.events, None) == [
        f"Both fleets are set. {name_of(first)} shoots first (rule 2.5)."
    ]


def test_2_6_a_shot_names_a_cell_not_shot_before(game: SeaBattleState) -> None:
    """§2.6: the shooter names one cell of the opponent's field; it joins the shot record."""
    assert act.Shot(cell("A1")) in list(E.legal_actions(game, 0))
    state = E.act(game, 0, "A1").state
    assert state.log == ((0, cell("A1")),)
    back = shoot(state, 1, "J10")
    legal = list(E.legal_actions(back, 0))
    assert act.Shot(cell("A1")) not in legal and len(legal) == 99


def test_2_6_a_repeated_shot_is_refused_without_penalty(game: SeaBattleState) -> None:
    """§2.6 [R2]: a repeated cell is refused; nothing changes and it is still the same turn."""
    after_hit = E.act(game, 0, "B2").state
    message = refused(after_hit, 0, "b2")
    assert "already shot at B2" in message
    assert after_hit.turn == 0
    after_miss = shoot(shoot(game, 0, "A1"), 1, "J10")
    assert "already shot at A1" in refused(after_miss, 0, "A1")
    assert after_miss.turn == 0


def test_2_7_miss_passes_the_turn(game: SeaBattleState) -> None:
    """§2.7: ``miss`` (no ship there): the turn passes; shooter, defender and channel learn it."""
    transition = E.act(game, 0, "A1")
    assert transition.state.turn == 1
    assert texts_for(transition.events, 0) == ["A1: miss. Your opponent shoots next."]
    assert texts_for(transition.events, 1) == ["Your opponent shot at A1: miss. Your turn."]
    assert texts_for(transition.events, None) == [
        f"{name_of(0)} fires at A1: miss. {name_of(1)} shoots next."
    ]


def test_2_7_hit_keeps_the_turn(game: SeaBattleState) -> None:
    """§2.7: ``hit`` (the ship still has unhit cells): the same player shoots again."""
    transition = E.act(game, 0, "C2")
    assert transition.state.turn == 0
    assert texts_for(transition.events, 0) == ["C2: hit! Shoot again."]
    (defender,) = texts_for(transition.events, 1)
    assert "C2" in defender and "hit your battleship" in defender
    assert texts_for(transition.events, None) == [
        f"{name_of(0)} fires at C2: hit. {name_of(0)} shoots again."
    ]


def test_2_7_sunk_keeps_the_turn_and_names_the_ship(game: SeaBattleState) -> None:
    """§2.7: ``sunk`` (the last unhit cell): the same player shoots again; the size is named."""
    transition = E.act(shoot(game, 0, "B2", "C2", "E2"), 0, "D2")
    assert transition.state.turn == 0
    assert all("sunk" in event.text or "sank" in event.text for event in transition.events)
    assert all("battleship (4 cells)" in event.text for event in transition.events)
    assert {event.audience for event in transition.events} == {0, 1, None}
    (public,) = texts_for(transition.events, None)
    assert public.startswith(f"{name_of(0)} fires at D2: sunk")
    one = E.act(game, 0, "J1")
    assert all("torpedo boat (1 cell)" in event.text for event in one.events)
    assert one.state.turn == 0


def test_2_8_sinking_the_last_ship_ends_the_game(game: SeaBattleState) -> None:
    """§2.8: whoever first sinks every enemy ship wins, and the game ends at once."""
    cells = [cell_name(c) for c in sorted(diagram_cells(BRAVO))]
    state = shoot(game, 0, *cells[:-1])
    assert state.phase is Phase.PLAY and state.turn == 0
    transition = E.act(state, 0, cells[-1])
    final = transition.state
    assert final.phase is Phase.FINISHED
    assert E.outcome(final) == Outcome(0, EndReason.RULES, "sank the whole fleet")
    assert E.to_move(final) == frozenset()
    assert "you win" in texts_for(transition.events, 0)[0]
    assert "you lose" in texts_for(transition.events, 1)[0]
    assert "wins" in texts_for(transition.events, None)[0]
    for seat in (0, 1):
        assert list(E.legal_actions(final, seat)) == []
        for text in ("A1", "J10", "ready"):
            refused(final, seat, text, GameError)
        with pytest.raises(IllegalActionError):
            E.apply(final, seat, act.Shot(cell("A1")))


SUNK_CORNER = """
     A B C D E F G H I J
   1 . . . . . . . . . .
   2 . # # # # . . . . .
   3 . . . . . . . . . .
"""
"""The cells around BRAVO's battleship B2-E2 once sunk: A1-F1, A2, F2, A3-F3 (§2.9)."""


def test_2_9_cells_around_a_sunk_ship_are_marked_for_the_shooter_only(
    game: SeaBattleState,
) -> None:
    """§2.9 / §3: after ``sunk`` the touching cells show as known empty to the shooter and the
    channel, but not on the defender's own field (it tells them nothing new)."""
    state = shoot(game, 0, "B2", "C2", "D2", "E2")
    ring = {(c, r) for c in range(0, 6) for r in range(0, 3)} - set(diagram_cells(SUNK_CORNER))
    for viewer in (0, None):
        field = E.view(state, viewer).fields[1]
        marked = {(c, r) for c in range(10) for r in range(10) if field.mark((c, r)) is Mark.CLEAR}
        assert marked == ring, viewer
        assert [field.mark(c) for c in diagram_cells(SUNK_CORNER)] == [Mark.SUNK] * 4
    own = E.view(state, 1).fields[1]
    assert all(own.mark(c) is Mark.SEA for c in ring)
    hit_only = E.view(shoot(game, 0, "B2"), 0).fields[1]
    assert not any(hit_only.mark((c, r)) is Mark.CLEAR for c in range(10) for r in range(10))


def test_4_1_with_corner_touching_only_side_neighbours_are_marked() -> None:
    """§4.1: a sunk ship may have a neighbour at a corner, so only side cells are marked."""
    state = start_game("corners", CORNERS_FLEET, CORNERS_FLEET, first=0)
    state = shoot(state, 0, "H5")
    field = E.view(state, 0).fields[1]
    assert field.mark(cell("H5")) is Mark.SUNK
    for side in ("H4", "G5", "I5", "H6"):
        assert field.mark(cell(side)) is Mark.CLEAR, side
    for corner in ("G4", "I4", "G6", "I6"):
        assert field.mark(cell(corner)) is Mark.SEA, corner


def test_4_2_milton_bradley_marks_nothing_after_a_sinking() -> None:
    """§4.2: touching is allowed, so no cell is auto-marked after a sinking."""
    state = start_game("milton-bradley", MB_FLEET, MB_FLEET, first=0)
    state = shoot(shoot(state, 0, "A5"), 1, "J10")
    state = shoot(state, 0, "B5")
    field = E.view(state, 0).fields[1]
    assert field.mark(cell("B5")) is Mark.HIT
    assert not any(field.mark((c, r)) is Mark.CLEAR for c in range(10) for r in range(10))


def test_4_2_a_sinking_among_touching_ships_shows_only_hits() -> None:
    """§4.2 answers a sinking with "hit" and the ship's name only. Where ships may touch,
    drawing the sunk ship would tell which earlier hits belong to ships still afloat."""
    seed = seed_where_first(0, "milton-bradley")
    state = E.new_game(E.presets["milton-bradley"], seed)
    for placement in ("E5 I5", "E7 H7", "E9 G9", "B1 B3", "C1 D1", "ready"):
        state = E.act(state, 1, placement).state
    state = place(state, 0, MB_FLEET, ready=True)
    state = shoot(shoot(state, 0, "B1"), 1, "J10")
    state = shoot(shoot(state, 0, "D1"), 1, "J9")
    transition = E.act(state, 0, "C1")
    assert "destroyer" in " ".join(texts_for(transition.events, 0)).lower()
    state = transition.state
    for audience in (0, None):
        field = E.view(state, audience).fields[1]
        assert [field.mark(cell(name)) for name in ("B1", "C1", "D1")] == [Mark.HIT] * 3
        assert field.ships == () and field.afloat == 4
    own = E.view(state, 1).fields[1]
    assert [own.mark(cell(name)) for name in ("B1", "C1", "D1")] == [
        Mark.HIT,
        Mark.SUNK,
        Mark.SUNK,
    ]


# -- §3 what each player sees -----------------------------------------------------------------


def test_3_each_player_sees_only_their_own_ships_and_the_answers(game: SeaBattleState) -> None:
    """§3: own field with own ships; of the opponent only cells answered hit or sunk."""
    state = shoot(game, 0, "A1")  # miss
    state = shoot(state, 1, "A1", "B1", "C1", "D1", "J1", "A3", "J10")  # sinks two, hits one
    state = shoot(state, 0, "B2", "J1")  # hit, sunk
    alpha, bravo = set(diagram_cells(ALPHA)), set(diagram_cells(BRAVO))
    view0, view1, public = E.view(state, 0), E.view(state, 1), E.view(state, None)
    assert ship_marks(view0, 1) == set() and ship_marks(view1, 0) == set()
    assert ship_marks(public, 0) == set() and ship_marks(public, 1) == set()
    assert ship_marks(view0, 0) == alpha - {cell(n) for n in ("A1", "B1", "C1", "D1", "J1", "A3")}
    assert ship_marks(view1, 1) == bravo - {cell("B2"), cell("J1")}
    assert [outline.cells for outline in view0.fields[1].ships] == [(cell("J1"),)]
    assert {o.cells for o in view1.fields[0].ships} == {
        (cell("A1"), cell("B1"), cell("C1"), cell("D1")),
        (cell("J1"),),
    }
    for enemy_field in (view0.fields[1], view1.fields[0], public.fields[0], public.fields[1]):
        assert all(outline.sunk for outline in enemy_field.ships)
    assert view0.fields[1].mark(cell("B2")) is Mark.HIT
    assert view0.fields[1].mark(cell("A1")) is Mark.MISS
    assert view1.fields[0].mark(cell("A3")) is Mark.HIT
    assert view1.fields[0].mark(cell("J10")) is Mark.MISS
    for line in grid_lines(public):
        assert "#" not in line


def test_3_shot_answers_are_the_same_for_everyone(game: SeaBattleState) -> None:
    """§3: the coordinates of every shot and its answer are known to shooter and defender."""
    state = shoot(shoot(game, 0, "A1"), 1, "A1", "A3", "J10")
    state = shoot(state, 0, "B2", "J1")

    def answers(view: SeaBattleView, field: int) -> list[tuple[int, int, Mark]]:
        known = (Mark.MISS, Mark.HIT, Mark.SUNK)
        marks = view.fields[field].marks
        return [(c, r, marks[r][c]) for r in range(10) for c in range(10) if marks[r][c] in known]

    for field in (0, 1):
        seen = [answers(E.view(state, viewer), field) for viewer in (0, 1, None)]
        assert seen[0] == seen[1] == seen[2]
        assert len(seen[0]) == len(state.shots[1 - field])


def test_3_both_fleets_are_shown_in_full_at_the_end(game: SeaBattleState) -> None:
    """§3: at game end every view shows both fields in full."""
    final = shoot(game, 0, *[cell_name(c) for c in sorted(diagram_cells(BRAVO))])
    assert final.phase is Phase.FINISHED
    for viewer in (0, 1, None):
        view = E.view(final, viewer)
        assert ship_marks(view, 0) == set(diagram_cells(ALPHA))
        assert len(view.fields[0].ships) == len(view.fields[1].ships) == 10
        assert {o.cells for o in view.fields[1].ships} == set(diagram_ships(BRAVO))


# -- turns and notation -----------------------------------------------------------------------


def test_2_7_a_shot_out_of_turn_is_refused(game: SeaBattleState) -> None:
    """§2.7: only the player whose turn it is may shoot; the other is told to wait."""
    message = refused(game, 1, "A1", NotYourTurnError)
    assert "opponent's turn" in message
    after_miss = shoot(game, 0, "A1")
    refused(after_miss, 0, "B1", NotYourTurnError)


@pytest.mark.parametrize("text", ["", "   ", "Z99", "hello", "B", "5", "A1 B2 C3"])
def test_2_6_malformed_text_is_not_a_move(text: str, game: SeaBattleState) -> None:
    """§2.6: an invalid cell is refused with no penalty, in setup and in play alike."""
    refused(new(), 0, text, NotationError)
    refused(game, 0, text, NotationError)


@pytest.mark.parametrize("text", ["ready", "random", "remove A1", "A1 A4", "clear"])
def test_2_6_setup_moves_are_not_shots(text: str, game: SeaBattleState) -> None:
    """§2.4 / §2.6: once in play the fleets are fixed and only single cells are moves."""
    assert "shoot by naming one cell" in refused(game, 0, text, NotationError)


def test_2_6_no_shooting_during_setup() -> None:
    """§2.4 / §2.6: nobody shoots until both fleets are confirmed."""
    state = place(new(), 0, ALPHA, ready=True)
    for seat in (0, 1):
        before = E.to_json(state)
        with pytest.raises(IllegalActionError, match="not started"):
            E.apply(state, seat, act.Shot(cell("B5")))
        assert E.to_json(state) == before
    assert E.parse_action(state, 1, "B5") == act.PlaceShip(cell("B5"), cell("B5"))


# -- §4.2 Milton Bradley and §4.5 large field -------------------------------------------------


def test_4_2_milton_bradley_hit_gives_no_extra_shot() -> None:
    """§4.2: players strictly alternate one shot per turn; a hit gives no extra shot."""
    state = start_game("milton-bradley", MB_FLEET, MB_FLEET, first=0)
    transition = E.act(state, 0, "A1")
    assert transition.state.turn == 1
    assert texts_for(transition.events, 0) == ["A1: hit! Your opponent shoots next."]
    assert texts_for(transition.events, 1)[0].endswith("Your turn.")
    assert "again" not in texts_for(transition.events, None)[0]
    state = shoot(shoot(shoot(transition.state, 1, "J10"), 0, "A5"), 1, "J9")
    last = E.act(state, 0, "B5")
    assert last.state.turn == 1
    assert all("destroyer" in event.text for event in last.events)


def test_4_2_milton_bradley_sinking_is_answered_hit_you_sank_my() -> None:
    """§4.2: 'Answer miss or hit; when a ship's last cell is hit the answer is hit plus "you
    sank my <ship name>"'."""
    state = start_game("milton-bradley", MB_FLEET, MB_FLEET, first=0)
    sinking = E.act(shoot(shoot(state, 0, "A5"), 1, "J10"), 0, "B5")
    (defender,) = texts_for(sinking.events, 1)
    (shooter,) = texts_for(sinking.events, 0)
    assert shooter.startswith("B5: hit") and "destroyer" in shooter
    assert "sank my destroyer" in shooter.lower()
    assert "hit" in defender and "destroyer" in defender


def test_4_5_large_field_is_15_by_15_with_fifteen_ships() -> None:
    """§4.5: field 15x15 (A-O, 1-15); fleet 1x5, 2x4, 3x3, 4x2, 5x1 (15 ships, 35 cells)."""
    rules = E.presets["large"]
    assert rules.size == 15
    assert Counter(kind.length for kind in rules.fleet) == {5: 1, 4: 2, 3: 3, 2: 4, 1: 5}
    assert sum(kind.length for kind in rules.fleet) == 35
    state = start_game("large", LARGE_FLEET, LARGE_FLEET, first=0)
    view = E.view(state, 0)
    assert view.size == 15 and len(view.fields[0].marks) == 15
    assert ship_marks(view, 0) == set(diagram_cells(LARGE_FLEET))
    assert len(list(E.legal_actions(state, 0))) == 225
    assert "O15" in E.describe(rules)
    assert "has not started" in refused(place(new("large"), 1, LARGE_FLEET), 1, "O15")
    assert "A1 to O15" in refused(state, 0, "P1", NotationError)
    transition = E.act(state, 0, "O15")
    assert transition.state.log == ((0, (14, 14)),) and transition.state.turn == 1


# -- outside the rules: resignation, start, autocomplete --------------------------------------


def test_conclude_finishes_the_game_and_reveals_both_fleets(game: SeaBattleState) -> None:
    """§3 at game end: a resignation ends the game and every view shows both fleets."""
    state = shoot(game, 0, "B2")
    ended = E.conclude(state, Outcome(0, EndReason.RESIGNATION))
    assert ended.phase is Phase.FINISHED and E.outcome(ended) == Outcome(0, EndReason.RESIGNATION)
    assert E.to_move(ended) == frozenset()
    for viewer in (0, 1, None):
        view = E.view(ended, viewer)
        assert ship_marks(view, 0) == set(diagram_cells(ALPHA))
        assert ship_marks(view, 1) == set(diagram_cells(BRAVO)) - {cell("B2")}
    refused(ended, 0, "A1", GameError)


def test_has_started_only_after_the_first_shot(game: SeaBattleState) -> None:
    """Abort is allowed before the first real move: setup and a fresh game do not count."""
    assert not E.has_started(new())
    assert not E.has_started(place(new(), 0, ALPHA, ready=True))
    assert not E.has_started(game)
    assert E.has_started(E.act(game, 0, "A1").state)


def test_suggestions_list_unshot_cells_near_hits_first(game: SeaBattleState) -> None:
    """Autocomplete offers only cells not yet shot that match what was typed, cells next to an
    unsunk hit first, and nothing to a player who may not move now."""
    state = shoot(game, 0, "J1", "B2")  # sunk, then hit: seat 0 keeps the turn
    view = E.view(state, 0)
    shot = {cell_name(c) for c in state.shots[0]}
    everything = E.suggestions(view, "", limit=200)
    assert everything[:4] == ["B1", "A2", "C2", "B3"]
    assert not shot & set(everything)
    assert len(E.suggestions(view, "")) == 25
    assert all(name.startswith("B") for name in E.suggestions(view, "b", limit=200))
    assert sorted(E.suggestions(view, " b 1")) == ["B1", "B10"]
    assert "B2" not in E.suggestions(view, "B2")
    assert "J1" not in E.suggestions(view, "j")
    assert E.suggestions(E.view(state, 1), "") == []
    assert E.suggestions(E.view(state, None), "") == []


def test_suggestions_during_setup_offer_setup_words() -> None:
    """During setup only the seat still placing gets the setup words."""
    state = new()
    assert E.suggestions(E.view(state, 0), "r") == ["random", "ready"]
    confirmed = place(state, 0, ALPHA, ready=True)
    assert E.suggestions(E.view(confirmed, 0), "r") == []
    assert E.suggestions(E.view(confirmed, 1), "c") == ["clear"]


def test_an_echoed_input_drops_invisible_direction_and_width_marks() -> None:
    """A right-to-left override in a move must not turn the bot's answer backwards."""
    from bot.games.grid import shorten

    assert shorten("\u202eB5\u200b x\u2066y`z") == "B5 xy'z"
    assert shorten("a" * 30) == "a" * 23 + "…"
