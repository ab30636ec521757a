"""Setting up a Sea Battle fleet by DM through the real discord.py client: random fleets,
ships placed one by one, wrong placements explained, and both players ready.

The fleets are secret, so beside "does the step work" every test asks who learned what:
the player, the opponent, the channel.
"""

from __future__ import annotations

import pytest

from bot.storage import LogKind
from tests.support.cog_helpers import (
    KNOWN_FLEET,
    KNOWN_FLEET_CELLS,
    channel_messages,
    in_channel_since,
    live_message,
    open_png,
    player,
    png_of,
    render_for,
    seat_to_move,
    seen_by,
    start_game,
    state_of,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser

# -- setup ------------------------------------------------------------------------------------


async def test_random_fleet_button_deals_a_legal_fleet_in_secret(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """The button in the setup DM deals a whole fleet; nobody else hears about it."""
    game = await start_game(driver, alice, bob)
    setup_dm = driver.dms_to(alice)[-1]
    live_before = live_message(driver, game)
    live_state = (live_before.content, [a.id for a in live_before.attachments])
    seq = driver.server.last_seq

    result = await driver.click(alice, setup_dm.id, f"move:{game.id}:random")

    assert result.callback_type == 4 and not result.ephemeral
    assert result.content is not None
    assert "Here is a random fleet. Write `ready` to confirm it" in result.content
    assert result.original is not None
    assert result.original.custom_ids == ["move:1:random", "move:1:ready"]
    record = await stored_game(driver, game.id)
    state = state_of(record)  # decoding re-validates the fleet against the rules
    lengths = sorted((len(ship.cells) for ship in state.sides[0].ships), reverse=True)
    assert lengths == [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]
    assert state.sides[1].ships == ()
    assert [(e.seat, e.kind, e.text) for e in await stored_log(driver, game.id)] == [
        (0, LogKind.MOVE, "random")
    ]
    assert png_of(driver, result.original.id) == render_for(record, 0)

    assert seen_by(driver, bob, seq) == []
    assert in_channel_since(driver, seq) == []
    live_after = live_message(driver, record)
    assert (live_after.content, [a.id for a in live_after.attachments]) == live_state


async def test_random_word_deals_another_fleet_each_time(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Writing ``random`` again redraws, so a player can shop for a fleet they like."""
    game = await start_game(driver, alice, bob)

    await driver.dm(alice, "random")
    first = state_of(await stored_game(driver, game.id)).sides[0].ships
    await driver.dm(alice, "random")
    second = state_of(await stored_game(driver, game.id)).sides[0].ships

    assert len(first) == len(second) == 10
    assert first != second
    replies = driver.dms_to(alice)[-2:]
    for reply in replies:
        assert "Here is a random fleet." in reply.content
        open_png(png_of(driver, reply.id))
    assert png_of(driver, replies[0].id) != png_of(driver, replies[1].id)


async def test_ships_placed_one_by_one_show_the_board_after_each_step(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Each placement is confirmed with a fresh image; only ``ready`` touches the channel."""
    game = await start_game(driver, alice, bob)
    seq = driver.server.last_seq
    images: list[bytes] = []

    for placed, text in enumerate(KNOWN_FLEET, start=1):
        await driver.dm(alice, text)
        reply = driver.dms_to(alice)[-1]
        record = await stored_game(driver, game.id)
        assert record.ply == placed, f"{text!r} was refused: {reply.content}"
        assert reply.content.startswith("**Sea Battle #1**\nPlaced your ")
        png = png_of(driver, reply.id)
        assert png == render_for(record, 0)
        images.append(png)

    assert len(set(images)) == len(KNOWN_FLEET)  # every step changed the picture
    first, last = driver.dms_to(alice)[-len(KNOWN_FLEET)], driver.dms_to(alice)[-1]
    assert "Placed your battleship on A1-A4. Still to place: 2 cruisers (3 cells)" in first.content
    assert first.custom_ids == ["move:1:random"]
    assert "Placed your torpedo boat on I6. Your fleet is complete" in last.content
    assert last.custom_ids == ["move:1:random", "move:1:ready"]
    state = state_of(await stored_game(driver, game.id))
    placed_cells = {f"{chr(65 + c)}{r + 1}" for s in state.sides[0].ships for c, r in s.cells}
    assert placed_cells == KNOWN_FLEET_CELLS
    assert seen_by(driver, bob, seq) == []
    assert in_channel_since(driver, seq) == []

    await driver.dm(alice, "ready")

    assert driver.dms_to(alice)[-1].content == (
        "**Sea Battle #1**\nYour fleet is confirmed. Waiting for your opponent to set theirs."
    )
    (edit,) = in_channel_since(driver, seq)
    assert edit.kind == "edit" and edit.message_id == game.public_message_id
    assert seen_by(driver, bob, seq) == []


# Placements tried after a battleship stands on A1-A4, and a piece of the sentence that
# must name the rule broken.
WRONG_PLACEMENTS = [
    pytest.param("B5", "may not touch, not even at a corner.", id="touching"),
    pytest.param("A3 C3", "ships may not overlap.", id="overlapping"),
    pytest.param("K1", "is off the board, which runs from A1 to J10", id="off-board-cell"),
    pytest.param("J9 J11", "is off the board, which runs from A1 to J10", id="off-board-ship"),
    pytest.param("J1 J4", "Your fleet has only 1 battleship (4 cells)", id="too-many"),
    pytest.param("A9 E9", "No ship in this fleet has 5 cells", id="too-long"),
    pytest.param("C6 D7", "are not in one row or column: a ship is a straight line", id="bent"),
    pytest.param("ready", "Your fleet is not complete: still to place", id="ready-early"),
    pytest.param("remove J10", "None of your ships lies on J10.", id="remove-nothing"),
    pytest.param("hello", "is not a setup move.", id="gibberish"),
]


@pytest.mark.parametrize(("text", "rule"), WRONG_PLACEMENTS)
async def test_wrong_placement_is_explained_and_changes_nothing(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, text: str, rule: str
) -> None:
    """A refused placement says which rule it breaks and leaves the stored fleet alone."""
    game = await start_game(driver, alice, bob)
    await driver.dm(alice, "A1 A4")
    before = await stored_game(driver, game.id)
    seq = driver.server.last_seq

    await driver.dm(alice, text)

    (reply,) = seen_by(driver, alice, seq)
    assert reply.content is not None and rule in reply.content
    assert reply.files == []  # a refusal is a sentence, not a new board
    after = await stored_game(driver, game.id)
    assert (after.ply, after.state) == (before.ply, before.state)
    assert len(await stored_log(driver, game.id)) == 1
    assert seen_by(driver, bob, seq) == []
    assert in_channel_since(driver, seq) == []


async def test_ready_button_confirms_and_both_fleets_start_play(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """``Ready`` locks a fleet and the channel learns only that; both ready starts the shooting."""
    game = await start_game(driver, alice, bob)
    await driver.dm(alice, "random")
    seq = driver.server.last_seq

    result = await driver.click(alice, driver.dms_to(alice)[-1].id, "move:1:ready")

    assert result.content is not None
    assert "Your fleet is confirmed. Waiting for your opponent" in result.content
    (edit,) = in_channel_since(driver, seq)
    live = live_message(driver, await stored_game(driver, game.id))
    assert edit.kind == "edit" and edit.message_id == live.id
    assert f"{alice.mention} has set their fleet." in live.content
    assert live.content.endswith(f"Setting up: waiting for {bob.mention}.")
    assert seen_by(driver, bob, seq) == []

    await driver.dm(alice, "random")
    assert "it can no longer change" in driver.dms_to(alice)[-1].content

    await driver.dm(bob, "random")
    await driver.dm(bob, "ready")

    record = await stored_game(driver, game.id)
    first = seat_to_move(record)
    shooter, waiter = player(driver, record, first), player(driver, record, 1 - first)
    (sealed,) = [m.content for m in channel_messages(driver, seals=True) if "Sealed" in m.content]
    seal_line = sealed.removeprefix("**Sea Battle #1** ")
    assert driver.dms_to(shooter)[-1].content == (
        "**Sea Battle #1**\nBoth fleets are set. You shoot first: name a cell, like `B5`.\n"
        f"{seal_line}\nYour move."
    )
    assert driver.dms_to(waiter)[-1].content == (
        "**Sea Battle #1**\nBoth fleets are set. Your opponent shoots first.\n"
        f"{seal_line}\nYour opponent's move."
    )
    live = live_message(driver, record)
    assert live.content.endswith(
        f"Both fleets are set. {shooter.mention} shoots first.\n"
        f"{shooter.mention} to move."
    )
    assert len(channel_messages(driver)) == 2  # the challenge and the one live message
