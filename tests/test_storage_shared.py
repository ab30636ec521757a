"""Several bot processes on one PostgreSQL database: any of them may act on any game.

Each process has its own store (its own connections) and its own referee (its own
in-process lock and state cache). These tests put two such processes on one real
PostgreSQL server and hold them to what one process promised alone: a move counts once,
changes to one game never interleave, and a cached state never outlives its ply.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.games.core import GameError
from bot.referee import Referee, RefereeError, Report, replay
from bot.storage import GameStatus
from bot.storage.postgres import PostgresRepository
from tests.test_referee import ALICE, BOB, GUILD, E, random_move, set_fleets, start_game, state_of


@pytest.fixture
async def stores(postgres_url: str) -> AsyncIterator[tuple[PostgresRepository, PostgresRepository]]:
    """Two processes' stores on one database."""
    one = await PostgresRepository.open(postgres_url)
    two = await PostgresRepository.open(postgres_url)
    yield one, two
    await two.close()
    await one.close()


async def test_a_game_lock_taken_by_one_process_holds_off_the_other(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    one, two = stores
    async with one.game_lock(7):
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.3), two.game_lock(7):
                pass
        async with asyncio.timeout(5), two.game_lock(8):
            pass  # another game's lock is free meanwhile
    async with asyncio.timeout(5), two.game_lock(7):
        pass


async def test_a_lock_abandoned_by_a_cancelled_caller_is_released(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    """A caller cancelled while it waits must not take the lock later and keep it."""
    one, two = stores
    async with one.game_lock(3):
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.2), two.game_lock(3):
                pass
    async with asyncio.timeout(5), one.game_lock(3):
        pass


async def test_the_same_move_sent_to_two_processes_at_once_counts_once(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    one, two = stores
    first, second = Referee(one), Referee(two)
    game = await set_fleets(first, await start_game(first))
    shooter = game.seats[state_of(game).turn or 0]

    outcomes = await asyncio.gather(
        first.act(shooter, f"#{game.id} F6"),
        second.act(shooter, f"#{game.id} F6"),
        return_exceptions=True,
    )
    # The game lock lets the second in only after the first is stored: it sees the shot
    # and is refused with a player's sentence (a hit shoots again, a miss passes the turn).
    reports = [o for o in outcomes if isinstance(o, Report)]
    refusals = [o for o in outcomes if isinstance(o, GameError)]
    assert len(reports) == 1 and len(refusals) == 1, outcomes
    assert str(refusals[0]) in {
        "You have already shot at F6; pick another cell.",
        "It is your opponent's turn; wait for their shot.",
    }
    log = await one.log(game.id)
    assert [entry.text for entry in log].count("F6") == 1
    stored = await two.get_game(game.id)
    assert stored is not None and stored.ply == len(log) == game.ply + 1


async def test_moves_alternating_between_processes_play_one_consistent_game(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    """Each process caches states by ply; the other moving on makes its cache miss, never
    serve a stale board. The whole game then replays from the log to the stored state."""
    one, two = stores
    referees = (Referee(one), Referee(two))
    game = await start_game(referees[0])
    rng = random.Random(5)
    turn = 0
    while game.status is GameStatus.ACTIVE:
        loaded = await (one, two)[turn % 2].get_game(game.id)
        assert loaded is not None
        user, text = random_move(rng, loaded, state_of(loaded))
        game = (await referees[turn % 2].act(user, f"#{game.id} {text}")).game
        turn += 1
    assert game.status is GameStatus.FINISHED and turn > 20
    assert E.to_json(replay(E, game, await two.log(game.id))) == game.state
    results = await one.records.results_of(game.id)  # written with the end, on PostgreSQL
    assert sorted(r.user_id for r in results) == [ALICE, BOB] and all(r.rated for r in results)
    for user in (ALICE, BOB):
        [standing] = await two.records.standings_of(user)
        assert standing.games == 1 and standing.wins + standing.losses == 1
    for scope in (GUILD, None):  # the server's board and everyone's, both from PostgreSQL
        board = await one.records.leaderboard("seabattle", scope, ALICE)
        assert sorted(s.user_id for s in board.provisional) == [ALICE, BOB]
        assert board.caller is not None and board.caller.user_id == ALICE
    for referee in referees:  # each process's board agrees with the stored game
        for user in (ALICE, BOB):
            with pytest.raises(RefereeError):
                await referee.act(user, f"#{game.id} F6")


async def test_one_process_at_a_time_is_on_duty(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    one, two = stores
    async with (
        one.duty("clock") as first,
        two.duty("clock") as second,
        two.duty("other") as other,
    ):
        assert (first, second, other) == (True, False, True)
    async with two.duty("clock") as later:
        assert later, "the duty stayed taken after its process finished"


async def test_undelivered_tidings_are_claimed_once_and_only_after_their_lease(
    postgres_url: str,
) -> None:
    """Tidings a live process is delivering are not another's to send; once their lease
    ran out (their process stopped), two processes asking at once get them once."""
    now = [1000.0]
    stores = [
        await PostgresRepository.open(postgres_url, clock=lambda: now[0], outbox_lease=60)
        for _ in range(2)
    ]
    try:
        game = await start_game(Referee(stores[0]))
        assert [p.game_id for p in await stores[0].pending()] == []
        assert await stores[1].pending() == [], "claimed while its process delivers it"
        now[0] += 61
        claims = await asyncio.gather(stores[0].pending(), stores[1].pending())
        assert sorted(len(claim) for claim in claims) == [0, 1], claims
        assert [p.game_id for claim in claims for p in claim] == [game.id]
        assert await stores[1].pending() == [], "a claim renews the lease"
        now[0] += 61
        [again] = await stores[1].pending()  # the claimer stopped too: claimable again
        await stores[1].delivered(again.game_id, again.ply)
        now[0] += 61
        assert await stores[0].pending() == []
    finally:
        for store in stores:
            await store.close()
