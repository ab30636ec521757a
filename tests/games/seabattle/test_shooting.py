"""Sea Battle in play (Sea Battle rules §2.5 to §4): shots and their answers, sinking,
the marks around a sunk ship, what each player sees, and the Milton Bradley and large-field
variants. Turns, notation and what lies outside the rules are in ``test_turns``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.core import (
    EndReason,
    GameError,
    IllegalActionError,
    NotationError,
    Outcome,
    Phase,
    name_of,
)
from bot.games.grid import cell_name
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark, SeaBattleView
from tests.support.seabattle_positions import (
    ALPHA,
    BRAVO,
    CORNERS_FLEET,
    LARGE_FLEET,
    MB_FLEET,
    cell,
    classic_game,
    diagram_cells,
    diagram_ships,
    first_shooter,
    grid_lines,
    new,
    place,
    refused,
    seed_where_first,
    ship_marks,
    shoot,
    start_game,
    texts_for,
)
from tests.support.seabattle_positions import ENGINE as E


@pytest.fixture(scope="module")
def game() -> SeaBattleState:
    """The game most tests play (see :func:`classic_game`)."""
    return classic_game()


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
        f"Both fleets are set. {name_of(first)} shoots first."
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
