"""The computer players themselves: legal in every game and mode, blind to hidden state.

Legality: seeded whole games of every level against uniformly random play, straight
through the engine, where any refused move fails the test. Blindness (non-interference):
two games that differ only in the person's secrets (their fleet, their deployment, their
setup, dealt from different seeds; in the flip game the whole face-down board) give the
computer the same view, the same memory and so the same decisions, for as long as what it
was told is the same.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.ai_duels import Tally, duel
from benchmarks.ai_seabattle import EnemyField
from bot.ai import LEVELS, Player, Seen, dice_seed_for
from bot.ai.generic import RandomPlayer
from bot.ai.seabattle import hidden_fleet
from bot.ai.seabattle_grid import ShotGrid
from bot.catalog import player
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.seabattle.fleet import validate_fleet
from bot.games.seabattle.rules import PRESETS as SEA_PRESETS
from bot.games.warships.actions import WholeSetup
from bot.games.warships.units import Kind
from bot.games.warships.view import TokenView, WarshipsView

COMPUTER = 1
PLIES = 200
"""Moves per game at most: random Warships games run to a thousand moves and more."""
MODES = [
    *(("seabattle", preset, "") for preset in ("classic", "corners", "large", "milton-bradley")),
    *(("luzhanqi", variant, "") for variant in ("classic", "flip", "variant-c")),
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
            text = dice.choice(engine.legal_moves(view))
        transition = engine.act(state, seat, text)
        heard.extend(event.text for event in transition.for_audience(0))
        state = transition.state


def _first_movers(game: str, rules: object, seed: int) -> frozenset[int]:
    """Who moves first once play begins: public, and drawn from the seed alone."""
    engine = ENGINES[game]
    state = engine.new_game(rules, seed)
    for seat in sorted(engine.view(state, None).movers):
        if engine.view(state, None).phase is Phase.SETUP:
            state = engine.act(state, seat, "random").state
            state = engine.act(state, seat, "ready").state
    return engine.view(state, None).movers


def _hidden(game: str, state: object) -> dict[str, object]:
    """The whole state but its seed: what tells the two games' secrets apart."""
    return {k: v for k, v in ENGINES[game].to_json(state).items() if k != "seed"}


def _twin_games(game: str, rules: object, seed: int) -> list[object]:
    """Two games whose only difference is what the computer may not see.

    The second is dealt from the next seed whose public draws (who moves first, the colours,
    the sides) match the first's, and its computer seat is given the first game's setup as
    a saved setup is loaded, so what differs is what was dealt to the person in secret (and
    in the flip game the whole face-down board): different seeds, not a different count of
    draws from one seed, so a player that rebuilt the deal from the seed would be caught.
    """
    engine = ENGINES[game]
    first = _computers_setup(game, engine.new_game(rules, seed))
    loaded = engine.setup_text(engine.view(first, COMPUTER))
    first = _persons_random_setup(game, first)
    for other_seed in range(seed + 1, seed + 100):
        second = engine.new_game(rules, other_seed)
        if loaded is not None:
            second = engine.act(second, COMPUTER, loaded).state
        second = _persons_random_setup(game, second, like=first)
        if (
            engine.view(second, COMPUTER) == engine.view(first, COMPUTER)
            and _first_movers(game, rules, other_seed) == _first_movers(game, rules, seed)
            and _hidden(game, second) != _hidden(game, first)
        ):
            return [first, second]
    raise AssertionError("no seed deals a game that looks the same to the computer")


def _computers_setup(game: str, state: object) -> object:
    """The computer's seat holds a setup from the start: where none is dealt, it deals one.

    Some computers take the engine's random setup (from the game's seed), which would
    differ between the twins: given one setup in both, they confirm it alike.
    """
    engine = ENGINES[game]
    view = engine.view(state, COMPUTER)
    if view.phase is Phase.SETUP and engine.setup_text(view) is None:
        state = engine.act(state, COMPUTER, "random").state
    return state


