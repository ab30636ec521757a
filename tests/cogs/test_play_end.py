"""The end of a Sea Battle game through the real discord.py client: a whole game to its
winner, resigning, aborting, and the boards, lists and rules anyone may ask for.
"""

from __future__ import annotations

import random

import pytest

from bot.games.core import Phase
from bot.storage import GameRecord, GameStatus, LogKind
from tests.support.cog_helpers import (
    NO_GAME,
    SEA,
    channel_messages,
    game_in_play,
    in_channel_since,
    live_message,
    open_png,
    plant_button,
    player,
    png_of,
    random_ready,
    render_for,
    resign,
    seat_to_move,
    seen_by,
    sent_since,
    shoot,
    shoot_at_random,
    start_game,
    state_of,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser, Sent


def sent_outside(driver: DiscordDriver, user: FakeUser, seq: int) -> list[Sent]:
    """What the bot did after ``seq`` beyond answering ``user``: a refusal must stay private."""
    mine = {s.seq for s in seen_by(driver, user, seq)}
    return [s for s in sent_since(driver, seq) if s.seq not in mine]


# -- the end ----------------------------------------------------------------------------------


async def after_a_shot(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, *, hit: bool
) -> tuple[GameRecord, GameRecord]:
    """A game in play as it began and as stored after its first shot (a hit or a miss)."""
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=hit)
    return game, await stored_game(driver, game.id)


