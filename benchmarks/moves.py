"""Benchmark: whole moves through the referee, a real database and the renderers.

Plays random games of every preset the way players do (``random``, ``ready``, then shots
by text), renders every image each move sends (together on the drawing thread, as
the bot does), confirms its delivery as the bot does, and
prints per-move p50 / p95 times split into rules, storage and rendering, moves per second,
and image sizes. ``cpu`` is the processor time a whole move took (every thread of the
process): unlike the wall-clock figures, other processes on the machine barely change it;
nor do they change the count of trips to SQLite's thread a move takes, printed too.

    python -m benchmarks.moves [--games 40] [--game seabattle] [--postgres] [--by-preset]

``--by-preset`` adds each preset's whole-move p50 / p95 and its share of the slowest
twentieth of all moves: long games on large fields make the tail.

``--postgres`` plays on a private PostgreSQL server (pgserver, installed with the test
dependencies) instead of a SQLite file, for the figures of the shared store.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks.common import (
    percentile,
    private_postgres,
    random_move,
    released,
    setup_moves,
    spread,
    start_game,
)
from bot.delivery.presenter import presented_all
from bot.games import ENGINES
from bot.referee import Referee
from bot.storage import PostgresRepository, SqliteRepository

STORAGE_CALLS = ("append", "get_game", "active_games_of")
PARTS = ("preset", "rules", "storage", "render", "move", "cpu", "trips")
"""What is noted of every move: its preset, the times of its parts, its trips to the thread."""


class Trips:
    """Counts trips to the SQLite file's thread (aiosqlite's): each costs the event loop
    far more than SQLite's own work, and unlike a time, a count holds on a loaded machine."""

    def __init__(self, repository: SqliteRepository | PostgresRepository) -> None:
        self.count = 0
        if isinstance(repository, SqliteRepository):
            connection = repository._db
            execute = connection._execute

            async def counted(*args: Any, **kwargs: Any) -> Any:
                self.count += 1
                return await execute(*args, **kwargs)

            connection._execute = counted  # type: ignore[method-assign]


