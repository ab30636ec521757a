"""Properties of the Sea Battle engine over seeded random playouts and generated input.

The rule tests pin single clauses on hand-drawn positions; these tests check what must hold in
every position the engine can reach: legal moves apply and read back, refusals change
nothing, states survive replay, and games end. That nothing a player may not see can change
what that player or the channel is shown is proven in ``test_secrecy``; what is
stored, in ``test_json``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.core import (
    SEATS,
    EndReason,
    GameError,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    Phase,
    other,
)
from bot.games.seabattle import actions as act
from bot.games.seabattle.state import SeaBattleState
from tests.support.seabattle_playouts import GAME_SEEDS, PRESETS, full_game
from tests.support.seabattle_positions import ENGINE as E
from tests.support.seabattle_positions import MODES, fleet_faults, random_ready_game, side_faults

APPLIED = 40
"""How many of a position's legal actions are applied (all of them are parsed back)."""


@cache
def state_pool() -> tuple[SeaBattleState, ...]:
    """States from every phase of every preset, shared by the generated-input tests."""
    pool: list[SeaBattleState] = []
    for index, preset in enumerate(PRESETS):
        _, _, states = full_game(preset, 1000 + index)
        playing = [s for s in states if s.phase is Phase.PLAY]
        setup = [s for s in states if s.phase is Phase.SETUP]
        pool += setup[:: max(1, len(setup) // 4)]
        pool += playing[:: max(1, len(playing) // 6)]
        pool.append(states[-1])
        pool.append(E.conclude(playing[len(playing) // 2], Outcome(0, EndReason.RESIGNATION)))
    return tuple(pool)


pooled = st.deferred(lambda: st.sampled_from(state_pool()))


# -- legal moves and notation -----------------------------------------------------------------


@pytest.mark.parametrize("seed", GAME_SEEDS)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_action_applies_and_reads_back(preset: str, seed: int) -> None:
    """Whatever ``legal_actions`` offers must be accepted, and its text must parse back to it:
    autocomplete and the referee rely on both, in every phase."""
    rng = random.Random(seed)
    _, _, states = full_game(preset, seed)
    sample = (*states[:: max(1, len(states) // 12)], states[-1])
    for state in sample:
        for seat in SEATS:
            legal = list(E.legal_actions(state, seat))
            if seat not in E.to_move(state):
                assert legal == []
                continue
            assert legal, "a seat that may move must have a move"
            for action in legal:
                assert E.parse_action(state, seat, str(action)) == action, str(action)
            for action in rng.sample(legal, min(len(legal), APPLIED)):
                transition = E.apply(state, seat, action)
                if state.phase is Phase.SETUP and not isinstance(action, act.Ready):
                    assert {event.audience for event in transition.events} == {seat}
                if isinstance(action, act.PlaceShip):
                    ships = transition.state.sides[seat].ships
                    assert side_faults(state.rules, ships, complete=False) == []


# -- refusals change nothing ------------------------------------------------------------------


def assert_refused_unchanged(
    state: SeaBattleState, attempt: Callable[[], object], error: type[GameError] = GameError
) -> None:
    before, stored = copy.deepcopy(state), E.to_json(state)
    with pytest.raises(error):
        attempt()
    assert state == before
    assert E.to_json(state) == stored


garbage = st.one_of(
    st.text(max_size=30),
    st.from_regex(r"[A-Za-z]{0,3} ?[0-9]{0,3}( ?(-|to)? ?[A-Za-z]?[0-9]{0,3})?", fullmatch=True),
    st.sampled_from(["remove", "remove Z1", "ready!", "A1 A4 A7", "`A1`", "A1\nA2", "#1 B5"]),
)


@settings(max_examples=300, deadline=None)
@given(state=pooled, seat=st.sampled_from(SEATS), text=garbage)
def test_any_text_is_a_move_or_a_refusal_that_changes_nothing(
    state: SeaBattleState, seat: int, text: str
) -> None:
    """Players type anything: the engine either accepts it or refuses with a GameError (never
    another exception), and a refusal leaves the state as it was."""
    before = E.to_json(state)
    with contextlib.suppress(GameError):
        E.act(state, seat, text)
    assert E.to_json(state) == before


@settings(max_examples=150, deadline=None)
@given(state=pooled, data=st.data())
def test_repeated_and_out_of_turn_shots_are_refused(state: SeaBattleState, data: Any) -> None:
    """§2.6 / §2.7: a cell shot before, or any shot out of turn, is refused without effect."""
    size = state.rules.size
    cell = data.draw(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1)))
    if state.phase is not Phase.PLAY:
        for seat in SEATS:
            assert_refused_unchanged(state, lambda s=seat: E.apply(state, s, act.Shot(cell)))
        return
    turn = state.turn
    assert turn is not None
    assert_refused_unchanged(
        state, lambda: E.apply(state, other(turn), act.Shot(cell)), NotYourTurnError
    )
    if state.shots[turn] and not state.rules.dutchman:  # §5.3 lets the Dutchman repeat
        again = data.draw(st.sampled_from(sorted(state.shots[turn])))
        assert_refused_unchanged(
            state, lambda: E.apply(state, turn, act.Shot(again)), IllegalActionError
        )


@settings(max_examples=200, deadline=None)
@given(state=pooled, seat=st.sampled_from(SEATS), data=st.data())
def test_placements_are_accepted_exactly_when_the_rules_allow(
    state: SeaBattleState, seat: int, data: Any
) -> None:
    """§2.1-2.3 / §4.1 / §4.2: a placement succeeds if and only if the fleet stays legal (by an
    independent reading of the rules), and a refused one changes nothing."""
    size = state.rules.size
    cells = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
    start = data.draw(cells)
    end = data.draw(
        st.one_of(
            cells,
            st.integers(0, 5).map(lambda n: (start[0] + n, start[1])),
            st.integers(0, 5).map(lambda n: (start[0], start[1] + n)),
        ).filter(lambda c: c[0] < size and c[1] < size)
    )
    action = act.PlaceShip(start, end)
    (c1, r1), (c2, r2) = sorted((start, end))
    line = (
        tuple((c1, r) for r in range(r1, r2 + 1))
        if c1 == c2
        else tuple((c, r1) for c in range(c1, c2 + 1))
    )
    placing = state.phase is Phase.SETUP and not state.sides[seat].ready
    rules = state.rules
    side = state.sides[seat]
    kinds = [ship.kind for ship in side.ships]
    submarine = kinds.index(rules.submarine_kind) if rules.submarine_kind in kinds else None
    # A plain placement is never the §4.8 submarine (that one is `sub J10`).
    left = Counter(k.length for i, k in enumerate(rules.fleet) if i != rules.submarine_kind)
    left.subtract(len(ship.cells) for ship in side.ships if ship.kind != rules.submarine_kind)
    pieces = {*side.mines, *side.sweepers}
    reach = 0 if rules.free_mines else 1
    near_piece = any(
        (c + dc, r + dr) in pieces
        for c, r in line
        for dc in range(-reach, reach + 1)
        for dr in range(-reach, reach + 1)
    )
    fits = (
        (c1 == c2 or r1 == r2)
        and fleet_faults(
            rules,
            [ship.cells for ship in side.ships] + [line],
            complete=False,
            submarine=submarine,
        )
        == []
        and left[len(line)] > 0
        and not near_piece
    )
    if placing and fits:
        new = E.apply(state, seat, action).state
        assert line in [ship.cells for ship in new.sides[seat].ships]
        assert (action in set(E.legal_actions(state, seat))) == (start <= end)
    else:
        assert_refused_unchanged(state, lambda: E.apply(state, seat, action))


# -- games end, and replay reproduces them ----------------------------------------------------


@pytest.mark.parametrize("seed", GAME_SEEDS)
@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_end_with_a_winner(preset: str, seed: int) -> None:
    """§2.8 / §4.3 / §4.8 / §5: every game ends, within size*size*2 shots, with the
    fleet-sinker as winner, or a draw when equal rounds or a dying shot sink both fleets."""
    _, steps, states = full_game(preset, seed)
    final = states[-1]
    rules = final.rules
    fired = [
        cell
        for _, action in steps
        for cell in (
            action.cells
            if isinstance(action, act.Salvo)
            else (action.cell,)
            if isinstance(action, act.Shot)
            else ()
        )
    ]
    dying = len(final.log) - len(fired)  # §4.8: dying shots are logged as their owner's
    assert dying == 0 or (rules.submarine and dying > 0)
    assert len(final.log) <= rules.size * rules.size * 2
    outcome = E.outcome(final)
    assert final.phase is Phase.FINISHED and outcome is not None
    assert outcome.reason is EndReason.RULES
    fleet = len(rules.fleet)
    if outcome.winner is None:
        assert rules.equal_rounds or rules.submarine
        assert len(final.sunk(0)) == len(final.sunk(1)) == fleet
        return
    loser = other(outcome.winner)
    assert len(final.sunk(loser)) == fleet
    assert len(final.sunk(outcome.winner)) < fleet
    last_salvo = rules.equal_rounds and final.log[-1][0] == loser
    assert final.log[-1][0] == outcome.winner or last_salvo or rules.submarine


@pytest.mark.parametrize("seed", GAME_SEEDS)
@pytest.mark.parametrize("preset", PRESETS)
def test_replaying_the_move_texts_reproduces_the_game(preset: str, seed: int) -> None:
    """Storage keeps the seed and the move texts: replaying them must rebuild the same state."""
    start, steps, states = full_game(preset, seed)
    replayed = E.new_game(start.rules, start.seed)
    for seat, action in steps:
        replayed = E.act(replayed, seat, str(action)).state
    assert replayed == states[-1]
    assert E.to_json(replayed) == E.to_json(states[-1])


@pytest.mark.parametrize("mode", sorted(MODES))
def test_fields_carried_over_a_shot_are_the_fields_built_anew(mode: str) -> None:
    """A plain shot, sinking or not, hands the next state the fields already built
    (``carry_fields``): every view of every state of a seeded game, the carried fields
    included, must be exactly what the state builds from nothing, through sinkings,
    mines, disclosures and the end."""
    rng = random.Random(f"carry {mode}")
    state = random_ready_game(mode, rng.randrange(1 << 30))
    carried = sinkings_carried = 0
    for _ in range(300):
        for seat in (0, 1, None):
            E.view(state, seat)  # as the referee builds a move's views before the next
        movers = sorted(E.to_move(state))
        if not movers:
            break
        seat = rng.choice(movers)
        sunk_before = len(state.sunk(0)) + len(state.sunk(1))
        state = E.apply(state, seat, rng.choice(list(E.legal_actions(state, seat)))).state
        carried += bool(state.fields_shown)
        sank = len(state.sunk(0)) + len(state.sunk(1)) > sunk_before
        sinkings_carried += sank and bool(state.fields_shown)
        anew = E.from_json(json.loads(json.dumps(E.to_json(state))))
        assert not anew.fields_shown
        for seat in (0, 1, None):
            assert E.view(state, seat) == E.view(anew, seat), (mode, len(state.log), seat)
    rules = MODES[mode]
    assert carried > 0 or rules.salvo or rules.dutchman, "no shot carried any field over"
    plain = not (rules.salvo or rules.dutchman or rules.mines or rules.sweepers)
    assert sinkings_carried > 0 or not plain, "no sinking carried its fields over"
