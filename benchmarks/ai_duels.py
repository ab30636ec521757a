"""Seeded games between two computer players, straight through the engine.

Each player is handed exactly what the bot hands the computer: its seat's view, every text
its seat was told, the rules and the game's seed. The figures: the first player's wins,
draws and losses, and its thinking time per move.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from bot.ai.core import Player, Seen, dice_seed_for
from bot.games import ENGINES
from bot.games.core import GameError

MAX_PLIES = 3000
"""A game still running after this many moves counts as a draw."""


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    think: list[float] = field(default_factory=list)
    illegal: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def p95_ms(self) -> float:
        ordered = sorted(self.think)
        return ordered[int(len(ordered) * 0.95)] * 1000 if ordered else 0.0


def duel(
    game: str,
    variant: str | None,
    seed: int,
    players: tuple[Player, Player],
    tally: Tally,
    options: str = "",
    max_plies: int = MAX_PLIES,
) -> None:
    """One game; ``players[0]`` is the measured one and sits in seat ``seed % 2``."""
    engine = ENGINES[game]
    rules = engine.configure(variant, options)
    state = engine.new_game(rules, seed)
    measured = seed % 2
    by_seat = {measured: players[0], 1 - measured: players[1]}
    heard: dict[int, list[str]] = {0: [], 1: []}
    for ply in range(max_plies):
        outcome = engine.outcome(state)
        if outcome is not None:
            break
        for seat in sorted(engine.view(state, None).movers):
            seen = Seen(
                rules, engine.view(state, seat), tuple(heard[seat]), dice_seed_for(seed, seat), ply
            )
            start = time.perf_counter()
            text = by_seat[seat].decide(seen)
            if seat == measured:
                tally.think.append(time.perf_counter() - start)
            try:
                transition = engine.act(state, seat, text)
            except GameError:
                tally.illegal += 1
                raise
            state = transition.state
            for other_seat in (0, 1):
                heard[other_seat].extend(e.text for e in transition.for_audience(other_seat))
            break  # one move per step: in setup the other seat moves next step
    outcome = engine.outcome(state)
    if outcome is None or outcome.winner is None:
        tally.draws += 1
    elif outcome.winner == measured:
        tally.wins += 1
    else:
        tally.losses += 1


def play_series(
    game: str, variant: str | None, games: int, measured: Player, rival: Player, seed_base: int = 0
) -> Tally:
    tally = Tally()
    for seed in range(seed_base, seed_base + games):
        duel(game, variant, seed, (measured, rival), tally)
    return tally


def random_seed(label: str) -> int:
    return random.Random(label).randrange(1 << 30)
