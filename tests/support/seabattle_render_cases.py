"""Sea Battle views for the image tests, built through the engine as games reach them: each
board size and optional module in setup, in play and finished, seen by a seat and by the
channel, with small helpers to read the pixels back."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.games import ENGINES
from bot.games.core import EndReason, Outcome, Phase, other
from bot.games.grid import Cell, cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark, SeaBattleView
from renderers.seabattle import panel_fields
from tests.support.seabattle_positions import MODES

ENGINE = ENGINES["seabattle"]


def setup_state(preset: str, seed: int) -> SeaBattleState:
    """Seat 0 halfway through placing by hand, seat 1 dealt a fleet and ready."""
    state = ENGINE.new_game(ENGINE.presets[preset], seed)
    for text in ("A1 A4", "C1 C3", "J10"):
        state = ENGINE.act(state, 0, text).state
    state = ENGINE.act(state, 1, "random").state
    return ENGINE.act(state, 1, "ready").state


def ready_both(state: SeaBattleState) -> SeaBattleState:
    """Both seats confirm their fleets, taking a random one where they have none."""
    for seat in (0, 1):
        if not state.sides[seat].ships:
            state = ENGINE.act(state, seat, "random").state
        state = ENGINE.act(state, seat, "ready").state
    return state


def playout(preset: str, seed: int, shots: int | None) -> SeaBattleState:
    """Random fleets, then each seat shoots its own shuffled cell order, skipping cells it
    already knows are empty; ``shots=None`` plays until someone wins."""
    state = ready_both(ENGINE.new_game(ENGINE.presets[preset], seed))
    size = state.rules.size
    rng = random.Random(seed)
    orders: list[list[Cell]] = []
    for _ in (0, 1):
        cells = [(column, row) for row in range(size) for column in range(size)]
        rng.shuffle(cells)
        orders.append(cells)
    fired = 0
    while state.phase is Phase.PLAY and (shots is None or fired < shots):
        seat = state.turn
        assert seat is not None
        cell = orders[seat].pop()
        if ENGINE.view(state, seat).fields[other(seat)].mark(cell) is Mark.CLEAR:
            continue
        state = ENGINE.act(state, seat, cell_name(cell)).state
        fired += 1
    return state


def view_cases() -> dict[str, SeaBattleView]:
    """The views the image tests draw, by name: each board size and optional module in
    setup, in play and finished, for a seat and for the channel."""
    cases: dict[str, SeaBattleView] = {}
    for preset, tag in (("classic", "10x10"), ("large", "15x15")):
        setup = setup_state(preset, 3)
        cases[f"setup-seat-{tag}"] = ENGINE.view(setup, 0)
        cases[f"setup-public-{tag}"] = ENGINE.view(setup, None)
        middle = playout(preset, 7, 40 if tag == "10x10" else 90)
        assert middle.phase is Phase.PLAY and middle.turn is not None
        cases[f"mid-seat-{tag}"] = ENGINE.view(middle, middle.turn)
        cases[f"mid-waiting-{tag}"] = ENGINE.view(middle, other(middle.turn))
        cases[f"mid-public-{tag}"] = ENGINE.view(middle, None)
        finished = playout(preset, 11, None)
        assert finished.phase is Phase.FINISHED
        cases[f"finished-public-{tag}"] = ENGINE.view(finished, None)
        cases[f"finished-seat-{tag}"] = ENGINE.view(finished, 0)
    resigned = ENGINE.conclude(playout("milton-bradley", 5, 30), Outcome(1, EndReason.RESIGNATION))
    cases["resigned-seat-milton-bradley"] = ENGINE.view(resigned, 1)
    for mode, moves in MODE_CASES.items():
        middle = mode_playout(mode, 5, moves)
        for who, seat in (("seat", middle.turn), ("public", None)):
            cases[f"{mode}-mid-{who}"] = ENGINE.view(middle, seat)
        finished = mode_playout(mode, 9, None)
        cases[f"{mode}-finished-seat"] = ENGINE.view(finished, 0)
        first = "A1 B2 C2 D3 E3 F4" if MODES[mode].dutchman else "A1 A2"
        setup = ENGINE.act(ENGINE.new_game(MODES[mode], 2), 0, first).state
        cases[f"{mode}-setup-seat"] = ENGINE.view(setup, 0)
    return cases


MODE_CASES = {
    "salvo": 9,
    "salvo-blind": 9,
    "shapes": 60,
    "mines": 60,
    "16x16": 200,
    "18x18": 200,
    "submarine": 50,
    "dutchman": 40,
}
"""Optional modules drawn mid-game (after this many moves) and finished."""


def mode_playout(mode: str, seed: int, moves: int | None) -> SeaBattleState:
    """Random fleets, then random legal moves by whoever is to move."""
    state = ready_both(ENGINE.new_game(MODES[mode], seed))
    rng = random.Random(seed)
    made = 0
    while state.phase is Phase.PLAY and (moves is None or made < moves):
        (seat,) = ENGINE.to_move(state)
        state = ENGINE.apply(state, seat, rng.choice(list(ENGINE.legal_actions(state, seat)))).state
        made += 1
    return state


CASES = view_cases()
"""Every view the image tests draw, built once."""


def rgb(png: bytes) -> Image.Image:
    """The image of ``png``, as RGB pixels."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def find_cell(view: SeaBattleView, panel: int, wanted: Mark) -> Cell:
    """A cell of ``panel`` marked ``wanted``, other than the last shot."""
    field = panel_fields(view)[panel]
    for row in range(view.size):
        for column in range(view.size):
            if field.mark((column, row)) is wanted and (column, row) != field.last_shot:
                return column, row
    raise AssertionError(f"no {wanted} cell in panel {panel}")
