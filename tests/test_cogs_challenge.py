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

from bot.storage import ChallengeStatus, GameStatus
from tests.cog_helpers import (
    accept,
    challenge,
    challenge_message,
    channel_messages,
    in_channel_since,
    open_png,
    plant_button,
    png_of,
    render_for,
    repository,
    seen_by,
    stored_game,
    stored_log,
)
from tests.discord_stub import DiscordDriver, FakeUser


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


async def test_decline_by_the_opponent_closes_the_challenge(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Declining edits the challenge in place and removes its buttons for good."""
    message = await challenge_message(driver, alice, bob)

    result = await driver.click(bob, message.id, "challenge:decline:1")

    assert result.callback_type == 7  # the challenge message itself was updated
    closed = driver.message(message.id)
    assert closed.content.endswith("\n✖️ The challenge was declined.")
    assert closed.custom_ids == []
    stored = await repository(driver).get_challenge(1)
    assert stored is not None and stored.status is ChallengeStatus.DECLINED
    assert await repository(driver).get_game(1) is None
    assert driver.dms_to(alice) == [] and driver.dms_to(bob) == []


async def test_decline_by_the_challenger_withdraws_it(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """The challenger may take the challenge back; it then says withdrawn, not declined."""
    message = await challenge_message(driver, alice, bob)

    await driver.click(alice, message.id, "challenge:decline:1")

    closed = driver.message(message.id)
    assert closed.content.endswith("\n✖️ The challenge was withdrawn.")
    assert closed.custom_ids == []
    stored = await repository(driver).get_challenge(1)
    assert stored is not None and stored.status is ChallengeStatus.WITHDRAWN
    assert await repository(driver).get_game(1) is None


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
