"""Rule tests for mines (Sea Battle rules §4.6) and minesweepers with the 16x16 and 18x18
fields (§4.7), on named positions typed in the engine's notation."""

from __future__ import annotations

import pytest

from bot.games.core import NotYourTurnError, Phase, name_of
from bot.games.grid import parse_cell
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from tests.support.seabattle_positions import (
    ALPHA,
    LARGE_FLEET,
    MODES,
    place,
    refused,
    seed_where_first,
    texts_for,
)
from tests.support.seabattle_positions import ENGINE as E

ALPHA_MINES = ("mine J10", "mine H10")
"""Two mines for ``ALPHA`` (ships in rows 1-7), touching nothing."""
LARGE_PIECES = ("mine A16", "mine C16", "mine E16", "sweeper P16")
"""Three mines and a minesweeper for ``LARGE_FLEET`` (rows 1-7) on 16x16."""


def cell(name: str) -> tuple[int, int]:
    return parse_cell(name, 20, 20)


def ready_game(mode: str, fleet: str, pieces: tuple[str, ...], first: int = 0) -> SeaBattleState:
    state = E.new_game(MODES[mode], seed_where_first(first, mode))
    for seat in (0, 1):
        state = place(state, seat, fleet)
        for text in pieces:
            state = E.act(state, seat, text).state
        state = E.act(state, seat, "ready").state
    assert state.phase is Phase.PLAY and state.turn == first
    return state


def mined() -> SeaBattleState:
    return ready_game("mines", ALPHA, ALPHA_MINES)


# -- §4.6 laying mines ------------------------------------------------------------------------


def test_4_6_a_mine_touches_no_ship_and_no_other_mine() -> None:
    state = place(E.new_game(MODES["mines"], 0), 0, ALPHA)
    assert "touch one of your ships" in refused(state, 0, "mine E2")  # under the battleship
    assert "mines and minesweepers touch nothing" in refused(state, 0, "mine E2")
    state = E.act(state, 0, "mine J10").state
    assert "touch one of your mines" in refused(state, 0, "mine I9")
    assert "already taken" in refused(state, 0, "mine A1")
    state = E.act(state, 0, "mine H10").state
    assert "all your mines (2)" in refused(state, 0, "mine A10")


def test_4_6_free_mines_may_touch_but_never_overlap() -> None:
    state = place(E.new_game(MODES["free-mines"], 0), 0, ALPHA)
    state = E.act(state, 0, "mine A2").state  # right under the battleship
    state = E.act(state, 0, "mine B2").state
    assert "already taken" in refused(state, 0, "mine A1")


def test_4_6_a_fleet_is_ready_only_with_its_mines_laid() -> None:
    state = place(E.new_game(MODES["mines"], 0), 0, ALPHA)
    assert "Still to lay: 2 mines" in refused(state, 0, "ready")
    assert "no mines." in refused(E.new_game(MODES["classic"], 0), 0, "mine A1")


def test_4_6_a_shot_on_a_mine_spends_it_and_the_shooter_owes_a_ship_cell() -> None:
    transition = E.act(mined(), 0, "J10")
    state = transition.state
    assert texts_for(transition.events, 0)[0].startswith(
        "J10: mine! Disclose one of your ship cells"
    )
    assert texts_for(transition.events, None) == [
        f"{name_of(0)} fires at J10: mine! {name_of(0)} discloses one of their ship cells to "
        f"{name_of(1)}."
    ]
    assert E.to_move(state) == {0}
    assert "Disclose one of your ship cells" in refused(state, 0, "A5")
    refused(state, 1, "A1", NotYourTurnError)
    assert E.view(state, None).fields[1].mark(cell("J10")) is Mark.MINE_HIT
    choices = E.view(state, 0).choices
    assert len(choices) == 20 and cell("A1") in choices  # every ship cell, none hit yet
    assert E.suggestions(E.view(state, 0), "reveal a")[:2] == ["reveal A1", "reveal A3"]


def test_4_6_the_disclosure_goes_to_the_mine_owner_only_and_the_turn_passes() -> None:
    state = E.act(mined(), 0, "J10").state
    disclosed = E.act(state, 0, "reveal C3")
    state = disclosed.state
    assert state.turn == 1 and state.pending is None
    assert texts_for(disclosed.events, 1)[0].startswith("Your opponent disclosed a ship cell: C3.")
    public = texts_for(disclosed.events, None)[0]
    assert "C3" not in public and "disclosed a ship cell" in public
    assert E.view(state, 1).fields[0].mark(cell("C3")) is Mark.DISCLOSED
    assert E.view(state, None).fields[0].mark(cell("C3")) is Mark.SEA
    assert cell("C3") not in E.view(state, None).fields[0].disclosed
    assert E.view(state, 0).fields[0].disclosed == (cell("C3"),)
    assert E.suggestions(E.view(state, 1), "")[0] == "C3"  # a sure hit, offered first
    # §4.6: the disclosed cell is not damaged; shot later, it is a hit and earns a shot
    hit = E.act(state, 1, "C3").state
    assert hit.turn == 1 and E.view(hit, 1).fields[0].mark(cell("C3")) is Mark.HIT


