"""``/play`` and its challenge message, driven through discord.py's real command tree.

A challenge is the only public step that can go wrong for people who are not playing:
a stray click, a ping that reaches the whole server, a game that starts although the bot
cannot reach a player in private. Each test acts as the players would (slash command,
button clicks) and then checks both what Discord shows and what the database holds.
"""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.storage import ChallengeStatus
from tests.support.cog_helpers import (
    accept,
    challenge,
    challenge_message,
    channel_messages,
    in_channel_since,
    repository,
)
from tests.support.discord import DiscordDriver, FakeUser


async def test_play_posts_a_challenge_that_pings_only_the_opponent(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """The challenge is public, names both players, and notifies the challenged one alone."""
    result = await challenge(driver, alice, bob)

    response = result.response
    assert response is not None and response.kind == "response"
    assert not response.ephemeral
    assert response.channel_id == driver.channel_id
    assert response.content is not None
    assert response.content.startswith(f"{bob.mention}, {alice.mention} challenges you to")
    assert "**Sea Battle** (classic, rated)" in response.content
    assert response.custom_ids == ["challenge:accept:1", "challenge:decline:1"]
    labels = [c.get("label") for c in result.original.iter_components() if c.get("type") == 2]
    assert labels == ["Accept", "Decline"]
    assert response.mentioned_user_ids == [bob.id]
    assert response.mention_everyone is False
    assert response.allowed_mentions is not None
    assert response.allowed_mentions.get("parse") == []
    assert [int(u) for u in response.allowed_mentions["users"]] == [bob.id]

    stored = await repository(driver).get_challenge(1)
    assert stored is not None
    assert (stored.challenger_id, stored.opponent_id) == (alice.id, bob.id)
    assert stored.status is ChallengeStatus.OPEN
    assert stored.message_id == result.original.id
    assert await repository(driver).active_games_of(alice.id) == []
    assert driver.dms_to(alice) == [] and driver.dms_to(bob) == []


async def test_hostile_display_names_ping_nobody(driver: DiscordDriver) -> None:
    """Names are shown as mentions, so ``@everyone`` as a display name cannot ping the server."""
    mob = driver.add_user("mob", global_name="@everyone")
    crowd = driver.add_user("crowd", global_name="@here")

    result = await challenge(driver, mob, crowd)
    response = result.response
    assert response is not None and response.content is not None
    assert "@everyone" not in response.content and "@here" not in response.content
    assert response.mention_everyone is False
    assert response.mentioned_user_ids == [crowd.id]

    assert result.original is not None
    await accept(driver, crowd, result.original)
    for message in channel_messages(driver):
        assert message.mention_everyone is False
    live = channel_messages(driver)[-1]
    assert live.custom_ids == ["board:1"]
    assert live.mentions == []  # the live game message notifies nobody


@pytest.mark.parametrize(
    ("clicker", "button", "sentence"),
    [
        ("alice", "accept", "You sent this challenge; only your opponent can answer it."),
        ("carol", "accept", "This challenge is not addressed to you."),
        ("carol", "decline", "This challenge is not addressed to you."),
    ],
)
async def test_only_the_challenged_player_can_answer(
    driver: DiscordDriver,
    alice: FakeUser,
    bob: FakeUser,
    carol: FakeUser,
    clicker: str,
    button: str,
    sentence: str,
) -> None:
    """A click by anyone but the opponent gets a private sentence and changes nothing."""
    users = {"alice": alice, "carol": carol}
    message = await challenge_message(driver, alice, bob)
    before = (message.content, list(message.custom_ids))
    seq = driver.server.last_seq

    result = await driver.click(users[clicker], message.id, f"challenge:{button}:1")

    assert result.ephemeral
    assert result.content == sentence
    after = driver.message(message.id)
    assert (after.content, after.custom_ids) == before
    assert [s.kind for s in in_channel_since(driver, seq)] == ["response"]  # the sentence only
    stored = await repository(driver).get_challenge(1)
    assert stored is not None and stored.status is ChallengeStatus.OPEN
    assert await repository(driver).get_game(1) is None
    assert driver.dms_to(alice) == [] and driver.dms_to(bob) == []


async def test_challenging_yourself_is_refused(driver: DiscordDriver, alice: FakeUser) -> None:
    """A self-challenge would start a game nobody can lose; it is refused in private."""
    result = await challenge(driver, alice, alice)

    assert result.ephemeral
    assert result.content == "You cannot challenge yourself; pick another player."
    assert channel_messages(driver) == []
    assert await repository(driver).get_challenge(1) is None


async def test_challenging_a_bot_is_refused(driver: DiscordDriver, alice: FakeUser) -> None:
    """Other bots cannot read DMs from the referee, so they cannot be challenged."""
    robot = driver.add_user("robot", bot=True)

    result = await challenge(driver, alice, robot)

    assert result.ephemeral
    assert result.content == (
        "Other bots cannot play; challenge a person, or choose me to play the computer."
    )
    assert channel_messages(driver) == []
    assert await repository(driver).get_challenge(1) is None


async def test_unknown_variant_is_refused_with_the_choices(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """A mistyped variant names the ones that exist instead of silently playing classic."""
    result = await driver.slash(alice, "play", game="seabattle", opponent=bob, variant="huge")

    assert result.ephemeral
    assert result.content == (
        "Sea Battle has no variant `huge`; choose `classic`, `corners`, `large`, `milton-bradley`, "
        "`16x16`, `18x18`, `dutchman`."
    )
    assert await repository(driver).get_challenge(1) is None


async def test_variant_autocomplete_lists_matching_presets(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """The variant option offers the game's presets that start with what was typed."""
    choices = await driver.autocomplete(
        alice, "play", focused="variant", game="seabattle", opponent=bob, variant="c"
    )
    assert [c["value"] for c in choices] == ["classic", "corners"]


async def test_options_a_variant_does_not_take_are_refused_naming_the_rule(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Option words are checked by the game before any challenge is posted: Salvo belongs to
    the Milton Bradley game, so the classic game refuses it and autocomplete never offers it."""
    result = await driver.slash(
        alice, "play", game="seabattle", opponent=bob, options={"options": "salvo"}
    )

    assert result.ephemeral
    assert result.content.startswith(
        "`salvo` cannot be played in the classic game, which takes `corners`"
    )
    assert result.content.endswith("`submarine`.")
    assert await repository(driver).get_challenge(1) is None
    assert channel_messages(driver) == []
    offered = await driver.autocomplete(
        alice,
        "play",
        focused="options",
        game="seabattle",
        opponent=bob,
        options={"options": "s"},
    )
    assert "salvo" not in [c["value"] for c in offered]


async def test_a_channel_the_bot_cannot_post_in_is_refused_before_any_challenge(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """The live game message needs Send Messages and Attach Files: say so, create nothing."""
    driver.app_permissions = discord.Permissions(view_channel=True, send_messages=True)
    result = await driver.slash(alice, "play", game="seabattle", opponent=bob)
    assert result.ephemeral
    assert result.content == (
        "I cannot run a game in this channel: I need Attach Files here. "
        "Ask a server admin, or challenge from another channel."
    )
    assert await driver.client.repository.get_challenge(1) is None  # type: ignore[attr-defined]


async def test_the_game_keeps_the_players_names_as_the_server_shows_them(
    driver: DiscordDriver, alice: FakeUser, carol: FakeUser
) -> None:
    """A nickname in this server wins over the global display name, which wins over the
    username; the bot learns them from the interactions themselves (no members intent)."""
    assert not driver.intents.members
    driver.set_nickname(alice, "Admiral \u202eAlice")
    dave = driver.add_user("dave_99", global_name="Dave")
    erin = driver.add_user("erin", global_name=None)
    message = await challenge_message(driver, alice, dave)
    await accept(driver, dave, message)
    games = await repository(driver).active_games_of(alice.id)
    assert games[-1].names == ("Admiral Alice", "Dave")
    # The accepting player's name is taken again when they accept.
    message = await challenge_message(driver, carol, erin)
    driver.set_nickname(erin, "Erin the Bold")
    await accept(driver, erin, message)
    games = await repository(driver).active_games_of(erin.id)
    assert games[-1].names == ("carol", "Erin the Bold")


async def test_a_burst_of_challenges_posts_one_and_tells_the_rest_why(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Thirty /play at once to the same player: one challenge pings them; the challenger
    is told privately, for each of the others, that one is already waiting."""
    for burst in ("UserActions.slash", "test_a_burst_of_challenges"):
        driver.ignore_tasks(burst)  # the burst itself: each waits for the bot only
    results = await asyncio.gather(*(challenge(driver, alice, bob) for _ in range(30)))
    await driver.settle()
    posted = [m for m in channel_messages(driver) if f"<@{bob.id}>" in m.content]
    assert len(posted) == 1
    refusals = [r for r in results if r.original is None or r.original.ephemeral]
    assert len(refusals) == 29
    assert all("already challenged" in r.content for r in refusals), refusals[0].content
