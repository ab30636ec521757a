"""Properties of the Warships engine over seeded random games and generated input.

Legal moves apply and read back, refusals change nothing, states survive storage and replay,
every game ends, and (the security property) nothing a player may not see can change what
that player or the channel is shown, down to the image bytes.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import strategies as st

from bot.games.core import SEATS, GameError, Phase, other
from bot.games.grid import cell_name
from bot.games.warships import board, moves
from bot.games.warships.actions import Move
from bot.games.warships.rules import WarshipsRules
from bot.games.warships.state import WarshipsState
from bot.games.warships.units import Kind
from renderers.warships import alt_text, render, render_image
from tests.support.engine_checks import (
    any_text_test,
    assert_edits_refused,
    assert_movers_actions_read_back,
    assert_survives_storage,
)
from tests.support.presented import presented
from tests.support.warships_positions import ENGINE as E
from tests.support.warships_positions import play_step, position, random_game

OPTION_SETS = ["", "harder mobility", "quick manoeuvres", "forget"]


@cache
def game(options: str) -> tuple[tuple[tuple[int, str], ...], tuple[WarshipsState, ...]]:
    """One whole seeded game per option set, with every state it passed through."""
    rules = E.configure(None, options)
    log, _ = random_game(rules, seed=len(options), limit=5000)
    states = [E.new_game(rules, len(options))]
    for seat, text in log:
        states.append(E.act(states[-1], seat, text).state)
    return tuple(log), tuple(states)


def sample_states(options: str, count: int = 8) -> list[WarshipsState]:
    states = game(options)[1]
    step = max(1, len(states) // count)
    return [states[i] for i in range(0, len(states), step)]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_game_ends_with_a_result(options: str) -> None:
    final = game(options)[1][-1]
    assert final.phase is Phase.FINISHED and final.outcome is not None


@pytest.mark.parametrize("options", OPTION_SETS)
def test_legal_actions_apply_and_read_back(options: str) -> None:
    found = assert_movers_actions_read_back(E, sample_states(options), random.Random(options), 12)
    assert all(found)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_json_round_trips_at_every_step(options: str) -> None:
    assert_survives_storage(E, game(options)[1])


def raid_step(state: WarshipsState, seat: int, rng: random.Random) -> str:
    """A random move that goes for the batteries: missile ships head for the enemy's and
    take them out, and ships (or mines) fill a taken-out field of their own port.

    Uniformly random games seldom get that far, yet those positions must survive a reload.
    """
    if state.phase is not Phase.PLAY:
        return play_step(state, seat, rng)
    freed = board.BATTERY_FIELDS[state.shore(seat)] - state.at.keys()
    if freed and rng.random() < 0.8:
        fill = [
            f"{cell_name(p.cell)}-{cell_name(cell)}"
            for p in state.own(seat)
            if p.kind.is_ship
            for cell in freed & moves.destinations(state, p).keys()
        ]
        fill += [f"mine {cell_name(cell)}" for cell in freed & moves.mine_fields(state, seat)]
        if fill:
            return rng.choice(fill)
    standing = [p.cell for p in state.own(other(seat)) if p.kind is Kind.BATTERY]
    raiders = [p for p in state.own(seat) if p.kind is Kind.MISSILE_SHIP]
    if standing and raiders and rng.random() < 0.7:
        raider = rng.choice(raiders)
        for target in moves.targets(state, raider, raider.cell, 0):
            if state.at[target].kind is Kind.BATTERY:
                return f"{cell_name(raider.cell)}x{cell_name(target)}"
        reachable = moves.destinations(state, raider)
        if reachable:
            closest = min(
                reachable, key=lambda cell: min(board.chebyshev(cell, b) for b in standing)
            )
            return f"{cell_name(raider.cell)}-{cell_name(closest)}"
    return play_step(state, seat, rng)


@pytest.mark.parametrize("seed", range(24))
def test_every_state_of_a_raiding_game_reloads(seed: int) -> None:
    """Every position a game passes through is stored and must read back, whatever the
    game does to the batteries (random play reached a taken-out battery's field too rarely
    to show that it did not)."""
    rules = E.configure(None, OPTION_SETS[seed % len(OPTION_SETS)])
    rng = random.Random(seed)
    state = E.new_game(rules, seed)
    for _ in range(300):
        if state.phase is Phase.FINISHED:
            break
        seat = min(E.to_move(state))
        try:
            state = E.act(state, seat, raid_step(state, seat, rng)).state
        except GameError:
            if state.phase is not Phase.SETUP:  # only a random setup swap may be refused
                raise
            continue
        assert_survives_storage(E, [state])


@pytest.mark.parametrize("options", OPTION_SETS)
def test_replaying_the_move_texts_reproduces_the_game(options: str) -> None:
    log, states = game(options)
    state = E.new_game(E.configure(None, options), len(options))
    for seat, text in log:
        state = E.act(state, seat, text).state
    assert state == states[-1]


CELLS = st.sampled_from([f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 19)])
WORDS = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", CELLS, CELLS),
    st.builds(lambda a, b: f"{a}x{b}", CELLS, CELLS),
    st.builds(lambda a, b, c: f"{a}-{b}x{c}", CELLS, CELLS, CELLS),
    st.builds(lambda a, b: f"{a} defuse {b}", CELLS, CELLS),
    st.builds(lambda a: f"mine {a}", CELLS),
    st.builds(lambda a, b: f"swap {a} {b}", CELLS, CELLS),
    st.builds(lambda a: f"place mine {a}", CELLS),
    st.sampled_from(["pass", "ready", "random", "setup BS:A1", "", "Z99", "attack!"]),
    st.text(max_size=20),
)


test_any_text_is_a_move_or_a_refusal_that_changes_nothing = any_text_test(
    E, lambda: sample_states("", 12) + sample_states("harder mobility", 12), WORDS, examples=25
)


def swap_battery_with_ship(data: dict[str, Any]) -> None:
    """A battery and a ship of one side trade fields: a battery off its field, and a ship
    on the field of a battery that was never taken out."""
    pieces = data["pieces"]
    battery = next(p for p in pieces if p[2] == "SB")
    ship = next(p for p in pieces if p[1] == battery[1] and p[2] not in ("SB", "MN"))
    battery[0], ship[0] = ship[0], battery[0]
    pieces.sort(key=lambda p: (int(p[0][1:]), p[0][0]))


def test_corrupted_json_is_refused() -> None:
    data = E.to_json(game("")[1][40])
    assert_edits_refused(
        E,
        data,
        (
            lambda d: d["pieces"].pop(),
            lambda d: d["pieces"][0].__setitem__(0, d["pieces"][1][0]),
            lambda d: d.__setitem__("phase", "nowhere"),
            lambda d: d["sides"][0].__setitem__(2, 9),
            lambda d: d.__setitem__("turn", 5),
            lambda d: d["rules"].__setitem__("harder", "yes"),
            lambda d: d["losses"].append([2, "BS", "A1", "clash", False]),
            lambda d: d.__setitem__("version", 2),
            lambda d: d.__setitem__("quiet", -1),
            swap_battery_with_ship,
        ),
    )


# -- non-interference -------------------------------------------------------------------------


NAMES = ("Zoë \u202eevil", "Борис")
"""Display names drawn on the images; names are public, and must not open a side door."""


def shown_to(state: WarshipsState, audience: int | None) -> tuple[Any, ...]:
    view = E.view(state, audience)
    return (
        view,
        view.text(),
        alt_text(view, NAMES),
        render(view, NAMES),
        presented("warships", state, audience),
        render_image(view, NAMES, replay=True).tobytes(),  # a replay frame's labels
    )


def shuffle_hidden(state: WarshipsState, owner: int, rng: random.Random) -> WarshipsState:
    """``state`` with ``owner``'s face-down types permuted: the opponent cannot tell them apart."""
    hidden = [p for p in state.pieces if p.owner == owner and not p.public and not p.identified]
    kinds = [p.kind for p in hidden]
    rng.shuffle(kinds)
    swapped = {p.cell: replace(p, kind=k) for p, k in zip(hidden, kinds, strict=True)}
    return state.with_pieces([swapped.get(p.cell, p) for p in state.pieces])


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("hidden", SEATS)
def test_hidden_types_change_nothing_the_other_seat_or_the_channel_sees(
    options: str, hidden: int
) -> None:
    rng = random.Random(f"{options}{hidden}")
    for state in sample_states(options, 5):
        if state.phase is not Phase.PLAY:
            continue
        twin = shuffle_hidden(state, hidden, rng)
        assert twin != state or all(p.public or p.identified for p in state.own(hidden))
        for audience in (other(hidden), None):
            assert shown_to(twin, audience) == shown_to(state, audience)


