"""Boards are drawn off the event loop, the notices asked for in one turn in one job.

A move's audiences are told side by side; drawing their boards on one thread, in one job,
keeps the drawings from handing the interpreter lock to each other (``bot.delivery.presenter``).
Each asker still gets its own message, and one board that fails fails alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

from bot.delivery import presenter
from bot.delivery.presenter import present, presented, presented_all
from bot.games import ENGINES
from bot.referee import Notice
from tests.support.cog_helpers import game_in_play, png_of, render_for, shoot, stored_game
from tests.support.discord import DiscordDriver, FakeUser
from tests.support.presented import record_for

ENGINE = ENGINES["seabattle"]


def notices() -> tuple[Notice, ...]:
    """A move's three notices: each seat's and the channel's, with their own views."""
    state = ENGINE.new_game(ENGINE.presets["classic"], 7)
    for seat in (0, 1):
        state = ENGINE.act(ENGINE.act(state, seat, "random").state, seat, "ready").state
    state = ENGINE.act(state, sorted(ENGINE.to_move(state))[0], "E5").state
    record = record_for("seabattle", state)
    return tuple(
        Notice(record, audience, (f"told {audience}",), ENGINE.view(state, audience))
        for audience in (0, 1, None)
    )


class CountingExecutor(Executor):
    """The drawing thread, counting the jobs it is given."""

    def __init__(self) -> None:
        self.inner = ThreadPoolExecutor(1)
        self.jobs = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs += 1
        return self.inner.submit(fn, *args, **kwargs)


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountingExecutor]:
    executor = CountingExecutor()
    monkeypatch.setattr(presenter, "drawing", lambda: executor)
    yield executor
    executor.inner.shutdown()


async def test_a_moves_boards_are_drawn_in_one_job_and_each_audience_gets_its_own(
    drawing: CountingExecutor,
) -> None:
    told = notices()
    messages = await presented_all(told)
    assert drawing.jobs == 1
    assert messages == [present(notice) for notice in told]
    assert len({message.board.png for message in messages}) == 3


async def test_askers_from_separate_tasks_in_one_turn_share_a_job_but_not_later_ones(
    drawing: CountingExecutor,
) -> None:
    told = notices()
    together = await asyncio.gather(*(asyncio.create_task(presented(n)) for n in told))
    assert drawing.jobs == 1 and list(together) == [present(notice) for notice in told]
    for notice in told:  # one after another: a job each
        assert await presented(notice) == present(notice)
    assert drawing.jobs == 4


async def test_a_board_that_fails_to_draw_fails_only_its_asker(
    drawing: CountingExecutor,
) -> None:
    first, second, channel = notices()
    broken = replace(second, game=replace(second.game, game="no such game"))
    results = await asyncio.gather(
        presented(first), presented(broken), presented(channel), return_exceptions=True
    )
    assert drawing.jobs == 1
    assert results[0] == present(first) and results[2] == present(channel)
    assert isinstance(results[1], KeyError)


async def test_an_asker_cancelled_while_its_board_is_drawn_leaves_the_others_answered(
    drawing: CountingExecutor,
) -> None:
    first, second, channel = notices()
    tasks = [asyncio.create_task(presented(notice)) for notice in (first, second, channel)]
    await asyncio.sleep(0)  # every asker has asked; the job is on its way
    tasks[1].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[1], asyncio.CancelledError)
    assert done[0] == present(first) and done[2] == present(channel)


async def test_askers_get_an_error_not_a_hang_when_the_drawing_thread_is_gone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    executor = ThreadPoolExecutor(1)
    executor.shutdown()
    monkeypatch.setattr(presenter, "drawing", lambda: executor)
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(presented(notices()[0]), timeout=5)


async def test_a_shot_by_dm_draws_its_three_boards_in_one_job(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, drawing: CountingExecutor
) -> None:
    """Through the bot: the deliverer tells a move's three audiences side by side, and their
    boards go to the drawing thread together."""
    game = await game_in_play(driver, alice, bob)
    jobs_before = drawing.jobs
    shooter, _ = await shoot(driver, game.id, hit=False)
    record = await stored_game(driver, game.id)
    seat = record.seats.index(shooter.id)
    assert png_of(driver, driver.dms_to(shooter)[-1].id) == render_for(record, seat)
    assert png_of(driver, driver.message(record.public_message_id or 0).id) == render_for(
        record, None
    )
    assert drawing.jobs - jobs_before == 1
