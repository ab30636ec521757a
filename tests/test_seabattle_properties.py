"""Properties of the Sea Battle engine over seeded random playouts and generated input.

The rule tests pin single clauses on hand-drawn positions; these tests check what must hold in
every position the engine can reach: legal moves apply and read back, refusals change
nothing, states survive storage and replay, games end, and (the security property) nothing a
player may not see can change what that player or the channel is shown.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from bot.games.core import (
    SEATS,
    CorruptStateError,
    EndReason,
    GameError,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    Phase,
    Transition,
    other,
)
from bot.games.grid import Cell
from bot.games.seabattle import actions as act
from bot.games.seabattle.fleet import Ship, spacing_zone
from bot.games.seabattle.mines import touching
from bot.games.seabattle.salvo import salvo_size
from bot.games.seabattle.state import SeaBattleState
from bot.referee import status_line
from renderers.seabattle import alt_text, render
from tests.presented import presented
from tests.seabattle_positions import ENGINE, MODES, fleet_faults, random_ready_game, side_faults

E = ENGINE
PRESETS = list(MODES)
GAME_SEEDS = range(3)
"""Whole random games per preset, shared (cached) by every test that replays them."""
SEEDED = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    phases=(Stage.explicit, Stage.generate),
)
"""Few, fixed examples, each a game built from a seed. Shrinking is off: a smaller seed is not
a simpler game, so it would only spend time; a failure reports its seed."""

Step = tuple[int, act.Action]
APPLIED = 40
"""How many of a position's legal actions are applied (all of them are parsed back)."""


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
seeds = st.integers(min_value=0, max_value=2**32 - 1)


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


# -- storage ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset",
    list(PRESETS),
)
def test_json_round_trips_at_every_step(preset: str) -> None:
    """Storage saves after every move: each state must load back equal, through real JSON."""
    for seed in GAME_SEEDS[:2]:
        for state in full_game(preset, seed)[2]:
            text = json.dumps(E.to_json(state))
            assert E.from_json(json.loads(text)) == state, seed


def test_json_round_trips_a_partial_fleet_with_same_length_kinds() -> None:
    """§4.2 fleet, §2.4 setup: place the cruiser and the submarine (both 3 cells), take the
    cruiser back, save and load. Every state a player can reach must be storable."""
    state = E.new_game(E.presets["milton-bradley"], 0)
    for text in ("A1 A3", "C1 C3", "remove A1"):
        state = E.act(state, 0, text).state
    assert [E.presets["milton-bradley"].fleet[s.kind].name for s in state.sides[0].ships] == [
        "submarine"
    ]
    assert E.from_json(json.loads(json.dumps(E.to_json(state)))) == state


def corrupt_cases() -> dict[str, Callable[[dict[str, Any]], None]]:
    """Ways stored data can go bad, each as an edit of a saved game in play."""

    def off_board(data: dict[str, Any]) -> None:
        size = data["rules"]["size"]
        kind, cells = data["sides"][0]["ships"][0]
        data["sides"][0]["ships"][0] = [kind, [f"{chr(ord('A') + size)}{c[1:]}" for c in cells]]

    def shot_twice(data: dict[str, Any]) -> None:
        data["log"].append(list(data["log"][0]))

    def overlap(data: dict[str, Any]) -> None:
        ships = data["sides"][1]["ships"]
        kind, cells = ships[-1]
        ships[-1] = [kind, ships[0][1][: len(cells)]]

    def bent(data: dict[str, Any]) -> None:
        ships = data["sides"][0]["ships"]
        kind, cells = ships[0]
        first = cells[0]
        ships[0] = [
            kind,
            [first, *[f"{chr(ord(first[0]) + i)}{int(first[1:]) + i}" for i in (1, 2)]],
        ]

    def one_ship_too_many(data: dict[str, Any]) -> None:
        data["sides"][0]["ships"].append(copy.deepcopy(data["sides"][0]["ships"][-1]))

    def shooter_three(data: dict[str, Any]) -> None:
        data["log"][0][0] = 3

    def play_without_turn(data: dict[str, Any]) -> None:
        data["turn"] = None

    def bad_turn(data: dict[str, Any]) -> None:
        data["turn"] = 2

    def unready_in_play(data: dict[str, Any]) -> None:
        data["sides"][1]["ready"] = False

    def finished_without_outcome(data: dict[str, Any]) -> None:
        data["phase"] = "finished"

    def bad_phase(data: dict[str, Any]) -> None:
        data["phase"] = "halftime"

    def impossible_rules(data: dict[str, Any]) -> None:
        data["rules"]["size"] = 99

    def bad_touching(data: dict[str, Any]) -> None:
        data["rules"]["touching"] = "sometimes"

    return {
        "ship moved off board": off_board,
        "cell shot twice": shot_twice,
        "ships overlap": overlap,
        "ship bent": bent,
        "one ship too many": one_ship_too_many,
        "shot by seat 3": shooter_three,
        "play without a turn": play_without_turn,
        "turn of seat 2": bad_turn,
        "unready fleet in play": unready_in_play,
        "finished without outcome": finished_without_outcome,
        "unknown phase": bad_phase,
        "impossible rules": impossible_rules,
        "unknown touching": bad_touching,
        **{
            f"version {version!r}": (lambda v: lambda data: data.__setitem__("version", v))(version)
            for version in (0, 2, None, "1")
        },
        "no version": lambda data: data.pop("version"),
    }


