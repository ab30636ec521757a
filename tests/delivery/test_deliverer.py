"""The deliverer without Discord: backlogs, order, retries, retirement, and the answer path.

A transport stands in for Discord and can refuse for a while, refuse for good, or be slow,
so each promise of delivery is checked where it is made: every notice reaches its
audience once and in order, whatever fails and however often.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.delivery.deliverer import Backoff, Deliverer, Undeliverable
from bot.referee import Referee, Report
from bot.storage import PostgresRepository, SqliteRepository
from bot.storage.outbox import Backlog, Batch
from tests.conftest import fresh_schema
from tests.referee.test_referee import ALICE, BOB, start_game

QUICK = Backoff(first=0.01, factor=2.0, longest=0.05)


@pytest.fixture(params=["sqlite", "postgres"])
async def repo(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: str
) -> AsyncIterator[SqliteRepository | PostgresRepository]:
    """Every promise of delivery holds on both stores' outboxes."""
    if request.param == "sqlite":
        repository = await SqliteRepository.open(tmp_path / "referee.sqlite3")
        yield repository
        await repository.close()
        return
    async with fresh_schema(postgres_server) as url:
        shared = await PostgresRepository.open(url)
        yield shared
        await shared.close()


class Transport:
    """Records what each audience was sent; fails as a test tells it to."""

    def __init__(self) -> None:
        self.sent: dict[tuple[int, int | None], list[tuple[int, tuple[str, ...]]]] = {}
        self.failures: dict[int | None, int] = {}
        """Audience -> how many more sends to it fail as a passing fault."""
        self.refused: set[int | None] = set()
        """Audiences Discord refuses for good."""
        self.in_flight = 0
        self.most_in_flight = 0
        self.meet = 1
        """Each send waits (up to a second) until this many are in flight at once."""
        self._met = asyncio.Event()

    async def ready(self, report: Report) -> bool:
        return False

    async def send(self, report: Report, batch: Batch) -> None:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        if self.in_flight >= self.meet:
            self._met.set()
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._met.wait(), 1.0)
            await asyncio.sleep(0.005)
            if batch.audience in self.refused:
                raise Undeliverable("50007 cannot send messages to this user")
            if self.failures.get(batch.audience, 0) > 0:
                self.failures[batch.audience] -= 1
                raise ConnectionResetError("a passing fault")
            (notice,) = report.notices
            backlog = self.sent.setdefault((batch.game_id, batch.audience), [])
            backlog.append((batch.last_ply, notice.texts))
        finally:
            self.in_flight -= 1


EXPECTED: dict[int | None, list[str]] = {}


async def moves(referee: Referee, count: int) -> int:
    """A game just begun, then ``count`` random deals by Alice; ``EXPECTED`` keeps every
    text each audience is to be told, in order."""
    EXPECTED.clear()
    game = await start_game(referee)
    for audience in (0, 1, None):
        EXPECTED[audience] = []
    for _ in range(count):
        report = await referee.act(ALICE, "random")
        for notice in report.notices:
            EXPECTED[notice.audience].extend(notice.texts)
    return game.id


async def test_every_audience_gets_every_notice_once_in_order_through_passing_faults(
    repo: SqliteRepository, referee: Referee
) -> None:
    transport = Transport()
    transport.failures = {0: 3, None: 2}
    deliverer = Deliverer(repo.outbox, referee, transport, backoff=QUICK)
    game_id = await moves(referee, 6)
    deliverer.wake(game_id)
    await asyncio.wait_for(deliverer.drained(), 10)

    assert await repo.outbox.waiting() == 0
    alice = transport.sent[(game_id, 0)]
    plies = [ply for ply, _ in alice]
    assert plies == sorted(plies) and plies[-1] == 6
    texts = [text for _, told in alice for text in told]
    assert texts[-len(EXPECTED[0]) :] == EXPECTED[0]  # each once, in order, after the start
    assert len(texts) == len(EXPECTED[0]) + 1
    assert transport.sent[(game_id, 1)][-1][0] == 0  # Bob heard only of the start
    assert transport.sent[(game_id, None)][-1][0] <= 6


async def test_a_backlog_merges_and_nothing_is_sent_twice(
    repo: SqliteRepository, referee: Referee
) -> None:
    transport = Transport()
    game_id = await moves(referee, 5)
    deliverer = Deliverer(repo.outbox, referee, transport, backoff=QUICK)
    await deliverer.resume()
    await asyncio.wait_for(deliverer.drained(), 10)
    (merged,) = transport.sent[(game_id, 0)]  # the setup and five deals, one message
    assert merged[0] == 5
    deliverer.wake(game_id)
    await asyncio.wait_for(deliverer.drained(), 10)
    assert len(transport.sent[(game_id, 0)]) == 1


async def test_a_refused_audience_is_retired_with_one_log_line_and_others_go_on(
    repo: SqliteRepository, referee: Referee, caplog: pytest.LogCaptureFixture
) -> None:
    transport = Transport()
    transport.refused = {1}
    deliverer = Deliverer(repo.outbox, referee, transport, backoff=QUICK)
    game_id = await moves(referee, 0)
    with caplog.at_level(logging.WARNING, "referee.deliverer"):
        deliverer.wake(game_id)
        await asyncio.wait_for(deliverer.drained(), 10)
    assert (game_id, 1) not in transport.sent and (game_id, 0) in transport.sent
    retired = [r for r in caplog.records if "retired" in r.getMessage()]
    assert len(retired) == 1 and "50007" in retired[0].getMessage()
    assert await repo.outbox.waiting() == 0


async def test_the_three_audiences_of_a_move_are_sent_side_by_side(
    repo: SqliteRepository, referee: Referee
) -> None:
    transport = Transport()
    transport.meet = 3  # one backlog after another would never have three in flight
    deliverer = Deliverer(repo.outbox, referee, transport, backoff=QUICK)
    game_id = await moves(referee, 0)
    deliverer.wake(game_id)
    await asyncio.wait_for(deliverer.drained(), 10)
    assert transport.most_in_flight == 3


async def test_the_answer_path_takes_the_players_notice_and_the_backlog_sends_the_rest(
    repo: SqliteRepository, referee: Referee
) -> None:
    transport = Transport()
    deliverer = Deliverer(repo.outbox, referee, transport, backoff=QUICK)
    game_id = await moves(referee, 0)
    answered: list[Batch] = []

    async def answer(report: Report, batch: Batch) -> None:
        answered.append(batch)

    assert await deliverer.deliver_now(Backlog(game_id, 1), answer)
    deliverer.wake(game_id)
    await asyncio.wait_for(deliverer.drained(), 10)
    assert [p.last_ply for p in answered] == [0]
    assert (game_id, 1) not in transport.sent  # told once: by the answer

    async def too_late(report: Report, batch: Batch) -> None:
        raise TimeoutError("the interaction expired")

    await referee.act(BOB, "random")
    assert not await deliverer.deliver_now(Backlog(game_id, 1), too_late)
    deliverer.wake(game_id)
    await asyncio.wait_for(deliverer.drained(), 10)
    assert [ply for ply, _ in transport.sent[(game_id, 1)]] == [1]  # by DM instead
