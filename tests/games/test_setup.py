"""The setup phase's shared piece: one ``ready`` word and one both-ready handshake for every
game that has a setup phase (Sea Battle, Luzhanqi, Warships)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from bot.games import setup
from bot.games.core import Phase, Transition
from bot.games.luzhanqi import actions as luzhanqi_actions
from bot.games.seabattle import actions as seabattle_actions
from bot.games.warships import actions as warships_actions


@pytest.mark.parametrize("actions", [seabattle_actions, luzhanqi_actions, warships_actions])
def test_every_game_with_a_setup_reads_ready_as_the_shared_word(actions: object) -> None:
    assert actions.Ready is setup.Ready
    assert str(setup.Ready()) == "ready"


@dataclass(frozen=True)
class _Side:
    ready: bool = False


@dataclass(frozen=True)
class _State:
    sides: tuple[_Side, _Side] = (_Side(), _Side())
    started: bool = False
    phase: Phase = Phase.SETUP
    turn: int | None = None

    def with_side(self, seat: int, side: _Side) -> _State:
        sides = (side, self.sides[1]) if seat == 0 else (self.sides[0], side)
        return replace(self, sides=sides)


def _start(state: _State) -> Transition:
    return Transition(replace(state, started=True), ())


def test_the_first_seat_to_confirm_waits_and_only_it_and_the_channel_hear_of_it() -> None:
    done = setup.confirm_ready(_State(), 1, ("You wait.", "North is ready."), _start)
    assert done.state.sides == (_Side(False), _Side(True))
    assert not done.state.started
    assert [(e.audience, e.text) for e in done.events] == [
        (1, "You wait."),
        (None, "North is ready."),
    ]


def test_the_second_seat_to_confirm_starts_play_with_both_sides_ready() -> None:
    waiting = _State(sides=(_Side(True), _Side(False)))
    done = setup.confirm_ready(waiting, 1, ("You wait.", "North is ready."), _start)
    assert done.state.started
    assert done.state.sides == (_Side(True), _Side(True))
    assert done.events == ()


def test_during_setup_the_seats_still_to_confirm_move_then_the_seat_whose_turn_it_is() -> None:
    assert setup.movers(_State()) == {0, 1}
    assert setup.movers(_State(sides=(_Side(True), _Side(False)))) == {1}
    assert setup.movers(_State(phase=Phase.PLAY, turn=0)) == {0}
    assert setup.movers(_State(phase=Phase.FINISHED)) == frozenset()
