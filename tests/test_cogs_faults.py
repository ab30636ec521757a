"""An unexpected failure never leaves a player without an answer, and loses no game."""

from __future__ import annotations

import pytest

from bot.storage import SqliteRepository
from cogs.replies import SORRY
from tests.cog_helpers import game_in_play, live_message, player, seat_to_move, stored_game
from tests.discord_stub import DiscordDriver, FakeUser


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
    assert driver.dms_to(shooter)[-1].content == SORRY
    (error,) = driver.take_errors()
    assert "DM move" in error.message and isinstance(error.exception, RuntimeError)
    monkeypatch.undo()
    after = await stored_game(driver, record.id)
    assert (after.ply, after.state) == (record.ply, record.state)
    await driver.dm(shooter, "A1")  # the same move goes through once the fault is gone
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