async def test_a_whole_game_of_random_shots_ends_with_a_stored_winner(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Any sequence of legal shots ends the game, stores the result and reveals both fleets."""
    game = await game_in_play(driver, alice, bob)
    live_id = game.public_message_id
    rng = random.Random(20240601)
    accepted = game.ply
    record = game

    while record.status is GameStatus.ACTIVE:
        seat, record = await shoot_at_random(driver, record, rng)
        accepted += 1
        assert record.ply == accepted, driver.dms_to(player(driver, record, seat))[-1].content

    final = state_of(record)
    assert final.phase is Phase.FINISHED
    assert record.status is GameStatus.FINISHED
    assert record.end_reason == "rules"
    assert record.winner is not None and record.winner == final.log[-1][0]
    loser_ships = {c for ship in final.sides[1 - record.winner].ships for c in ship.cells}
    assert final.shots[record.winner] >= loser_ships
    assert len(await stored_log(driver, game.id)) == record.ply == accepted

    winner = player(driver, record, record.winner)
    loser = player(driver, record, 1 - record.winner)
    assert "That was their last ship: you win!" in driver.dms_to(winner)[-1].content
    assert "That was your last ship: you lose." in driver.dms_to(loser)[-1].content

    _, live, announcement = channel_messages(driver)
    assert live.id == live_id
    ratings = {winner.mention: "1658? (+158)", loser.mention: "1342? (−158)"}
    assert announcement.content == (
        f"🏁 **Sea Battle #1** is over. {winner.mention} won (sank the whole fleet). "
        f"Final board: https://discord.com/channels/{driver.guild_id}/{driver.channel_id}/"
        f"{live_id}\nRatings: {alice.mention} {ratings[alice.mention]} · "
        f"{bob.mention} {ratings[bob.mention]}"
    )
    assert live.custom_ids == []  # no "My board" button on a finished game
    assert live.content.endswith(f"{winner.mention} won (sank the whole fleet).")
    assert png_of(driver, live.id) == render_for(record, None)
    public = SEA.view(final, None)
    assert [len(field.ships) for field in public.fields] == [10, 10]  # both fleets revealed

    assert (await driver.slash(winner, "board")).content == NO_GAME
    await driver.dm(winner, "A1")
    assert driver.dms_to(winner)[-1].content == NO_GAME


async def test_resign_ends_the_game_as_a_loss_for_the_resigner(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """``/resign`` gives the opponent the win, announces it and reveals the fleets."""
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=False)
    seq = driver.server.last_seq

    result = await resign(driver, alice)

    (answer,) = result.followups
    assert answer.ephemeral and answer.message_id is not None
    assert answer.content == "**Sea Battle #1**\nYou resigned. The game is over.\nYou lost."
    record = await stored_game(driver, game.id)
    assert png_of(driver, answer.message_id) == render_for(record, 0)
    assert (record.status, record.winner, record.end_reason) == (
        GameStatus.FINISHED,
        1,
        "resignation",
    )
    last = (await stored_log(driver, game.id))[-1]
    assert (last.seat, last.kind) == (0, LogKind.END)
    assert driver.dms_to(bob)[-1].content == (
        "**Sea Battle #1**\nYour opponent resigned: you win!\nYou won!"
    )
    live = live_message(driver, record)
    assert live.content.endswith(
        f"{alice.mention} resigned; {bob.mention} wins.\n{bob.mention} won (by resignation)."
    )
    assert live.custom_ids == []
    assert png_of(driver, live.id) == render_for(record, None)
    posts = [s for s in in_channel_since(driver, seq) if s.kind == "message"]
    opened = posts.pop()
    assert opened.content is not None and "🔓 Seals opened: salts" in opened.content
    assert [p.content for p in posts] == [
        f"🏁 **Sea Battle #1** is over. {bob.mention} won (by resignation). Final board: "
        f"https://discord.com/channels/{driver.guild_id}/{driver.channel_id}/{live.id}\n"
        f"Ratings: {alice.mention} 1342? (−158) · {bob.mention} 1658? (+158)"
    ]

    again = await driver.slash(alice, "resign")
    assert again.ephemeral and again.content == NO_GAME


@pytest.mark.parametrize("fleets_set", [False, True], ids=["during-setup", "before-first-shot"])
async def test_abort_before_the_first_shot_ends_without_result(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, fleets_set: bool
) -> None:
    """Until a shot is fired either player may call the game off with no winner."""
    game = await start_game(driver, alice, bob)
    await driver.dm(alice, "random")
    if fleets_set:
        await driver.dm(alice, "ready")
        await random_ready(driver, game.id, bob)

    result = await driver.slash(bob, "abort")

    assert result.ephemeral
    assert result.content == (
        "**Sea Battle #1**\nYou aborted the game. It ends without a result.\nThe game was aborted."
    )
    record = await stored_game(driver, game.id)
    assert (record.status, record.winner, record.end_reason) == (
        GameStatus.FINISHED,
        None,
        "aborted",
    )
    assert driver.dms_to(alice)[-1].content.startswith(
        "**Sea Battle #1**\nYour opponent aborted the game. It ends without a result."
    )
    live = live_message(driver, record)
    assert f"{bob.mention} aborted the game; it ends without a result." in live.content
    assert live.custom_ids == []
    assert channel_messages(driver)[-1].content.startswith(
        f"🏁 **Sea Battle #1** is over. {bob.mention} aborted the game; it ends without a result."
    )


async def test_abort_is_refused_after_the_first_shot(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Once shots were fired, aborting would erase a loss; the player must resign instead."""
    game, before = await after_a_shot(driver, alice, bob, hit=False)
    seq = driver.server.last_seq

    result = await driver.slash(alice, "abort")

    assert result.ephemeral
    assert result.content == (
        "The first move has been made, so the game can no longer be aborted; "
        "use `/resign` to give up."
    )
    after = await stored_game(driver, game.id)
    assert after.status is GameStatus.ACTIVE and after.ply == before.ply
    assert sent_outside(driver, alice, seq) == []


async def test_board_command_resends_the_private_board(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """``/board`` is private in a server (it shows the fleet) and plain in DMs."""
    _, record = await after_a_shot(driver, alice, bob, hit=False)
    status = "Your move." if seat_to_move(record) == 0 else "Your opponent's move."

    in_server = await driver.slash(alice, "board")

    assert in_server.ephemeral
    assert in_server.content == f"**Sea Battle #1**\n{status}"
    assert in_server.original is not None
    png = png_of(driver, in_server.original.id)
    assert open_png(png)[0] > 100
    assert png == render_for(record, 0)

    in_dm = await driver.slash(bob, "board", guild=False)
    assert not in_dm.ephemeral and in_dm.channel_id == driver.dm_channel_id(bob)
    assert in_dm.original is not None
    assert png_of(driver, in_dm.original.id) == render_for(record, 1)

    stranger = await driver.slash(carol, "board")
    assert stranger.ephemeral and stranger.content == NO_GAME


async def test_my_board_button_shows_the_clicker_their_own_board(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """One public button serves both players, each seeing only their own side."""
    _, record = await after_a_shot(driver, alice, bob, hit=True)
    live = live_message(driver, record)
    before = (live.content, [a.id for a in live.attachments])

    for seat, user in enumerate((alice, bob)):
        result = await driver.click(user, live.id, "board:1")
        assert result.ephemeral
        assert result.original is not None
        assert png_of(driver, result.original.id) == render_for(record, seat)

    outsider = await driver.click(carol, live.id, "board:1")
    assert outsider.ephemeral
    assert outsider.content is not None
    assert "You are not playing in game #1, so here is its public board." in outsider.content
    assert outsider.original is not None
    assert png_of(driver, outsider.original.id) == render_for(record, None)
    live = live_message(driver, record)
    assert (live.content, [a.id for a in live.attachments]) == before

    await resign(driver, alice)
    stale = plant_button(driver, driver.channel_id, "board:1", "My board")
    late = await driver.click(bob, stale.id, "board:1")
    assert late.ephemeral and late.content == "Game #1 is over."


async def test_games_lists_the_running_games_of_the_server(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """``/games`` shows who plays whom and whose turn it is, and forgets finished games."""
    empty = await driver.slash(alice, "games")
    assert empty.ephemeral
    assert empty.content == "No game is running in this server. Start one with `/play`."

    game = await start_game(driver, alice, bob)
    listed = await driver.slash(bob, "games")
    assert listed.ephemeral
    assert listed.content == (
        f"**#1 Sea Battle** (classic) · {alice.mention} vs {bob.mention} "
        f"in <#{driver.channel_id}> · "
        f"Setting up: waiting for {alice.mention} and {bob.mention}."
    )

    await driver.slash(alice, "abort")
    assert (await stored_game(driver, game.id)).status is GameStatus.FINISHED
    after = await driver.slash(alice, "games")
    assert after.content == "No game is running in this server. Start one with `/play`."


async def test_rules_give_the_summary_and_notation(driver: DiscordDriver, alice: FakeUser) -> None:
    """``/rules`` must teach the notation the bot expects, everywhere it can be asked."""
    in_server = await driver.slash(alice, "rules", game="seabattle")

    assert in_server.ephemeral
    text = in_server.content
    assert text is not None
    assert text.startswith("**Sea Battle (classic)**: a 10×10 field, A1 top left to J10")
    for notation in ("`A1 A4`", "`J10`", "`random`", "`ready`", "`B5`", "`#<id> B5`"):
        assert notation in text
    assert (in_server.followups[0].content or "").startswith("**Variants**")

    in_dm = await driver.slash(alice, "rules", guild=False, game="seabattle")
    assert not in_dm.ephemeral and in_dm.content == text


async def test_setup_words_are_suggested_during_setup(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Before play, autocomplete offers the setup words rather than cells."""
    await start_game(driver, alice, bob)
    choices = await driver.autocomplete(alice, "move", focused="text", guild=False, text="r")
    assert [c["value"] for c in choices] == ["random", "ready"]


async def test_a_dm_asking_for_help_gets_the_rules_of_the_game(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """`help` is not a move: the player gets the rules and notation, and nothing changes."""
    stranger = driver.add_user("carol")
    await driver.dm(stranger, "help")
    assert "`/play`" in driver.dms_to(stranger)[-1].content
    game = await game_in_play(driver, alice, bob)
    await driver.dm(alice, "Help")
    reply = driver.dms_to(alice)[-1].content
    assert reply.startswith(f"Game #{game.id}: **Sea Battle (classic)**") and "`B5`" in reply
    assert (await stored_game(driver, game.id)).ply == game.ply