@cache
def saved_game(preset: str) -> dict[str, Any]:
    state = random_ready_game(preset, 5)
    for _, _, transition in walk_play(state, random.Random(5), limit=6):
        state = transition.state
    assert state.phase is Phase.PLAY and state.log
    return E.to_json(state)


FREE_FORM_LEGAL = {"ships overlap", "ship bent"}
"""Edits that leave a Flying Dutchman legal: it has one ship, of any shape (§5.2)."""


@pytest.mark.parametrize(
    ("preset", "case"),
    [
        (preset, case)
        for case in corrupt_cases()
        for preset in PRESETS
        if not (MODES[preset].dutchman and case in FREE_FORM_LEGAL)
    ],
)
def test_corrupted_json_is_refused(preset: str, case: str) -> None:
    """Stored data is re-validated on load: bad data raises CorruptStateError, never loads."""
    data = copy.deepcopy(saved_game(preset))
    corrupt_cases()[case](data)
    with pytest.raises(CorruptStateError):
        E.from_json(data)


def set_kind(value: int) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["sides"][0]["ships"][-1][0] = value

    return edit


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(set_kind(99), id="ship kind 99"),
        pytest.param(set_kind(-1), id="ship kind -1"),
        pytest.param(lambda data: data.pop("rules"), id="no rules"),
        pytest.param(lambda data: data.pop("sides"), id="no sides"),
    ],
)
def test_corrupted_json_is_refused_not_crashed(edit: Callable[[dict[str, Any]], None]) -> None:
    """The contract says ``from_json`` raises CorruptStateError on bad data; any other
    exception, or loading a fleet that the rules do not allow, breaks storage's error path."""
    data = copy.deepcopy(saved_game("classic"))
    edit(data)
    with pytest.raises(CorruptStateError):
        E.from_json(data)


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


# -- non-interference -------------------------------------------------------------------------


NAMES = ("Zoë \u202eevil", "Борис")
"""Display names drawn on the images; names are public, and must not open a side door."""


def public_to(state: SeaBattleState, seat: int) -> tuple[Any, ...]:
    """Everything the bot shows ``seat`` and the channel about ``state``: the engine's views
    and answers, and the board images and alt texts down to the byte (with and without
    players' names)."""
    mine, channel = E.view(state, seat), E.view(state, None)
    return (
        mine,
        mine.text(),
        render(mine),
        alt_text(mine),
        render(mine, NAMES),
        alt_text(mine, NAMES),
        channel,
        channel.text(),
        render(channel),
        alt_text(channel),
        render(channel, NAMES),
        alt_text(channel, NAMES),
        status_line(mine, E.outcome(state)),
        status_line(channel, E.outcome(state)),
        E.to_move(state),
        E.outcome(state),
        E.has_started(state),
        list(E.legal_actions(state, seat)),
        E.suggestions(mine, ""),
        presented("seabattle", state, seat),
        presented("seabattle", state, None),
    )


def heard_by(transition: Transition, seat: int) -> tuple[Any, ...]:
    return transition.for_audience(seat), transition.for_audience(None)


