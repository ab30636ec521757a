"""Playing the computer through Discord: ``/play`` with the bot as the opponent.

The person gets everything a game against a person gives (setup by DM, private boards,
moves by DM, the live channel board, the end announced); the computer's own seat is never
sent a DM, and the game changes no rating.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.games import ENGINES
from bot.games.core import Phase
from bot.storage import COMPUTER_SEAT, LogKind
from tests.support.cog_helpers import (
    channel_messages,
    game_in_play,
    repository,
    resign,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser, InteractionResult, StoredMessage

MOVES_BEFORE_RESIGNING = 12
"""Long games (Luzhanqi, Warships, the Marine Game) are played a while, then resigned."""


async def start_against_computer(
    driver: DiscordDriver, user: FakeUser, game: str, level: str = "casual"
) -> int:
    result = await driver.slash(user, "play", game=game, opponent=driver.bot_account(), level=level)
    assert result.content is not None and "against me, the computer" in result.content
    games = await repository(driver).active_games_of(user.id)
    assert len(games) == 1
    assert games[0].computer_level == level and not games[0].rated
    return games[0].id


async def person_moves(
    driver: DiscordDriver, user: FakeUser, game_id: int, dice: random.Random
) -> None:
    """One legal move of the person's, chosen from what their own view offers."""
    record = await stored_game(driver, game_id)
    engine = ENGINES[record.game]
    view = engine.view(engine.from_json(record.state), 0)
    assert 0 in view.movers, "the game waits for the computer, which should have moved"
    if view.phase is Phase.SETUP:
        move = "ready" if engine.setup_text(view) or record.game != "seabattle" else "random"
    else:
        options = [m for m in engine.legal_moves(view) if "draw" not in m]
        move = dice.choice(options)
    await driver.dm(user, move)


@pytest.mark.parametrize("game", ["seabattle", "luzhanqi", "warships", "seachess", "marine"])
async def test_a_whole_game_against_the_computer_by_dm(
    driver: DiscordDriver, alice: FakeUser, game: str
) -> None:
    game_id = await start_against_computer(driver, alice, game)
    dice = random.Random(game)
    for played in range(400):
        record = await stored_game(driver, game_id)
        if record.end_reason is not None:
            break
        if game != "seabattle" and played >= MOVES_BEFORE_RESIGNING:
            await resign(driver, alice)
            continue
        await person_moves(driver, alice, game_id, dice)
    record = await stored_game(driver, game_id)
    assert record.end_reason is not None
    log = await stored_log(driver, game_id)
    assert any(entry.seat == COMPUTER_SEAT for entry in log), "the computer never moved"
    assert driver.server.bot_id not in driver.server._dm_by_user, "the bot DMed itself"
    assert driver.dms_to(alice), "the person got no board by DM"
    assert any("is over" in (m.content or "") for m in channel_messages(driver))
    assert await repository(driver).records.standings_of(alice.id) == []


async def test_another_bot_still_cannot_be_challenged(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    other_bot = driver.add_user("helperbot", bot=True)
    result = await driver.slash(alice, "play", game="seabattle", opponent=other_bot)
    assert result.content is not None and "Other bots cannot play" in result.content
    assert await repository(driver).active_games_of(alice.id) == []


async def test_a_game_against_the_computer_starts_with_one_dm(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    """The welcome with the board is the person's only DM at the start."""
    await start_against_computer(driver, alice, "seabattle")
    (welcome,) = driver.dms_to(alice)
    assert welcome.content.startswith("**Sea Battle #1**\nYour Sea Battle game has begun.")


async def test_closed_dms_call_a_game_against_the_computer_off(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    """A person the bot cannot DM has the game called off unplayed, told in the channel."""
    driver.close_dms(alice)
    result = await driver.slash(alice, "play", game="luzhanqi", opponent=driver.bot_account())
    assert result.content is not None and "game #1 is on" in result.content

    record = await stored_game(driver, 1)
    assert (record.end_reason, record.winner) == ("aborted", None)
    announcement = channel_messages(driver)[-1]
    assert announcement.content.startswith(
        f"🏁 **Luzhanqi #1** is over. I cannot send {alice.mention} direct messages, so the "
        "game is called off before it began"
    )
    ending = (await stored_log(driver, 1))[-1]
    assert (ending.kind, ending.seat) == (LogKind.END, 0)  # the computer set up, no more


AT_MOST_THREE = (
    "You already have 3 games against me running, as many as one player may have at once; "
    "finish or resign one of them first."
)


def answer_standing(driver: DiscordDriver, result: InteractionResult) -> StoredMessage:
    """The one message still answering an interaction (a withdrawn placeholder is gone)."""
    ids = {sent.message_id for sent in result.sent}
    (message,) = [driver.server.messages[i] for i in ids if i in driver.server.messages]
    return message


async def test_twenty_quick_plays_against_the_computer_start_three_and_refuse_the_rest(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    """Twenty /play against the computer at once: three games start, and every other
    interaction is told privately why not; nothing fails on the bot's side.

    The database is busy with another write while they arrive, so all twenty wait for it
    together and their writes interleave."""
    for burst in ("UserActions.slash", "test_twenty_quick_plays"):
        driver.ignore_tasks(burst)  # the burst itself: each waits for the bot only
    me = driver.bot_account()
    async with repository(driver)._write_lock:  # held as another write would hold it
        results = await asyncio.gather(
            *(
                driver.slash(alice, "play", game="seabattle", opponent=me, level="casual")
                for _ in range(20)
            )
        )
    await driver.settle()
    assert driver.take_errors() == []
    answers = [answer_standing(driver, result) for result in results]
    started = [a for a in answers if "against me, the computer" in a.content]
    refused = [a for a in answers if a not in started]
    assert len(started) == 3 and not any(a.ephemeral for a in started)
    assert {(a.content, a.ephemeral) for a in refused} == {(AT_MOST_THREE, True)}
    games = await repository(driver).active_games_of(alice.id)
    assert len(games) == 3 and all(g.computer_level == "casual" for g in games)


async def test_a_fourth_game_against_the_computer_waits_for_one_to_end(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Only running games against the computer count, and one that ends frees a place."""
    await game_in_play(driver, alice, bob)  # game 1, against a person: not counted
    me = driver.bot_account()
    for game in ("seabattle", "seachess", "marine"):  # games 2, 3 and 4
        started = await driver.slash(alice, "play", game=game, opponent=me)
        assert started.content is not None and "against me, the computer" in started.content

    refused = await driver.slash(alice, "play", game="luzhanqi", opponent=me)
    assert (refused.content, refused.ephemeral) == (AT_MOST_THREE, True)
    assert len(await repository(driver).active_games_of(alice.id)) == 4
    other = await driver.slash(bob, "play", game="luzhanqi", opponent=me)
    assert other.content is not None and "against me, the computer" in other.content
    await resign(driver, alice, 2)
    again = await driver.slash(alice, "play", game="luzhanqi", opponent=me)
    assert again.content is not None and "against me, the computer" in again.content
