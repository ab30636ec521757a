"""Nothing the bot sends or logs during a whole game names a cell a reader may not know.

The engine's views are proven leak-free by the property tests; this test watches the
other way out: every message text, every button's custom_id, every log line, from the
first placement to the last shot, played through discord.py against the loopback Discord.
"""

from __future__ import annotations

import logging
import random
import re

import pytest

from bot.games import ENGINES
from bot.games.grid import Cell, cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.storage import GameStatus
from tests.support.cog_helpers import shoot_at_random, start_game, state_of, stored_game
from tests.support.discord import DiscordDriver, FakeUser, Sent

SEA = ENGINES["seabattle"]
CELL = re.compile(r"\b([A-J](?:10|[1-9]))\b")
PLACEMENTS = {  # legal classic fleets on disjoint cells, placed by hand so texts name cells
    0: ["A1 A4", "C1 C3", "E1 E3", "G1 G2", "I1 I2", "A6 A7", "C6", "E6", "G6", "I6"],
    1: ["B10 E10", "J1 J3", "J5 J7", "A8 B8", "D8 E8", "G8 H8", "H5", "E5", "H10", "C5"],
}


EXAMPLES = re.compile(r"`(?:A1 A4|J10|B5|remove A1|#\d+ B5|#<id> B5)`")
"""The fixed examples of the notation the bot's help texts quote; they name no real ship."""


def cells_in(text: str) -> set[str]:
    return set(CELL.findall(EXAMPLES.sub("", text)))


def names(cells: set[Cell]) -> set[str]:
    return {cell_name(cell) for cell in cells}


def assert_names_only_known_cells(
    driver: DiscordDriver, users: dict[int, FakeUser], state: SeaBattleState, sent: Sent, text: str
) -> None:
    """The text of what was sent names, in the channel, only cells already shot (every shot
    is public, rule 3); to a player, those and the cells of their own fleet."""
    shot = names(state.shots[0] | state.shots[1])
    own = {
        seat: names({c for ship in state.sides[seat].ships for c in ship.cells}) for seat in (0, 1)
    }
    if sent.channel_id == driver.channel_id:
        assert cells_in(text) <= shot, f"the channel was told: {text}"
    for seat, user in users.items():
        if sent.channel_id == driver.dm_channel_id(user):
            told = cells_in(text) - shot - own[seat]
            assert not told, f"seat {seat} was told {told}: {text}"


async def test_no_message_button_or_log_line_names_a_secret_cell(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="referee")
    game = await start_game(driver, alice, bob)
    users = {0: alice, 1: bob}
    checked = len(driver.server.sent)  # the challenge and the first DMs come before any fleet

    def audit() -> None:
        """Everything sent since the last audit, against what each reader may know now.

        A coordinate does not say which field it lies on, so the test is what a text may
        name at all: the channel, only cells already shot (every shot is public, rule 3);
        a player, those and the cells of their own fleet.
        """
        nonlocal checked
        for sent in driver.server.sent[checked:]:
            text = sent.content or ""
            for custom_id in re.findall(r'"custom_id":\s*"([^"]*)"', repr(sent.components)):
                assert not cells_in(custom_id), custom_id
            assert_names_only_known_cells(driver, users, state, sent, text)
        checked = len(driver.server.sent)

    for seat, moves in PLACEMENTS.items():
        for move in [*moves, "ready"]:
            await driver.dm(users[seat], f"#{game.id} {move}")
            state = state_of(await stored_game(driver, game.id))
            audit()

    rng = random.Random(7)
    record = await stored_game(driver, game.id)
    while record.status is GameStatus.ACTIVE:
        _, record = await shoot_at_random(driver, record, rng)
        state = state_of(record)
        if record.status is GameStatus.ACTIVE:
            audit()

    assert state.phase.value == "finished" and checked > 40
    logged = [record.getMessage() for record in caplog.records]
    assert any(f"game {game.id}: ply" in line for line in logged)  # moves are logged...
    for line in logged:
        assert not cells_in(line), f"a log line names a cell: {line}"  # ...but never a cell