def content(state: SeaBattleState, owner: int, cell: Cell) -> object:
    """What lies on ``cell`` of ``owner``'s field: a ship, a mine, a minesweeper or nothing."""
    side = state.sides[owner]
    return side.ship_at(cell), cell in side.mines, cell in side.sweepers


def same_answer_cells(one: SeaBattleState, two: SeaBattleState, owner: int) -> list[Cell]:
    """Cells not yet shot on ``owner``'s field that hold the same thing in both states."""
    fired = one.shots[other(owner)]
    size = one.rules.size
    return [
        (column, row)
        for row in range(size)
        for column in range(size)
        if (column, row) not in fired
        and content(one, owner, (column, row)) == content(two, owner, (column, row))
    ]


def assert_indistinguishable(
    one: SeaBattleState, two: SeaBattleState, seat: int, rng: random.Random, moves: int = 4
) -> None:
    """``one`` and ``two`` differ only in the opponent's secrets: ``seat`` and the channel must
    be shown the same, now and after the same next moves.

    A shot by ``seat`` whose answer would differ is the one thing that may tell the states
    apart (that is what a shot is for), so ``seat`` only fires at cells that hold the same in
    both; the opponent's shots and ``seat``'s own setup moves are unrestricted.
    """
    hidden = other(seat)
    for _ in range(moves):
        assert public_to(one, seat) == public_to(two, seat)
        movers = E.to_move(one)
        if one.pending is not None and one.pending.seat == hidden:
            return  # the hidden player now discloses a cell: that is what it is for
        if one.pending is not None:
            mover, action = seat, rng.choice(list(E.legal_actions(one, seat)))
        elif one.phase is Phase.SETUP and seat in movers:
            mover, action = seat, setup_step(one, seat, rng)
        elif one.phase is Phase.PLAY and one.turn == seat:
            cells = same_answer_cells(one, two, hidden)
            k = salvo_size(one, seat) if one.rules.salvo else 1
            if len(cells) < k or not cells:
                return
            picked = tuple(rng.sample(cells, k))
            mover, action = seat, act.Salvo(picked) if one.rules.salvo else act.Shot(picked[0])
        elif one.phase is Phase.PLAY:
            mover, action = hidden, rng.choice(list(E.legal_actions(one, hidden)))
        else:
            return
        first, second = E.apply(one, mover, action), E.apply(two, mover, action)
        assert heard_by(first, seat) == heard_by(second, seat), action
        one, two = first.state, second.state
        if one.phase is Phase.FINISHED:
            assert two.phase is Phase.FINISHED and E.outcome(one) == E.outcome(two)
            return


