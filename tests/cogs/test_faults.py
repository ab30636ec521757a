"""An unexpected failure never leaves a player without an answer, and loses no game."""

from __future__ import annotations

import json
import logging

import pytest

from bot.games import ENGINES
from bot.logs import JsonFormatter
from bot.referee import GameFault
from bot.storage import SqliteRepository
from cogs.replies import SORRY
from tests.support.cog_helpers import game_in_play, live_message, player, seat_to_move, stored_game
from tests.support.discord import DiscordDriver, FakeUser


def broken(*args: object, **kwargs: object) -> None:
    raise RuntimeError("disk on fire")


@pytest.fixture(autouse=True)
def expect_logged_errors(driver: DiscordDriver) -> None:
    """These tests provoke faults on purpose; each one reads back what was logged."""
    driver.raise_bot_errors = False


async def test_a_fault_during_a_dm_move_is_answered_and_changes_nothing(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await game_in_play(driver, alice, bob)
    shooter = player(driver, record, seat_to_move(record))
    repository: SqliteRepository = driver.client.repository  # type: ignore[attr-defined]
    monkeypatch.setattr(repository, "append", broken)
    await driver.dm(shooter, "A1")
    assert driver.dms_to(shooter)[-1].content == str(GameFault(record.id))
    (error,) = driver.take_errors()
    assert error.message == f"game {record.id}: move failed"
    assert isinstance(error.exception, RuntimeError)
    monkeypatch.undo()
    after = await stored_game(driver, record.id)
    assert (after.ply, after.state) == (record.ply, record.state)
    await driver.dm(shooter, "A1")  # the same move goes through once the fault is gone
    assert (await stored_game(driver, record.id)).ply == record.ply + 1


async def test_an_engine_bug_in_one_game_leaves_it_as_it_was_and_is_logged_with_its_id(
    driver: DiscordDriver,
    alice: FakeUser,
    bob: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    record = await game_in_play(driver, alice, bob)
    shooter = player(driver, record, seat_to_move(record))
    live_before = live_message(driver, record).content
    engine = ENGINES["seabattle"]
    monkeypatch.setattr(type(engine), "apply", broken)
    seq = driver.server.last_seq

    await driver.slash(shooter, "move", guild=False, text="A1")

    told = [s for s in driver.server.sent if s.seq > seq]
    assert [s.content for s in told] == [str(GameFault(record.id))]
    (error,) = driver.take_errors()
    assert isinstance(error.exception, RuntimeError)
    (logged,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert getattr(logged, "game_id", None) == record.id
    assert json.loads(JsonFormatter().format(logged))["game_id"] == record.id
    monkeypatch.undo()
    after = await stored_game(driver, record.id)
    assert (after.ply, after.state) == (record.ply, record.state)
    assert live_message(driver, after).content == live_before
    await driver.dm(shooter, "A1")
    assert (await stored_game(driver, record.id)).ply == record.ply + 1


async def test_a_fault_in_a_command_is_answered_privately(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    await game_in_play(driver, alice, bob)
    monkeypatch.setattr(driver.client.referee, "board", broken)  # type: ignore[attr-defined]
    result = await driver.slash(alice, "board")
    assert result.content == SORRY and result.ephemeral
    (error,) = driver.take_errors()
    assert "/board" in error.message


async def test_a_fault_behind_a_button_is_answered_privately(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await game_in_play(driver, alice, bob)
    message = live_message(driver, record)
    monkeypatch.setattr(driver.client.referee, "board", broken)  # type: ignore[attr-defined]
    result = await driver.click(bob, message.id, f"board:{record.id}")
    assert result.content == SORRY and result.ephemeral
    (error,) = driver.take_errors()
    assert f"game {record.id}" in error.message