class Clock:
    """Adds up the time spent in the repository while a move runs."""

    def __init__(self) -> None:
        self.storage = 0.0

    def wrap(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self.storage += time.perf_counter() - start

        return timed


async def play(game_key: str, games: int, database: Path | str) -> dict[str, list[Any]]:
    """Play on the SQLite file at ``database``, or on PostgreSQL at a ``postgresql://`` URL."""
    repository: SqliteRepository | PostgresRepository
    if isinstance(database, str):
        repository = await PostgresRepository.open(database)
    else:
        repository = await SqliteRepository.open(database)
    try:
        return await _play(repository, game_key, games)
    finally:
        # aiosqlite's thread keeps the process alive until the connection is closed,
        # so a game that raises must not skip this.
        await repository.close()


class Measured:
    """The figures of every move played, each list one value a move, and every image's size."""

    def __init__(self, repository: SqliteRepository | PostgresRepository) -> None:
        self.repository = repository
        self.clock = Clock()
        self.trips = Trips(repository)
        for name in STORAGE_CALLS:
            setattr(repository, name, self.clock.wrap(getattr(repository, name)))
        self.samples: dict[str, list[Any]] = {part: [] for part in PARTS}
        self.images: list[float] = []

    async def move(self, referee: Referee, user_id: int, text: str, preset: str) -> None:
        """One move sent and timed: stored, its images drawn, its delivery confirmed."""
        repository, clock, trips = self.repository, self.clock, self.trips
        clock.storage = 0.0
        trips.count = 0
        cpu = time.process_time()
        start = time.perf_counter()
        report = await referee.act(user_id, text)
        acted = time.perf_counter()
        sizes = [len(m.board.png) for m in await presented_all(report.notices)]
        rendered = time.perf_counter()
        # The deliverer's backlogs claim and release side by side, as here.
        await asyncio.gather(
            *(released(repository, report.game.id, n.audience) for n in report.notices)
        )
        done = time.perf_counter()
        samples = self.samples
        samples["cpu"].append(time.process_time() - cpu)
        samples["trips"].append(trips.count)
        samples["storage"].append(clock.storage + done - rendered)
        samples["rules"].append(acted - start - clock.storage)
        samples["render"].append(rendered - acted)
        samples["move"].append(done - start)
        samples["preset"].append(preset)
        self.images.extend(sizes)


async def _play(
    repository: SqliteRepository | PostgresRepository, game_key: str, games: int
) -> dict[str, list[Any]]:
    measured = Measured(repository)
    seeds = random.Random(2025)  # the same games every run, so runs compare
    referee = Referee(repository, seed_source=lambda: seeds.getrandbits(62))
    engine = ENGINES[game_key]
    rng = random.Random(2026)
    presets = list(engine.presets)
    for number in range(games):
        players = (1000 + 2 * number, 1001 + 2 * number)
        preset = presets[number % len(presets)]
        game = await start_game(referee, game_key, players, variant=preset)
        pending = setup_moves(engine, engine.from_json(game.state))
        while True:
            if pending:
                seat, text = pending.pop(0)
            else:
                record = await repository.get_game(game.id)
                assert record is not None
                move = random_move(engine, engine.from_json(record.state), rng)
                if move is None:
                    break
                seat, text = move
            await measured.move(referee, players[seat], f"#{game.id} {text}", preset)
    measured.samples["image_bytes"] = measured.images
    return measured.samples


def print_by_preset(samples: dict[str, list[Any]]) -> None:
    """Each preset's whole move, and how many of the slowest twentieth of all moves it made."""
    moves = [v * 1000 for v in samples["move"]]
    slowest = percentile(moves, 0.95)
    print(f"{'preset':<16}{'moves':>7}{'p50':>8}{'p95':>8}{'of the slowest 5 %':>20}")
    for preset in dict.fromkeys(samples["preset"]):
        own = [v for v, p in zip(moves, samples["preset"], strict=True) if p == preset]
        tail = sum(v >= slowest for v in own)
        print(
            f"{preset:<16}{len(own):>7}{statistics.median(own):>8.2f}"
            f"{percentile(own, 0.95):>8.2f}{tail:>20}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--game", default="seabattle", choices=sorted(ENGINES))
    parser.add_argument("--postgres", action="store_true", help="play on a private PostgreSQL")
    parser.add_argument("--by-preset", action="store_true", help="each preset's moves apart")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, ExitStack() as server:
        database: Path | str = Path(folder) / "bench.sqlite3"
        if options.postgres:
            database, _ = server.enter_context(private_postgres())
        started = time.perf_counter()
        samples = asyncio.run(play(options.game, options.games, database))
        elapsed = time.perf_counter() - started
    moves = len(samples["move"])
    store = "PostgreSQL" if options.postgres else "SQLite"
    print(f"{options.game} on {store}: {options.games} games, {moves} moves, {elapsed:.1f} s")
    print(f"{'per move (ms)':<16}{'p50':>8}{'p95':>8}{'max':>8}")
    for part in ("rules", "storage", "render", "move", "cpu"):
        p50, p95, most = spread([v * 1000 for v in samples[part]])
        print(f"{part:<16}{p50:>8.2f}{p95:>8.2f}{most:>8.2f}")
    print(f"moves per second: {moves / sum(samples['move']):.0f} (whole moves, one process)")
    if not options.postgres:
        trips = samples["trips"]
        print(
            f"trips to the database thread per move: p50 {statistics.median(trips):.0f},"
            f" p95 {percentile(trips, 0.95):.0f}, max {max(trips):.0f}"
        )
    if options.by_preset:
        print_by_preset(samples)
    sizes = [b / 1024 for b in samples["image_bytes"]]
    print(
        f"images: {len(sizes)}, p50 {statistics.median(sizes):.1f} KB, "
        f"p95 {percentile(sizes, 0.95):.1f} KB, max {max(sizes):.1f} KB"
    )


if __name__ == "__main__":
    main()
