"""Benchmark: how long listing every legal move takes, the cost a computer player pays.

Plays seeded random games of a game through its engine alone (no storage, no images) and
times ``legal_actions`` on every position passed through, then prints p50 / p95 / max per
position, the moves per position and positions per second.

    python -m benchmarks.legal_moves [--game seachess] [--games 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from benchmarks.common import percentile
from bot.games import ENGINES
from bot.games.core import Phase


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="seachess", choices=sorted(ENGINES))
    parser.add_argument("--games", type=int, default=6)
    options = parser.parse_args()
    engine = ENGINES[options.game]
    times: list[float] = []
    counts: list[int] = []
    for seed in range(options.games):
        rng = random.Random(seed)
        state = engine.new_game(engine.presets[engine.default_variant], seed)
        while engine.view(state, None).phase is not Phase.FINISHED:
            seat = min(engine.to_move(state))
            start = time.perf_counter()
            legal = list(engine.legal_actions(state, seat))
            times.append(time.perf_counter() - start)
            counts.append(len(legal))
            moves = [a for a in legal if "draw" not in str(a)] or legal
            state = engine.apply(state, seat, rng.choice(moves)).state
    ms = [t * 1000 for t in times]
    print(f"{options.game}: {options.games} games, {len(ms)} positions")
    print(f"legal moves per position: p50 {statistics.median(counts):.0f}, max {max(counts)}")
    print(
        f"listing them (ms): p50 {statistics.median(ms):.2f}, p95 {percentile(ms, 0.95):.2f}, "
        f"max {max(ms):.2f}"
    )
    print(f"positions per second: {len(ms) / sum(times):.0f}")


if __name__ == "__main__":
    main()
