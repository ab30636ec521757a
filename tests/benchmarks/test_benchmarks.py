"""The benchmarks are programs people run by hand: they must end, and say why, when a game fails.

Nothing here measures speed (timings vary with the machine); only the benchmarks' behaviour.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.closed_loop import Load, deliver, planned_moves, start_games
from bot.delivery.deliverer import Deliverer
from bot.games import ENGINES
from bot.games.core import Phase
from bot.referee import Referee, Report
from bot.storage import SqliteRepository
from bot.storage.outbox import Batch

ROOT = Path(__file__).resolve().parents[2]

BROKEN_RULES = """
import sys
from bot.games import ENGINES

def broken(state, seat, action):
    raise RuntimeError("a bug in the rules")

ENGINES["seabattle"].apply = broken
sys.argv = ["moves", "--games", "1"]
from benchmarks import moves
moves.main()
"""


def benchmark(name: str, *arguments: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m benchmarks.<name> <arguments>`` run to its end, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", f"benchmarks.{name}", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_moves_benchmark_exits_with_the_error_when_a_game_raises() -> None:
    """A failing move used to leave aiosqlite's thread running: the process never ended."""
    try:
        finished = subprocess.run(
            [sys.executable, "-c", BROKEN_RULES],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,  # far beyond the second it takes; only a hang gets here
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("the benchmark hung after the game raised") from None
    assert finished.returncode == 1, finished.stderr
    assert "GameFault" in finished.stderr and "a bug in the rules" in finished.stderr


def test_the_moves_benchmark_shows_each_preset_apart_when_asked() -> None:
    finished = benchmark("moves", "--games", "2", "--by-preset")
    assert finished.returncode == 0, finished.stderr
    lines = finished.stdout.splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("preset"))
    rows = {line.split()[0]: line.split()[1:] for line in lines[header + 1 : header + 3]}
    assert set(rows) == {"classic", "corners"}  # the first two presets, one game each
    total = int(lines[0].split(", ")[1].split()[0])  # "seabattle on SQLite: 2 games, N moves, …"
    assert sum(int(row[0]) for row in rows.values()) == total
    slowest = sum(int(row[3]) for row in rows.values())
    assert 0 < slowest <= total // 20 + 1


SMALL_SCALE = ("--games", "200", "--moves", "5", "--templates", "6")


def test_the_scale_benchmark_builds_its_games_sweeps_and_moves() -> None:
    """A small run: every figure is printed, and the sweeps found work to do."""
    finished = benchmark("scale", *SMALL_SCALE)
    assert finished.returncode == 0, finished.stderr
    out = finished.stdout
    assert "200 live games: ready after a restart in" in out
    assert "resident memory" in out and "tick 1" in out
    outage = next(line for line in out.splitlines() if line.startswith("after a 2-hour outage"))
    reminded, ended, images = (int(word) for word in outage.split()[-3:])
    assert reminded > 0 and ended > 0 and images >= reminded + ended
    assert "200 games" in out and "10 games" in out


def test_the_scale_benchmark_runs_on_postgresql_too(postgres_server: str) -> None:
    """The same small run with the games copied into PostgreSQL (the tests' own server)."""
    finished = benchmark(
        "scale", *SMALL_SCALE, "--backend", "postgres", "--database-url", postgres_server
    )
    assert finished.returncode == 0, finished.stderr
    out = finished.stdout
    assert out.startswith("built and copied in") and "\npostgres, " in out
    assert "200 live games: ready after a restart in" in out
    outage = next(line for line in out.splitlines() if line.startswith("after a 2-hour outage"))
    reminded, ended, images = (int(word) for word in outage.split()[-3:])
    assert reminded > 0 and ended > 0 and images >= reminded + ended
    assert "200 games" in out and "10 games" in out


