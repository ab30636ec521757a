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

Delivery goes to a transport that renders every board as the courier would and sends it
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
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from subprocess import PIPE

import asyncpg

from benchmarks.processor_share import ProcessorShare, ShareUnavailable
from bot.delivery.deliverer import SEATS_AND_CHANNEL, Deliverer
from bot.delivery.presenter import presented
from bot.games import ENGINES
from bot.games.core import Phase
from bot.referee import Referee, Report
from bot.storage import PostgresRepository, SqliteRepository
from bot.storage.outbox import Lane, Parcel
from bot.storage.postgres_queue import QueuedMove
from bot.worker import MoveWorker


@dataclass(frozen=True)
class Load:
    """What a run plays: ``games`` random games of ``game`` at once, ``moves`` in all."""

    game: str = "seabattle"
    games: int = 16
    moves: int = 600
    worker_share: float | None = None
    """Each worker process held to this share of one processor (``processor_share``), or
    None: the workers take what the machine's processors have free."""


READY = "ready"
"""A worker process's first line: it listens for queued moves."""
DONE = "done"
"""A worker process's line for each move it delivered: ``done <queued move id>``."""
SPENT = "spent"
"""A worker process's last line: ``spent <processor seconds its moves took>``."""


class Rendering:
    """The deliverer's transport: renders each board as the courier would, sends nowhere."""

    async def ready(self, report: Report) -> bool:
        return False

    async def send(self, report: Report, parcel: Parcel) -> None:
        for notice in report.notices:
            await presented(notice)


class Silent:
    """Answers to refused moves: counted (there should be none)."""

    def __init__(self) -> None:
        self.refused = 0

    async def refuse(self, move: QueuedMove, text: str) -> None:
        self.refused += 1
        print(f"refused: game {move.game_id} {move.text!r}: {text}", file=sys.stderr)

    def answers_notices(self, move: QueuedMove) -> bool:
        return False  # every notice goes by the deliverer, as ``deliver`` sends it

    async def answer(self, move: QueuedMove, report: Report) -> None:
        pass


async def deliver(deliverer: Deliverer, report: Report) -> None:
    """Send a stored move's notices to every audience, the lanes side by side as the
    deliverer sends them when the referee publishes a stored move (``Deliverer.published``):
    so their releases travel together as they do in the bot."""
    send = deliverer.transport.send
    await asyncio.gather(
        *(
            deliverer.deliver_now(Lane(report.game.id, audience), send)
            for audience in SEATS_AND_CHANNEL
        )
    )


class BenchmarkWorker(MoveWorker):
    """A worker that delivers each move before the next and announces it delivered on its
    standard output."""

    def __init__(self, store: PostgresRepository) -> None:
        referee = Referee(store)
        super().__init__(store.queue, referee, Silent())
        self.deliverer = Deliverer(store.outbox, referee, Rendering())

    async def play(self, move: QueuedMove) -> Report | None:
        report = await self.apply(move)
        if report is not None:
            await deliver(self.deliverer, report)
        print(DONE, move.id, flush=True)
        return report


async def serve(url: str) -> None:
    """A worker process: play queued moves until SIGTERM."""
    store = await PostgresRepository.open(url)
    worker = BenchmarkWorker(store)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await worker.start()
    print(READY, flush=True)
    started = time.process_time()
    await stop.wait()
    print(SPENT, time.process_time() - started, flush=True)
    await worker.close()
    await store.close()


# -- the players --------------------------------------------------------------------------------


Play = Callable[[int, int, str], Awaitable[None]]
"""Sends one move (game id, player id, text) and returns once its boards were delivered."""


async def start_games(referee: Referee, load: Load) -> list[tuple[int, tuple[int, int]]]:
    """The load's games, in their default variant, each with its players' ids."""
    started = []
    for number in range(load.games):
        players = (1000 + 2 * number, 1001 + 2 * number)
        challenge = await referee.challenge(
            game=load.game,
            variant=None,
            guild_id=1,
            channel_id=2,
            challenger_id=players[0],
            opponent_id=players[1],
        )
        report = await referee.accept(challenge.id, players[1])
        started.append((report.game.id, players))
    return started


def planned_moves(
    game: str, state: object, count: int, rng: random.Random
) -> list[tuple[int, str]]:
    """The first ``count`` moves of a random game from ``state``: both random setups
    confirmed (where the game has a setup), then random legal moves."""
    engine = ENGINES[game]
    words = ("random", "ready") if engine.view(state, None).phase is Phase.SETUP else ()
    moves = [(seat, word) for seat in (0, 1) for word in words]
    for seat, word in moves:
        state = engine.act(state, seat, word).state
    assert engine.view(state, None).phase is Phase.PLAY
    while len(moves) < count:
        movers = sorted(engine.to_move(state))
        if not movers:
            break
        seat = movers[0]
        text = str(rng.choice(list(engine.legal_actions(state, seat))))
        state = engine.act(state, seat, text).state
        moves.append((seat, text))
    return moves


