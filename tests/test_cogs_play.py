"""Setup, shots and the end of a game, played by DM through the real discord.py client.

Sea Battle is a game of hidden information, so beside "does the move work" every test
asks "who learned what": the mover, the opponent, the channel. Enemy positions are read
from the bot's database (never from its memory) to aim at known hits and misses.
"""

from __future__ import annotations

import random

import pytest

from bot.games.core import Phase
from bot.storage import GameStatus, LogKind
from tests.cog_helpers import (
    KNOWN_FLEET,
    KNOWN_FLEET_CELLS,
    SEA,
    channel_messages,
    game_in_play,
    give_turn_to,
    in_channel_since,
    live_message,
    open_png,
    open_water,
    plant_button,
    player,
    png_of,
    random_ready,
    render_for,
    resign,
    seat_to_move,
    seen_by,
    sent_since,
    ship_cells,
    shoot,
    single_cell_ships,
    start_game,
    state_of,
    stored_game,
    stored_log,
)
from tests.discord_stub import DiscordDriver, FakeUser, Sent

NO_GAME = "You have no game running. Start one with `/play` in a server."


def sent_outside(driver: DiscordDriver, user: FakeUser, seq: int) -> list[Sent]:
    """What the bot did after ``seq`` beyond answering ``user``: a refusal must stay private."""
    mine = {s.seq for s in seen_by(driver, user, seq)}
    return [s for s in sent_since(driver, seq) if s.seq not in mine]


@pytest.fixture
def carol(driver: DiscordDriver) -> FakeUser:
    """A third member: a stranger to alice and bob's game, or alice's second opponent."""
    return driver.add_user("carol")


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
    pytest.param("B5", "may not touch, not even at a corner (rule 2.3)", id="touching"),
    pytest.param("A3 C3", "ships may not overlap (rule 2.3)", id="overlapping"),
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
        f"Both fleets are set. {shooter.mention} shoots first (rule 2.5).\n"
        f"{shooter.mention} to move."
    )
    assert len(channel_messages(driver)) == 2  # the challenge and the one live message


# -- play -------------------------------------------------------------------------------------


