"""Benchmark: moves per second with one and with two worker processes on PostgreSQL,
next to one process playing the same moves itself on SQLite and on PostgreSQL.

The same random games (fixed seeds, moves drawn in advance; Sea Battle unless ``--game``
names another) are played each time. Their players write to the bot all at once, each
game's players one move after the other, each waiting for their move's boards: a closed
loop, so the figures are the most moves the configuration sustains. A whole move is from
the moment the move is received to the moment its last board (each audience's, rendered)
was delivered:

- ``in process``: the receiving process plays, renders and delivers it (``ROLE=all``);
- ``N workers``: the receiving process queues it (``ROLE=gateway``), and ``N`` worker
  processes (``ROLE=worker``, started by this benchmark) claim, play, render and deliver
  it, then say so on their standard output (a pipe to this process, not the database,
  whose processor time per move is measured).

Delivery goes to a transport that renders every board as the Discord sender would and sends it
nowhere, so Discord's own latency is left out. The machine's load average is printed,
since other work on the machine changes every figure.

    python -m benchmarks.workers [--game seabattle] [--games 16] [--moves 600]
                                 [--workers 1,2] [--rounds 1] [--database-url postgresql://…]

A move's boards cost the worker more or less by game (a Warships board takes three times
a Sea Battle one to draw) while its database work hardly changes, so ``--game`` shows how
much a second worker adds where the boards cost the most.

The machine's speed drifts from one run to the next by more than a worker adds, so
``--rounds`` plays the PostgreSQL configurations again and again, alternately, and
compares the rounds' median moves per second.

The players are ``benchmarks.closed_loop``; the worker processes, and how this process
hears from them, ``benchmarks.worker_processes``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from dataclasses import replace
from pathlib import Path

import asyncpg

from benchmarks.closed_loop import Load, Run, in_process
from benchmarks.common import new_schema, percentile, private_postgres
from benchmarks.processor_share import ProcessorShare, ShareUnavailable
from benchmarks.worker_processes import with_workers
from bot.games import ENGINES
from bot.storage import PostgresRepository, SqliteRepository


def line(name: str, run: Run) -> str:
    ms = [t * 1000 for t in run.times]
    per_move = [1000 * cpu / len(ms) for cpu in (run.receiver_cpu, run.workers_cpu)]
    database = 1000 * run.database_cpu / len(ms)
    return (
        f"{name:<24}{statistics.median(ms):>8.1f}{percentile(ms, 0.95):>8.1f}"
        f"{len(ms) / run.elapsed:>9.1f}{per_move[0]:>10.1f}{per_move[1]:>9.1f}{database:>10.1f}"
        f"{run.commits / len(ms):>9.1f}{os.getloadavg()[0]:>7.1f}"
    )


def postgres_cpu(data: Path) -> float:
    """Processor seconds the PostgreSQL server at ``data`` used so far: its postmaster and
    every backend, live or ended (Linux ``/proc``; 0 elsewhere)."""
    try:
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        if pid == postmaster:
            ticks += sum(int(f) for f in fields[11:15])  # itself and its ended backends
        elif ppid == postmaster:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


async def committed(server_url: str) -> int:
    """Transactions the server committed so far, in every database (the statistics are
    flushed by a backend when it goes idle, so they lag a live run by a moment at most)."""
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute("SELECT pg_stat_clear_snapshot()")
        total: int = await admin.fetchval("SELECT sum(xact_commit)::BIGINT FROM pg_stat_database")
        return total
    finally:
        await admin.close()


async def run(server_url: str, data: Path, load: Load, workers: list[int], rounds: int) -> None:
    """The table: SQLite in process once, then each PostgreSQL configuration in turn, for
    ``rounds`` rounds."""
    print(f"{'':<24}{'whole move (ms)':>16}{'':>9}{'processor ms per move':>29}")
    print(
        f"{'':<24}{'p50':>8}{'p95':>8}{'moves/s':>9}{'receiver':>10}{'workers':>9}"
        f"{'database':>10}{'commits':>9}{'load':>7}"
    )
    sqlite = await SqliteRepository.open(data.parent / "bench.sqlite3")
    try:
        print(line("SQLite, in process", await in_process(sqlite, load)), flush=True)
    finally:
        await sqlite.close()
    rates: dict[int, list[float]] = {}
    bounds: dict[int, list[float]] = {}
    for number in range(rounds):
        for count in [0, *workers]:
            played = await postgres_run(server_url, data, f"run_{number}_{count}", count, load)
            named = (
                f"PostgreSQL, {count} worker{'s' if count > 1 else ''}"
                if count
                else "PostgreSQL, in process"
            )
            rates.setdefault(count, []).append(len(played.times) / played.elapsed)
            bounds.setdefault(count, []).append(ceiling(played, count, load.worker_share))
            print(line(named, played), flush=True)
    if 1 in rates and max(rates) > 1:
        print_comparison(rates, bounds, rounds)


def print_comparison(
    rates: dict[int, list[float]], bounds: dict[int, list[float]], rounds: int
) -> None:
    """The most workers' moves per second against one worker's, round by round, and what
    the processor time per move would allow on an idle machine."""
    most = max(rates)
    ratios = [b / a for a, b in zip(rates[1], rates[most], strict=True)]
    print(
        f"{most} workers play {statistics.median(ratios):.2f}x the moves per second of one"
        + (
            f" (the median of {rounds} rounds: {', '.join(f'{r:.2f}' for r in ratios)})"
            if rounds > 1
            else ""
        )
    )
    allowed = {n: statistics.median(b) for n, b in bounds.items()}
    print(
        f"on {os.cpu_count()} idle processors, the processor time per move allows "
        + ", ".join(f"{allowed[n]:.0f} moves/s with {n}" for n in sorted(allowed) if n)
        + f" ({allowed[most] / allowed[1]:.2f}x)"
    )


async def postgres_run(server_url: str, data: Path, schema: str, workers: int, load: Load) -> Run:
    """One run on a fresh schema: played in process (``workers`` 0) or by worker
    processes, with the server's processor time and commits while it ran."""
    url = await new_schema(server_url, schema)
    database, commits = postgres_cpu(data), await committed(server_url)
    if workers == 0:
        postgres = await PostgresRepository.open(url)
        try:
            played = await in_process(postgres, load)
        finally:
            await postgres.close()
    else:
        played = await with_workers(url, workers, load)
    return replace(
        played,
        database_cpu=postgres_cpu(data) - database,
        commits=await committed(server_url) - commits,
    )


