"""Non-interference for Sea Battle, the security property: over seeded random games, two
states that differ only in what one seat may not see give that seat and the channel the
same views, answers, refusals, texts, image bytes and alt texts.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.core import SEATS, Phase, Transition, other
from bot.games.grid import Cell
from bot.games.seabattle import actions as act
from bot.games.seabattle.fleet import Ship, spacing_zone
from bot.games.seabattle.mines import touching
from bot.games.seabattle.salvo import salvo_size
from bot.games.seabattle.state import SeaBattleState
from bot.referee import status_line
from renderers.seabattle import alt_text, render
from tests.support.presented import presented
from tests.support.seabattle_playouts import (
    PRESETS,
    SEEDED,
    seeds,
    setup_step,
    walk_play,
    walk_setup,
)
from tests.support.seabattle_positions import ENGINE as E
from tests.support.seabattle_positions import MODES, random_ready_game, side_faults

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
            # ``confirm``: a cell the seat's board shows empty is shot on purpose here.
            shot = act.Shot(picked[0], confirmed=True)
            mover, action = seat, act.Salvo(picked) if one.rules.salvo else shot
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
