"""A command as a player's Discord app still has it from before an update of the bot.

Discord apps keep the commands they loaded for a while, so after an update a player may
run a command the bot no longer has, or one whose options changed. That is no fault of
the bot's: the player is told what to do in a sentence, and the operator's log gets a
line, not a traceback.
"""

from __future__ import annotations

import logging

import pytest

from cogs.replies import OLD_COMMAND
from tests.support.discord import DiscordDriver, FakeUser
from tests.support.discord.accounts import Where


async def run_as_sent(driver: DiscordDriver, user: FakeUser, data: dict[str, object]) -> str:
    """Send a command interaction with ``data`` as a Discord app would; the answer."""
    where = Where(driver.guilds[0], driver.channel_id)
    result = await driver._interact(2, user, where, data)
    assert result.ephemeral and result.content is not None
    return result.content


@pytest.mark.parametrize(
    "data",
    [
        {"id": "1", "name": "duel", "type": 1},  # a command the bot no longer has
        {"id": "2", "name": "play", "type": 1},  # its required option missing
    ],
)
async def test_an_old_command_gets_a_sentence_and_no_traceback(
    driver: DiscordDriver,
    alice: FakeUser,
    data: dict[str, object],
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert await run_as_sent(driver, alice, data) == OLD_COMMAND
    assert driver.take_errors() == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
