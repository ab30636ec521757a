"""Rule tests for the Flying Dutchman (Sea Battle rules §5.1-5.5), on named positions
typed in the engine's notation."""

from __future__ import annotations

import pytest

from bot.games.core import GameError, IllegalActionError, NotYourTurnError, Phase, name_of
from bot.games.grid import parse_cell
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from tests.support.seabattle_positions import ENGINE, MODES, refused, seed_where_first, texts_for

E = ENGINE

ZIGZAG = "A1 B2 C3 D3 E4 F5"
"""Six decks running across and diagonally at once (§5.2)."""
FAR = "T20 S19 R18 Q17 P16 O15"


def cell(name: str) -> tuple[int, int]:
    return parse_cell(name, 20, 20)


def sailing(first: int = 0) -> SeaBattleState:
    state = E.new_game(MODES["dutchman"], seed_where_first(first, "dutchman"))
    for seat, ship in ((0, ZIGZAG), (1, FAR)):
        state = E.act(E.act(state, seat, ship).state, seat, "ready").state
    assert state.phase is Phase.PLAY and state.turn == first
    return state


def test_5_1_a_20x20_field_and_one_ship_of_5_to_8_decks() -> None:
    rules = E.presets["dutchman"]
    assert rules.size == 20 and len(rules.fleet) == 1 and rules.fleet[0].length == 6
    assert E.configure("dutchman", "decks8").fleet[0].length == 8
    assert E.variant_name(E.configure("dutchman", "decks5")) == "dutchman decks5"
    with pytest.raises(GameError, match=r"cannot be played in the Flying Dutchman"):
        E.configure("dutchman", "mines")
    with pytest.raises(GameError, match="contradict"):
        E.configure("dutchman", "decks5 decks7")
    state = E.new_game(rules, 0)
    assert "the ships have 6 cells" in refused(state, 0, "A1 B2 C3 D4 E5")


def test_5_2_the_ship_is_one_group_joined_through_sides_or_corners() -> None:
    state = E.new_game(MODES["dutchman"], 0)
    placed = E.act(state, 0, ZIGZAG).state
    assert placed.sides[0].ships[0].cells == tuple(cell(c) for c in ZIGZAG.split())
    assert "one group" in refused(state, 0, "A1 B2 C3 D3 E4 G6", IllegalActionError)
    for seed in range(8):
        ship = E.act(E.new_game(MODES["dutchman"], seed), 1, "random").state.sides[1].ships[0]
        assert len(ship.cells) == 6 and len(set(ship.cells)) == 6
        cells = set(ship.cells)
        for c, r in cells:  # every deck has a neighbour among the others (and they connect)
            assert any(
                (c + dc, r + dr) in cells for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr
            )


def test_5_1_nobody_can_tell_whether_the_ship_is_placed_yet() -> None:
    """§2.4 / §3: placement is secret, down to whether the ship stands on the field yet;
    only the ready flag is public."""
    state = E.new_game(MODES["dutchman"], 1)
    placed = E.act(state, 1, FAR).state
    assert placed.sides[1].ships and not state.sides[1].ships
    assert E.view(placed, 0) == E.view(state, 0)
    assert E.view(placed, None) == E.view(state, None)


def test_5_3_any_cell_may_be_shot_again() -> None:
    state = E.act(sailing(), 0, "J10").state  # a miss
    state = E.act(state, 1, "J10").state  # a miss on the other field
    again = E.act(state, 0, "J10")
    assert texts_for(again.events, 0)[0].startswith("J10: miss.")
    assert E.parse_action(state, 0, "J10") in set(E.legal_actions(state, 0))


def test_5_4_a_hit_destroys_a_deck_and_the_owner_may_move_in_secret() -> None:
    hit = E.act(sailing(), 0, "T20")
    state = hit.state
    assert state.sides[1].ships[0].cells == tuple(
        cell(c) for c in ["O15", "P16", "Q17", "R18", "S19"]
    )
    assert E.to_move(state) == {1} and state.pending is not None
    assert texts_for(hit.events, 0)[0].startswith("T20: hit! Their ship has lost 1 deck.")
    assert "`stay`" in texts_for(hit.events, 1)[0]
    refused(state, 0, "A1", IllegalActionError)  # the captain decides first
    assert "one group" in refused(state, 1, "move A1 A2 A3 A4 A6", IllegalActionError)
    assert "5 cells" in refused(state, 1, "move A1 A2 A3", IllegalActionError)
    moved, stayed = E.act(state, 1, "move A10 B11 C10 D11 E10"), E.act(state, 1, "stay")
    assert moved.state.sides[1].ships[0].cells == tuple(
        cell(c) for c in ["A10", "C10", "E10", "B11", "D11"]
    )
    assert stayed.state.sides[1].ships[0].cells == state.sides[1].ships[0].cells
    for seat in (0, None):  # the shooter and the channel cannot tell the two apart
        assert texts_for(moved.events, seat) == texts_for(stayed.events, seat)
        assert E.view(moved.state, seat) == E.view(stayed.state, seat)
    assert moved.state.turn == 0  # and the shooter shoots again
    assert "Shoot again" in texts_for(moved.events, 0)[0]


def test_5_4_the_last_deck_sinks_the_ship_and_wins() -> None:
    state = sailing()
    for target in FAR.split():
        state = E.act(state, 0, target).state
        if state.phase is Phase.PLAY:
            state = E.act(state, 1, "stay").state
    outcome = E.outcome(state)
    assert outcome is not None and outcome.winner == 0
    assert E.view(state, None).fields[1].mark(cell("O15")) is Mark.SUNK


def test_5_5_both_see_every_shot_and_the_decks_lost() -> None:
    state = E.act(E.act(sailing(), 0, "T20").state, 1, "stay").state
    state = E.act(state, 0, "A20").state  # a miss
    for seat in (0, 1, None):
        view = E.view(state, seat)
        assert view.fields[1].decks_lost == 1 and view.fields[0].decks_lost == 0
        assert view.fields[1].mark(cell("T20")) is Mark.HIT
        assert view.fields[1].mark(cell("A20")) is Mark.MISS
    assert E.view(state, 0).fields[1].ships == ()  # where the ship is stays secret
    assert "Your shots at the enemy (1 deck lost)" in E.view(state, 0).text()
    refused(state, 0, "A1", NotYourTurnError)
    said = texts_for(E.act(state, 1, "A1").events, None)[0]
    assert said == (
        f"{name_of(1)} fires at A1: hit! {name_of(0)} may move the ship in secret; "
        f"then {name_of(1)} shoots again."
    )


def test_5_4_moves_are_offered_and_read_back() -> None:
    state = E.act(sailing(), 0, "T20").state
    legal = list(E.legal_actions(state, 1))
    assert act.Stay() in legal and any(isinstance(a, act.MoveShip) for a in legal)
    for action in legal[:20]:
        assert E.parse_action(state, 1, str(action)) == action
    assert E.suggestions(E.view(state, 1), "")[0] == "stay"
    assert E.quick_moves(E.view(state, 1)) == (("Stay", "stay"),)  # a button in the DM
    assert E.quick_moves(E.view(state, 0)) == E.quick_moves(E.view(state, None)) == ()
