"""Benchmark: the bot with 10,000 live games, in one SQLite file or in PostgreSQL.

Builds the file (template games played through the referee, then copied in SQL with their
logs, each between two players of its own), waiting the way live games wait: changes
spread over the last two days, and every game idle for longer than the reminder time
already reminded. Then, as a restarted bot: opens the store and lists what it must
redeliver (ready), sweeps the clock once a minute (a loop-lag probe on the event loop
records the longest stall while it runs; tick 1 is the first after the restart), sweeps
once more within the same minute (nothing due: the cost of 10,000 games merely waiting),
sweeps after a two-hour outage (a backlog of reminders and losses on time), and plays
random moves the way players do, rendering every image they send. The same moves on a
file with 10 games give the cost to compare with. "loop ms" is the event loop's own
processor time during a sweep; "stall ms" the longest gap between the probe's wake-ups;
"busy ms" the most processor time the loop's thread spent between two wake-ups (its own
work, without the time the process waited for a core on a shared machine).

With ``--backend postgres`` the same files are copied into PostgreSQL (as
``python -m bot.copy_database`` moves a deployment) and the restarted bot runs on that: on
the database at ``--database-url``, or else on a private PostgreSQL 16 server started for
the run (the ``pgserver`` package the tests use, on a Unix socket). Resident memory is the
bot process's own; the database server's is apart.

    python -m benchmarks.scale [--games 10000] [--moves 400] [--backend sqlite|postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common import (
    new_schema,
    private_postgres,
    random_move,
    released,
    spread,
    start_game,
)
from bot.__main__ import settle_memory
from bot.copy_database import copy_database
from bot.delivery.presenter import presented, presented_all
from bot.games import ENGINES
from bot.referee import Notice, Referee, Report
from bot.storage import (
    ChallengeRecord,
    PostgresRepository,
    Repository,
    SqliteRepository,
    open_repository,
)
from bot.timekeeping import HOUR, Deadlines, Swept, Timekeeper

GAME = "seabattle"
TEMPLATES = 24
"""Games played through the referee, each to a random point, and then copied."""
NOW = 1_900_000_000.0
TICK = 60.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


# -- building the file ----------------------------------------------------------------------


async def _templates(path: Path, rng: random.Random, templates: int) -> None:
    """Play template games through the referee: some still setting up, most mid-game."""
    clock = Clock()
    repository = await SqliteRepository.open(path, clock)
    try:
        referee = Referee(repository)
        engine = ENGINES[GAME]
        presets = list(engine.presets)
        for number in range(templates):
            players = (2 * number + 1, 2 * number + 2)
            variant = presets[number % len(presets)]
            game = await start_game(referee, GAME, players, variant=variant)
            plies = rng.choice((0, 1, 4, 10, 30, 60))
            for _ in range(plies):
                move = random_move(engine, engine.from_json(game.state), rng)
                if move is None:
                    break
                seat, text = move
                game = (await referee.act(players[seat], f"#{game.id} {text}")).game
        await repository._write("DELETE FROM notices")
    finally:
        await repository.close()


def build(path: Path, games: int, played: int = TEMPLATES, seed: int = 2026) -> None:
    """``games`` live games, copied from ``played`` templates, waiting as live games wait."""
    rng = random.Random(seed)
    asyncio.run(_templates(path, rng, played))
    with sqlite3.connect(path) as db:
        templates = db.execute(
            "SELECT id, game, rules, seed, ply, state FROM games WHERE status = 'active'"
        ).fetchall()
        logs = {
            t[0]: db.execute(
                "SELECT ply, seat, kind, text FROM actions WHERE game_id = ?", (t[0],)
            ).fetchall()
            for t in templates
        }
        db.execute("DELETE FROM actions")
        db.execute("DELETE FROM games")
        game_rows: list[tuple[object, ...]] = []
        action_rows: list[tuple[object, ...]] = []
        for number in range(games):
            game_id = number + 1
            template_id, key, rules, game_seed, ply, state = templates[number % len(templates)]
            updated = NOW - rng.uniform(0, 48 * HOUR)
            reminded = updated + 24 * HOUR + rng.uniform(0, TICK)
            reminded_ply, reminded_at = (ply, reminded) if reminded <= NOW else (None, None)
            game_rows.append(
                (game_id, key, rules, game_seed, 1, 2, 10 * game_id, 10 * game_id + 1,
                 "active", ply, state, updated - HOUR, updated, reminded_ply, reminded_at)
            )  # fmt: skip
            action_rows.extend((game_id, *entry, updated) for entry in logs[template_id])
        db.executemany(
            "INSERT INTO games (id, game, rules, seed, guild_id, channel_id, seat0_id, seat1_id,"
            " status, ply, state, created_at, updated_at, reminded_ply, reminded_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", action_rows)
        for table in ("seals", "announcements", "results", "notices"):
            # The templates' own rows, where fewer games than templates are built: left,
            # they would point at no game (SQLite does not check; PostgreSQL, copied, does).
            db.execute(f"DELETE FROM {table} WHERE game_id NOT IN (SELECT id FROM games)")
        db.execute("ANALYZE")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# -- PostgreSQL -----------------------------------------------------------------------------

Store = SqliteRepository | PostgresRepository
_schemas = itertools.count(1)


async def copied_to_postgres(path: Path, server_url: str) -> str:
    """The games of the file at ``path`` copied into a new schema; that schema's URL."""
    url = await new_schema(server_url, f"scale_{os.getpid()}_{next(_schemas)}")
    await copy_database(path, url)
    repository = await PostgresRepository.open(url)
    try:
        await repository._write("ANALYZE")
    finally:
        await repository.close()
    return url


