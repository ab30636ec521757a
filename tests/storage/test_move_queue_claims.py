"""The move queue's claims on a real PostgreSQL server: gateway processes queue the moves
they receive, and each move is claimed by one worker at a time, in order, with its game's
lock, and claimed again once a claim runs out, so a worker killed at any point loses and
doubles nothing (the processes: ``tests/storage/processes``).
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.games.core import GameError
from bot.storage.postgres import PostgresRepository
from tests.referee.test_referee import ALICE, start_game
from tests.storage.processes import (
    DM,
    Clock,
    Process,
    claimed_again,
    game_in_play,
    game_with_a_queued_move,
)


async def test_moves_are_claimed_oldest_first_and_one_game_at_a_time(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    queue = one.store.queue
    first = await start_game(one.referee)
    second = await start_game(one.referee, challenger=1005, opponent=1006)
    a1 = await queue.put(first.id, ALICE, "random", DM)
    b1 = await queue.put(second.id, 1005, "random", DM)
    a2 = await queue.put(first.id, ALICE, "ready", DM)

    claimed = await queue.claim()
    assert claimed is not None and claimed.id == a1
    # The first game's next move waits behind the one being played; the other game's
    # move goes to another worker meanwhile.
    other = await two.store.queue.claim()
    assert other is not None and other.id == b1
    assert await two.store.queue.claim() is None

    await one.worker.apply(claimed)
    later = await two.store.queue.claim()
    assert later is not None and later.id == a2 and later.text == "ready"
    assert later.reply == DM and later.attempts == 1


async def test_two_workers_racing_for_one_move_play_it_once(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    one, two = processes
    game, shooter, _ = await game_in_play(one)
    move_id = await one.store.queue.put(game.id, shooter, "F6", DM)

    claims = await asyncio.gather(one.store.queue.claim(), two.store.queue.claim())
    assert sorted(claim is None for claim in claims) == [False, True]
    (claimed,) = [claim for claim in claims if claim is not None]

    # The first worker is slow: its claim runs out and the second claims the move too.
    again = await claimed_again(two, clock, move_id)
    reports = await asyncio.gather(one.worker.apply(claimed), two.worker.apply(again))

    assert sum(report is not None for report in reports) == 1
    stored = await one.store.get_game(game.id)
    assert stored is not None and stored.ply == game.ply + 1
    assert [entry.text for entry in await one.store.log(game.id)].count("F6") == 1
    # The move was played, so neither worker tells its player it was refused.
    assert one.answers.refused == two.answers.refused == []
    assert await one.store.queue.waiting() == 0


async def test_a_move_whose_worker_died_is_played_by_another_once_its_claim_runs_out(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    one, two = processes
    game = await game_with_a_queued_move(one)
    dead = await one.store.queue.claim()  # and its process is killed before playing it
    assert dead is not None
    assert await two.store.queue.claim() is None  # the claim still holds

    revived = await claimed_again(two, clock, dead.id)
    report = await two.worker.apply(revived)
    assert report is not None and report.game.ply == 1
    assert await two.store.queue.waiting() == 0
    assert [entry.text for entry in await two.store.log(game.id)] == ["random"]


async def test_a_worker_killed_between_storing_and_answering_stores_the_move_once(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    """The move leaves the queue with the stored move, so nothing can play it again."""
    one, two = processes
    game = await game_with_a_queued_move(one)
    claimed = await one.store.queue.claim()
    assert claimed is not None
    await one.referee.act(ALICE, "random", game.id, queued=claimed.id)  # then killed
    clock.now += 31
    assert await two.store.queue.claim() is None
    stored = await two.store.get_game(game.id)
    assert stored is not None and stored.ply == 1


async def advisory_locks(store: PostgresRepository) -> int:
    """Advisory locks held right now, by any process."""
    rows = await store._rows("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
    return int(rows[0][0])


async def test_a_claim_holds_its_games_lock_until_the_move_is_committed(
    processes: tuple[Process, Process],
) -> None:
    """A worker's claim takes the game's lock with it, and the store hands the lock to its
    own transaction: another process waiting for the game reads it only once the move is
    stored, and nothing is left locked after."""
    one, two = processes
    game = await game_with_a_queued_move(one)
    held = await one.store.queue.claim_held()
    assert held is not None and held.move.text == "random"
    assert await two.store.queue.claim_held() is None  # claimed, as by ``claim``

    async def read_under_lock() -> int:
        async with two.store.game_lock(game.id):
            seen = await two.store.get_game(game.id)
            assert seen is not None
            return seen.ply

    waiting = asyncio.create_task(read_under_lock())
    await asyncio.sleep(0.3)
    assert not waiting.done(), "the claim holds the game's lock"
    async with one.store.queue.holding(held) as move:
        report = await one.worker.apply(move)
    assert report is not None and report.game.ply == 1
    async with asyncio.timeout(5):
        assert await waiting == 1  # the stored move, never the game as it was
    assert await advisory_locks(one.store) == 0
    assert await one.store.queue.waiting() == 0


async def test_a_refused_claimed_move_leaves_its_game_unlocked(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    game, _, waiting = await game_in_play(one)
    await one.store.queue.put(game.id, waiting, "F6", DM)  # out of turn
    held = await one.store.queue.claim_held()
    assert held is not None
    async with one.store.queue.holding(held) as move:
        assert await one.worker.apply(move) is None
    assert [move_id for move_id, _ in one.answers.refused] == [held.move.id]
    assert await advisory_locks(one.store) == 0
    async with asyncio.timeout(5), two.store.game_lock(game.id):
        pass


async def test_a_worker_killed_holding_a_claim_frees_the_game_and_leaves_the_move(
    processes: tuple[Process, Process], clock: Clock
) -> None:
    """A killed worker's connections close: its game lock goes at once, and its move is
    claimed again when the claim runs out, and played once."""
    one, two = processes
    game = await game_with_a_queued_move(one)
    dead = await one.store.queue.claim_held()
    assert dead is not None
    dead.connection.terminate()  # the server ends the killed process's session
    with pytest.raises(asyncpg.InterfaceError):  # (what the dead process would do next)
        async with one.store.queue.holding(dead):
            pass
    async with asyncio.timeout(5), two.store.game_lock(game.id):
        pass
    assert await two.store.queue.claim_held() is None  # the claim still holds

    clock.now += 31
    revived = await two.store.queue.claim_held()
    assert revived is not None and revived.move.id == dead.move.id
    assert revived.move.attempts == 2
    async with two.store.queue.holding(revived) as move:
        report = await two.worker.apply(move)
    assert report is not None and report.game.ply == 1
    assert [entry.text for entry in await two.store.log(game.id)] == ["random"]
    assert await advisory_locks(two.store) == 0


async def test_a_refused_move_is_answered_once_with_the_referees_sentence(
    processes: tuple[Process, Process],
) -> None:
    one, two = processes
    game, _, waiting = await game_in_play(one)
    with pytest.raises(GameError) as direct:
        await one.referee.act(waiting, f"#{game.id} F6")
    await one.store.queue.put(game.id, waiting, "F6", DM)
    claimed = await one.store.queue.claim()
    assert claimed is not None
    assert await one.worker.apply(claimed) is None

    assert one.answers.refused == [(claimed.id, str(direct.value))]
    assert await one.store.queue.waiting() == 0
    assert await two.worker.apply(claimed) is None  # a second claimant stays silent
    assert two.answers.refused == []
