"""Seeded random Sea Battle games for the property tests: setup walks, shot walks and whole
games, with the hypothesis settings they run under.

Every walk draws from a ``random.Random`` seeded by the test, so a failure names the seed
that reproduces it, and whole games are cached: the tests that replay one share it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from hypothesis import strategies as st

from bot.games.core import SEATS, Phase, Transition, other
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from tests.support.engine_checks import seeded
from tests.support.seabattle_positions import ENGINE as E
from tests.support.seabattle_positions import MODES

PRESETS = list(MODES)
GAME_SEEDS = range(3)
"""Whole random games per preset, shared (cached) by every test that replays them."""
SEEDED = seeded(8)
"""Few, fixed examples, each a game built from a seed (see
:func:`tests.support.engine_checks.seeded`)."""

seeds = st.integers(min_value=0, max_value=2**32 - 1)
"""Any seed a game may have."""

Step = tuple[int, act.Action]


# -- random play ------------------------------------------------------------------------------


def setup_step(state: SeaBattleState, seat: int, rng: random.Random) -> act.Action:
    """A random legal setup move, leaning towards placing ships and confirming full fleets."""
    legal = list(E.legal_actions(state, seat))
    placements = [a for a in legal if isinstance(a, act.PlaceShip)]
    roll = rng.random()
    if act.Ready() in legal and roll < 0.4:
        return act.Ready()
    if placements and roll < 0.85:
        return rng.choice(placements)
    return rng.choice(legal)


def walk_setup(
    state: SeaBattleState,
    rng: random.Random,
    seats: tuple[int, ...] = SEATS,
    steps: int = 40,
    *,
    finish: bool = True,
) -> Iterator[tuple[int, act.Action, Transition]]:
    """Random setup moves by ``seats``; after ``steps``, with ``finish``, every seat still
    placing takes a random fleet and confirms it, so the walk ends with those seats ready."""
    for _ in range(steps):
        movers = [seat for seat in seats if seat in E.to_move(state)]
        if not movers or state.phase is not Phase.SETUP:
            return
        seat = rng.choice(movers)
        action = setup_step(state, seat, rng)
        transition = E.apply(state, seat, action)
        yield seat, action, transition
        state = transition.state
    for seat in seats if finish else ():
        for action in (act.RandomFleet(), act.Ready()):
            if state.phase is Phase.SETUP and seat in E.to_move(state):
                transition = E.apply(state, seat, action)
                yield seat, action, transition
                state = transition.state


def walk_play(
    state: SeaBattleState, rng: random.Random, limit: int | None = None
) -> Iterator[tuple[int, act.Action, Transition]]:
    """Random legal shots until the game ends (or ``limit`` shots)."""
    count = 0
    while state.phase is Phase.PLAY and (limit is None or count < limit):
        (seat,) = E.to_move(state)
        shot = rng.choice(list(E.legal_actions(state, seat)))
        if state.rules.dutchman and state.pending is None and rng.random() < 0.1:
            # On 400 cells a random shot finds the moving ship once in ~70: aim now and then.
            shot = act.Shot(rng.choice(state.sides[other(seat)].ships[0].cells))
        transition = E.apply(state, seat, shot)
        yield seat, shot, transition
        state = transition.state
        count += 1


@cache
def full_game(
    preset: str, seed: int
) -> tuple[SeaBattleState, tuple[Step, ...], tuple[SeaBattleState, ...]]:
    """A whole random game: the start, every move made, and every state reached."""
    rng = random.Random(seed)
    start = E.new_game(MODES[preset], seed)
    steps: list[Step] = []
    states = [start]
    for seat, action, transition in walk_setup(start, rng):
        steps.append((seat, action))
        states.append(transition.state)
    for seat, action, transition in walk_play(states[-1], rng):
        steps.append((seat, action))
        states.append(transition.state)
    return start, tuple(steps), tuple(states)
