"""Benchmark: how much more work two processes get done at once than one, on this machine.

A worker's own work is processor work: playing a move and drawing its boards. So however
little the database costs, two worker processes play at most R times the moves of one,
where R is how much more work the machine gets done running two such processes at once
than one. On a machine whose processors share a physical core, or whose virtual processors
share the host's, R is well under 2. This benchmark measures it with the workers' own
work: each process plays the same random Sea Battle moves and draws every audience's board
for each, with no database and no delivery. The processes start and import first, then
begin together.

    python -m benchmarks.parallel [--moves 400] [--rounds 5]

One process alone and two at once are timed alternately, ``--rounds`` times, since the
machine's speed drifts from run to run; each round's ratio is 2 x (one alone's seconds) /
(the slower of the two's seconds).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

from benchmarks.closed_loop import planned_moves
from bot.catalog import GAMES
from bot.games import ENGINES
from bot.games.core import SEATS

READY = "ready"
"""The line a process writes once imported and warmed up."""
GO = "go"
"""The line a process then waits for before it begins its work."""

NAMES = ("Admiral", "Captain")
GAME_KEY = "seabattle"
"""The game whose moves and boards are timed."""
GAME = ENGINES[GAME_KEY]


def work(moves: int) -> int:
    """Play ``moves`` moves of random Sea Battle games and draw every audience's board for
    each (a worker's processor work, without its database and its delivery); returns the
    boards drawn."""
    render = GAMES[GAME_KEY].render
    rng = random.Random(1)
    played = drawn = 0
    while played < moves:
        state = GAME.new_game(GAME.presets[GAME.default_variant], rng.randrange(1 << 30))
        plan = planned_moves(GAME_KEY, state, min(100, moves - played + 4), rng)
        for seat, text in plan:
            state = GAME.act(state, seat, text).state
            for audience in (*SEATS, None):
                drawn += bool(render(GAME.view(state, audience), NAMES))
            played += 1
            if played == moves:
                break
    return drawn


def timed(processes: int, moves: int) -> float:
    """Seconds until the slowest of ``processes`` processes, begun together, did its
    ``moves``."""
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "benchmarks.parallel", "--child", str(moves)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    for child in children:  # each says it is ready once imported
        assert child.stdout is not None and child.stdout.readline().strip() == READY
    for child in children:
        assert child.stdin is not None
        child.stdin.write(GO + "\n")
        child.stdin.flush()
    seconds = []
    for child in children:
        output, _ = child.communicate()
        if child.returncode:
            raise RuntimeError("a process of the benchmark failed")
        spent, drawn = output.split()
        if int(drawn) != moves * (len(SEATS) + 1):
            raise RuntimeError(f"a process drew {drawn} boards for {moves} moves")
        seconds.append(float(spent))
    return max(seconds)


def child(moves: int) -> None:
    """One process of a round: warm up, say so, wait for the word, then work and print its
    seconds and the boards it drew."""
    work(1)  # the renderer's fonts and caches, as a running worker has them
    print(READY, flush=True)
    if sys.stdin.readline().strip() != GO:
        return
    start = time.perf_counter()
    drawn = work(moves)
    print(time.perf_counter() - start, drawn, flush=True)


def rounds(moves: int, count: int) -> list[tuple[float, float]]:
    """Each round's seconds for one process alone and for two at once."""
    return [(timed(1, moves), timed(2, moves)) for _ in range(count)]


def report(moves: int, count: int) -> list[str]:
    lines = [
        f"{os.cpu_count()} processors, load average {os.getloadavg()[0]:.1f} at the start; "
        f"{moves} moves a process, each drawn for both players and the channel"
    ]
    ratios = []
    for number, (alone, pair) in enumerate(rounds(moves, count), start=1):
        ratio = 2 * alone / pair
        ratios.append(ratio)
        lines.append(
            f"round {number}: one alone {alone:.2f} s, two at once {pair:.2f} s: {ratio:.2f}x"
        )
    lines.append(
        f"two processes do {statistics.median(ratios):.2f}x the work of one (median of "
        f"{count} rounds): the most two workers can play here, against one"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400, help="moves each process plays")
    parser.add_argument("--rounds", type=int, default=5, help="alternate rounds, medians")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child is not None:
        child(options.child)
        return
    for line in report(options.moves, options.rounds):
        print(line, flush=True)


if __name__ == "__main__":
    main()
