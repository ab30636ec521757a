"""The referee announces every stored change once; the deliverer and the computer act on
what it announces, and nobody else has to remember to tell them.

A change stored by any use case (a move, a game begun, a resignation, a call-off) is
published exactly once, after it was stored; a change that stores nothing (a refusal, a
setup saved by name) is not. The deliverer subscribed to the referee sends the change's
notices without being told, but leaves the mover's own notice to a caller that answers
it (their command's answer) until that answer went or failed.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from bot.computer import Computer
from bot.delivery.deliverer import Deliverer
from bot.games.core import GameError
from bot.referee import Referee, StoredChange
from bot.storage import SqliteRepository
from bot.storage.outbox import Backlog, Batch
from tests.delivery.test_deliverer import QUICK, Transport
from tests.referee.test_referee import ALICE, BOB, start_game
from tests.test_computer import COMPUTER_SEAT, start

ROOT = Path(__file__).resolve().parents[2]

NOBODY_WAKES = ("cogs", "bot/delivery/discord_sender.py", "bot/worker.py")
"""Where no delivery or computer is woken by hand: the referee's publish does it."""


def wake_calls(source: str) -> list[int]:
    """The lines on which a module calls a method named ``wake``."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "wake"
    )


def test_no_cog_sender_or_worker_wakes_the_deliverer_or_the_computer() -> None:
    paths = [ROOT / name for name in NOBODY_WAKES]
    sources = [p for path in paths for p in (path.rglob("*.py") if path.is_dir() else [path])]
    waking = {
        source.relative_to(ROOT).as_posix(): lines
        for source in sources
        if (lines := wake_calls(source.read_text("utf-8")))
    }
    assert waking == {}


def test_the_check_sees_a_wake_call() -> None:
    assert wake_calls("x = 1\nself.bot.deliverer.wake(game.id)\n") == [2]
    assert wake_calls("self.bot.deliverer.published(change)\n") == []


class Heard:
    """Every change the referee published."""

    def __init__(self, referee: Referee) -> None:
        self.changes: list[StoredChange] = []
        referee.changes.subscribe(self.changes.append)


async def test_every_stored_change_is_published_once_after_it_was_stored(
    repo: SqliteRepository, referee: Referee
) -> None:
    heard = Heard(referee)
    game = await start_game(referee)
    assert [c.game.ply for c in heard.changes] == [0]
    assert set(heard.changes[0].told) == {0, 1, None}

    report = await referee.act(ALICE, "random")
    assert [c.game.ply for c in heard.changes] == [0, 1]
    stored = await repo.get_game(game.id)
    assert stored is not None and heard.changes[-1].game.ply == stored.ply == report.game.ply
    assert heard.changes[-1].answered_seat is None

    with pytest.raises(GameError):
        await referee.act(ALICE, "Z99")  # refused: nothing stored, nothing published
    await referee.act(ALICE, "save keep")  # stored apart from the game: no change
    assert len(heard.changes) == 2

    await referee.resign(BOB, game.id, answering=True)
    assert len(heard.changes) == 3
    assert heard.changes[-1].game.end_reason is not None
    assert heard.changes[-1].answered_seat == 1  # Bob's command answers Bob's notice


async def test_a_call_off_and_a_game_against_the_computer_are_published(
    referee: Referee,
) -> None:
    heard = Heard(referee)
    game = await start_game(referee)
    assert await referee.call_off(game.id, 1) is not None
    assert [c.game.end_reason is not None for c in heard.changes] == [False, True]
    await start(referee, "seabattle")
    assert heard.changes[-1].game.computer_seat == COMPUTER_SEAT


@pytest.fixture
def transport() -> Transport:
    """What the subscribed deliverer sent, per game and audience."""
    return Transport()


@pytest.fixture
def deliverer(repo: SqliteRepository, referee: Referee, transport: Transport) -> Deliverer:
    """A deliverer that hears of every change from the referee, and from nobody else."""
    subscribed = Deliverer(repo.outbox, referee, transport, backoff=QUICK)
    referee.changes.subscribe(subscribed.published)
    return subscribed


async def test_the_subscribed_deliverer_sends_every_change_without_being_told(
    repo: SqliteRepository, referee: Referee, transport: Transport, deliverer: Deliverer
) -> None:
    game = await start_game(referee)
    await referee.act(ALICE, "random")
    await asyncio.wait_for(deliverer.drained(), 10)
    assert transport.sent[(game.id, 0)][-1][0] == 1
    assert (game.id, 1) in transport.sent and (game.id, None) in transport.sent
    assert await repo.outbox.waiting() == 0


async def test_the_answered_seat_waits_for_its_answer_and_then_goes_on(
    repo: SqliteRepository, referee: Referee, transport: Transport, deliverer: Deliverer
) -> None:
    game = await start_game(referee)
    await asyncio.wait_for(deliverer.drained(), 10)
    answered: list[int] = []

    async def answer(report: object, batch: Batch) -> None:
        answered.append(batch.last_ply)

    await referee.act(ALICE, "random", answering=True)
    await asyncio.wait_for(deliverer.drained(), 10)
    assert transport.sent[(game.id, 0)][-1][0] == 0  # the deal waits for its answer
    assert await deliverer.answer(Backlog(game.id, 0), answer)
    assert answered == [1]

    async def too_late(report: object, batch: Batch) -> None:
        raise TimeoutError("the interaction expired")

    await referee.act(ALICE, "random", answering=True)
    assert not await deliverer.answer(Backlog(game.id, 0), too_late)
    await asyncio.wait_for(deliverer.drained(), 10)
    assert [ply for ply, _ in transport.sent[(game.id, 0)]] == [0, 2]  # by DM instead
    assert await repo.outbox.waiting() == 0


async def test_the_computer_moves_on_what_the_referee_publishes(
    repo: SqliteRepository, referee: Referee
) -> None:
    computer = Computer(referee)
    referee.changes.subscribe(computer.published)
    report = await start(referee, "seabattle")
    await computer.settle()
    entries = await repo.log(report.game.id)
    assert [e.text.split()[0] for e in entries] == ["fleet", "ready"]
    assert all(e.seat == COMPUTER_SEAT for e in entries)


async def test_the_computer_looks_at_a_game_known_by_its_id_alone(
    repo: SqliteRepository, referee: Referee
) -> None:
    """What a process that stopped left undelivered: the computer may still owe a move."""
    report = await start(referee, "seabattle")
    computer = Computer(referee)  # subscribed to nothing: it heard of no change
    computer.look_at(report.game.id)
    computer.look_at(report.game.id)
    await computer.settle()
    entries = await repo.log(report.game.id)
    assert [e.text.split()[0] for e in entries] == ["fleet", "ready"]
