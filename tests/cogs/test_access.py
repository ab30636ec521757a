"""A game in a private channel is seen only by its players and those who can view the channel.

Anyone else, in another channel of the server, another server or by DM, is told what they
would be told of a game number that does not exist, word for word.
"""

from __future__ import annotations

import pytest

from tests.support.cog_helpers import (
    accept,
    png_of,
    random_ready,
    render_for,
    repository,
    resign,
    shoot,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser


@pytest.fixture
def dave(driver: DiscordDriver) -> FakeUser:
    """A member who may view the private channel without playing in its game."""
    return driver.add_user("dave")


async def private_game(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, dave: FakeUser
) -> tuple[int, int]:
    """Alice and Bob play in a channel only they and Dave can view: the game's id, and the
    channel's. Carol and every other member cannot view it."""
    channel_id = driver.add_channel("war-room", visible_to=[alice, bob, dave])
    asked = await driver.slash(alice, "play", game="seabattle", opponent=bob, channel_id=channel_id)
    assert asked.original is not None and not asked.original.ephemeral, asked.content
    await accept(driver, bob, asked.original)
    (game,) = await repository(driver).active_games_of(alice.id)
    await random_ready(driver, game.id, alice, bob)
    return game.id, channel_id


async def test_a_private_channels_running_game_is_hidden_from_who_cannot_view_it(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser, dave: FakeUser
) -> None:
    game_id, channel_id = await private_game(driver, alice, bob, dave)
    other_server = driver.add_guild("Elsewhere")
    await driver.settle()
    unknown = await driver.slash(carol, "board", game=99)
    assert unknown.content == "You are not playing in game #99."

    for where in ({}, {"guild": other_server}, {"guild": False}):
        hidden = await driver.slash(carol, "board", game=game_id, **where)
        assert hidden.content == f"You are not playing in game #{game_id}.", where
        assert hidden.original is not None and hidden.original.attachments == []
    from_elsewhere = await driver.slash(dave, "board", game=game_id, guild=other_server)
    assert from_elsewhere.content == f"You are not playing in game #{game_id}."
    assert await driver.autocomplete(carol, "board", focused="game", game="") == []

    record = await stored_game(driver, game_id)
    for where in ({}, {"channel_id": channel_id}):
        shown = await driver.slash(dave, "board", game=game_id, **where)
        assert shown.content is not None
        assert f"You are not playing in game #{game_id}, so here is its public" in shown.content
        assert shown.original is not None
        assert png_of(driver, shown.original.id) == render_for(record, None)

    mine = await driver.slash(alice, "board", game=game_id, guild=other_server)
    assert mine.original is not None
    assert png_of(driver, mine.original.id) == render_for(record, 0)


async def test_games_lists_only_the_games_of_channels_the_asker_can_view(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser, dave: FakeUser
) -> None:
    game_id, channel_id = await private_game(driver, alice, bob, dave)

    stranger = await driver.slash(carol, "games")
    watcher = await driver.slash(dave, "games")

    assert stranger.content == "No game is running in this server. Start one with `/play`."
    assert watcher.content is not None
    assert watcher.content.startswith(f"**#{game_id} Sea Battle** (classic) · ")
    assert f"<#{channel_id}>" in watcher.content


async def test_a_private_channels_finished_game_is_hidden_like_a_missing_one(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser, dave: FakeUser
) -> None:
    game_id, _ = await private_game(driver, alice, bob, dave)
    commands = {
        "game": {},
        "replay": {"as": "truth"},
        "export": {},
    }
    while_running = await driver.slash(carol, "replay", id=game_id)
    assert while_running.content == f"There is no game #{game_id}."
    await shoot(driver, game_id, hit=False)
    await resign(driver, alice, game_id)
    other_server = driver.add_guild("Elsewhere")
    await driver.settle()

    for name, options in commands.items():
        unknown = await driver.slash(carol, name, id=99, **options)
        assert unknown.content == "There is no game #99."
        for where in ({}, {"guild": other_server}, {"guild": False}):
            hidden = await driver.slash(carol, name, id=game_id, **where, **options)
            assert hidden.content == f"There is no game #{game_id}.", (name, where)
            assert [s for s in hidden.sent if s.files] == [], (name, where)
        elsewhere = await driver.slash(dave, name, id=game_id, guild=other_server, **options)
        assert elsewhere.content == f"There is no game #{game_id}.", name
        for user, where in ((dave, {}), (alice, {"guild": False}), (bob, {"guild": other_server})):
            shown = await driver.slash(user, name, id=game_id, **where, **options)
            assert [s for s in shown.sent if s.files], (name, user.name, where)
