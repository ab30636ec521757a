"""Rated and unrated games, ``/leaderboard``, ``/profile``, ``/history`` and ``/game`` on Discord.

Games that matter to what a test shows are played through the loopback Discord; the many
finished games that leaderboards and paging need are stored through the bot's repository,
the same write path a game's end takes.
"""

from __future__ import annotations

import pytest

from bot.ratings import Skill, rate
from bot.storage import GameRecord
from tests.storage.helpers import second_seat_resigns
from tests.support.cog_helpers import (
    SEA,
    accept,
    challenge_message,
    channel_messages,
    game_in_play,
    plant_button,
    png_of,
    render_for,
    repository,
    resign,
    shoot,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser


async def store_finished(
    driver: DiscordDriver, winner: FakeUser, loser: FakeUser, *, guild_id: int | None = None
) -> GameRecord:
    """A rated game ``winner`` won, stored and ended through the bot's repository."""
    repo = repository(driver)
    challenge = await repo.create_challenge(
        game="seabattle",
        rules=SEA.presets["classic"].to_json(),
        guild_id=guild_id or driver.guild_id,
        channel_id=driver.channel_id,
        challenger_id=winner.id,
        opponent_id=loser.id,
    )
    game = await repo.accept_challenge(challenge.id, seed=1, seats=(winner.id, loser.id), state={})
    assert game is not None
    return await second_seat_resigns(repo, game)


async def resigned_after_a_shot(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> GameRecord:
    """Alice challenges Bob, one shot misses, and Alice resigns: Bob wins."""
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=False)
    await resign(driver, alice)
    return await stored_game(driver, game.id)


# -- /play rated ---------------------------------------------------------------------------------


async def test_an_unrated_challenge_says_so_and_its_end_shows_no_ratings(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    result = await driver.slash(alice, "play", game="seabattle", opponent=bob, rated=False)
    assert result.content is not None and "(classic, unrated)" in result.content
    assert result.original is not None
    await accept(driver, bob, result.original)
    game = await stored_game(driver)
    assert not game.rated
    await driver.dm(alice, "random")
    await driver.dm(alice, "ready")
    await driver.dm(bob, "random")
    await driver.dm(bob, "ready")
    await shoot(driver, game.id, hit=False)

    await resign(driver, bob)

    announcement = channel_messages(driver)[-1]
    assert announcement.content.startswith("🏁 **Sea Battle #1** is over.")
    assert "Ratings" not in announcement.content
    assert await repository(driver).records.standings_of(alice.id) == []
    (alice_side, _) = await repository(driver).records.results_of(game.id)
    assert (alice_side.score.name, alice_side.rated) == ("WIN", False)


async def test_a_rated_end_announces_both_new_ratings_with_their_change(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    message = await challenge_message(driver, alice, bob)
    assert "(classic, rated)" in message.content
    await accept(driver, bob, message)
    game = await stored_game(driver)
    for user in (alice, bob):
        await driver.dm(user, "random")
        await driver.dm(user, "ready")
    await shoot(driver, game.id, hit=False)

    await resign(driver, bob)

    winner, loser = rate((Skill(), Skill()), 0)
    assert channel_messages(driver)[-1].content.endswith(
        f"\nRatings: {alice.mention} {winner.display}? (+{winner.display - 1500}) · "
        f"{bob.mention} {loser.display}? (−{1500 - loser.display})"
    )


# -- /leaderboard --------------------------------------------------------------------------------


async def test_leaderboard_orders_settled_players_and_lists_provisional_ones_apart(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """Alice and Bob play eight games (Alice wins six) and are settled; Carol plays one."""
    for winner, loser in [(alice, bob)] * 6 + [(bob, alice)] * 2:
        await store_finished(driver, winner, loser)
    await store_finished(driver, carol, bob)

    result = await driver.slash(bob, "leaderboard", game="seabattle")

    assert result.ephemeral and result.content is not None
    lines = result.content.splitlines()
    records = repository(driver).records
    (a,), bob_standings = await records.standings_of(alice.id), await records.standings_of(bob.id)
    (b,) = bob_standings
    (c,) = await records.standings_of(carol.id)
    assert not a.skill.provisional and not b.skill.provisional and c.skill.provisional
    assert lines == [
        "**Sea Battle leaderboard** · this server",
        f"1. {alice.mention} **{a.skill.display}** · 8 games · 6W 2L 0D",
        f"2. {bob.mention} **{b.skill.display}** · 9 games · 2W 7L 0D",
        "Provisional (rating not settled yet, marked ?):",
        f"· {carol.mention} **{c.skill.display}?** · 1 game · 1W 0L 0D",
        f"You: #2 of 2 · {bob.mention} **{b.skill.display}** · 9 games · 2W 7L 0D",
    ]
    mine = await driver.slash(carol, "leaderboard", game="seabattle")
    assert mine.content is not None
    assert mine.content.splitlines()[-1].endswith("provisional, ranked once your rating settles.")


async def test_leaderboard_scopes_a_server_or_everyone(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """Ratings are global; the server scope lists those who played rated in that server."""
    elsewhere = driver.add_guild("Lighthouse")
    await driver.settle()
    await store_finished(driver, alice, bob)
    await store_finished(driver, carol, bob, guild_id=elsewhere.id)

    here = await driver.slash(alice, "leaderboard", game="seabattle")
    there = await driver.slash(alice, "leaderboard", game="seabattle", guild=elsewhere)
    everywhere = await driver.slash(alice, "leaderboard", game="seabattle", scope="global")

    assert here.content is not None and there.content is not None
    assert everywhere.content is not None
    assert alice.mention in here.content and carol.mention not in here.content
    assert carol.mention in there.content
    assert there.content.splitlines()[-1] == (
        "You have no rated Sea Battle game in this server yet."
    )
    assert everywhere.content.startswith("**Sea Battle leaderboard** · all servers")
    assert all(u.mention in everywhere.content for u in (alice, bob, carol))
    in_dm = await driver.slash(alice, "leaderboard", game="seabattle", guild=False)
    assert in_dm.content == everywhere.content and not in_dm.ephemeral


async def test_an_empty_leaderboard_says_so(driver: DiscordDriver, alice: FakeUser) -> None:
    result = await driver.slash(alice, "leaderboard", game="seabattle")
    assert result.content == (
        "**Sea Battle leaderboard** · this server\n"
        "No rated Sea Battle game has been played here yet.\n"
        "You have no rated Sea Battle game in this server yet."
    )


# -- /profile and /history -----------------------------------------------------------------------


async def test_profile_shows_rating_record_streak_and_last_games(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    await store_finished(driver, bob, alice)
    for _ in range(2):
        await store_finished(driver, alice, bob)
    last = await store_finished(driver, alice, carol)

    result = await driver.slash(bob, "profile", options={"user": alice})

    assert result.ephemeral and result.content is not None
    lines = result.content.splitlines()
    (standing,) = await repository(driver).records.standings_of(alice.id)
    assert lines[0] == f"**Profile of {alice.mention}**"
    assert lines[1] == (
        f"Sea Battle: **{standing.skill.display}?** · 4 rated · 3W 1L 0D · 3 wins in a row"
    )
    assert lines[2] == "Last games:"
    assert lines[3].startswith(f"#{last.id} Sea Battle (classic) vs {carol.mention}: won (+")
    assert [line.split(" ")[0] for line in lines[3:]] == ["#4", "#3", "#2", "#1"]
    assert lines[-1].startswith(f"#1 Sea Battle (classic) vs {bob.mention}: lost (−")

    empty = await driver.slash(carol, "profile", options={"user": driver.add_user("dave")})
    assert empty.content is not None
    assert empty.content.endswith("No finished game yet. Start one with `/play`.")


async def test_history_pages_with_buttons_that_anyone_can_turn(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Twelve games make two pages; the buttons carry only public ids and a page number."""
    games = [await store_finished(driver, alice, bob) for _ in range(12)]

    first = await driver.slash(alice, "history", options={"user": bob}, game="seabattle")

    assert first.content is not None and first.original is not None
    lines = first.content.splitlines()
    assert lines[0] == f"**Games of {bob.mention}** · Sea Battle · page 1 of 2"
    assert [line.split(" ")[0] for line in lines[1:]] == [f"#{g.id}" for g in games[::-1][:10]]
    assert all(f"vs {alice.mention}: lost" in line for line in lines[1:])
    assert first.original.custom_ids == [f"history:{bob.id}:seabattle:{n}" for n in (0, 1)]

    second = await driver.click(alice, first.original.id, f"history:{bob.id}:seabattle:1")

    assert second.callback_type == 7  # the same message, edited in place
    page = driver.message(first.original.id)
    assert page.content.splitlines()[0] == f"**Games of {bob.mention}** · Sea Battle · page 2 of 2"
    assert [line.split(" ")[0] for line in page.content.splitlines()[1:]] == ["#2", "#1"]
    with pytest.raises(PermissionError, match="disabled"):
        await driver.click(alice, page.id, f"history:{bob.id}:seabattle:1")
    await driver.click(alice, page.id, f"history:{bob.id}:seabattle:0")
    assert driver.message(page.id).content == first.content


async def test_a_short_history_has_no_buttons(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    await store_finished(driver, alice, bob)
    result = await driver.slash(alice, "history")
    assert result.original is not None and result.original.custom_ids == []
    assert result.content is not None and "page 1 of 1" in result.content


# -- /game -------------------------------------------------------------------------------------


async def test_game_shows_a_finished_games_summary_and_revealed_board(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    record = await resigned_after_a_shot(driver, alice, bob)

    result = await driver.slash(carol, "game", id=record.id)

    assert result.content is not None and result.original is not None
    lines = result.content.splitlines()
    assert lines[0] == f"**Sea Battle #1** · {alice.mention} vs {bob.mention} · classic, rated"
    assert lines[1] == f"{bob.mention} won (by resignation)."
    assert lines[2] == f"Ended <t:{int(record.updated_at)}:f>."
    assert lines[3].startswith(f"Ratings: {alice.mention} 1342? (−158) · {bob.mention} 1658?")
    assert png_of(driver, result.original.id) == render_for(record, None)
    revealed = SEA.view(SEA.from_json(record.state), None)
    assert [len(field.ships) for field in revealed.fields] == [10, 10]


async def test_game_refuses_a_running_games_board_and_unknown_ids(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    game = await game_in_play(driver, alice, bob)

    running = await driver.slash(carol, "game", id=game.id)
    unknown = await driver.slash(carol, "game", id=99)

    assert running.ephemeral and running.content == (
        "Game #1 is still being played; its board is shown here once it is over. "
        "`/games` lists the games running in a server."
    )
    assert running.original is not None and running.original.attachments == []
    assert unknown.content == "There is no game #99."


async def test_a_history_button_from_before_a_restart_still_turns_the_page(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """The button is rebuilt from its custom_id alone: the bot keeps no memory of the page."""
    for _ in range(11):
        await store_finished(driver, alice, bob)
    custom_id = f"history:{alice.id}:all:1"
    message = plant_button(driver, driver.channel_id, custom_id, "Older ▶")

    result = await driver.click(bob, message.id, custom_id)

    assert result.callback_type == 7
    page = driver.message(message.id)
    header, only = page.content.splitlines()
    assert header == f"**Games of {alice.mention}** · page 2 of 2"
    assert only.startswith(f"#1 Sea Battle (classic) vs {bob.mention}: won (+")
    assert page.custom_ids == [f"history:{alice.id}:all:0", f"history:{alice.id}:all:1"]
