"""A game number before a move, ``#12 B5``: a whole number and a space, or a sentence.

A move by DM or ``/move`` may name its game first. What follows ``#`` is read as the
game's number only when the whole number ends at a space; anything else after a ``#`` is
refused as it stands, so no digit of a longer number, and no second ``#``, is ever taken
for part of the move, and nothing is played.
"""

from __future__ import annotations

import pytest

from bot.referee import GAME_NUMBER_FORMAT
from tests.support.cog_helpers import game_in_play, give_turn_to, open_water, seen_by, stored_game
from tests.support.discord import DiscordDriver, FakeUser

MALFORMED = ["#1#1#1", "#1B5", "#1", "# 1 ", "#B5", "#", "#-1 B5", "#\u0661 B5"]
"""A second ``#``, no space after the number, no move, no number, a sign, a digit that is
not one of 0-9: none of them names a game."""


@pytest.mark.parametrize("text", MALFORMED)
async def test_a_malformed_game_number_is_refused_by_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, text: str
) -> None:
    record = await give_turn_to(driver, (await game_in_play(driver, alice, bob)).id, alice)
    seq = driver.server.last_seq

    await driver.dm(alice, text)

    assert [s.content for s in seen_by(driver, alice, seq)] == [GAME_NUMBER_FORMAT]
    assert (await stored_game(driver, record.id)).ply == record.ply
    assert seen_by(driver, bob, seq) == []


@pytest.mark.parametrize("digits", ["1234567890", "9" * 40])
async def test_a_long_game_number_is_read_whole(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, digits: str
) -> None:
    """``#1234567890 A1`` names game 1234567890, not game 123456789 with the move ``0 A1``."""
    record = await give_turn_to(driver, (await game_in_play(driver, alice, bob)).id, alice)
    seq = driver.server.last_seq

    await driver.dm(alice, f"#{digits} A1")
    await driver.dm(alice, f"#{digits} resign")

    shown = digits if len(digits) <= 24 else digits[:23] + "…"
    refusal = f"You are not playing in game #{shown}."
    assert [s.content for s in seen_by(driver, alice, seq)] == [refusal, refusal]
    assert (await stored_game(driver, record.id)).ply == record.ply


async def test_a_game_number_then_a_space_still_picks_the_game(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Spaces of any kind and number, a line break too, may follow the number."""
    record = await give_turn_to(driver, (await game_in_play(driver, alice, bob)).id, alice)
    water = open_water(record, 1)[0]

    await driver.dm(alice, f"  #{record.id} \n {water}")

    answer = driver.dms_to(alice)[-1].content
    assert answer.startswith(f"**Sea Battle #{record.id}**\n{water}: miss.")
    assert (await stored_game(driver, record.id)).ply == record.ply + 1


async def test_move_refuses_a_malformed_game_number_privately(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    record = await give_turn_to(driver, (await game_in_play(driver, alice, bob)).id, alice)

    answer = await driver.slash(alice, "move", text="#1#1 A1")

    assert (answer.content, answer.ephemeral) == (GAME_NUMBER_FORMAT, True)
    assert (await stored_game(driver, record.id)).ply == record.ply
    assert driver.take_errors() == []
    typed = await driver.autocomplete(alice, "move", focused="text", guild=False, text="#1#")
    assert typed == []
    so_far = await driver.autocomplete(alice, "move", focused="text", guild=False, text="#1")
    assert so_far and all(choice["value"].startswith("#1 ") for choice in so_far)
