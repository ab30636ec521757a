"""Shared steps for the cog tests: challenge, accept, set up and shoot through Discord.

Every step goes through the loopback Discord (slash commands, button clicks, DMs) so the
tests exercise discord.py's command tree, dynamic buttons and the bot's cogs exactly as a
player would. What a player cannot see, like where the enemy ships lie, is read from the
bot's own database, because a test needs to aim at a known hit or a known miss without
reaching into the bot's memory.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

from PIL import Image

from bot.fairness import OPENED, SEALED
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.grid import cell_name, parse_cell
from bot.games.seabattle.seeing import field_of
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from bot.storage import GameRecord, LogEntry, SqliteRepository
from tests.support.discord import DiscordDriver, FakeUser, InteractionResult, Sent, StoredMessage

SEA = ENGINES["seabattle"]
"""The Sea Battle engine, used to read stored states exactly as the bot does."""

NO_GAME = "You have no game running. Start one with `/play` in a server."
"""What the bot tells someone who sends a move with no game running."""

KNOWN_FLEET = ("A1 A4", "C1 C3", "E1 E3", "G1 G2", "I1 I2", "A6 A7", "C6", "E6", "G6", "I6")
"""A legal classic fleet (no ship touches another), placed ship by ship by text."""

KNOWN_FLEET_CELLS = frozenset(
    {"A1", "A2", "A3", "A4", "C1", "C2", "C3", "E1", "E2", "E3"}
    | {"G1", "G2", "I1", "I2", "A6", "A7", "C6", "E6", "G6", "I6"}
)
"""The 20 cells :data:`KNOWN_FLEET` occupies, for aiming at known hits and misses."""


def repository(driver: DiscordDriver) -> SqliteRepository:
    """The bot's own repository: tests read the database through the connection it uses."""
    return driver.client.repository  # type: ignore[attr-defined, no-any-return]


async def stored_game(driver: DiscordDriver, game_id: int = 1) -> GameRecord:
    """The game as the database holds it now (fails loudly if it does not exist)."""
    record = await repository(driver).get_game(game_id)
    assert record is not None, f"game #{game_id} is not in the database"
    return record


async def stored_log(driver: DiscordDriver, game_id: int = 1) -> list[LogEntry]:
    """The game's append-only action log."""
    return await repository(driver).log(game_id)


def state_of(record: GameRecord) -> SeaBattleState:
    """The stored state decoded (and re-validated) by the engine."""
    state = SEA.from_json(record.state)
    assert isinstance(state, SeaBattleState)
    return state


def ship_cells(record: GameRecord, seat: int) -> list[str]:
    """Cells of ``seat``'s ships, largest ship first: known hits for the other seat."""
    ships = sorted(state_of(record).sides[seat].ships, key=lambda ship: -len(ship.cells))
    return [cell_name(cell) for ship in ships for cell in ship.cells]


def single_cell_ships(record: GameRecord, seat: int) -> list[str]:
    """Cells of ``seat``'s one-cell ships: a single shot there sinks a ship."""
    return [
        cell_name(ship.cells[0])
        for ship in state_of(record).sides[seat].ships
        if len(ship.cells) == 1
    ]


def open_water(record: GameRecord, seat: int) -> list[str]:
    """Cells of ``seat``'s field without a ship and not shot yet: known misses. Cells the
    shooter's board already shows empty are left out: a shot there asks for ``confirm``."""
    state = state_of(record)
    size = state.rules.size
    taken = {cell for ship in state.sides[seat].ships for cell in ship.cells}
    fired = state.shots[1 - seat]
    shown = None if state.phase is Phase.SETUP else field_of(state, seat, 1 - seat)
    return [
        cell_name((column, row))
        for row in range(size)
        for column in range(size)
        if (column, row) not in taken
        and (column, row) not in fired
        and (shown is None or shown.mark((column, row)) is not Mark.CLEAR)
    ]


def seat_to_move(record: GameRecord) -> int:
    """Whose shot it is (the game must be in play)."""
    state = state_of(record)
    assert state.phase is Phase.PLAY and state.turn is not None, "the game is not in play"
    return state.turn


def player(driver: DiscordDriver, record: GameRecord, seat: int) -> FakeUser:
    """The fake account sitting in ``seat``."""
    return driver.users[record.seats[seat]]


def cell(text: str) -> tuple[int, int]:
    """A cell name as engine coordinates on the classic 10x10 field."""
    return parse_cell(text, 10, 10)


# -- what users saw ---------------------------------------------------------------------------


