"""Several bot processes on one PostgreSQL database: any of them may act on any game.

Each process has its own store (its own connections) and its own referee (its own
in-process lock and state cache). These tests put two such processes on one real
PostgreSQL server and hold them to what one process promised alone: a move counts once,
changes to one game never interleave, and a cached state never outlives its ply.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.games.core import GameError
from bot.referee import Referee, RefereeError, Report, replay
from bot.storage import GameStatus, LogKind
from bot.storage import postgres_schema as schema
from bot.storage.outbox import Backlog
from bot.storage.postgres import SCHEMA_VERSION, PostgresRepository
from tests.referee.test_referee import (
    ALICE,
    BOB,
    GUILD,
    E,
    random_move,
    set_fleets,
    start_game,
    state_of,
)
from tests.storage.helpers import OLD_GAMES, OLD_OUTBOX, assert_old_outbox_delivered_per_audience


@pytest.fixture
async def stores(postgres_url: str) -> AsyncIterator[tuple[PostgresRepository, PostgresRepository]]:
    """Two processes' stores on one database."""
    one = await PostgresRepository.open(postgres_url)
    two = await PostgresRepository.open(postgres_url)
    yield one, two
    await two.close()
    await one.close()


async def assert_held_off(store: PostgresRepository, game_id: int, *, seconds: float) -> None:
    """The game's lock stays out of the store's reach for ``seconds``."""
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(seconds), store.game_lock(game_id):
            pass


async def assert_free(store: PostgresRepository, game_id: int) -> None:
    """The store takes the game's lock at once (within five seconds) and lets it go."""
    async with asyncio.timeout(5), store.game_lock(game_id):
        pass


async def test_a_game_lock_taken_by_one_process_holds_off_the_other(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    one, two = stores
    async with one.game_lock(7):
        await assert_held_off(two, 7, seconds=0.3)
        await assert_free(two, 8)  # another game's lock is free meanwhile
    await assert_free(two, 7)


async def test_a_lock_abandoned_by_a_cancelled_caller_is_released(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    """A caller cancelled while it waits must not take the lock later and keep it."""
    one, two = stores
    async with one.game_lock(3):
        await assert_held_off(two, 3, seconds=0.2)
    await assert_free(one, 3)


async def test_the_read_taken_with_a_lock_is_the_game_its_last_holder_left(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    """The lock and the game's read are one round trip: the read comes after the wait, so
    a process that waited for another's move reads that move, not the game before it."""
    one, two = stores
    game = await start_game(Referee(one))
    waiting: asyncio.Task[int] | None = None

    async def read_when_locked() -> int:
        async with two.game_lock(game.id):
            record = await two.get_game(game.id)
            assert record is not None
            return record.ply

    async with one.game_lock(game.id):
        record = await one.get_game(game.id)
        assert record is not None
        waiting = asyncio.create_task(read_when_locked())
        await asyncio.sleep(0.3)  # the other process now waits for the lock
        assert not waiting.done()
        await one.append(record, seat=0, kind=LogKind.MOVE, text="random", state=record.state)
    async with asyncio.timeout(5):
        assert await waiting == game.ply + 1


async def test_a_claim_left_unsent_goes_again_alone_while_later_notices_wait(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    """A player's claim a stopped process left is sent again as the same message, without
    the notices stored since; the channel's takes them in, since it shows the newest."""
    one, two = stores
    game = await start_game(Referee(one))
    seat, channel = Backlog(game.id, 0), Backlog(game.id, None)
    claims = [await one.outbox.claim(backlog) for backlog in (seat, channel)]
    record = await one.get_game(game.id)
    assert record is not None
    audience_texts = ((0, ("Later.",)), (None, ("Later on the channel.",)))
    await one.append(
        record,
        seat=0,
        kind=LogKind.MOVE,
        text="random",
        state=record.state,
        audience_texts=audience_texts,
    )
    again = await two.outbox.claim(seat)
    assert again is not None and again == claims[0]
    await two.outbox.release(again)
    later = await two.outbox.claim(seat)
    assert later is not None and later.texts == (("Later.",),)
    wider = await two.outbox.claim(channel)
    assert claims[1] is not None and wider is not None
    assert wider.plies == (*claims[1].plies, game.ply + 1)
    assert wider.texts[-1] == ("Later on the channel.",)


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


async def test_two_processes_claiming_one_backlog_at_once_send_its_notices_once(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    """Two processes waking the same audience together: one claims its oldest notices, the
    other passes the backlog by, and a retry after the claimer stopped gets the same message."""
    one, two = stores
    game = await start_game(Referee(one))
    [backlog, *_] = await one.outbox.backlogs()
    claims = await asyncio.gather(*(store.outbox.claim(backlog) for store in (one, two, one, two)))
    batches = {claim for claim in claims if claim is not None}
    assert len(batches) == 1, claims
    [batch] = batches
    assert batch.game_id == game.id and batch.plies[0] == 0
    assert await two.outbox.claim(backlog) == batch, "a claim survives its process"
    await two.outbox.release(batch)
    assert backlog not in await one.outbox.backlogs()


async def test_a_version_10_outbox_moves_to_per_audience_notices_and_keeps_the_end_final(
    postgres_url: str,
) -> None:
    """What an older bot left undelivered in PostgreSQL is delivered per audience by the
    new one, and a finished game's last entry is marked final (announced once)."""
    old = await asyncpg.connect(postgres_url)
    try:
        await old.execute(schema.SCHEMA)
        for step in schema.MIGRATIONS[:9]:
            await old.execute(step)
        await old.execute("CREATE TABLE schema_version (version INTEGER)")
        await old.execute("INSERT INTO schema_version VALUES (10)")
        for game_id, status, ply in OLD_GAMES:
            await old.execute(
                "INSERT INTO games (id, game, rules, seed, channel_id, seat0_id, seat1_id,"
                " status, ply, state, created_at, updated_at)"
                " VALUES ($1, 'seabattle', '{}', 1, 9, 2, 3, $2, $3, '{}', 0, 0)",
                game_id,
                status,
                ply,
            )
        for game_id, ply, audience_texts in OLD_OUTBOX:
            await old.execute(
                "INSERT INTO outbox (game_id, ply, notices, created_at) VALUES ($1, $2, $3, 0)",
                game_id,
                ply,
                json.dumps(audience_texts),
            )
    finally:
        await old.close()
    repository = await PostgresRepository.open(postgres_url)
    try:
        await assert_old_outbox_delivered_per_audience(repository.outbox)
        assert await repository.schema_version() == SCHEMA_VERSION
    finally:
        await repository.close()


async def test_a_claimed_batch_carries_the_game_as_another_process_left_it(
    stores: tuple[PostgresRepository, PostgresRepository],
) -> None:
    """The claim reads the game in its own statement, so the board a notice is sent with
    is the game as stored, not a copy this process read before another moved."""
    one, two = stores
    game = await set_fleets(Referee(one), await start_game(Referee(one)))
    shooter, shot = random_move(random.Random(1), game, state_of(game))
    moved = (await Referee(two).act(shooter, shot, game.id)).game
    batch = await one.outbox.claim(Backlog(game.id, None))
    assert batch is not None and batch.last_ply == moved.ply
    assert batch.game == await one.get_game(game.id) == moved
    report = await Referee(one).batch_report(batch)
    assert report is not None and report.game == moved
