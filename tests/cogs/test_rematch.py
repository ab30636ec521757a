"""Rematches and open challenges, through the loopback Discord."""

from __future__ import annotations

from tests.support.cog_helpers import (
    accept,
    channel_messages,
    repository,
    resigned_with_announcement,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser


async def test_rematch_challenges_the_opponent_with_the_seats_turned_round(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    game, announcement = await resigned_with_announcement(driver, alice, bob)
    assert f"rematch:{game.id}" in announcement.custom_ids

    stranger = await driver.click(carol, announcement.id, f"rematch:{game.id}")
    assert stranger.ephemeral
    assert stranger.content == f"Only the players of game #{game.id} can ask for a rematch."

    asked = await driver.click(alice, announcement.id, f"rematch:{game.id}")
    challenge = asked.original
    assert challenge is not None and not challenge.ephemeral
    assert challenge.content.startswith(f"{bob.mention}, {alice.mention} challenges you to")
    assert [int(m["id"]) for m in challenge.mentions] == [bob.id]
    refused = await driver.click(alice, challenge.id, challenge.custom_ids[0])
    assert refused.content == "You sent this challenge; only your opponent can answer it."

    await accept(driver, bob, challenge)
    (rematch,) = await repository(driver).active_games_of(alice.id)
    assert rematch.seats == (bob.id, alice.id)  # alice sat first; now bob does
    assert (rematch.game, rematch.rules, rematch.rated) == (game.game, game.rules, game.rated)


async def test_play_without_an_opponent_is_open_to_anyone_but_the_challenger(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    posted = await driver.slash(alice, "play", game="seabattle")
    message = posted.original
    assert message is not None and not message.ephemeral
    assert message.content.startswith(f"{alice.mention} challenges anyone here to **Sea Battle**")
    assert message.mentions == []
    accept_id, decline_id = message.custom_ids

    own = await driver.click(alice, message.id, accept_id)
    assert own.content is not None and own.content.startswith("You sent this challenge; wait")
    declined = await driver.click(bob, message.id, decline_id)
    assert declined.content == (
        "This challenge is open to anyone: accept it, or leave it for someone else."
    )

    await driver.click(carol, message.id, accept_id)
    (game,) = await repository(driver).active_games_of(alice.id)
    assert game.seats == (alice.id, carol.id)
    record = await stored_game(driver, game.id)
    assert record.channel_id == driver.channel_id
    assert f"Accepted by {carol.mention}" in driver.message(message.id).content
    assert driver.message(message.id).custom_ids == []  # nobody else can accept it now


async def test_a_second_rematch_click_is_told_the_first_still_waits(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Rematch clicked again while the first rematch challenge is open: one challenge, and
    a sentence saying why, never the fault message."""
    game, announcement = await resigned_with_announcement(driver, alice, bob)
    first = await driver.click(alice, announcement.id, f"rematch:{game.id}")
    assert first.original is not None and not first.original.ephemeral

    second = await driver.click(alice, announcement.id, f"rematch:{game.id}")
    assert second.ephemeral
    assert second.content == (
        "You already challenged this player and they have not answered yet; wait for "
        "their answer, or withdraw that challenge with its **Decline** button."
    )
    assert driver.take_errors() == []
    asked = [
        m
        for m in channel_messages(driver)
        if m.id > announcement.id and "challenges you to" in m.content
    ]
    assert asked == [first.original]
