"""Benchmark: how strongly and how fast the computer plays, from seeded runs.

    python -m benchmarks.ai            # a quick run (minutes)
    python -m benchmarks.ai --full     # the counts the README reports (10,000 fleets,
                                       # 200 games per pairing; an hour or more)
    python -m benchmarks.ai --game marine
    python -m benchmarks.ai --game warships --level strong --games 200

Long Sea Battle runs split across processes, and two shooters compared fleet by fleet
on the same fleets: ``python -m benchmarks.ai_seabattle_fleets`` (see its docstring).

Sea Battle: mean shots the density shooter needs to sink a whole fleet, against uniform
random fleets and against the computer's own fleets. The other games: the computer's wins,
draws and losses against two baselines (uniformly random legal moves, and the greedy
player of ``bot.ai.baselines``), with its thinking time per move. Every run is seeded, so
anyone gets the same games (timings vary with the machine and its load).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator

from benchmarks.ai_duels import Tally, play_series
from benchmarks.ai_seabattle import report as seabattle_report
from bot.ai import LEVELS
from bot.ai.baselines import GREEDY
from bot.ai.core import Player
from bot.ai.generic import RandomPlayer
from bot.catalog import player

QUICK = {"fleets": 500, "games": 20}
FULL = {"fleets": 10_000, "games": 200}


def baselines(game: str) -> dict[str, Player]:
    """The rivals a level is measured against: random legal moves, and the greedy player."""
    found: dict[str, Player] = {"random": RandomPlayer(game)}
    if game in GREEDY:
        found["greedy"] = GREEDY[game]()
    return found


VARIANTS: dict[str, tuple[str | None, ...]] = {"luzhanqi": ("classic", "flip", "variant-c")}
"""Games measured in more than their default variant."""


def duel_report(game: str, games: int, levels: tuple[str, ...] = LEVELS) -> Iterator[str]:
    """The table's lines, each as soon as it is measured."""
    for variant in VARIANTS.get(game, (None,)):
        yield from variant_report(game, variant, games, levels)


def variant_report(
    game: str, variant: str | None, games: int, levels: tuple[str, ...]
) -> Iterator[str]:
    named = f"{game} ({variant})" if variant else game
    yield f"{named}: {games} seeded games per pairing, sides alternating"
    yield (
        f"{'level':8} {'against':8} {'won':>6} {'drawn':>6} {'lost':>6} {'win %':>6} "
        f"{'think p95 ms':>13}"
    )
    for level in levels:
        for name, rival in baselines(game).items():
            tally: Tally = play_series(game, variant, games, player(game, level), rival)
            rate = 100 * tally.wins / tally.games
            yield (
                f"{level:8} {name:8} {tally.wins:6} {tally.draws:6} {tally.losses:6} "
                f"{rate:6.1f} {tally.p95_ms():13.1f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the README's counts")
    parser.add_argument("--game", help="one game only (seabattle, marine, luzhanqi, ...)")
    parser.add_argument("--fleets", type=int, help="Sea Battle fleets per row")
    parser.add_argument("--games", type=int, help="games per pairing in the other games")
    parser.add_argument("--level", choices=LEVELS, help="one level only (the other games)")
    args = parser.parse_args()
    counts = dict(FULL if args.full else QUICK)
    counts["fleets"] = args.fleets or counts["fleets"]
    counts["games"] = args.games or counts["games"]
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.1f} on {os.cpu_count()} cores")
    started = time.perf_counter()
    games = (
        [args.game] if args.game else ["seabattle", "marine", "luzhanqi", "warships", "seachess"]
    )
    for game in games:
        lines = (
            seabattle_report(counts["fleets"])
            if game == "seabattle"
            else duel_report(game, counts["games"], (args.level,) if args.level else LEVELS)
        )
        for line in lines:
            print(line, flush=True)
        print(flush=True)
    print(
        f"done in {time.perf_counter() - started:.0f} s; load average now {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