@pytest.mark.parametrize("hidden", SEATS)
def test_a_secret_setup_changes_nothing_the_other_seat_or_the_channel_sees(hidden: int) -> None:
    state = E.new_game(E.presets["classic"], 11)
    twin = E.act(state, hidden, "random").state
    twin = E.act(twin, hidden, "ready").state
    state = E.act(state, hidden, "ready").state
    assert twin.own(hidden) != state.own(hidden)
    for audience in (other(hidden), None):
        assert shown_to(twin, audience) == shown_to(state, audience)


@pytest.mark.parametrize("hidden", SEATS)
@pytest.mark.parametrize("ready", [False, True])
def test_mines_placed_during_setup_change_nothing_the_other_seat_or_the_channel_sees(
    hidden: int, ready: bool
) -> None:
    """§5.2, §5.3 and the ruling that only batteries show during setup: how many mines a
    player has put in port (and so kept in reserve) stays secret until play begins."""
    state = E.new_game(E.presets["classic"], 5)
    twin = state
    for _ in range(3):
        placing = next(a for a in E.legal_actions(twin, hidden) if str(a).startswith("place mine"))
        twin = E.apply(twin, hidden, placing).state
    if ready:
        state, twin = (E.act(s, hidden, "ready").state for s in (state, twin))
    assert twin.sides[hidden].reserve == state.sides[hidden].reserve - 3
    for audience in (other(hidden), None):
        assert shown_to(twin, audience) == shown_to(state, audience)


