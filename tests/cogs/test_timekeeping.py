"""Waiting times through Discord: reminders by DM, losses on time, expired challenges.

The bot's clock is a hand-moved fake, so a day passes in a line and no test sleeps.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot import catalog
from bot.games.core import EndReason
from bot.games.seabattle.view import SeaBattleView
from bot.storage import ChallengeStatus, GameStatus
from tests.conftest import HandClock, in_one_server, make_bot
from tests.support.cog_helpers import (
    challenge_message,
    channel_messages,
    game_in_play,
    player,
    repository,
    seat_to_move,
    shoot,
    start_game,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser, StoredMessage


@pytest.fixture
def clock() -> HandClock:
    return HandClock()


@pytest.fixture
async def driver(database: Path, clock: HandClock) -> AsyncIterator[DiscordDriver]:
    async with in_one_server(make_bot(database, clock)) as drv:
        yield drv


async def tick(driver: DiscordDriver) -> None:
    """One tick of the bot's clock, as its minute loop runs it."""
    cog = driver.client.get_cog("Timekeeping")  # type: ignore[attr-defined]
    assert cog is not None, "the clock's cog is not loaded"
    await cog.sweep()
    await driver.settle()


async def later(driver: DiscordDriver, clock: HandClock, hours: float) -> None:
    """``hours`` pass, then the bot's clock ticks once."""
    clock.advance(hours)
    await tick(driver)


async def test_a_player_who_stops_moving_is_reminded_once_then_loses_on_time(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock
) -> None:
    record = await game_in_play(driver, alice, bob)
    late = player(driver, record, seat_to_move(record))
    other = bob if late == alice else alice
    seq = driver.server.last_seq

    await later(driver, clock, 23.9)
    assert driver.server.last_seq == seq  # not yet a day

    await later(driver, clock, 0.2)
    reminder = driver.dms_to(late)[-1]
    assert "waiting for your move" in reminder.content and "24 hours" in reminder.content
    assert len(driver.pngs(reminder.id)) == 1  # the board comes with it
    assert all(s.channel_id == driver.dm_channel_id(late) for s in driver.server.sent[seq:])

    seq = driver.server.last_seq
    await later(driver, clock, 12)
    assert driver.server.last_seq == seq  # one reminder per wait

    await later(driver, clock, 12)
    final = await stored_game(driver, record.id)
    assert final.status is GameStatus.FINISHED
    assert final.end_reason == EndReason.TIMEOUT.value
    assert final.winner == record.seats.index(other.id)
    assert "ran out of time" in driver.dms_to(late)[-1].content
    assert driver.dms_to(other)[-1].content.startswith(f"**Sea Battle #{record.id}**")
    assert "you win" in driver.dms_to(other)[-1].content
    assert channel_messages(driver)[-1].content.startswith("🏁")
    log = await repository(driver).log(record.id)
    assert log[-1].kind.value == "end"


async def test_a_move_restarts_the_wait(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock
) -> None:
    record = await game_in_play(driver, alice, bob)
    clock.advance(47)
    await shoot(driver, record.id, hit=False)
    clock.advance(2)
    seq = driver.server.last_seq
    await tick(driver)
    assert driver.server.last_seq == seq
    assert (await stored_game(driver, record.id)).status is GameStatus.ACTIVE


async def test_after_a_long_outage_players_are_reminded_before_anyone_loses(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock
) -> None:
    """Days without a tick (the bot was down) remind first; the loss comes a full wait later."""
    record = await game_in_play(driver, alice, bob)
    late = player(driver, record, seat_to_move(record))

    await later(driver, clock, 72)
    assert "waiting for your move" in driver.dms_to(late)[-1].content
    assert (await stored_game(driver, record.id)).status is GameStatus.ACTIVE

    await later(driver, clock, 23.9)
    assert (await stored_game(driver, record.id)).status is GameStatus.ACTIVE

    await later(driver, clock, 0.2)
    assert (await stored_game(driver, record.id)).end_reason == EndReason.TIMEOUT.value


async def test_nobody_ready_in_time_ends_the_game_without_a_winner(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock
) -> None:
    record = await start_game(driver, alice, bob)
    await later(driver, clock, 24.5)
    assert "waiting for your move" in driver.dms_to(alice)[-1].content
    assert "waiting for your move" in driver.dms_to(bob)[-1].content
    await later(driver, clock, 24)
    final = await stored_game(driver, record.id)
    assert final.end_reason == EndReason.TIMEOUT.value and final.winner is None


async def test_the_wait_survives_a_restart(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock, database: Path
) -> None:
    record = await game_in_play(driver, alice, bob)
    await later(driver, clock, 25)
    late = player(driver, record, seat_to_move(record))
    reminders = len(driver.dms_to(late))
    await driver.close()

    again = DiscordDriver(make_bot(database, clock), server=driver.server)
    again.guilds.extend(driver.guilds)
    again.users.update(driver.users)
    async with again:
        await tick(again)
        assert len(again.dms_to(late)) == reminders  # already reminded before the restart
        clock.advance(24)
        await tick(again)
        assert (await stored_game(again, record.id)).end_reason == EndReason.TIMEOUT.value


async def unanswered_for_a_day(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock
) -> StoredMessage:
    """Alice's challenge to Bob, left unanswered past its day and swept once."""
    message = await challenge_message(driver, alice, bob)
    await later(driver, clock, 25)
    return message


async def test_a_challenge_nobody_answers_expires(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock
) -> None:
    message = await unanswered_for_a_day(driver, alice, bob, clock)
    assert "the challenge expired" in driver.message(message.id).content
    assert driver.button_ids(message.id) == []
    challenge = await repository(driver).get_challenge(1)
    assert challenge is not None and challenge.status is ChallengeStatus.EXPIRED
    assert await repository(driver).active_games_of(bob.id) == []


async def test_a_closed_challenge_is_forgotten_two_expiry_periods_later(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, clock: HandClock
) -> None:
    """The challenges table keeps no row for ever: a day for a late click, then it goes."""
    await unanswered_for_a_day(driver, alice, bob, clock)
    assert await repository(driver).get_challenge(1) is not None  # expired, kept a while
    await later(driver, clock, 24)
    assert await repository(driver).get_challenge(1) is None


async def test_boards_are_drawn_off_the_event_loop(
    driver: DiscordDriver,
    alice: FakeUser,
    bob: FakeUser,
    clock: HandClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Moves, answers, reminders and a loss on time after an outage draw every board on
    the drawing thread, so no board holds up the bot's other players."""
    registered = catalog.GAMES["seabattle"]
    drawing = registered.drawing
    drawn: list[tuple[str, bool]] = []

    class WatchedDrawing:
        """The Sea Battle renderer, noting where each board is drawn."""

        def __getattr__(self, name: str) -> Any:
            return getattr(drawing, name)

        @staticmethod
        def render(view: SeaBattleView, names: tuple[str, str]) -> bytes:
            drawn.append((threading.current_thread().name, on_an_event_loop()))
            return drawing.render(view, names)

    monkeypatch.setitem(catalog.GAMES, "seabattle", replace(registered, drawing=WatchedDrawing()))
    record = await game_in_play(driver, alice, bob)
    await driver.slash(alice, "board")
    clock.advance(72)
    await tick(driver)  # the reminder
    at_reminder = len(drawn)
    clock.advance(24.1)
    await tick(driver)  # the loss on time, told to both players and the channel
    assert (await stored_game(driver, record.id)).end_reason == EndReason.TIMEOUT.value

    assert len(drawn) >= at_reminder + 3 > 10
    assert all(name.startswith("render") and not looped for name, looped in drawn), drawn


def on_an_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
