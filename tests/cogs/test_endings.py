"""Ending a game by choice, through the loopback Discord: resigning asks first, ``resign``
and ``abort`` work as DM words, and draws are agreed by word or by button."""

from __future__ import annotations

from bot.games import ENGINES
from bot.storage import GameStatus
from tests.cogs.test_warships import start as start_warships
from tests.cogs.test_warships import state_of as warships_state
from tests.support.cog_helpers import (
    accept_offered_draw,
    game_in_play,
    resign,
    start_game,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser


async def a_move(driver: DiscordDriver, game_id: int, seat: int) -> str:
    """A legal Warships move for ``seat`` that neither lays a mine nor speaks of a draw."""
    state = warships_state(await stored_game(driver, game_id))
    return next(
        text
        for text in map(str, ENGINES["warships"].legal_actions(state, seat))
        if "draw" not in text and not text.startswith("mine")
    )


async def test_resign_asks_first_and_ends_the_game_only_when_confirmed(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await game_in_play(driver, alice, bob)
    asked = await driver.slash(alice, "resign")
    assert asked.ephemeral and asked.content is not None
    assert asked.content.startswith(f"Resign **Sea Battle #{game.id}**?")
    assert asked.original is not None and asked.original.custom_ids == [f"resign:{game.id}"]
    assert (await stored_game(driver, game.id)).status is GameStatus.ACTIVE

    done = await driver.click(alice, asked.original.id, f"resign:{game.id}")
    (answer,) = done.followups
    assert answer.ephemeral and answer.content is not None and "You resigned." in answer.content
    record = await stored_game(driver, game.id)
    assert (record.status, record.winner) == (GameStatus.FINISHED, 1)
    assert spent(driver, asked.original.id, game.id)


def spent(driver: DiscordDriver, message_id: int, game_id: int) -> bool:
    """Whether a resignation question's **Resign** button is there, but disabled."""
    buttons = [c for c in driver.message(message_id).iter_components() if c["type"] == 2]
    return [(b["custom_id"], b.get("disabled", False)) for b in buttons] == [
        (f"resign:{game_id}", True)
    ]


async def test_resign_and_abort_are_dm_words(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await game_in_play(driver, alice, bob)
    await driver.dm(bob, f"#{game.id} resign")
    question = driver.dms_to(bob)[-1]
    assert question.content.startswith(f"Resign **Sea Battle #{game.id}**?")
    assert (await stored_game(driver, game.id)).status is GameStatus.ACTIVE
    await driver.click(bob, question.id, f"resign:{game.id}")
    assert (await stored_game(driver, game.id)).winner == 0
    assert spent(driver, question.id, game.id)

    second = await start_game(driver, alice, bob)
    await driver.dm(alice, "abort")
    record = await stored_game(driver, second.id)
    assert (record.status, record.end_reason) == (GameStatus.FINISHED, "aborted")
    assert "You aborted the game." in driver.dms_to(alice)[-1].content


async def test_a_draw_is_offered_by_word_and_accepted_by_button(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start_warships(driver, alice, bob, "quick")
    first = warships_state(game).turn
    assert first is not None
    mover, other = (alice, bob) if game.seats[first] == alice.id else (bob, alice)
    await driver.dm(mover, "draw")
    assert "You offer a draw." in driver.dms_to(mover)[-1].content
    await driver.dm(mover, await a_move(driver, game.id, first))
    await accept_offered_draw(driver, other, game.id)
    record = await stored_game(driver, game.id)
    assert (record.status, record.winner) == (GameStatus.FINISHED, None)
    assert record.end_reason == "rules"


async def test_a_game_without_agreed_draws_says_so(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await game_in_play(driver, alice, bob)
    for word in ("draw", "offer draw", "accept draw"):
        await driver.dm(alice, word)
        assert driver.dms_to(alice)[-1].content == (
            "Sea Battle has no draw by agreement: play on, or `/resign`."
        )
    assert (await stored_game(driver, game.id)).ply == game.ply


async def test_a_resign_question_left_until_the_game_ended_is_spent_when_pressed(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """A question asked by DM (word or command) and answered only after the game ended
    says so, and its button is disabled like a used one."""
    game = await game_in_play(driver, alice, bob)
    await driver.dm(alice, "resign")
    by_word = driver.dms_to(alice)[-1]
    by_command = await driver.slash(alice, "resign", guild=False)
    assert by_command.original is not None
    await resign(driver, bob, game.id)

    for message_id in (by_word.id, by_command.original.id):
        late = await driver.click(alice, message_id, f"resign:{game.id}")
        assert [s.content for s in late.sent if s.kind != "edit"] == [f"Game #{game.id} is over."]
        assert spent(driver, message_id, game.id)
    assert (await stored_game(driver, game.id)).winner == 0