def channel_messages(
    driver: DiscordDriver, channel_id: int | None = None, *, seals: bool = False
) -> list[StoredMessage]:
    """The bot's messages everyone can see in a server channel, oldest first.

    The fairness seals (posted when play begins and opened at the end) are left out
    unless ``seals``: tests about a game's live message and its end need not count them.
    """
    return [
        m
        for m in driver.server.messages_in(channel_id or driver.channel_id, include_ephemeral=False)
        if m.author_id == driver.server.bot_id and (seals or not is_seal(m.content))
    ]


def names(content: str | None, text: str) -> bool:
    """Whether a message names ``text`` as a whole word (``H1`` is not named by ``H10``).

    An empty ``text`` is named by every message.
    """
    if not text:
        return True
    return re.search(rf"(?<!\w){re.escape(text)}(?!\w)", content or "") is not None


def is_seal(content: str | None) -> bool:
    """Whether a channel message is a game's seals or their opening."""
    return any(mark in (content or "") for mark in (SEALED, OPENED))


def sent_since(driver: DiscordDriver, seq: int) -> list[Sent]:
    """Everything the bot did on Discord after sequence number ``seq``."""
    return [s for s in driver.server.sent if s.seq > seq]


def seen_by(driver: DiscordDriver, user: FakeUser, seq: int) -> list[Sent]:
    """What ``user`` was shown (DMs and answers to their interactions) after ``seq``."""
    return [s for s in driver.responses_to(user) if s.seq > seq]


def in_channel_since(driver: DiscordDriver, seq: int, channel_id: int | None = None) -> list[Sent]:
    """Bot activity (posts, edits, answers) in a server channel after ``seq``."""
    target = channel_id or driver.channel_id
    return [s for s in sent_since(driver, seq) if s.channel_id == target]


def png_of(driver: DiscordDriver, message_id: int) -> bytes:
    """The single PNG attached to a message (fails if there is not exactly one)."""
    (png,) = driver.pngs(message_id)
    return png


