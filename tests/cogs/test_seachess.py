"""Seachess through the real discord.py client against the loopback Discord: a whole game by
DM with a mine planted, a dive, an emergence capture, a torpedo and an aircraft flight, each
audience's messages checked against what section 9 of the rules lets it learn."""

from __future__ import annotations

from bot.delivery.presenter import names_of
from bot.games import ENGINES
from bot.games.seachess.state import SeachessState
from bot.storage import GameRecord
from renderers import seachess as drawing
from tests.support.cog_helpers import (
    accepted_play,
    in_channel_since,
    repository,
    seen_by,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser

E = ENGINES["seachess"]

GAME = [
    "e2-e4", "e11-e9", "f2-f4", "d11-d7", "j2-j6", "h11-h7",
    "mine c1", "d7-d6", "dive d1-e3", "d6-d5", "emerge e3xd5", "c11-c7",
    "j1-j5", "c7-c6", "torpedo j5xh7", "i11-i9", "f1-f3", "i9-i8",
    "air f3xc6", "g11-g9", "land", "offer draw", "g9-g8", "accept draw",
]  # fmt: skip
"""White (the challenger) and Black alternate; Black offers a draw before its last move."""


def state_of(record: GameRecord) -> SeachessState:
    state: SeachessState = E.from_json(record.state)
    return state


async def start(driver: DiscordDriver, alice: FakeUser, bob: FakeUser) -> GameRecord:
    message = await accepted_play(driver, alice, bob, game="seachess")
    assert "Seachess" in (message.content or "")
    (game,) = await repository(driver).active_games_of(alice.id)
    return game


def texts(driver: DiscordDriver, user: FakeUser, seq: int) -> str:
    return "\n".join(s.content or "" for s in seen_by(driver, user, seq))


def public(driver: DiscordDriver, seq: int) -> str:
    return "\n".join(s.content or "" for s in in_channel_since(driver, seq))


async def test_a_whole_game_by_dm_tells_each_audience_only_what_it_may_know(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob)
    assert "There is no setup" in (driver.dms_to(alice)[-1].content or "")
    users = {0: alice, 1: bob}
    heard: dict[str, tuple[str, str, str]] = {}
    for text in GAME:
        state = state_of(await stored_game(driver, game.id))
        seq = driver.server.last_seq
        await driver.dm(users[state.turn], text)
        heard[text] = (texts(driver, alice, seq), texts(driver, bob, seq), public(driver, seq))
    record = await stored_game(driver, game.id)
    final = state_of(record)
    assert final.outcome is not None and final.outcome.detail == "draw agreed"

    white, black, channel = heard["mine c1"]
    assert "You planted a mine on c1" in white
    assert "White made a hidden move." in black and "White made a hidden move." in channel
    assert "c1" not in black and "mine" not in black.lower() and "c1" not in channel

    white, black, channel = heard["dive d1-e3"]
    assert "moved under e3" in white
    for told in (black, channel):
        assert "the submarine on d1 submerged (hidden move)" in told and "e3" not in told

    for text, words in (
        ("emerge e3xd5", "a submarine emerged from under e3 onto d5, taking Black's boat"),
        ("torpedo j5xh7", "torpedoed Black's boat on h7"),
        ("air f3xc6", "takes Black's boat on c6; it is airborne"),
        ("land", "the aircraft lands on its carrier on f3"),
    ):
        for told in heard[text]:
            assert words in told, (text, told)

    white, black, channel = heard["offer draw"]
    assert "Black offers a draw" in white and "offers a draw" in channel
    _, _, channel = heard["accept draw"]
    assert "The game is drawn: draw agreed." in channel
    assert "All moves, hidden ones filled in: 1. Be2-e4 Be11-e9" in channel
    assert "Cc1-M(h)" in channel and "Sd1v-e3(h)" in channel and "Tj5xt h7" in channel
    assert "Af3xa c6" in channel and "Af3<a" in channel

    for seat, user in users.items():
        dm = driver.dms_to(user)[-1]
        assert driver.pngs(dm.id) == [drawing.render(E.view(final, seat), names_of(record))]


async def test_hidden_material_stays_off_the_opponents_board_and_the_channel(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob)
    users = {0: alice, 1: bob}
    for text in GAME[:9]:  # up to the dive: a White mine on c1, a submarine under e3
        state = state_of(await stored_game(driver, game.id))
        await driver.dm(users[state.turn], text)
    state = state_of(await stored_game(driver, game.id))
    assert state.mines and state.subs
    black_view = E.view(state, 1)
    assert not black_view.mines and all(m.square is None for m in black_view.subs)
    dm = driver.dms_to(bob)[-1]
    record = await stored_game(driver, game.id)
    assert driver.pngs(dm.id) == [drawing.render(black_view, names_of(record))]
    offered = await driver.autocomplete(bob, "move", "text", guild=False, options={"text": ""})
    legal = {str(a) for a in E.legal_actions(state, 1)}
    assert offered and {c["value"] for c in offered} <= legal
    refused = driver.server.last_seq
    await driver.dm(alice, "e4-e5")  # not White's turn
    assert "opponent's turn" in texts(driver, alice, refused)
    assert texts(driver, bob, refused) == "" and public(driver, refused) == ""