@pytest.mark.parametrize("hidden", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
@settings(SEEDED, max_examples=5)
@given(seed=seeds, ready=st.booleans(), watcher_steps=st.integers(0, 12))
def test_setup_secrets_do_not_leak(
    preset: str, hidden: int, seed: int, ready: bool, watcher_steps: int
) -> None:
    """§2.4 / §3: while fleets are placed, the opponent's placement progress (which ships,
    where, how many random draws) must not show in the watcher's view or the channel's, nor
    in what either hears when the watcher moves; only the public ready flag may show."""
    seat = other(hidden)
    rng = random.Random(seed)
    state = E.new_game(MODES[preset], seed)
    finish = rng.random() < 0.5
    for _, _, transition in walk_setup(state, rng, (seat,), watcher_steps, finish=finish):
        state = transition.state

    def hide(draw: random.Random) -> SeaBattleState:
        variant = state
        steps = draw.randrange(0, 16)
        if ready:
            for _, _, transition in walk_setup(variant, draw, (hidden,), steps=steps):
                variant = transition.state
            return variant
        for _ in range(steps):
            action = setup_step(variant, hidden, draw)
            if isinstance(action, act.Ready):
                continue
            variant = E.apply(variant, hidden, action).state
        return variant

    one, two = hide(random.Random(rng.random())), hide(random.Random(rng.random()))
    assert one.sides[hidden].ready == two.sides[hidden].ready == ready
    assert one.sides[seat] == two.sides[seat]
    if one.sides[hidden].ships != two.sides[hidden].ships:
        assert E.view(one, hidden) != E.view(two, hidden), "the pair must really differ"
    assert_indistinguishable(one, two, seat, rng)


def relocate(state: SeaBattleState, owner: int, rng: random.Random) -> SeaBattleState | None:
    """Move every ship of ``owner`` that has no hit to another legal place never shot at.

    The answers given so far stay true in the new state, so it is one the opponent cannot
    tell from ``state``. Returns None if some ship finds no room in a few tries.
    """
    rules = state.rules
    fired = state.shots[other(owner)]
    side = state.sides[owner]
    ships = side.ships
    known = {cell for who, cell in state.disclosures if who == owner}
    movable = [
        i
        for i, ship in enumerate(ships)
        if fired.isdisjoint(ship.cells) and known.isdisjoint(ship.cells)
    ]
    fixed = [ship for i, ship in enumerate(ships) if i not in movable]
    pieces = (*side.mines, *side.sweepers)
    near_pieces = {c for cell in pieces for c in touching(rules, cell)}
    for _ in range(10):
        placed = list(fixed)
        moved: dict[int, Ship] = {}
        for index in rng.sample(movable, len(movable)):
            taken = {cell for ship in placed for cell in ship.cells}
            blocked = fired | taken | spacing_zone(rules, taken) | near_pieces
            length = len(ships[index].cells)
            options = [
                cells
                for column in range(rules.size)
                for row in range(rules.size)
                for dc, dr in ((1, 0), (0, 1))
                if (cells := tuple((column + dc * i, row + dr * i) for i in range(length)))
                and cells[-1][0] < rules.size
                and cells[-1][1] < rules.size
                and blocked.isdisjoint(cells)
            ]
            if not options:
                break
            moved[index] = Ship(ships[index].kind, rng.choice(options))
            placed.append(moved[index])
        else:
            new_ships = tuple(moved.get(i, ship) for i, ship in enumerate(ships))
            return state.with_side(owner, replace(side, ships=new_ships))
    return None


def relocate_mines(state: SeaBattleState, owner: int, rng: random.Random) -> SeaBattleState:
    """Move each of ``owner``'s mines and minesweepers that was neither shot nor disclosed
    to a random legal cell never shot at, if one is found."""
    rules = state.rules
    fired = state.shots[other(owner)]
    side = state.sides[owner]
    known = {cell for who, cell in state.disclosures if who == owner}
    ship_cells = [cell for ship in side.ships for cell in ship.cells]
    mines, sweepers = list(side.mines), list(side.sweepers)
    for items in (mines, sweepers):
        for index, cell in enumerate(items):
            if cell in fired or cell in known:
                continue
            items[index] = (-1, -1)  # lifted while its new place is chosen
            others = [c for c in (*mines, *sweepers) if c != (-1, -1)]
            blocked = fired | {
                c for piece in (*ship_cells, *others) for c in touching(rules, piece)
            }
            free = [
                (c, r)
                for r in range(rules.size)
                for c in range(rules.size)
                if (c, r) not in blocked
            ]
            items[index] = rng.choice(free) if free else cell
    return state.with_side(owner, replace(side, mines=tuple(mines), sweepers=tuple(sweepers)))


@pytest.mark.parametrize("hidden", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
@settings(SEEDED, max_examples=8)
@given(seed=seeds, shots=st.integers(0, 120))
def test_unhit_ship_positions_do_not_leak(preset: str, hidden: int, seed: int, shots: int) -> None:
    """§3 (the key security property): relocating the hidden player's unhit ships to places
    never shot at must not change anything the watcher or the channel is shown or told,
    now or after the next moves, as long as no shot lands where the two states differ."""
    seat = other(hidden)
    rng = random.Random(seed)
    state = random_ready_game(preset, seed)
    for _, _, transition in walk_play(state, rng, limit=shots):
        if transition.state.phase is not Phase.PLAY:
            break
        state = transition.state
    moved = relocate(state, hidden, rng)
    if moved is None:
        return
    moved = relocate_mines(moved, hidden, rng)
    assert side_faults(state.rules, moved.sides[hidden].ships) == []
    assert E.from_json(E.to_json(moved)) == moved
    assert moved.sides[seat] == state.sides[seat] and moved.log == state.log
    if moved.sides[hidden] != state.sides[hidden]:
        assert E.view(moved, hidden) != E.view(state, hidden), "the pair must really differ"
    assert_indistinguishable(state, moved, seat, rng)
