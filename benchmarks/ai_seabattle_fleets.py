"""Sea Battle shots fleet by fleet: long runs split across processes, and paired comparisons.

    python -m benchmarks.ai_seabattle_fleets run milton-bradley --first 0 --count 5000 \\
        --out mb-0.tsv
    python -m benchmarks.ai_seabattle_fleets run milton-bradley --first 5000 --count 5000 \\
        --out mb-1.tsv
    python -m benchmarks.ai_seabattle_fleets sum mb-0.tsv mb-1.tsv
    python -m benchmarks.ai_seabattle_fleets pair before.tsv after.tsv

``run`` writes one line per fleet as soon as it is sunk (the fleet's number, the shots it
took, and the processor time of each shot in microseconds), so a run stopped early still
counts every fleet it finished, and runs over different fleets add up. ``sum`` prints the
figures ``benchmarks.ai`` prints, over every fleet in the files; ``pair`` compares two runs
fleet by fleet over the fleets both sank (the same seeded fleets), with the standard error
of the mean difference: two shooters' games of one fleet part ways at the first different
shot, so only the paired difference tells small gains from luck.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

from benchmarks.ai_seabattle import shots_to_sink
from bot.ai.seabattle import hidden_fleet
from bot.games.seabattle.fleet import random_fleet
from bot.games.seabattle.rules import PRESETS

SOURCES = {"uniform": random_fleet, "computer": hidden_fleet}


def run(preset: str, first: int, count: int, source: str, out: Path) -> None:
    """Sinks fleets ``first`` .. ``first + count - 1`` (numbered as ``benchmarks.ai`` draws
    them), one line each, appending to ``out``."""
    rules = PRESETS[preset]
    with out.open("a") as sink:
        for seed in range(first, first + count):
            fleet = SOURCES[source](rules, random.Random(f"fleet:{preset}:{seed}"))
            timings: list[float] = []
            shots = shots_to_sink(rules, fleet, seed, timings)
            micros = ",".join(str(round(t * 1_000_000)) for t in timings)
            sink.write(f"{seed}\t{shots}\t{micros}\n")
            sink.flush()


def read(paths: list[Path]) -> dict[int, tuple[int, list[int]]]:
    """Every fleet's shots and think times (microseconds) in the files, by its number."""
    found: dict[int, tuple[int, list[int]]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            seed, shots, micros = line.split("\t")
            found[int(seed)] = (int(shots), [int(m) for m in micros.split(",")])
    return found


def summary(paths: list[Path]) -> str:
    fleets = read(paths)
    shots = [count for count, _ in fleets.values()]
    timings = sorted(t for _, times in fleets.values() for t in times)
    spread = statistics.stdev(shots) / math.sqrt(len(shots)) if len(shots) > 1 else 0.0
    return (
        f"{len(shots)} fleets: mean {statistics.fmean(shots):.2f} ± {spread:.2f} shots, "
        f"p50 {statistics.median(shots):.0f}, think p95 "
        f"{timings[int(len(timings) * 0.95)] / 1000:.2f} ms, max {timings[-1] / 1000:.2f} ms"
    )


def paired(before: Path, after: Path) -> str:
    first, second = read([before]), read([after])
    both = sorted(set(first) & set(second))
    if len(both) < 2:
        return f"{len(both)} fleets in both runs: too few to compare"
    gains = [first[seed][0] - second[seed][0] for seed in both]
    spread = statistics.stdev(gains) / math.sqrt(len(gains))
    mean_before = statistics.fmean(first[seed][0] for seed in both)
    mean_after = statistics.fmean(second[seed][0] for seed in both)
    return (
        f"{len(both)} fleets in both: {mean_before:.2f} then {mean_after:.2f} shots, "
        f"fewer by {statistics.fmean(gains):.2f} ± {spread:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    runner = commands.add_parser("run", help="sink a range of seeded fleets")
    runner.add_argument("preset", choices=sorted(PRESETS))
    runner.add_argument("--first", type=int, default=0)
    runner.add_argument("--count", type=int, default=500)
    runner.add_argument("--source", choices=sorted(SOURCES), default="uniform")
    runner.add_argument("--out", type=Path, required=True)
    summer = commands.add_parser("sum", help="figures over every fleet in the files")
    summer.add_argument("files", type=Path, nargs="+")
    pairer = commands.add_parser("pair", help="two runs compared fleet by fleet")
    pairer.add_argument("before", type=Path)
    pairer.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.preset, args.first, args.count, args.source, args.out)
    elif args.command == "sum":
        print(summary(args.files))
    else:
        print(paired(args.before, args.after))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