async def test_shots_tell_miss_hit_and_sunk_and_edit_one_live_message(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Each audience gets its own news and board; the channel keeps a single live message."""
    game = await game_in_play(driver, alice, bob)
    live_id = game.public_message_id
    seq = driver.server.last_seq

    missed_by, miss = await shoot(driver, game.id, hit=False)
    record = await stored_game(driver, game.id)
    m_seat = record.seats.index(missed_by.id)
    other = player(driver, record, 1 - m_seat)
    assert driver.dms_to(missed_by)[-1].content == (
        f"**Sea Battle #1**\n{miss}: miss. Your opponent shoots next.\nYour opponent's move."
    )
    assert driver.dms_to(other)[-1].content == (
        f"**Sea Battle #1**\nYour opponent shot at {miss}: miss. Your turn.\nYour move."
    )
    assert png_of(driver, driver.dms_to(missed_by)[-1].id) == render_for(record, m_seat)
    assert png_of(driver, driver.dms_to(other)[-1].id) == render_for(record, 1 - m_seat)
    live = driver.message(live_id or 0)
    assert live.content.endswith(
        f"{missed_by.mention} fires at {miss}: miss. {other.mention} shoots next.\n"
        f"{other.mention} to move."
    )
    assert png_of(driver, live.id) == render_for(record, None)

    # The other player hits the largest ship (still afloat), then sinks a one-cell ship.
    target_seat = m_seat
    hit = ship_cells(record, target_seat)[0]
    await driver.dm(other, hit)
    assert driver.dms_to(other)[-1].content == (
        f"**Sea Battle #1**\n{hit}: hit! Shoot again.\nYour move."
    )
    assert driver.dms_to(missed_by)[-1].content == (
        f"**Sea Battle #1**\nYour opponent shot at {hit} and hit your battleship. "
        "They shoot again.\nYour opponent's move."
    )
    boat = single_cell_ships(record, target_seat)[0]
    await driver.dm(other, boat)
    assert driver.dms_to(other)[-1].content == (
        f"**Sea Battle #1**\n{boat}: sunk! You sank a torpedo boat (1 cell). Shoot again.\n"
        "Your move."
    )
    assert driver.dms_to(missed_by)[-1].content.startswith(
        f"**Sea Battle #1**\nYour opponent shot at {boat} and sank your torpedo boat (1 cell)."
    )
    record = await stored_game(driver, game.id)
    live = driver.message(live_id or 0)
    assert live.content.endswith(
        f"{other.mention} fires at {boat}: sunk a torpedo boat (1 cell). "
        f"{other.mention} shoots again.\n{other.mention} to move."
    )
    assert png_of(driver, live.id) == render_for(record, None)
    assert live.custom_ids == ["board:1"]

    channel_activity = in_channel_since(driver, seq)
    assert [(s.kind, s.message_id) for s in channel_activity] == [("edit", live_id)] * 3
    assert len(channel_messages(driver)) == 2
    assert [e.text for e in await stored_log(driver, game.id)][-3:] == [miss, hit, boat]
    assert record.ply == 4 + 3  # random and ready for each seat, then three shots


async def test_move_command_in_dm_shoots_and_answers_in_the_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """``/move`` in the bot's DMs is the same move as typing it, answered in place."""
    game = await game_in_play(driver, alice, bob)
    record = await give_turn_to(driver, game.id, alice)
    water = open_water(record, 1)[0]
    seq = driver.server.last_seq

    result = await driver.slash(alice, "move", guild=False, text=water)

    assert result.callback_type == 4 and not result.ephemeral
    assert result.channel_id == driver.dm_channel_id(alice)
    assert result.content == (
        f"**Sea Battle #1**\n{water}: miss. Your opponent shoots next.\nYour opponent's move."
    )
    record = await stored_game(driver, game.id)
    assert result.original is not None
    assert png_of(driver, result.original.id) == render_for(record, 0)
    assert driver.dms_to(bob)[-1].content.startswith(
        f"**Sea Battle #1**\nYour opponent shot at {water}: miss."
    )
    assert [s.kind for s in in_channel_since(driver, seq)] == ["edit"]
    assert (await stored_log(driver, game.id))[-1].text == water


async def test_move_command_in_the_server_answers_privately(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """In a server the shooter's own board must stay ephemeral: it shows their fleet."""
    game = await game_in_play(driver, alice, bob)
    record = await give_turn_to(driver, game.id, alice)
    water = open_water(record, 1)[0]
    seq = driver.server.last_seq

    result = await driver.slash(alice, "move", text=water)

    assert result.ephemeral
    assert result.content is not None and f"{water}: miss." in result.content
    assert result.original is not None
    assert png_of(driver, result.original.id) == render_for(await stored_game(driver), 0)
    public = [s for s in in_channel_since(driver, seq) if not s.ephemeral]
    assert [(s.kind, s.message_id) for s in public] == [("edit", game.public_message_id)]


async def test_move_autocomplete_offers_only_open_matching_cells(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Suggestions skip cells already fired at and put the cells next to a hit first."""
    game = await game_in_play(driver, alice, bob)
    record = await give_turn_to(driver, game.id, alice)
    target = ship_cells(record, 1)[0]  # a battleship cell: the hit keeps alice's turn
    await driver.dm(alice, target)
    letter, row = target[0], int(target[1:])

    choices = await driver.autocomplete(alice, "move", focused="text", guild=False, text=letter)

    names = [c["name"] for c in choices]
    assert [c["value"] for c in choices] == names
    fired = {f"{chr(65 + c)}{r + 1}" for c, r in state_of(await stored_game(driver)).shots[0]}
    expected = {f"{letter}{n}" for n in range(1, 11)} - fired
    assert set(names) == expected and len(names) == len(expected)
    beside = {f"{letter}{n}" for n in (row - 1, row + 1) if 1 <= n <= 10} - fired
    assert set(names[: len(beside)]) == beside  # the hunt continues next to the hit

    lower = await driver.autocomplete(alice, "move", focused="text", guild=False, text="j1")
    assert {c["name"] for c in lower} <= {"J1", "J10"} and lower
    assert await driver.autocomplete(bob, "move", focused="text", guild=False, text="") == []


async def test_out_of_turn_shot_is_refused(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """A shot while the opponent is to move is answered and not counted."""
    game = await game_in_play(driver, alice, bob)
    record = await stored_game(driver, game.id)
    waiting = player(driver, record, 1 - seat_to_move(record))
    seq = driver.server.last_seq

    await driver.dm(waiting, "B5")

    assert [s.content for s in seen_by(driver, waiting, seq)] == [
        "It is your opponent's turn; wait for their shot."
    ]
    after = await stored_game(driver, game.id)
    assert (after.ply, after.state) == (record.ply, record.state)
    assert in_channel_since(driver, seq) == []
    assert seen_by(driver, player(driver, record, seat_to_move(record)), seq) == []


async def test_repeated_shot_is_refused(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """Firing twice at one cell would waste nothing but must not count twice either."""
    game = await game_in_play(driver, alice, bob)
    shooter, hit = await shoot(driver, game.id, hit=True)
    before = await stored_game(driver, game.id)
    seq = driver.server.last_seq

    await driver.dm(shooter, hit.lower())

    assert [s.content for s in seen_by(driver, shooter, seq)] == [
        f"You have already shot at {hit}; pick another cell."
    ]
    after = await stored_game(driver, game.id)
    assert (after.ply, after.state) == (before.ply, before.state)
    assert in_channel_since(driver, seq) == []


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        pytest.param("hello", "is not a cell: write a letter and a number", id="words"),
        pytest.param("K5", "is off the board, which runs from A1 to J10.", id="off-board"),
        pytest.param("A1 A4", "The fleets are set; now shoot by naming one cell", id="placement"),
        pytest.param("x" * 700, "That message is too long to be a move.", id="too-long"),
        pytest.param(
            "   ",
            "Send your move as text; `help` shows how moves are written in your game.",
            id="blank",
        ),
    ],
)
async def test_malformed_text_is_refused(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, text: str, sentence: str
) -> None:
    """Anything that is not a shot gets a hint and leaves the game as it was."""
    game = await game_in_play(driver, alice, bob)
    record = await stored_game(driver, game.id)
    shooter = player(driver, record, seat_to_move(record))
    seq = driver.server.last_seq

    await driver.dm(shooter, text)

    (reply,) = seen_by(driver, shooter, seq)
    assert reply.content is not None and sentence in reply.content
    after = await stored_game(driver, game.id)
    assert (after.ply, after.state) == (record.ply, record.state)
    assert in_channel_since(driver, seq) == []


async def test_two_games_need_the_game_number(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """With two games a bare move is ambiguous; ``#<id>`` routes it to one game only."""
    first = await game_in_play(driver, alice, bob)
    second = await game_in_play(driver, alice, carol)
    assert (first.id, second.id) == (1, 2)
    seq = driver.server.last_seq

    await driver.dm(alice, "B5")

    assert [s.content for s in seen_by(driver, alice, seq)] == [
        "You are in several games: #1 (Sea Battle), #2 (Sea Battle). "
        "Say which: write the game number first, like `#1` followed by your move."
    ]
    assert (await stored_game(driver, 1)).ply == first.ply
    assert (await stored_game(driver, 2)).ply == second.ply

    record = await give_turn_to(driver, 2, alice)
    one_before = await stored_game(driver, 1)
    water = open_water(record, 1)[0]
    await driver.dm(alice, f"#2 {water}")

    assert driver.dms_to(alice)[-1].content.startswith(f"**Sea Battle #2**\n{water}: miss.")
    assert (await stored_log(driver, 2))[-1].text == water
    assert (await stored_game(driver, 1)).state == one_before.state
    assert driver.dms_to(carol)[-1].content.startswith("**Sea Battle #2**\nYour opponent shot")

    ask = await driver.slash(alice, "board")
    assert ask.ephemeral and ask.content is not None
    assert ask.content.startswith("You are in several games: #1 (Sea Battle), #2 (Sea Battle).")
    await give_turn_to(driver, 1, alice)
    suggestions = await driver.autocomplete(alice, "move", focused="text", guild=False, text="")
    assert suggestions and all(c["value"].startswith(("#1 ", "#2 ")) for c in suggestions)
    only_two = await driver.autocomplete(alice, "move", focused="text", guild=False, text="#1 B")
    assert only_two and all(c["value"].startswith("#1 B") for c in only_two)
    games = await driver.autocomplete(alice, "board", focused="game", game="")
    assert games == [
        {"name": "#1 Sea Battle", "value": 1},
        {"name": "#2 Sea Battle", "value": 2},
    ]

    await driver.dm(alice, "#7 B5")
    assert driver.dms_to(alice)[-1].content == "You are not playing in game #7."


async def test_dm_from_a_stranger_gets_a_sentence(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """Someone without a game who DMs the bot is told how to start one, and nothing else."""
    await game_in_play(driver, alice, bob)
    seq = driver.server.last_seq

    await driver.dm(carol, "B5")

    assert [s.content for s in seen_by(driver, carol, seq)] == [NO_GAME]
    assert in_channel_since(driver, seq) == []
    assert seen_by(driver, alice, seq) == [] and seen_by(driver, bob, seq) == []


async def test_closed_dms_mid_game_move_the_news_to_the_channel(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """A player who closes DMs mid-game is pinged in the channel and can use ``/board``."""
    game = await game_in_play(driver, alice, bob)
    await give_turn_to(driver, game.id, alice)
    driver.close_dms(bob)
    seq = driver.server.last_seq

    _, water = await shoot(driver, game.id, hit=False)

    notes = [s for s in in_channel_since(driver, seq) if s.kind == "message"]
    (note,) = notes
    assert note.content == (
        f"{bob.mention}, I cannot send you your board for **Sea Battle #1**: allow direct "
        "messages from this server's members, then use `/board`."
    )
    assert note.mentioned_user_ids == [bob.id]
    assert (await stored_log(driver, game.id))[-1].text == water

    board = await driver.slash(bob, "board")
    assert board.ephemeral and board.content is not None
    assert board.content == "**Sea Battle #1**\nYour move."
    assert board.original is not None
    assert png_of(driver, board.original.id) == render_for(await stored_game(driver), 1)


# -- the end ----------------------------------------------------------------------------------


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
        state = state_of(record)
        seat = seat_to_move(record)
        shot = rng.choice(list(SEA.legal_actions(state, seat)))
        await driver.dm(player(driver, record, seat), str(shot))
        record = await stored_game(driver, game.id)
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

    assert result.ephemeral
    assert result.content == "**Sea Battle #1**\nYou resigned. The game is over.\nYou lost."
    record = await stored_game(driver, game.id)
    assert result.original is not None
    assert png_of(driver, result.original.id) == render_for(record, 0)
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
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=False)
    before = await stored_game(driver, game.id)
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
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=False)
    record = await stored_game(driver, game.id)
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
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=True)
    record = await stored_game(driver, game.id)
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
        f"**#1 Sea Battle** · {alice.mention} vs {bob.mention} in <#{driver.channel_id}> · "
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
    assert text.endswith(
        "`classic`, `corners`, `large`, `milton-bradley`, `16x16`, `18x18`, `dutchman`."
    )

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
