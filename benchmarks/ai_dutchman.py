"""Shots the Flying Dutchman searcher needs to sink the computer captain's ship.

Seeded games straight through the engine: seat 0 shoots (the computer's searcher, or
uniformly random shots), seat 1's computer captain moves its ship after every hit. Seat 1
itself fires at A1 only, so that the game lasts until seat 0 sinks the ship (its captain
hides away from A1 once hit there). The figure is the mean number of shots to sink it;
usage: ``python -m benchmarks.ai_dutchman [games]``.
"""

from __future__ import annotations

import statistics
import sys

from bot.ai import Seen, dice_seed_for
from bot.ai.baselines import RandomShots
from bot.ai.core import Player
from bot.catalog import player
from bot.games import ENGINES

LIMIT = 3000
"""Moves after which a game counts as unfinished."""


def shots_to_sink(shooter: Player, seed: int) -> int | None:
    """Seat 0's shots until it sinks seat 1's ship, None if it does not within the limit."""
    engine = ENGINES["seabattle"]
    rules = engine.configure("dutchman")
    captain = player("seabattle", "strong")
    state = engine.new_game(rules, seed)
    heard: dict[int, list[str]] = {0: [], 1: []}
    shots = 0
    for ply in range(LIMIT):
        outcome = engine.outcome(state)
        if outcome is not None:
            return shots if outcome.winner == 0 else None
        seat = min(engine.view(state, None).movers)
        seen = Seen(
            rules, engine.view(state, seat), tuple(heard[seat]), dice_seed_for(seed, seat), ply
        )
        text = (shooter if seat == 0 else captain).decide(seen)
        if seat == 1 and text[0].isupper():
            text = "A1"
        if seat == 0 and text[0].isupper():
            shots += 1
        transition = engine.act(state, seat, text)
        state = transition.state
        for listener in (0, 1):
            heard[listener].extend(e.text for e in transition.for_audience(listener))
    return None


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for name, shooter in (
        ("computer searcher", player("seabattle", "strong")),
        ("uniformly random shots", RandomShots()),
    ):
        counts = [shots_to_sink(shooter, seed) for seed in range(games)]
        won = [count for count in counts if count is not None]
        mean = statistics.mean(won) if won else float("nan")
        print(f"{name}: sank the ship in {len(won)}/{games} games, mean {mean:.0f} shots")


if __name__ == "__main__":
    main()
