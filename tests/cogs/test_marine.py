"""The Marine Game through the real discord.py client against the loopback Discord: ``/play``,
``/rules``, a whole game by DM and ``/move`` with autocomplete, refusals that change nothing,
and one board for everyone: both players' DMs and the channel carry the same image."""

from __future__ import annotations

from bot.delivery.presenter import names_of
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.marine.state import MarineState
from bot.storage import GameRecord, GameStatus
from renderers import marine
from tests.support.cog_helpers import (
    accept,
    channel_messages,
    live_message,
    png_of,
    seen_by,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser

E = ENGINES["marine"]

SHORT_GAME = ("S-Q", "14-19", "Q-S", "9-2", "48-37", "13-5", "37-30", "5-6", "30-18", "8-4", "18-9")
"""South's destroyer runs 48-37-30-18-9 onto North's battleship harbour while North looks away."""


def state_of(record: GameRecord) -> MarineState:
    state: MarineState = E.from_json(record.state)
    return state


async def start(driver: DiscordDriver, alice: FakeUser, bob: FakeUser) -> GameRecord:
    result = await driver.slash(alice, "play", game="marine", opponent=bob)
    message = result.original
    assert message is not None and "Marine Game" in (message.content or ""), result.content
    await accept(driver, bob, message)
    return await stored_game(driver, 1)


async def test_rules_teach_the_notation(driver: DiscordDriver, alice: FakeUser) -> None:
    result = await driver.slash(alice, "rules", game="marine")
    text = result.content or ""
    assert text.startswith("**Marine Game**")
    for words in ("`46-41`", "`R-O`", "`offer draw`", "suicide", "harbour"):
        assert words in text


async def test_a_whole_game_by_dm_and_move_with_one_board_for_everyone(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob)
    state = state_of(game)
    by_id = {alice.id: alice, bob.id: bob}
    south, north = by_id[game.seats[state.south]], by_id[game.seats[1 - state.south]]
    assert "There is no setup" in (driver.dms_to(alice)[-1].content or "")

    # Out of turn and bad notation: a clear sentence, and nothing changes.
    seq = driver.server.last_seq
    await driver.dm(north, "14-19")
    await driver.dm(south, "46-99")
    await driver.dm(south, "46-29")
    assert (await stored_game(driver, game.id)).ply == game.ply
    said = [s.content or "" for s in seen_by(driver, north, seq)]
    assert any("opponent's turn" in text for text in said), said
    said = [s.content or "" for s in seen_by(driver, south, seq)]
    assert any("corners 1 to 58" in text for text in said)
    assert any("not one or two hex sides" in text for text in said)

    offered = await driver.autocomplete(south, "move", "text", guild=False, options={"text": "s"})
    assert [c["value"] for c in offered] == ["S-P", "S-Q"]
    await driver.slash(south, "move", guild=False, text="S-Q")
    for number, text in enumerate(SHORT_GAME[1:], start=1):
        await driver.dm(north if number % 2 else south, text)

    record = await stored_game(driver, game.id)
    final = state_of(record)
    assert record.status is GameStatus.FINISHED and final.phase is Phase.FINISHED
    assert record.winner == final.south and record.end_reason == "rules"
    assert [entry.text for entry in await stored_log(driver, game.id)][: len(SHORT_GAME)] == list(
        SHORT_GAME
    )
    image = marine.render(E.view(final, None), names_of(record))
    assert png_of(driver, live_message(driver, record).id) == image
    for user in (alice, bob):
        last = driver.dms_to(user)[-1]
        assert driver.pngs(last.id) == [image]
    told = "\n".join(m.content or "" for m in channel_messages(driver))
    assert "moved a destroyer 18-9" in told and "reached the enemy harbour" in told
    assert "You moved your destroyer 18-9" in "\n".join(
        m.content or "" for m in driver.dms_to(south)
    )
