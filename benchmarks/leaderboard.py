"""Benchmark: leaderboard, profile and history queries over 100,000 finished games.

Fills a temporary SQLite file (the bot's own schema) with finished, rated games between
players of very unequal activity in a few servers, rated in order with the bot's rating
model, then times each read the record commands make, and a game's end (result and
ratings written in its transaction) on the full database.

    python -m benchmarks.leaderboard [--games 100000] [--players 3000] [--runs 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchmarks.common import percentile
from bot.games.core import EndReason
from bot.ratings import Skill, rate
from bot.records import HISTORY_PAGE, RECENT_GAMES
from bot.storage import Ending, LogKind, SqliteRepository

GAME = "seabattle"
SERVERS = (1, 2, 3, 4, 5)


def fill(database: Path, games: int, players: int, seed: int = 2026) -> None:
    """Write ``games`` finished rated games with their results and the final ratings."""
    rng = random.Random(seed)
    weights = [1 / (rank + 1) ** 0.8 for rank in range(players)]  # a few play a lot
    ids = list(range(10_001, 10_001 + players))
    home = {user: rng.choice(SERVERS) for user in ids}
    skills: dict[int, Skill] = {}
    tallies: dict[int, list[int]] = {}  # games, wins, losses, draws, streak
    game_rows, result_rows, seen = [], [], set()
    now = time.time() - games * 60
    for game_id in range(1, games + 1):
        first, second = rng.choices(ids, weights, k=2)
        while second == first:
            second = rng.choice(ids)
        guild = home[first] if rng.random() < 0.8 else home[second]
        winner = 0 if rng.random() < 0.5 else 1
        before = (skills.get(first, Skill()), skills.get(second, Skill()))
        after = rate(before, winner)
        ended = now + game_id * 60
        game_rows.append(
            (game_id, GAME, "{}", 1, guild, 1, first, second, "finished", 1, "{}", winner,
             EndReason.RULES.value, ended, ended)
        )  # fmt: skip
        for seat, user in enumerate((first, second)):
            won = seat == winner
            result_rows.append(
                (game_id, seat, user, (second, first)[seat], GAME, guild, float(won), 1,
                 before[seat].mu, before[seat].sigma, after[seat].mu, after[seat].sigma, ended)
            )  # fmt: skip
            skills[user] = after[seat]
            tally = tallies.setdefault(user, [0, 0, 0, 0, 0])
            tally[0] += 1
            tally[1 if won else 2] += 1
            tally[4] = (max(tally[4], 0) + 1) if won else (min(tally[4], 0) - 1)
            seen.add((guild, GAME, user))
    with sqlite3.connect(database) as db:
        db.executemany(
            "INSERT INTO games (id, game, rules, seed, guild_id, channel_id, seat0_id, seat1_id,"
            " status, ply, state, winner, end_reason, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        db.executemany(f"INSERT INTO results VALUES ({', '.join('?' * 13)})", result_rows)
        db.executemany(
            "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (user, GAME, skill.mu, skill.sigma, *tallies[user], now)
                for user, skill in skills.items()
            ],
        )
        db.executemany("INSERT INTO rated_in_servers VALUES (?, ?, ?)", sorted(seen))
        db.execute("ANALYZE")


async def timed(runs: int, query: Callable[[int], Awaitable[Any]]) -> list[float]:
    times = []
    for run in range(runs):
        start = time.perf_counter()
        await query(run)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def measure(database: Path, players: int, runs: int) -> dict[str, list[float]]:
    repository = await SqliteRepository.open(database)
    records = repository.records
    rng = random.Random(7)
    users = [10_001 + rng.randrange(players) for _ in range(runs)]
    heavy = 10_001  # the most active player: the longest history

    async def game_end(run: int) -> None:
        challenge = await repository.create_challenge(
            game=GAME, rules={}, guild_id=1, channel_id=1, challenger_id=users[run],
            opponent_id=heavy if users[run] != heavy else heavy + 1,
        )  # fmt: skip
        game = await repository.accept_challenge(
            challenge.id, seed=1, seats=(challenge.challenger_id, challenge.opponent_id), state={}
        )
        assert game is not None
        start = time.perf_counter()
        await repository.append(
            game, seat=1, kind=LogKind.END, text="{}", state={},
            ending=Ending(0, EndReason.RESIGNATION.value, rated=True),
        )  # fmt: skip
        end_times.append((time.perf_counter() - start) * 1000)

    async def profile(run: int) -> None:
        await records.standings_of(users[run])
        await records.history(users[run], None, offset=0, limit=RECENT_GAMES)

    end_times: list[float] = []
    figures = {
        "leaderboard (server)": await timed(
            runs, lambda run: records.leaderboard(GAME, SERVERS[run % 5], users[run])
        ),
        "leaderboard (global)": await timed(
            runs, lambda run: records.leaderboard(GAME, None, users[run])
        ),
        "profile": await timed(runs, profile),
        "history, page 1": await timed(
            runs, lambda run: records.history(users[run], GAME, offset=0, limit=HISTORY_PAGE)
        ),
        "history, busiest player, page 50": await timed(
            runs, lambda run: records.history(heavy, GAME, offset=490, limit=HISTORY_PAGE)
        ),
        "results of one game": await timed(runs, lambda run: records.results_of(1 + run * 300)),
    }
    await timed(runs, game_end)
    figures["game end with ratings (write)"] = end_times
    await repository.close()
    return figures


async def create(database: Path) -> None:
    """The bot's schema, as a first start creates it."""
    repository = await SqliteRepository.open(database)
    await repository.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=3_000)
    parser.add_argument("--runs", type=int, default=300)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "leaderboard.sqlite3"
        asyncio.run(create(database))
        start = time.perf_counter()
        fill(database, options.games, options.players)
        size = database.stat().st_size / 2**20
        print(
            f"{options.games} finished rated games, {options.players} players, "
            f"{len(SERVERS)} servers: filled in {time.perf_counter() - start:.1f} s, "
            f"{size:.0f} MB"
        )
        figures = asyncio.run(measure(database, options.players, options.runs))
    print(f"{'per call (ms)':34} {'p50':>7} {'p95':>7} {'max':>7}")
    for name, times in figures.items():
        print(
            f"{name:34} {percentile(times, 0.5):7.2f} {percentile(times, 0.95):7.2f} "
            f"{max(times):7.2f}"
        )


if __name__ == "__main__":
    main()