async def play_all(store: SqliteRepository | PostgresRepository, play: Play, load: Load) -> Run:
    """Every game's players play their moves, all games at once."""
    referee = Referee(store, seed_source=iter(range(7, 7 + load.games)).__next__)
    started = await start_games(referee, load)
    engine = ENGINES[load.game]
    plans = []
    for game_id, players in started:
        record = await store.get_game(game_id)
        assert record is not None
        rng = random.Random(game_id)
        plans.append(
            (
                game_id,
                players,
                planned_moves(
                    load.game, engine.from_json(record.state), load.moves // load.games, rng
                ),
            )
        )
    times: list[float] = []

    async def players_of(
        game_id: int, players: tuple[int, int], plan: list[tuple[int, str]]
    ) -> None:
        for seat, text in plan:
            start = time.perf_counter()
            await play(game_id, players[seat], text)
            times.append(time.perf_counter() - start)

    begun, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(players_of(*plan) for plan in plans))
    return Run(times, time.perf_counter() - begun, time.process_time() - cpu)


async def in_process(store: SqliteRepository | PostgresRepository, load: Load) -> Run:
    """The receiving process plays, renders and delivers every move itself."""
    referee = Referee(store)
    deliverer = Deliverer(store.outbox, referee, Rendering())

    async def play(game_id: int, user_id: int, text: str) -> None:
        await deliver(deliverer, await referee.act(user_id, text, game_id))

    return await play_all(store, play, load)


async def with_workers(url: str, workers: int, load: Load) -> Run:
    """The receiving process queues every move; ``workers`` processes play them."""
    store = await PostgresRepository.open(url)
    waiting: dict[int, asyncio.Future[None]] = {}
    early: set[int] = set()
    """Moves delivered before their sender heard their id back from the queue."""
    spent: list[float] = []
    ready = [asyncio.get_running_loop().create_future() for _ in range(workers)]

    def delivered(move_id: int) -> None:
        future = waiting.pop(move_id, None)
        if future is None:
            early.add(move_id)
        elif not future.done():
            future.set_result(None)

    async def reading(process: asyncio.subprocess.Process, started: asyncio.Future[None]) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            word, *rest = raw.decode().split()
            if word == READY:
                started.set_result(None)
            elif word == DONE:
                delivered(int(rest[0]))
            elif word == SPENT:
                spent.append(float(rest[0]))
        if not started.done():
            started.set_exception(RuntimeError("a worker process did not start"))

    share = None if load.worker_share is None else ProcessorShare.open(load.worker_share)
    processes: list[asyncio.subprocess.Process] = []
    readers: list[asyncio.Task[None]] = []
    try:
        for started in ready:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "benchmarks.workers", "--serve", url, stdout=PIPE
            )
            processes.append(process)
            if share is not None:  # held before it is ready, so before its first move
                share.hold(process.pid)
            readers.append(asyncio.create_task(reading(process, started)))
        await asyncio.gather(*ready)

        async def play(game_id: int, user_id: int, text: str) -> None:
            move_id = await store.queue.put(game_id, user_id, text, {"dm": 0})
            if move_id in early:
                early.discard(move_id)
                return
            done = waiting[move_id] = asyncio.get_running_loop().create_future()
            await done

        run = await play_all(store, play, load)
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(120):
                await asyncio.gather(*readers, *(process.wait() for process in processes))
        finally:  # a worker that did not stop in time is not left running
            for process in processes:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
        if share is not None:
            share.close()
        await store.close()
    return replace(run, workers_cpu=sum(spent))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass(frozen=True)
class Run:
    times: list[float]
    """Each whole move's seconds, from received to its last board delivered."""
    elapsed: float
    receiver_cpu: float
    """Processor seconds of the receiving process while the moves were played."""
    workers_cpu: float = 0.0
    """Processor seconds of the worker processes (from their start to their stop)."""
    database_cpu: float = 0.0
    """Processor seconds of the PostgreSQL server while the moves were played."""
    commits: int = 0
    """Transactions PostgreSQL committed while the moves were played: one per statement
    sent on its own, so a count of the statements that wake a server process."""


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


async def fresh_schema(server_url: str, name: str) -> str:
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
    finally:
        await admin.close()
    separator = "&" if "?" in server_url else "?"
    return f"{server_url}{separator}search_path={name}"


async def run(server_url: str, data: Path, load: Load, workers: list[int], rounds: int) -> None:
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
    url = await fresh_schema(server_url, schema)
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


def main() -> None:
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
    parser.add_argument("--serve", metavar="URL", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        asyncio.run(serve(options.serve))
        return
    workers = [int(part) for part in options.workers.split(",")]
    load = Load(options.game, options.games, options.moves, options.worker_share)
    if load.worker_share is not None:
        try:  # said now, before a server starts, should this machine have no share to give
            ProcessorShare.open(load.worker_share)
        except (ShareUnavailable, ValueError) as error:
            parser.error(str(error))
    print(
        f"{load.games} {load.game} games at once, {load.moves} moves per run; "
        f"{os.cpu_count()} processors, load average {os.getloadavg()[0]:.1f} at the start"
    )
    if load.worker_share is not None:
        print(f"each worker process held to {load.worker_share:.2f} of one processor")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        data = folder / "pgdata"  # the private server's: where its processor time is read

        def measured(url: str) -> None:
            figures = run(url, data, load, workers, options.rounds)
            asyncio.run(figures)

        if options.database_url:
            measured(options.database_url)
            return
        import pgserver  # a test dependency: the benchmark starts its own server

        folder.chmod(0o755)  # run as root, pgserver's server is another user
        server = pgserver.get_server(data, cleanup_mode="stop")
        try:
            measured(server.get_uri())
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()