# -- measuring ------------------------------------------------------------------------------


class LoopProbe:
    """Wakes every millisecond and notes the longest gap between two wake-ups: the
    longest stretch in which the event loop could not run anything else.

    On a machine other processes share, a gap also holds the time the process waited
    for a core; ``busiest`` is the most processor time the loop's own thread spent
    between two wake-ups, the part of a stall that the bot's own work on the loop made.
    """

    def __init__(self) -> None:
        self.longest = 0.0
        self.busiest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        last, last_cpu = time.perf_counter(), time.thread_time()
        while True:
            await asyncio.sleep(0.001)
            now, cpu = time.perf_counter(), time.thread_time()
            self.longest = max(self.longest, now - last)
            self.busiest = max(self.busiest, cpu - last_cpu)
            last, last_cpu = now, cpu

    @contextmanager
    def watching(self) -> Iterator[LoopProbe]:
        self.longest = self.busiest = 0.0
        self._task = asyncio.create_task(self._run())
        try:
            yield self
        finally:
            self._task.cancel()


class RenderingClockActions:
    """The cog's clock actions without Discord: every board is drawn as it would be sent (on the
    drawing thread, as the Discord sender does), and a game's end is confirmed delivered."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.images = 0

    async def remind(self, notice: Notice) -> None:
        await presented(notice)
        self.images += 1

    async def end(self, report: Report) -> None:
        self.images += len(await presented_all(report.notices))
        await delivered(self.referee.repository, report)

    async def expired(self, challenge: ChallengeRecord) -> None:
        pass


@dataclass
class Sweep:
    wall: float
    loop_cpu: float
    stall: float
    busiest: float
    swept: Swept
    images: int


@dataclass
class Figures:
    ready: float = 0.0
    sweeps: list[Sweep] = field(default_factory=list)
    idle: Sweep | None = None
    backlog: Sweep | None = None
    moves: list[float] = field(default_factory=list)
    rss_mb: float = 0.0


async def _sweep(timekeeper: Timekeeper, referee: Referee, probe: LoopProbe) -> Sweep:
    clock_actions = RenderingClockActions(referee)
    await asyncio.sleep(0.01)  # let the probe settle
    with probe.watching():
        await asyncio.sleep(0.005)
        cpu, start = time.thread_time(), time.perf_counter()
        swept = await timekeeper.sweep(clock_actions)
        wall, loop_cpu = time.perf_counter() - start, time.thread_time() - cpu
        await asyncio.sleep(0.005)
    return Sweep(wall, loop_cpu, probe.longest, probe.busiest, swept, clock_actions.images)


async def measure(
    path: Path, moves: int, sweeps: int, url: str | None = None, seed: int = 7
) -> Figures:
    """A restarted bot on ``path`` (or the PostgreSQL database at ``url``): ready, a few
    sweeps a minute apart, a backlog, moves."""
    settle_memory()  # as ``python -m bot`` does before it connects
    figures = Figures()
    clock = Clock()
    started = time.perf_counter()
    repository = await open_repository(url, path, clock)
    try:
        referee = Referee(repository)
        await repository.outbox.backlogs()  # what the deliverer reads at start
        figures.ready = time.perf_counter() - started
        timekeeper = Timekeeper(referee, repository, Deadlines())
        probe = LoopProbe()
        for _ in range(sweeps):
            clock.now += TICK
            figures.sweeps.append(await _sweep(timekeeper, referee, probe))
        figures.idle = await _sweep(timekeeper, referee, probe)  # the same minute again
        clock.now += 2 * HOUR
        figures.backlog = await _sweep(timekeeper, referee, probe)
        figures.moves = await _moves(repository, referee, moves, random.Random(seed))
        figures.rss_mb = _rss_mb()
    finally:
        await repository.close()
    return figures


async def _moves(
    repository: Store, referee: Referee, count: int, rng: random.Random
) -> list[float]:
    """Whole moves in random live games: act, draw every image, confirm delivery."""
    engine = ENGINES[GAME]
    (top,) = await repository._rows("SELECT max(id) FROM games")
    times: list[float] = []
    while len(times) < count:
        record = await repository.get_game(rng.randint(1, top[0]))
        if record is None or record.end_reason is not None:
            continue
        move = random_move(engine, engine.from_json(record.state), rng)
        assert move is not None, "a live game has a seat to move"
        seat, text = move
        start = time.perf_counter()
        report = await referee.act(record.seats[seat], f"#{record.id} {text}")
        await presented_all(report.notices)
        await delivered(repository, report)
        times.append(time.perf_counter() - start)
    return times


async def delivered(repository: Repository, report: Report) -> None:
    """Release each notice of ``report`` as the deliverer does once it is sent."""
    for notice in report.notices:
        await released(repository, report.game.id, notice.audience)


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f}"


def report(games: int, figures: Figures, small: Figures, backend: str) -> None:
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    print(f"{backend}, {os.cpu_count()} processors, load average {load}")
    print(f"{games} live games: ready after a restart in {figures.ready * 1000:.0f} ms")
    print(f"resident memory after sweeps and moves: {figures.rss_mb:.0f} MB")
    print(
        "sweep                        wall ms  loop ms  stall ms  busy ms  reminded  ended  images"
    )
    rows = [(f"tick {n + 1}", s) for n, s in enumerate(figures.sweeps)]
    if figures.idle is not None:
        rows.append(("again, nothing due", figures.idle))
    if figures.backlog is not None:
        rows.append(("after a 2-hour outage", figures.backlog))
    for name, s in rows:
        print(
            f"{name:<28}{_ms(s.wall)}  {_ms(s.loop_cpu)}  {_ms(s.stall)}  {_ms(s.busiest)}"
            f"  {s.swept.reminded:8d}  {s.swept.ended:5d}  {s.images:6d}"
        )
    print(f"{'whole move (ms)':<28}{'p50':>7}  {'p95':>7}  {'max':>8}")
    for name, times in ((f"{games} games", figures.moves), ("10 games", small.moves)):
        p50, p95, most = spread([t * 1000 for t in times])
        print(f"{name:<28}{p50:7.2f}  {p95:7.2f}  {most:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--sweeps", type=int, default=3)
    parser.add_argument("--templates", type=int, default=TEMPLATES)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--database-url", help="a PostgreSQL server to use (default: a private one)"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        big, small = Path(folder) / "big.sqlite3", Path(folder) / "small.sqlite3"
        started = time.perf_counter()
        build(big, options.games, options.templates)
        build(small, 10, options.templates)
        if options.backend == "sqlite":
            print(f"built in {time.perf_counter() - started:.1f} s")
            small_figures = asyncio.run(measure(small, options.moves, 1))
            figures = asyncio.run(measure(big, options.moves, options.sweeps))
        else:
            with _server(options.database_url) as server:
                big_url = asyncio.run(copied_to_postgres(big, server))
                small_url = asyncio.run(copied_to_postgres(small, server))
                print(f"built and copied in {time.perf_counter() - started:.1f} s")
                small_figures = asyncio.run(measure(small, options.moves, 1, small_url))
                figures = asyncio.run(measure(big, options.moves, options.sweeps, big_url))
    report(options.games, figures, small_figures, options.backend)


@contextmanager
def _server(url: str | None) -> Iterator[str]:
    if url is not None:
        yield url
    else:
        with private_postgres() as (started, _):
            yield started


if __name__ == "__main__":
    main()
