"""The players of ``benchmarks.workers``: a closed loop of random games played at once.

The same random games (fixed seeds, moves drawn in advance) are played in every
configuration. Their players write to the bot all at once, each game's players one move
after the other, each waiting for their move's boards: a closed loop, so the figures are
the most moves the configuration sustains. How a move is sent (played in process, or
queued for worker processes) is the configuration's own ``Play``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from benchmarks.common import random_move, setup_moves, start_game
from bot.delivery.deliverer import SEATS_AND_CHANNEL, Deliverer
from bot.delivery.presenter import presented
from bot.games import ENGINES
from bot.games.core import Phase
from bot.referee import Referee, Report
from bot.storage import PostgresRepository, SqliteRepository
from bot.storage.outbox import Backlog, Batch


@dataclass(frozen=True)
class Load:
    """What a run plays: ``games`` random games of ``game`` at once, ``moves`` in all."""

    game: str = "seabattle"
    games: int = 16
    moves: int = 600
    worker_share: float | None = None
    """Each worker process held to this share of one processor (``processor_share``), or
    None: the workers take what the machine's processors have free."""


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


Play = Callable[[int, int, str], Awaitable[None]]
"""Sends one move (game id, player id, text) and returns once its boards were delivered."""


class Rendering:
    """The deliverer's transport: renders each board as the Discord sender would, sends nowhere,
    so Discord's own latency is left out."""

    async def ready(self, report: Report) -> bool:
        return False

    async def send(self, report: Report, batch: Batch) -> None:
        for notice in report.notices:
            await presented(notice)


async def deliver(deliverer: Deliverer, report: Report) -> None:
    """Send a stored move's notices to every audience, the backlogs side by side as the
    deliverer sends them when the referee publishes a stored move
    (``Deliverer.published``): so their releases travel together as they do in the bot."""
    send = deliverer.transport.send
    await asyncio.gather(
        *(
            deliverer.deliver_now(Backlog(report.game.id, audience), send)
            for audience in SEATS_AND_CHANNEL
        )
    )


async def start_games(referee: Referee, load: Load) -> list[tuple[int, tuple[int, int]]]:
    """The load's games, in their default variant, each with its players' ids."""
    started = []
    for number in range(load.games):
        players = (1000 + 2 * number, 1001 + 2 * number)
        game = await start_game(referee, load.game, players)
        started.append((game.id, players))
    return started


def planned_moves(
    game: str, state: object, count: int, rng: random.Random
) -> list[tuple[int, str]]:
    """The first ``count`` moves of a random game from ``state``: both random setups
    confirmed (where the game has a setup), then random legal moves."""
    engine = ENGINES[game]
    moves = setup_moves(engine, state)
    for seat, word in moves:
        state = engine.act(state, seat, word).state
    assert engine.view(state, None).phase is Phase.PLAY
    while len(moves) < count:
        move = random_move(engine, state, rng)
        if move is None:
            break
        state = engine.act(state, *move).state
        moves.append(move)
    return moves


async def play_all(store: SqliteRepository | PostgresRepository, play: Play, load: Load) -> Run:
    """Every game's players play their moves, all games at once."""
    referee = Referee(store, seed_source=iter(range(7, 7 + load.games)).__next__)
    engine = ENGINES[load.game]
    plans = []
    for game_id, players in await start_games(referee, load):
        record = await store.get_game(game_id)
        assert record is not None
        state = engine.from_json(record.state)
        rng = random.Random(game_id)
        plans.append(
            (game_id, players, planned_moves(load.game, state, load.moves // load.games, rng))
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
