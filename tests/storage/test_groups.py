"""Group commit for both stores (``bot.storage.groups``): calls made while a trip of their kind
is on its way go together in the next one, each keeps its own answer, and one call's fault
fails no other."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import asyncpg
import pytest

from bot.referee import Referee
from bot.storage import SqliteRepository
from bot.storage.groups import Group
from bot.storage.outbox import Backlog, audience_code
from tests.referee.test_referee import start_game


class Statements:
    """A statement kind that doubles numbers, refuses 13 (as a constraint would refuse a
    row) and records each statement it was sent."""

    def __init__(self) -> None:
        self.sent: list[list[int]] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.lost = False

    async def __call__(self, calls: Sequence[int]) -> list[int]:
        self.sent.append(list(calls))
        await self.gate.wait()
        if self.lost:
            raise ConnectionResetError("the connection dropped")
        if 13 in calls:
            raise asyncpg.CheckViolationError("13 is refused")
        return [2 * call for call in calls]


async def held_then(
    group: Group[int, int], statements: Statements, first: int, later: Sequence[int]
) -> tuple[asyncio.Task[int], list[asyncio.Task[int]]]:
    """``first`` sent and held on its way, then ``later`` called while it is."""
    statements.gate.clear()
    sent = asyncio.create_task(group(first))
    await asyncio.sleep(0.01)
    waiting = [asyncio.create_task(group(n)) for n in later]
    await asyncio.sleep(0.01)
    return sent, waiting


async def test_a_lone_call_goes_at_once_and_calls_made_meanwhile_go_together() -> None:
    statements = Statements()
    group: Group[int, int] = Group(statements, "doubling", asyncpg.PostgresError)
    assert await group(1) == 2
    first, later = await held_then(group, statements, 2, (3, 4, 5))
    statements.gate.set()
    assert await asyncio.gather(first, *later) == [4, 6, 8, 10]
    assert statements.sent == [[1], [2], [3, 4, 5]]
    assert group.statements == 3


async def test_a_refused_call_fails_alone_and_the_calls_beside_it_go_through() -> None:
    statements = Statements()
    group: Group[int, int] = Group(statements, "doubling", asyncpg.PostgresError)
    first, together = await held_then(group, statements, 1, (12, 13, 14))
    statements.gate.set()
    answers = await asyncio.gather(first, *together, return_exceptions=True)
    assert answers[:2] == [2, 24] and answers[3] == 28
    assert isinstance(answers[2], asyncpg.CheckViolationError)
    assert statements.sent == [[1], [12, 13, 14], [12], [13], [14]]


async def test_a_lost_connection_fails_every_call_it_carried_without_sending_again() -> None:
    """Whether a statement whose connection dropped was committed is unknown: sending its
    calls again could do them twice, so each fails, as it would alone."""
    statements = Statements()
    group: Group[int, int] = Group(statements, "doubling", asyncpg.PostgresError)
    first, together = await held_then(group, statements, 1, (2, 3))
    statements.lost = True
    statements.gate.set()
    answers = await asyncio.gather(first, *together, return_exceptions=True)
    assert all(isinstance(answer, ConnectionResetError) for answer in answers)
    assert statements.sent == [[1], [2, 3]]
    statements.lost = False
    assert await group(4) == 8  # the group goes on


async def test_calls_waiting_when_the_group_is_stopped_fail_rather_than_wait_for_ever() -> None:
    statements = Statements()
    group: Group[int, int] = Group(statements, "doubling", asyncpg.PostgresError)
    first, (waiting,) = await held_then(group, statements, 1, (2,))
    sender = group._sending
    assert sender is not None
    sender.cancel()  # the event loop closing under it
    with pytest.raises(ConnectionError):
        await waiting
    with pytest.raises(ConnectionError):
        await first


async def test_a_moves_backlogs_released_side_by_side_go_in_one_sqlite_transaction(
    tmp_path: Path,
) -> None:
    """On SQLite the three releases of a move's backlogs go together, in one transaction (run
    at once on the loop's thread, or in one trip to aiosqlite's while another process
    writes), and each says whether its backlog still has notices waiting (the first seat's,
    told of its random fleet after the game's start)."""
    store = await SqliteRepository.open(tmp_path / "referee.sqlite3")
    try:
        referee = Referee(store)
        game = await start_game(referee)
        await referee.act(game.seats[0], f"#{game.id} random")
        backlogs = [Backlog(game.id, audience) for audience in (0, 1, None)]
        batches = [await store.outbox.claim(backlog, merge=False) for backlog in backlogs]
        trips = store.outbox.releases.statements
        more = await asyncio.gather(*(store.outbox.release(p) for p in batches if p))
        assert store.outbox.releases.statements == trips + 1
        for backlog, waiting in zip(backlogs, more, strict=True):
            rows = await store._db.execute_fetchall(
                "SELECT count(*) FROM notices WHERE game_id = ? AND audience = ?",
                (game.id, audience_code(backlog.audience)),
            )
            assert waiting == (next(iter(rows))[0] > 0), backlog
        assert more == [True, False, False]  # only the first seat was told of its random fleet
    finally:
        await store.close()