def test_the_opponents_hidden_types_never_reach_a_view() -> None:
    for options in OPTION_SETS:
        for state in sample_states(options, 6):
            if state.phase is Phase.FINISHED:
                continue
            for seat in SEATS:
                for token in E.view(state, seat).tokens:
                    piece = state.at[token.cell]
                    if piece.owner != seat and token.kind is not None:
                        assert piece.public or piece.identified
                        assert not (state.rules.forget and not piece.public)
            assert all(
                t.kind in (None, Kind.BATTERY, Kind.MINE) for t in E.view(state, None).tokens
            )


def test_rules_survive_json() -> None:
    rules = WarshipsRules(True, False, True, False, True)
    assert WarshipsRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


@pytest.mark.parametrize("options", ["", "harder mobility"])
def test_a_move_tells_the_opponent_and_the_channel_nothing_of_the_movers_hidden_types(
    options: str,
) -> None:
    """Shuffle the mover's face-down types: a move legal in both worlds sounds the same."""
    rng = random.Random(options)
    checked = 0
    for state in sample_states(options, 8):
        if state.phase is not Phase.PLAY or state.turn is None:
            continue
        mover = state.turn
        twin = shuffle_hidden(state, mover, rng)
        moves = [a for a in E.legal_actions(state, mover) if isinstance(a, Move)]
        for action in rng.sample(moves, min(10, len(moves))):
            try:
                other_world = E.apply(twin, mover, action)
            except GameError:
                continue  # the twin's unit on that field cannot go there: a private refusal
            this_world = E.apply(state, mover, action)
            for audience in (other(mover), None):
                assert this_world.for_audience(audience) == other_world.for_audience(audience)
                assert shown_to(this_world.state, audience) == shown_to(other_world.state, audience)
            checked += 1
    assert checked > 0


CROWD = """
   D  E  F  G  H
9  .  cr bs dd .
8  .  ss CR mn .
7  ms .  es .  .
6  .  mw DD ls .
5  .  .  .  .  .
"""
"""South's ships among North's tokens of every type, a few steps out of North's reach."""


def _refusal(state: WarshipsState, seat: int, text: str) -> str | None:
    try:
        E.act(state, seat, text)
    except GameError as error:
        return str(error)
    return None


@pytest.mark.parametrize("options", ["", "harder mobility"])
def test_a_refused_move_reads_the_same_whatever_the_enemys_hidden_types(options: str) -> None:
    """§16.1: a refusal names the tokens in the way by field, never an enemy's hidden type."""
    rng = random.Random(f"refusals {options}")
    checked = 0
    rules = E.configure(None, options)
    for state in [position(CROWD, rules=rules), *sample_states(options, 8)]:
        if state.phase is not Phase.PLAY or state.turn is None:
            continue
        mover = state.turn
        twin = shuffle_hidden(state, other(mover), rng)
        assert twin != state
        ships = [p for p in state.own(mover) if p.kind.is_ship]
        for piece in rng.sample(ships, min(6, len(ships))):
            for end in board.ALL_FIELDS:
                if 0 < board.chebyshev(piece.cell, end) <= 5:
                    text = f"{cell_name(piece.cell)}-{cell_name(end)}"
                    refusal = _refusal(state, mover, text)
                    assert refusal == _refusal(twin, mover, text)
                    checked += refusal is not None and "enemy token" in refusal
    assert checked > 0, "no refusal named an enemy token"
