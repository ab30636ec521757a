"""Bot processes on one shared PostgreSQL database, for the move queue's tests.

Each "process" is its own store (its own connections) with its own referee, deliverer and
worker, as in ``test_shared``; a worker that dies is one whose claim is simply never
finished. The fixtures that open two of them are in ``conftest``.
"""

from __future__ import annotations

from bot.delivery.deliverer import Deliverer
from bot.referee import Referee, Report
from bot.storage import GameRecord
from bot.storage.outbox import Batch
from bot.storage.postgres import PostgresRepository
from bot.storage.postgres_queue import QueuedMove
from bot.worker import MoveWorker
from tests.referee.test_referee import ALICE, set_fleets, start_game, state_of

DM = {"dm": 4242}


class Clock:
    """A clock the test moves by hand, shared by the processes."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Answers:
    """What a worker told the players of queued moves."""

    def __init__(self) -> None:
        self.refused: list[tuple[int, str]] = []
        self.answered: list[tuple[int, Report]] = []

    def answers_notices(self, move: QueuedMove) -> bool:
        return False

    async def refuse(self, move: QueuedMove, text: str) -> None:
        self.refused.append((move.id, text))

    async def answer(self, move: QueuedMove, report: Report) -> None:
        self.answered.append((move.id, report))


class Transport:
    """The deliverer's way out: records each batch's audience and ply."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int | None, int]] = []

    async def ready(self, report: Report) -> bool:
        return False

    async def send(self, report: Report, batch: Batch) -> None:
        self.sent.append((batch.game_id, batch.audience, batch.last_ply))


class Process:
    """One bot process on the shared database: its store, referee, deliverer and worker."""

    def __init__(self, store: PostgresRepository, *, delivering: bool = True) -> None:
        self.store = store
        self.referee = Referee(store)
        self.answers = Answers()
        self.transport = Transport()
        self.deliverer = Deliverer(store.outbox, self.referee, self.transport)
        if delivering:  # else the test has the deliverer look itself (``Deliverer.wake``)
            self.referee.changes.subscribe(self.deliverer.published)
        self.worker = MoveWorker(store.queue, self.referee, self.answers, poll=30.0)


async def claimed_again(process: Process, clock: Clock, move_id: int) -> QueuedMove:
    """A claim lasts 30 s: once it runs out, ``process`` claims the move anew."""
    clock.now += 31
    again = await process.store.queue.claim()
    assert again is not None and again.id == move_id and again.attempts == 2
    return again


async def game_with_a_queued_move(process: Process) -> GameRecord:
    """A new game, its first player's setup move (``random``) waiting in the queue."""
    game = await start_game(process.referee)
    await process.store.queue.put(game.id, ALICE, "random", DM)
    return game


async def game_in_play(process: Process) -> tuple[GameRecord, int, int]:
    """A game past its setup, with the player whose turn it is and the one who waits."""
    game = await set_fleets(process.referee, await start_game(process.referee))
    turn = state_of(game).turn or 0
    return game, game.seats[turn], game.seats[1 - turn]
