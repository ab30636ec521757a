"""The computer players themselves: legal in every game and mode, blind to hidden state.

Legality: seeded whole games of every level against uniformly random play, straight
through the engine, where any refused move fails the test. Blindness (non-interference):
two games that differ only in the person's secrets (their fleet, their deployment, their
setup) give the computer the same view, the same memory and so the same decisions, for
as long as what it was told is the same.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.ai_duels import Tally, duel
from benchmarks.ai_seabattle import EnemyField
from bot.ai import LEVELS, Seen, player
from bot.ai.generic import RandomPlayer
from bot.ai.seabattle import ShotGrid, hidden_fleet
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.games.seabattle.fleet import validate_fleet
from bot.games.seabattle.rules import PRESETS as SEA_PRESETS

COMPUTER = 1
PLIES = 200
"""Moves per game at most: random Warships games run to a thousand moves and more."""
MODES = [
    ("seabattle", "classic", ""),
    ("seabattle", "corners", ""),
    ("seabattle", "large", ""),
    ("seabattle", "milton-bradley", ""),
    ("luzhanqi", "classic", ""),
    ("luzhanqi", "flip", ""),
    ("luzhanqi", "variant-c", ""),
    ("warships", "classic", ""),
    ("warships", "classic", "quick"),
    ("seachess", None, ""),
    ("marine", "classic", ""),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game", "variant", "options"), MODES)
def test_the_computer_plays_only_legal_moves(
    game: str, variant: str | None, options: str, level: str
) -> None:
    searched = game in ("warships", "seachess")  # their computers weigh every move: costly
    seeds = 1 if searched else 2 if game == "marine" or variant == "large" else 4
    tally = Tally()
    for seed in range(seeds):
        players = (player(game, level), RandomPlayer(game))
        duel(game, variant, seed, players, tally, options, max_plies=PLIES)
    assert tally.games == seeds and tally.illegal == 0
    assert tally.think, "the computer never moved"


@pytest.mark.parametrize("preset", list(SEA_PRESETS))
def test_the_computers_fleets_are_legal_and_vary(preset: str) -> None:
    rules = SEA_PRESETS[preset]
    fleets = {hidden_fleet(rules, random.Random(seed)) for seed in range(5)}
    for fleet in fleets:
        validate_fleet(rules, fleet)
    assert len(fleets) == 5


PLAIN_FLEET_PRESETS = [
    name
    for name, rules in SEA_PRESETS.items()
    if not (rules.mines or rules.sweepers or rules.submarine or rules.dutchman)
]
"""The presets the shot-count benchmark measures: fleets only, no mines, sweepers,
submarine or Flying Dutchman, which its stand-in field does not play."""


@pytest.mark.parametrize("preset", PLAIN_FLEET_PRESETS)
def test_the_benchmarks_enemy_field_marks_what_the_engine_shows(preset: str) -> None:
    """The shot-count benchmark answers shots with a stand-in; it must agree with the view."""
    engine = ENGINES["seabattle"]
    rules = SEA_PRESETS[preset]
    state = engine.new_game(rules, 3)
    for seat in (0, 1):
        state = engine.act(state, seat, "random").state
        state = engine.act(state, seat, "ready").state
    field = EnemyField(rules, state.sides[1].ships)
    dice = random.Random(preset)
    heard: list[str] = []
    while engine.outcome(state) is None:
        seat = state.turn
        view = engine.view(state, seat)
        if seat == 0:
            assert ShotGrid.of(rules, view, heard) == field.grid()
            index = dice.choice([i for i, known in enumerate(field.cells) if known == 0])
            field.shoot(index)
            text = f"{chr(65 + index % rules.size)}{index // rules.size + 1}"
        else:
            text = dice.choice(engine.suggestions(view, "", limit=10**6))
        transition = engine.act(state, seat, text)
        heard.extend(event.text for event in transition.for_audience(0))
        state = transition.state


def _secret_setups(game: str, state: object) -> tuple[list[str], list[str]]:
    """Two setups of the person's that differ only in what the computer may not see."""
    if game == "seabattle":
        return ["random", "ready"], ["random", "random", "ready"]
    if game == "luzhanqi":
        return ["ready"], ["random", "ready"]
    # Warships shows where the tokens stand once play begins: swap two of different types.
    tokens = [t for t in ENGINES[game].view(state, 0).tokens if t.owner == 0 and t.kind]
    first = tokens[0]
    second = next(t for t in tokens if t.kind != first.kind)
    return ["ready"], [f"swap {cell_name(first.cell)} {cell_name(second.cell)}", "ready"]


@pytest.mark.parametrize(
    ("game", "variant"),
    [
        ("seabattle", "classic"),
        ("seabattle", "milton-bradley"),
        ("seabattle", "16x16"),
        ("seabattle", "dutchman"),
        ("luzhanqi", "classic"),
        ("luzhanqi", "variant-c"),
        ("warships", "classic"),
    ],
)
@pytest.mark.parametrize("level", LEVELS)
def test_the_computer_decides_the_same_whatever_the_persons_secrets(
    game: str, variant: str, level: str
) -> None:
    engine = ENGINES[game]
    rules = engine.configure(variant)
    computer = player(game, level)
    seed = 11
    games = []
    for setup in _secret_setups(game, engine.new_game(rules, seed)):
        state = engine.new_game(rules, seed)
        for text in setup:
            state = engine.act(state, 0, text).state
        games.append(state)
    assert engine.to_json(games[0]) != engine.to_json(games[1]), "the secrets do not differ"
    heard: list[list[str]] = [[], []]
    dice = random.Random(game)
    compared = 0
    for ply in range(400):
        views = [engine.view(state, COMPUTER) for state in games]
        if views[0] != views[1] or heard[0] != heard[1] or engine.outcome(games[0]):
            break
        movers = sorted(engine.view(games[0], None).movers)
        if COMPUTER in movers:
            decisions = [
                computer.decide(Seen(rules, view, tuple(said), seed, ply))
                for view, said in zip(views, heard, strict=True)
            ]
            assert decisions[0] == decisions[1]
            compared += 1
            seat, text = COMPUTER, decisions[0]
        else:
            seat = 0
            person = [engine.view(state, 0) for state in games]
            either = [set(engine.suggestions(v, "", limit=10**6)) for v in person]
            options = sorted(m for m in either[0] & either[1] if "draw" not in m)
            if person[0].phase is not Phase.SETUP and not options:
                break  # no move of the person's fits both setups: the games part here
            text = "ready" if person[0].phase is Phase.SETUP else dice.choice(options)
        try:
            transitions = [engine.act(state, seat, text) for state in games]
        except Exception:
            break  # the person's move does not fit the other setup: the games part here
        games = [t.state for t in transitions]
        for said, transition in zip(heard, transitions, strict=True):
            said.extend(e.text for e in transition.for_audience(COMPUTER))
    assert compared >= 2, "too few decisions compared"
