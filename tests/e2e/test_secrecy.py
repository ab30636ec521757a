"""Nothing the bot process sends or logs during a whole game names a hidden cell or the token.

The bot runs as ``python -m bot``; the test reads every message, embed, button and
attachment name that reached the loopback Discord, and every line the process logged,
after every move, against what each reader may know at that moment.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.storage import GameStatus
from tests.cogs.test_secrecy import PLACEMENTS, assert_names_only_known_cells, cells_in, names
from tests.support.cog_helpers import ship_cells, state_of
from tests.support.discord import Sent
from tests.support.e2e_world import TOKEN, World, running_bot


def readable(sent: Sent) -> str:
    """Every text of a record a person could read, buttons and file names included."""
    return json.dumps(
        {
            "content": sent.content,
            "embeds": sent.embeds,
            "components": sent.components,
            "files": [name for name, _ in sent.files],
        },
        ensure_ascii=False,
    )


async def test_no_message_button_or_log_line_names_a_secret_cell_or_the_token(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path) as world:
        await _play_and_audit(world)
        await world.bot.stop()
        lines = world.bot.lines
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert not any(TOKEN in line for line in lines)
    assert any(r.get("game_id") == 1 and "ply" in r["message"] for r in records)
    for record in records:
        assert not cells_in(record["message"]), f"a log line names a cell: {record}"
        if re.match(r"game \d+:", record["message"]):
            assert record["message"].startswith(f"game {record['game_id']}:"), record
        assert record["level"] not in ("ERROR", "CRITICAL"), record


async def _play_and_audit(world: World) -> None:
    driver = world.driver
    users = {0: world.alice, 1: world.bob}
    await world.accept(world.bob, await world.challenge(world.alice, world.bob))
    checked = len(driver.server.sent)

    async def audit() -> None:
        nonlocal checked
        state = state_of(await world.game())
        for sent in driver.server.sent[checked:]:
            text = readable(sent)
            assert TOKEN not in json.dumps(sent.payload)
            for custom_id in sent.custom_ids:
                assert not cells_in(custom_id), custom_id
            assert_names_only_known_cells(driver, users, state, sent, text)
        checked = len(driver.server.sent)

    for seat, moves in PLACEMENTS.items():
        for move in [*moves, "ready"]:
            await driver.dm(users[seat], move)
            await audit()

    record = await world.game()
    misses = 0
    while record.status is GameStatus.ACTIVE:
        state = state_of(record)
        assert state.turn is not None
        seat = state.turn
        fired = names(state.shots[seat])
        if misses < 6:  # some water first, so both players shoot
            water = [
                c for c in _all_cells() if c not in fired and c not in ship_cells(record, 1 - seat)
            ]
            target, misses = water[0], misses + 1
        else:
            target = next(c for c in ship_cells(record, 1 - seat) if c not in fired)
        await driver.dm(users[seat], target)
        await audit()
        record = await world.game()


def _all_cells() -> list[str]:
    return [f"{column}{row}" for row in range(1, 11) for column in "ABCDEFGHIJ"]