def open_png(data: bytes) -> tuple[int, int]:
    """Prove ``data`` is a PNG that Pillow can decode completely; return its size."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.size


def render_for(record: GameRecord, seat: int | None) -> bytes:
    """The board image ``seat`` (None: the public) should be shown for a stored game.

    The renderer promises identical bytes for identical views and names, so comparing an
    attachment with this proves which audience's view, and which moment of the game, it
    shows (with the players' names as the game keeps them).
    """
    from bot.delivery.presenter import names_of
    from renderers import seabattle

    return seabattle.render(SEA.view(state_of(record), seat), names_of(record))


def plant_button(
    driver: DiscordDriver, channel_id: int, custom_id: str, label: str = "Button"
) -> StoredMessage:
    """Put a bot message carrying one button into a channel, as if sent before a restart.

    Discord keeps old messages and their buttons; a fresh loopback server has none, so this
    recreates one through the server's message store to click its custom_id.
    """
    server = driver.server
    channel = server.channels[channel_id]
    message = StoredMessage(
        id=server.next_id(),
        channel_id=channel_id,
        guild_id=channel.guild_id,
        author=server.bot_user,
        content="(posted before the restart)",
        components=[
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": label, "custom_id": custom_id}],
            }
        ],
    )
    server.messages[message.id] = message
    return message


# -- steps ------------------------------------------------------------------------------------


async def challenge(
    driver: DiscordDriver, challenger: FakeUser, opponent: FakeUser
) -> InteractionResult:
    """``challenger`` runs ``/play game:seabattle opponent:@opponent`` in the channel."""
    return await driver.slash(challenger, "play", game="seabattle", opponent=opponent)


async def challenge_message(
    driver: DiscordDriver, challenger: FakeUser, opponent: FakeUser
) -> StoredMessage:
    """Post a challenge and return its channel message (with Accept and Decline)."""
    result = await challenge(driver, challenger, opponent)
    message = result.original
    assert message is not None and not message.ephemeral, result.content
    return message


async def accept(driver: DiscordDriver, opponent: FakeUser, message: StoredMessage) -> None:
    """``opponent`` presses Accept on a challenge message."""
    accept_id = next(c for c in message.custom_ids if c.startswith("challenge:accept:"))
    await driver.click(opponent, message.id, accept_id)


async def resigned_with_announcement(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> tuple[GameRecord, StoredMessage]:
    """A game in play that Bob resigns, and the channel's one announcement of its end."""
    game = await game_in_play(driver, alice, bob)
    await resign(driver, bob)
    (announcement,) = [m for m in channel_messages(driver) if m.content.startswith("🏁")]
    return game, announcement


async def accepted_play(
    driver: DiscordDriver, challenger: FakeUser, opponent: FakeUser, **options: Any
) -> StoredMessage:
    """The challenger's ``/play`` against the opponent with ``options`` (game, variant, option
    words), posted in the channel and accepted; returns the challenge message."""
    result = await driver.slash(challenger, "play", options={**options, "opponent": opponent})
    message = result.original
    assert message is not None and not message.ephemeral, result.content
    await accept(driver, opponent, message)
    return message


async def start_game(driver: DiscordDriver, challenger: FakeUser, opponent: FakeUser) -> GameRecord:
    """Challenge and accept; the game is then in setup, both fleets still to place."""
    message = await challenge_message(driver, challenger, opponent)
    await accept(driver, opponent, message)
    games = await repository(driver).active_games_of(challenger.id)
    created = [g for g in games if opponent.id in g.seats]
    assert len(created) == 1, f"expected one new game, found {created}"
    return created[-1]


async def random_ready(driver: DiscordDriver, game_id: int, *users: FakeUser) -> None:
    """Each user deals a random fleet and confirms it by DM, prefixing the game number."""
    for user in users:
        await driver.dm(user, f"#{game_id} random")
        await driver.dm(user, f"#{game_id} ready")


async def game_in_play(
    driver: DiscordDriver, challenger: FakeUser, opponent: FakeUser
) -> GameRecord:
    """A game past setup (random fleets confirmed), ready for the first shot."""
    record = await start_game(driver, challenger, opponent)
    await random_ready(driver, record.id, challenger, opponent)
    record = await stored_game(driver, record.id)
    assert state_of(record).phase is Phase.PLAY
    return record


async def accept_offered_draw(driver: DiscordDriver, user: FakeUser, game_id: int) -> None:
    """``user`` finds the draw offered in their last DM, with its button, and accepts it."""
    offered = driver.dms_to(user)[-1]
    assert f"move:{game_id}:draw" in offered.custom_ids
    assert any(
        c.get("label") == "Accept draw"
        for row in offered.components
        for c in row.get("components", [])
    )
    await driver.click(user, offered.id, f"move:{game_id}:draw")


async def shoot_at_random(
    driver: DiscordDriver, record: GameRecord, rng: random.Random
) -> tuple[int, GameRecord]:
    """The seat to move fires a legal shot ``rng`` picks, by DM; returns that seat and the
    game as stored after it."""
    seat = seat_to_move(record)
    shot = rng.choice(list(SEA.legal_actions(state_of(record), seat)))
    await driver.dm(player(driver, record, seat), str(shot))
    return seat, await stored_game(driver, record.id)


async def shoot(driver: DiscordDriver, game_id: int, *, hit: bool) -> tuple[FakeUser, str]:
    """Whoever is to move fires at a known hit or a known miss; returns who and where."""
    record = await stored_game(driver, game_id)
    seat = seat_to_move(record)
    fired = state_of(record).shots[seat]
    if hit:
        target = next(c for c in ship_cells(record, 1 - seat) if cell(c) not in fired)
    else:
        target = open_water(record, 1 - seat)[0]
    shooter = player(driver, record, seat)
    await driver.dm(shooter, f"#{game_id} {target}")
    return shooter, target


async def give_turn_to(driver: DiscordDriver, game_id: int, user: FakeUser) -> GameRecord:
    """Make it ``user``'s shot: if the opponent is to move, the opponent misses once."""
    record = await stored_game(driver, game_id)
    if player(driver, record, seat_to_move(record)) != user:
        await shoot(driver, game_id, hit=False)
        record = await stored_game(driver, game_id)
    assert player(driver, record, seat_to_move(record)) == user
    return record


def live_message(driver: DiscordDriver, record: GameRecord) -> StoredMessage:
    """The game's live channel message, as the database points to it."""
    assert record.public_message_id is not None, "the game has no live message yet"
    return driver.message(record.public_message_id)


async def resign(
    driver: DiscordDriver, user: FakeUser, game_id: int | None = None, *, guild: bool = True
) -> InteractionResult:
    """``user`` runs ``/resign`` and confirms it with the **Resign** button."""
    options = {} if game_id is None else {"game": game_id}
    asked = await driver.slash(user, "resign", guild=guild, **options)
    assert asked.original is not None, asked.content
    (custom_id,) = [c for c in asked.original.custom_ids if c.startswith("resign:")]
    return await driver.click(user, asked.original.id, custom_id)
