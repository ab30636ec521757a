"""Shots in a game of Sea Battle, played by DM and by ``/move`` through the real discord.py
client: answers, refusals, two games at once, strangers and closed DMs. Setting up is in
``test_play_setup``, the end of a game in ``test_play_end``.

Sea Battle is a game of hidden information, so beside "does the move work" every test
asks "who learned what": the mover, the opponent, the channel. Enemy positions are read
from the bot's database (never from its memory) to aim at known hits and misses.
"""

from __future__ import annotations

import pytest

from bot.storage import GameRecord
from tests.support.cog_helpers import (
    NO_GAME,
    channel_messages,
    game_in_play,
    give_turn_to,
    in_channel_since,
    open_water,
    player,
    png_of,
    random_ready,
    render_for,
    seat_to_move,
    seen_by,
    ship_cells,
    shoot,
    single_cell_ships,
    start_game,
    state_of,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser, StoredMessage

# -- play -------------------------------------------------------------------------------------


def assert_live_message(
    driver: DiscordDriver, live_id: int | None, record: GameRecord, ending: str
) -> StoredMessage:
    """The channel's one live message ends with ``ending`` and shows the public board."""
    live = driver.message(live_id or 0)
    assert live.content.endswith(ending)
    assert png_of(driver, live.id) == render_for(record, None)
    return live


def assert_miss_told(
    driver: DiscordDriver, record: GameRecord, shooter: FakeUser, other: FakeUser, miss: str
) -> None:
    """Both seats hear of a miss in their own words, each with their own board."""
    seat = record.seats.index(shooter.id)
    assert driver.dms_to(shooter)[-1].content == (
        f"**Sea Battle #1**\n{miss}: miss. Your opponent shoots next.\nYour opponent's move."
    )
    assert driver.dms_to(other)[-1].content == (
        f"**Sea Battle #1**\nYour opponent shot at {miss}: miss. Your turn.\nYour move."
    )
    assert png_of(driver, driver.dms_to(shooter)[-1].id) == render_for(record, seat)
    assert png_of(driver, driver.dms_to(other)[-1].id) == render_for(record, 1 - seat)


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
    assert_miss_told(driver, record, missed_by, other, miss)
    assert_live_message(
        driver,
        live_id,
        record,
        f"{missed_by.mention} fires at {miss}: miss. {other.mention} shoots next.\n"
        f"{other.mention} to move.",
    )

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
    live = assert_live_message(
        driver,
        live_id,
        record,
        f"{other.mention} fires at {boat}: sunk a torpedo boat (1 cell). "
        f"{other.mention} shoots again.\n{other.mention} to move.",
    )
    assert live.custom_ids == ["board:1"]

    channel_activity = in_channel_since(driver, seq)
    assert [(s.kind, s.message_id) for s in channel_activity] == [("edit", live_id)] * 3
    assert len(channel_messages(driver)) == 2
    assert [e.text for e in await stored_log(driver, game.id)][-3:] == [miss, hit, boat]
    assert record.ply == 4 + 3  # random and ready for each seat, then three shots


async def alice_to_fire_at_water(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> tuple[GameRecord, str, int]:
    """A game in play with Alice to shoot, open water for her to miss, and the last event
    seen before her shot."""
    game = await game_in_play(driver, alice, bob)
    record = await give_turn_to(driver, game.id, alice)
    return game, open_water(record, 1)[0], driver.server.last_seq


async def test_move_command_in_dm_shoots_and_answers_in_the_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """``/move`` in the bot's DMs is the same move as typing it, answered in place."""
    game, water, seq = await alice_to_fire_at_water(driver, alice, bob)

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
    game, water, seq = await alice_to_fire_at_water(driver, alice, bob)

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
    """With two games a bare move that both could take is refused, the games named with
    their opponents; ``#<id>`` routes it to one game only."""
    first = await game_in_play(driver, alice, bob)
    second = await game_in_play(driver, alice, carol)
    assert (first.id, second.id) == (1, 2)
    record = await give_turn_to(driver, 2, alice)
    one_before = await give_turn_to(driver, 1, alice)
    seq = driver.server.last_seq

    await driver.dm(alice, "B5")

    listed = "#1 Sea Battle (classic) vs bob, #2 Sea Battle (classic) vs carol"
    assert [s.content for s in seen_by(driver, alice, seq)] == [
        f"You are in several games: {listed}. "
        "Say which: write the game number first, like `#1` followed by your move."
    ]
    assert (await stored_game(driver, 1)).ply == one_before.ply
    assert (await stored_game(driver, 2)).ply == record.ply

    water = open_water(record, 1)[0]
    await driver.dm(alice, f"#2 {water}")

    assert driver.dms_to(alice)[-1].content.startswith(f"**Sea Battle #2**\n{water}: miss.")
    assert (await stored_log(driver, 2))[-1].text == water
    assert (await stored_game(driver, 1)).state == one_before.state
    assert driver.dms_to(carol)[-1].content.startswith("**Sea Battle #2**\nYour opponent shot")

    ask = await driver.slash(alice, "board")
    assert ask.ephemeral and ask.content is not None
    assert ask.content.startswith(f"You are in several games: {listed}.")
    suggestions = await driver.autocomplete(alice, "move", focused="text", guild=False, text="")
    assert suggestions and all(c["value"].startswith("#1 ") for c in suggestions)
    games = await driver.autocomplete(alice, "board", focused="game", game="")
    assert games == [
        {"name": "#1 Sea Battle (classic) vs bob", "value": 1},
        {"name": "#2 Sea Battle (classic) vs carol", "value": 2},
    ]

    await driver.dm(alice, "#7 B5")
    assert driver.dms_to(alice)[-1].content == "You are not playing in game #7."


async def test_a_bare_move_goes_to_the_one_game_that_can_take_it(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """Where only one of a player's games can take a move, as the player sees them (whose
    turn it is, which side is still setting up), the move goes there without ``#<id>``."""
    first = await start_game(driver, alice, bob)
    second = await start_game(driver, alice, carol)
    await driver.dm(alice, "random")
    assert driver.dms_to(alice)[-1].content.startswith("You are in several games: #1 Sea")
    await random_ready(driver, first.id, alice, bob)

    await driver.dm(alice, "random")
    await driver.dm(alice, "ready")
    await random_ready(driver, second.id, carol)

    assert [e.text for e in await stored_log(driver, second.id)][:2] == ["random", "ready"]
    record = await give_turn_to(driver, 1, alice)
    other = await stored_game(driver, 2)
    if player(driver, other, seat_to_move(other)) == alice:
        await driver.dm(alice, f"#2 {open_water(other, 1)[0]}")
        other = await stored_game(driver, 2)
    assert player(driver, other, seat_to_move(other)) == carol
    water = open_water(record, 1)[0]

    await driver.dm(alice, water)

    assert driver.dms_to(alice)[-1].content.startswith(f"**Sea Battle #1**\n{water}: miss.")
    assert (await stored_game(driver, 2)).ply == other.ply


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