def test_4_6_only_an_unhit_ship_cell_may_be_disclosed_and_a_fresh_one_first() -> None:
    state = E.act(E.act(mined(), 0, "J10").state, 0, "reveal C3").state
    state = E.act(state, 1, "J1").state  # seat 1 hits seat 0's torpedo boat on J1 ... sunk
    state = E.act(state, 1, "H10").state  # and sets off seat 0's mine
    assert E.to_move(state) == {1}
    state = E.act(E.act(state, 1, "reveal A1").state, 0, "H10").state
    assert "cannot disclose C3" in refused(state, 0, "reveal C3")  # disclosed before
    assert "cannot disclose J10" in refused(state, 0, "reveal J10")  # not a ship cell
    assert "cannot disclose" in refused(state, 0, "reveal D10")  # open water


def test_4_6_mines_do_not_count_as_ships() -> None:
    state = mined()
    ship_cells = [c for ship in state.sides[1].ships for c in ship.cells]
    for target in ship_cells:
        state = E.apply(state, 0, act.Shot(target)).state
    assert state.phase is Phase.FINISHED and E.outcome(state) is not None
    assert E.outcome(state).winner == 0  # type: ignore[union-attr]
    assert len(state.sides[1].mines) == 2 and not state.shots[0] & set(state.sides[1].mines)


# -- §4.7 minesweepers and the large fields ---------------------------------------------------


def swept() -> SeaBattleState:
    return ready_game("16x16", LARGE_FLEET, LARGE_PIECES)


def test_4_7_the_16x16_and_18x18_fields_carry_the_large_fleet_3_mines_and_a_minesweeper() -> None:
    for name in ("16x16", "18x18"):
        rules = E.presets[name]
        assert rules.size == int(name[:2]) and len(rules.fleet) == 15
        assert (rules.mines, rules.sweepers) == (3, 1)
        side = E.act(E.new_game(rules, 5), 0, "random").state.sides[0]
        assert len(side.ships) == 15 and len(side.mines) == 3 and len(side.sweepers) == 1


def test_4_7_a_minesweeper_touches_nothing() -> None:
    state = place(E.new_game(MODES["16x16"], 0), 0, LARGE_FLEET)
    state = E.act(state, 0, "mine A16").state
    assert "touch one of your mines" in refused(state, 0, "sweeper B15")
    assert "touch one of your" in refused(
        state, 0, "sweeper A8"
    )  # under the carrier? no: row 8 touches row 7
    state = E.act(state, 0, "sweeper P16").state
    assert "all your minesweepers" in refused(state, 0, "sweeper P10")


def test_4_7_a_shot_on_a_minesweeper_makes_the_shooter_disclose_one_of_their_mines() -> None:
    transition = E.act(swept(), 0, "P16")
    state = transition.state
    assert texts_for(transition.events, 0)[0].startswith(
        "P16: minesweeper! Disclose one of your mines"
    )
    assert E.view(state, 0).choices == (cell("A16"), cell("C16"), cell("E16"))
    assert "cannot disclose A1" in refused(state, 0, "reveal A1")  # a ship cell is no mine
    state = E.act(state, 0, "reveal C16").state
    assert state.turn == 1
    assert E.view(state, 1).fields[0].mark(cell("C16")) is Mark.KNOWN_MINE
    assert E.view(state, None).fields[0].mark(cell("C16")) is Mark.SEA


def test_4_7_a_disclosed_mine_is_shot_only_when_confirmed() -> None:
    state = E.act(E.act(swept(), 0, "P16").state, 0, "reveal C16").state
    assert "write `C16 confirm`" in refused(state, 1, "C16")
    assert "C16 confirm" in E.suggestions(E.view(state, 1), "C1")
    assert E.parse_action(state, 1, "c16 confirm") == act.Shot(cell("C16"), confirmed=True)
    state = E.act(state, 1, "C16 confirm").state
    assert state.pending is not None and state.pending.seat == 1  # it went off all the same


def test_4_7_without_a_mine_left_the_minesweeper_answer_discloses_nothing() -> None:
    state = swept()
    for miss, mine in (("P10", "A16"), ("P11", "C16"), ("P12", "E16")):
        state = E.act(state, 0, miss).state
        state = E.act(state, 1, mine).state  # seat 1 sets off each of seat 0's mines
        state = E.apply(state, 1, act.Disclose(E.view(state, 1).choices[0])).state
    assert state.turn == 0
    transition = E.act(state, 0, "P16")
    assert transition.state.pending is None and transition.state.turn == 1
    assert "no mine to disclose" in texts_for(transition.events, 0)[0]


@pytest.mark.parametrize("mode", ["mines", "free-mines", "16x16", "18x18"])
def test_random_sides_lay_legal_mines_and_minesweepers(mode: str) -> None:
    """§4.6-4.7, judged independently: the right counts, nothing overlapping, and (unless
    mines are free) no mine or minesweeper within one cell of any other piece."""
    rules = MODES[mode]
    for seed in range(6):
        side = E.act(E.new_game(rules, seed), 1, "random").state.sides[1]
        assert (len(side.mines), len(side.sweepers)) == (rules.mines, rules.sweepers)
        ships = {c for ship in side.ships for c in ship.cells}
        pieces = [*side.mines, *side.sweepers]
        assert len(set(pieces)) == len(pieces) and not ships & set(pieces)
        if rules.free_mines:
            continue
        for column, row in pieces:
            around = {(column + dc, row + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)}
            others = ships | (set(pieces) - {(column, row)})
            assert not around & others, (mode, seed, (column, row))