def test_the_workers_benchmark_alternates_its_rounds_and_compares_medians(
    postgres_server: str,
) -> None:
    """Two short rounds on the tests' own server: each PostgreSQL configuration is played
    once a round, in turn, and the comparison names every round's ratio."""
    finished = benchmark(
        "workers",
        *("--games", "2", "--moves", "12", "--rounds", "2"),
        *("--database-url", postgres_server),
    )
    assert finished.returncode == 0, finished.stderr
    lines = finished.stdout.splitlines()
    played = [line.split("  ")[0] for line in lines if line.startswith(("SQLite", "PostgreSQL"))]
    configurations = ["PostgreSQL, in process", "PostgreSQL, 1 worker", "PostgreSQL, 2 workers"]
    assert played == ["SQLite, in process", *configurations, *configurations]
    ratio = next(line for line in lines if line.startswith("2 workers play"))
    rounds = ratio.split("(the median of 2 rounds: ")[1].rstrip(")").split(", ")
    assert len(rounds) == 2 and all(float(r) > 0 for r in rounds)
    assert "refused" not in finished.stderr


def test_the_parallel_benchmark_times_one_process_alone_and_two_at_once() -> None:
    """Each round times one process and then two begun together, each drawing every
    audience's board for its moves (a process that drew fewer fails the run)."""
    finished = benchmark("parallel", "--moves", "6", "--rounds", "2", timeout=120)
    assert finished.returncode == 0, finished.stderr
    lines = finished.stdout.splitlines()
    rounds = [line for line in lines if line.startswith("round ")]
    assert [line.split(":")[0] for line in rounds] == ["round 1", "round 2"]
    assert all(float(line.rsplit(" ", 1)[1].rstrip("x")) > 0 for line in rounds)
    assert lines[-1].startswith("two processes do ") and "median of 2 rounds" in lines[-1]


def test_the_workers_benchmark_plays_the_game_it_is_given(postgres_server: str) -> None:
    """``--game`` plays random games of another game: here Warships, whose setups the
    planned moves deal and confirm before its first move, every move accepted."""
    finished = benchmark(
        "workers",
        *("--game", "warships", "--games", "2", "--moves", "12", "--workers", "1"),
        *("--database-url", postgres_server),
    )
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.startswith("2 warships games at once, 12 moves per run")
    played = [line.split("  ")[0] for line in finished.stdout.splitlines()]
    assert "PostgreSQL, 1 worker" in played
    assert "refused" not in finished.stderr


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_planned_moves_of_every_game_reach_play_and_follow_its_turns(game: str) -> None:
    """The benchmark draws each game's moves in advance: setups first where the game has
    one, then only moves its engine accepts from whoever is to move."""
    engine = ENGINES[game]
    state = engine.new_game(engine.presets[engine.default_variant], 5)
    had_setup = engine.view(state, None).phase is Phase.SETUP
    moves = planned_moves(game, state, 30, random.Random(3))
    if had_setup:
        assert [text for _, text in moves[:4]] == ["random", "ready", "random", "ready"]
    assert len(moves) == 30
    for seat, text in moves:
        assert seat in engine.to_move(state) or engine.view(state, None).phase is Phase.SETUP
        state = engine.act(state, seat, text).state


class MeetingPoint:
    """A transport whose every send waits for the sends of the two other backlogs."""

    def __init__(self) -> None:
        self.arrived = 0
        self.everyone = asyncio.Event()
        self.met: list[bool] = []

    async def ready(self, report: Report) -> bool:
        return False

    async def send(self, report: Report, batch: Batch) -> None:
        self.arrived += 1
        if self.arrived == 3:
            self.everyone.set()
        try:
            async with asyncio.timeout(2):
                await self.everyone.wait()
            self.met.append(True)
        except TimeoutError:
            self.met.append(False)


async def test_the_workers_benchmark_delivers_a_moves_backlogs_side_by_side(tmp_path: Path) -> None:
    """As the deliverer does when a stored move wakes its backlogs: one after the other, the
    backlogs' releases would each be a trip of their own, and the database's share of a
    move would be overstated."""
    store = await SqliteRepository.open(tmp_path / "referee.sqlite3")
    try:
        referee = Referee(store)
        ((game_id, players),) = await start_games(referee, Load(games=1))
        record = await store.get_game(game_id)
        assert record is not None
        plan = planned_moves(
            "seabattle", ENGINES["seabattle"].from_json(record.state), 5, random.Random(1)
        )
        for seat, text in plan:
            report = await referee.act(players[seat], text, game_id)
        meeting = MeetingPoint()
        await deliver(Deliverer(store.outbox, referee, meeting), report)
        assert meeting.met == [True, True, True]
    finally:
        await store.close()