def _persons_random_setup(game: str, state: object, like: object = None) -> object:
    """The person deals themselves a random setup from the game's seed and confirms it.

    Warships shows where every token stands once play begins, only not what it is, so in
    the second game the person's dealt ships are laid, in the order dealt, on the fields
    the first game's deal took.
    """
    engine = ENGINES[game]
    if engine.view(state, 0).phase is not Phase.SETUP:
        return state
    state = engine.act(state, 0, "random").state
    if game == "warships" and like is not None:
        dealt = [t.kind for t in _own_ships(engine.view(state, 0))]
        fields = [t.cell for t in _own_ships(engine.view(like, 0))]
        layout = dict(zip(fields, dealt, strict=True))
        state = engine.act(state, 0, str(WholeSetup.of(layout))).state
    return engine.act(state, 0, "ready").state


def _own_ships(view: WarshipsView) -> list[TokenView]:
    """The viewer's ships in port, in the order of their fields."""
    return sorted(
        (t for t in view.tokens if t.owner == view.seat and t.kind not in (None, Kind.BATTERY)),
        key=lambda t: t.cell,
    )


@pytest.mark.parametrize(
    ("game", "variant"),
    [
        ("seabattle", "classic"),
        ("seabattle", "milton-bradley"),
        ("seabattle", "16x16"),
        ("seabattle", "dutchman"),
        ("luzhanqi", "classic"),
        ("luzhanqi", "variant-c"),
        ("luzhanqi", "flip"),
        ("warships", "classic"),
    ],
)
@pytest.mark.parametrize("level", LEVELS)
def test_the_computer_decides_the_same_whatever_the_persons_secrets(
    game: str, variant: str, level: str
) -> None:
    """Its dice are its own and the same in both games, as they would be for one seat."""
    engine = ENGINES[game]
    rules = engine.configure(variant)
    computer = player(game, level)
    compared = 0
    for seed in FLIP_SEEDS if variant == "flip" else (11,):
        compared += _compare_decisions(game, rules, computer, seed)
    assert compared >= 2, "too few decisions compared"


FLIP_SEEDS = tuple(range(11, 19))
"""The flip game's first flip shows a piece that differs between the deals, so its games
part within a move or two: several pairs of deals are compared."""


def _compare_decisions(game: str, rules: object, computer: Player, seed: int) -> int:
    """How many decisions the computer made alike in two games that differ in secret."""
    engine = ENGINES[game]
    games = _twin_games(game, rules, seed)
    dice_seed = dice_seed_for(seed, COMPUTER)
    heard: list[list[str]] = [[], []]
    dice = random.Random(seed)
    compared = 0
    for ply in range(400):
        views = [engine.view(state, COMPUTER) for state in games]
        if views[0] != views[1] or heard[0] != heard[1] or engine.outcome(games[0]):
            break
        movers = sorted(engine.view(games[0], None).movers)
        if COMPUTER in movers:
            decisions = [
                computer.decide(Seen(rules, view, tuple(said), dice_seed, ply))
                for view, said in zip(views, heard, strict=True)
            ]
            assert decisions[0] == decisions[1]
            compared += 1
            seat, text = COMPUTER, decisions[0]
        else:
            seat = 0
            person = [engine.view(state, 0) for state in games]
            either = [set(engine.legal_moves(v)) for v in person]
            options = sorted(m for m in either[0] & either[1] if "draw" not in m)
            if not options:
                break  # no move of the person's fits both setups: the games part here
            text = dice.choice(options)
        try:
            transitions = [engine.act(state, seat, text) for state in games]
        except Exception:
            break  # the person's move does not fit the other setup: the games part here
        games = [t.state for t in transitions]
        for said, transition in zip(heard, transitions, strict=True):
            said.extend(e.text for e in transition.for_audience(COMPUTER))
    return compared
