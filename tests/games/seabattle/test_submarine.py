"""Rule tests for the submarine (Sea Battle rules §4.8): placed next to its own ships,
its dying shot on the shooter's own field, the chains with mines and submarines, and the
draw when both fleets go down together."""

from __future__ import annotations

import pytest

from bot.games.core import IllegalActionError, Phase, name_of
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from tests.support.seabattle_positions import (
    ALPHA,
    BRAVO,
    MODES,
    cell,
    place,
    refused,
    seed_where_first,
    texts_for,
)
from tests.support.seabattle_positions import ENGINE as E


def ready_game(
    mode: str, fleets: tuple[str, str], extra: tuple[tuple[str, ...], tuple[str, ...]], first: int
) -> SeaBattleState:
    state = E.new_game(MODES[mode], seed_where_first(first, mode))
    for seat in (0, 1):
        state = place(state, seat, fleets[seat])
        for text in extra[seat]:
            state = E.act(state, seat, text).state
        state = E.act(state, seat, "ready").state
    assert state.phase is Phase.PLAY and state.turn == first
    return state


def shoot_all(state: SeaBattleState, seat: int, cells: list[tuple[int, int]]) -> SeaBattleState:
    for target in cells:
        state = E.apply(state, seat, act.Shot(target)).state
    return state


def test_4_8_the_submarine_may_touch_its_own_ships_but_not_share_a_cell() -> None:
    state = place(E.new_game(MODES["submarine"], 0), 0, ALPHA)
    state = E.act(state, 0, "sub A2").state  # between the battleship and a cruiser
    assert state.sides[0].ships[-1].cells == (cell("A2"),)
    assert "already taken" in refused(E.act(state, 0, "remove A2").state, 0, "sub A1")
    assert "has not started" in refused(state, 0, "J10")  # the fleet is complete
    no_sub = E.act(state, 0, "remove A2").state
    assert "`sub J10`" in refused(no_sub, 0, "J10")  # torpedo boats are all placed
    assert "placed" in refused(state, 0, "sub J10")
    empty = E.new_game(MODES["submarine"], 0)
    assert "no submarine." in refused(E.new_game(MODES["classic"], 0), 0, "sub A1")
    assert "may not touch" in refused(E.act(empty, 0, "A1 A4").state, 0, "B1 B2")


def test_4_8_a_sunk_submarine_fires_its_dying_shot_at_the_same_cell_of_the_shooter() -> None:
    state = ready_game("submarine", (BRAVO, ALPHA), (("sub J10",), ("sub B2",)), first=0)
    transition = E.act(state, 0, "B2")  # seat 1's submarine; seat 0's battleship lies on B2
    shooter, owner = texts_for(transition.events, 0)[0], texts_for(transition.events, 1)[0]
    assert shooter == (
        "B2: sunk! You sank the submarine. Its dying shot strikes B2 on your field: hit your "
        "battleship. Shoot again."
    )
    assert owner.startswith("Your opponent shot at B2 and sank your submarine.")
    assert texts_for(transition.events, None)[0].startswith(
        f"{name_of(0)} fires at B2: sunk the submarine. Its dying shot strikes B2 on {name_of(0)}'s"
    )
    after = transition.state
    assert after.turn == 0  # the sinking earns another shot; the dying shot earns nothing
    assert E.view(after, None).fields[0].mark(cell("B2")) is Mark.HIT
    assert E.view(after, 0).fields[1].mark(cell("A1")) is Mark.SEA  # §4.8: 2.9 marks nothing


def test_4_8_a_dying_shot_on_a_cell_already_shot_is_wasted() -> None:
    state = ready_game("submarine", (BRAVO, ALPHA), (("sub J10",), ("sub B2",)), first=1)
    state = E.act(state, 1, "B2").state  # seat 1 hits seat 0's battleship on B2 first
    state = E.act(state, 1, "A1").state  # and misses
    transition = E.act(state, 0, "B2")
    assert "a cell already shot, wasted" in texts_for(transition.events, 0)[0]
    assert len(transition.state.log) == len(state.log) + 1


def test_4_8_a_dying_shot_that_sinks_the_shooters_submarine_is_answered_in_vain() -> None:
    state = ready_game("submarine", (ALPHA, ALPHA), (("sub A2",), ("sub A2",)), first=0)
    transition = E.act(state, 0, "A2")
    text = texts_for(transition.events, 0)[0]
    assert "sunk your submarine." in text and text.count("wasted") == 1
    assert [ship.cells for ship in transition.state.sunk(0)] == [(cell("A2"),)]


def test_4_8_a_dying_shot_on_the_shooters_mine_makes_the_owner_disclose() -> None:
    state = ready_game(
        "submarine-mines", (ALPHA, ALPHA), (("sub J9", "mine H10"), ("sub H10", "mine J9")), 0
    )
    transition = E.act(state, 0, "H10")  # seat 1's submarine; seat 0's mine lies on H10
    state = transition.state
    assert state.pending is not None and state.pending.seat == 1 and state.turn == 1
    assert "Your opponent now discloses a cell" in texts_for(transition.events, 0)[0]
    state = E.apply(state, 1, act.Disclose(E.view(state, 1).choices[0])).state
    assert state.turn == 0 and state.pending is None  # the shooter continues


def _nearly_done(first_cells_kept: int) -> SeaBattleState:
    """Seat 1 sinks all of seat 0 but the destroyer J8-J9 (``first_cells_kept`` of its cells
    left), then misses; seat 0 then sinks all of seat 1 but its submarine on J9."""
    state = ready_game("submarine", (BRAVO, ALPHA), (("sub J10",), ("sub J9",)), first=1)
    keep = [cell("J9"), cell("J8")][:first_cells_kept]
    targets = [c for ship in state.sides[0].ships for c in ship.cells if c not in keep]
    state = shoot_all(state, 1, targets)
    state = E.act(state, 1, "A5").state
    assert state.turn == 0
    rest = [c for ship in state.sides[1].ships[:-1] for c in ship.cells]
    return shoot_all(state, 0, rest)


def test_4_8_both_fleets_sunk_by_the_dying_shot_is_a_draw() -> None:
    final = E.act(_nearly_done(1), 0, "J9")
    assert final.state.phase is Phase.FINISHED
    outcome = E.outcome(final.state)
    assert outcome is not None and outcome.winner is None
    assert "draw" in texts_for(final.events, None)[0]


def test_4_8_otherwise_the_shooter_wins() -> None:
    final = E.act(_nearly_done(2), 0, "J9").state
    outcome = E.outcome(final)
    assert outcome is not None and outcome.winner == 0


def test_4_8_the_submarine_counts_as_a_ship() -> None:
    state = _nearly_done(2)
    assert state.phase is Phase.PLAY and state.afloat(1) == 1
    with pytest.raises(IllegalActionError):
        E.act(state, 1, "A1")
