"""Answering a challenge through its buttons: a decline or a withdrawal closes it, an accept
starts the game by DM and posts the live message, a stale second accept starts nothing, and
a player who cannot be reached in private calls the game off unplayed.

Each test acts as the players would (button clicks) and then checks both what Discord shows
and what the database holds.
"""

from __future__ import annotations

import pytest

from bot.storage import ChallengeStatus, GameStatus
from tests.support.cog_helpers import (
    accept,
    challenge_message,
    channel_messages,
    open_png,
    plant_button,
    png_of,
    render_for,
    repository,
    seen_by,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser, StoredMessage


async def assert_closed_without_a_game(
    driver: DiscordDriver, message: StoredMessage, said: str, status: ChallengeStatus
) -> None:
    """The challenge message says how it closed and lost its buttons; the store agrees, and
    no game was made."""
    closed = driver.message(message.id)
    assert closed.content.endswith(f"\n✖️ The challenge was {said}.")
    assert closed.custom_ids == []
    stored = await repository(driver).get_challenge(1)
    assert stored is not None and stored.status is status
    assert await repository(driver).get_game(1) is None


async def test_decline_by_the_opponent_closes_the_challenge(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Declining edits the challenge in place and removes its buttons for good."""
    message = await challenge_message(driver, alice, bob)

    result = await driver.click(bob, message.id, "challenge:decline:1")

    assert result.callback_type == 7  # the challenge message itself was updated
    await assert_closed_without_a_game(driver, message, "declined", ChallengeStatus.DECLINED)
    assert driver.dms_to(alice) == [] and driver.dms_to(bob) == []


async def test_decline_by_the_challenger_withdraws_it(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """The challenger may take the challenge back; it then says withdrawn, not declined."""
    message = await challenge_message(driver, alice, bob)

    await driver.click(alice, message.id, "challenge:decline:1")

    await assert_closed_without_a_game(driver, message, "withdrawn", ChallengeStatus.WITHDRAWN)


async def test_accept_starts_the_game_by_dm_and_posts_the_live_message(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Accepting creates the game, briefs both players in private and opens the live message."""
    message = await challenge_message(driver, alice, bob)

    await accept(driver, bob, message)

    game = await stored_game(driver, 1)
    assert game.status is GameStatus.ACTIVE
    assert game.seats == (alice.id, bob.id)
    assert game.ply == 0
    challenge_record = await repository(driver).get_challenge(1)
    assert challenge_record is not None
    assert challenge_record.status is ChallengeStatus.ACCEPTED
    assert challenge_record.game_id == game.id

    closed = driver.message(message.id)
    assert closed.content.endswith("\n✅ Accepted: game #1 is on.")
    assert closed.custom_ids == []

    for seat, user in enumerate((alice, bob)):
        (setup,) = driver.dms_to(user)  # one DM each: the welcome with the board, nothing else
        assert setup.content.startswith("**Sea Battle #1**\nYour Sea Battle game has begun.")
        assert setup.content.endswith("`/rules` has the full rules.")
        assert "**Random fleet**" in setup.content and "`A1 A4`" in setup.content
        assert len(setup.content) < 500  # a short instruction; `/rules` has the rest
        assert setup.custom_ids == ["move:1:random"]
        (attachment,) = setup.attachments
        assert attachment.filename == f"seabattle-1-seat{seat}.png"
        assert open_png(attachment.data)[0] > 100
        assert attachment.data == render_for(game, seat)

    challenge_post, live = channel_messages(driver)
    assert challenge_post.id == message.id
    assert game.public_message_id == live.id
    assert live.content == (
        f"**Sea Battle #1** · {alice.mention} vs {bob.mention}\n"
        "Challenge accepted: both players are setting up in secret.\n"
        f"Setting up: waiting for {alice.mention} and {bob.mention}."
    )
    assert live.custom_ids == ["board:1"]
    assert png_of(driver, live.id) == render_for(game, None)


@pytest.mark.parametrize("closed_side", ["opponent", "challenger"])
async def test_closed_dms_call_the_game_off_unplayed_and_name_who_must_open_them(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, closed_side: str
) -> None:
    """The game's welcome DM is its reachability check: refused (50007), the game is called
    off before it began, revealing nothing, and the channel says who must open their DMs."""
    closed, reachable = (bob, alice) if closed_side == "opponent" else (alice, bob)
    driver.close_dms(closed)
    # The welcome is the only DM a start sends: the refused one is the reachability check.
    message = await challenge_message(driver, alice, bob)

    await accept(driver, bob, message)

    game = await stored_game(driver, 1)
    assert game.status is GameStatus.FINISHED and game.end_reason == "aborted"
    assert game.winner is None
    assert await repository(driver).records.results_of(game.id) == []  # no rating moved
    assert await repository(driver).active_games_of(closed.id) == []
    assert driver.dms_to(closed) == []
    welcome, called_off = driver.dms_to(reachable)
    assert welcome.content.startswith("**Sea Battle #1**\nYour Sea Battle game has begun.")
    assert called_off.content == (
        "**Sea Battle #1**\nI cannot send your opponent direct messages, so the game is "
        "called off before it began, without a result.\nThe game was aborted."
    )
    seat = game.seats.index(reachable.id)
    assert called_off.attachments[0].data == render_for(game, seat)  # still only their fleet

    challenge_post, live, announcement = channel_messages(driver, seals=True)
    assert challenge_post.id == message.id
    assert announcement.content.startswith(
        f"🏁 **Sea Battle #1** is over. I cannot send {closed.mention} direct messages, so the "
        f"game is called off before it began: {closed.mention} must allow direct messages from "
        "this server's members (server menu → Privacy Settings), then press **Rematch**."
    )
    assert announcement.custom_ids == ["replay:1", "rematch:1"]
    assert png_of(driver, live.id) == render_for(game, None)  # no fleet revealed
    posted = "".join(m.content for m in channel_messages(driver))
    assert "I cannot send you your board" not in posted  # the announcement says it all

    driver.open_dms(closed)
    await driver.click(bob, announcement.id, "rematch:1")
    rematch = channel_messages(driver)[-1]
    await accept(driver, alice, rematch)
    again = await stored_game(driver, 2)
    assert again.status is GameStatus.ACTIVE
    for user in (alice, bob):
        assert driver.dms_to(user)[-1].content.startswith("**Sea Battle #2**\nYour Sea Battle")


async def test_both_players_with_closed_dms_get_one_called_off_game_and_no_other_note(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Both welcomes refused at once: the game is called off once, in one announcement."""
    driver.close_dms(alice)
    driver.close_dms(bob)
    message = await challenge_message(driver, alice, bob)

    await accept(driver, bob, message)

    game = await stored_game(driver, 1)
    assert game.status is GameStatus.FINISHED and game.end_reason == "aborted"
    assert driver.dms_to(alice) == [] and driver.dms_to(bob) == []
    _, _, announcement = channel_messages(driver, seals=True)
    assert "so the game is called off before it began" in announcement.content
    assert len(await stored_log(driver, 1)) == 1  # a single end, logged once


async def test_a_second_accept_on_a_stale_button_starts_no_second_game(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Two clicks can race before the buttons disappear; only one game may come of them."""
    message = await challenge_message(driver, alice, bob)
    await accept(driver, bob, message)
    stale = plant_button(driver, driver.channel_id, "challenge:accept:1", "Accept")
    seq = driver.server.last_seq

    result = await driver.click(bob, stale.id, "challenge:accept:1")

    assert result.ephemeral
    assert result.content == "That challenge is already accepted."
    assert await repository(driver).get_game(2) is None
    assert seen_by(driver, alice, seq) == []
    assert [s.kind for s in seen_by(driver, bob, seq)] == ["response"]