def ceiling(run: Run, workers: int, share: float | None = None) -> float:
    """The moves per second the processor time per move allows on this machine when
    nothing else runs: each worker is one process (one processor at most, or ``share``
    of one), and every process shares the machine's processors."""
    moves = len(run.times)
    total = (run.receiver_cpu + run.workers_cpu + run.database_cpu) / moves
    per_worker = run.workers_cpu / moves
    machine = (os.cpu_count() or 1) / total
    return machine if not workers else min(machine, workers * (share or 1.0) / per_worker)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="seabattle", choices=sorted(ENGINES))
    parser.add_argument("--games", type=int, default=16, help="games played at once")
    parser.add_argument("--moves", type=int, default=600, help="moves in all, per run")
    parser.add_argument("--workers", default="1,2", help="worker processes per run, like 1,2")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="play the PostgreSQL runs this many times, alternately, and compare medians",
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server of your own instead of a private one (its processor time "
        "is then not counted)",
    )
    parser.add_argument(
        "--worker-share",
        type=float,
        metavar="SHARE",
        help="hold each worker process to this share of one processor, like 0.4, leaving "
        "the rest to the database (Linux control groups, as root; see processor_share)",
    )
    options = parser.parse_args()
    if options.worker_share is not None:
        try:  # said now, before a server starts, should this machine have no share to give
            ProcessorShare.open(options.worker_share)
        except (ShareUnavailable, ValueError) as error:
            parser.error(str(error))
    return options


def main() -> None:
    options = arguments()
    workers = [int(part) for part in options.workers.split(",")]
    load = Load(options.game, options.games, options.moves, options.worker_share)
    print(
        f"{load.games} {load.game} games at once, {load.moves} moves per run; "
        f"{os.cpu_count()} processors, load average {os.getloadavg()[0]:.1f} at the start"
    )
    if load.worker_share is not None:
        print(f"each worker process held to {load.worker_share:.2f} of one processor")
    if options.database_url:
        with tempfile.TemporaryDirectory() as folder:
            # Another's server: its processor time is not read (no data folder of ours).
            data = Path(folder) / "pgdata"
            asyncio.run(run(options.database_url, data, load, workers, options.rounds))
        return
    with private_postgres() as (url, data):
        asyncio.run(run(url, data, load, workers, options.rounds))


if __name__ == "__main__":
    main()
