"""Start-up: settings, intents, and when slash commands are synced."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.client import RefereeBot, intents
from bot.settings import DEFAULT_DATABASE, Settings, SettingsError
from tests.conftest import make_bot
from tests.discord_stub import DiscordDriver

COMMANDS = {
    *("play", "move", "board", "resign", "abort", "games", "rules"),
    *("leaderboard", "profile", "history", "game"),
}


def test_settings_need_a_token_and_explain_how() -> None:
    with pytest.raises(SettingsError, match=r"DISCORD_TOKEN.*\.env"):
        Settings.from_env({})


def test_settings_defaults_and_values() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": " abc "})
    assert settings.token == "abc"
    assert settings.database_path == DEFAULT_DATABASE
    assert settings.dev_guild_id is None and settings.log_level == "INFO"
    custom = Settings.from_env(
        {
            "DISCORD_TOKEN": "abc",
            "DATABASE_PATH": "/tmp/x.sqlite3",
            "DEV_GUILD_ID": "123",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
        }
    )
    assert custom.database_path == Path("/tmp/x.sqlite3")
    assert custom.dev_guild_id == 123 and custom.log_level == "DEBUG"
    assert custom.api_base == "http://127.0.0.1:9/api/v10"


@pytest.mark.parametrize(("name", "value"), [("DEV_GUILD_ID", "my-server"), ("LOG_LEVEL", "LOUD")])
def test_malformed_settings_are_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": "abc", name: value})


def test_no_privileged_intent_is_needed() -> None:
    chosen = intents()
    assert chosen.guilds and chosen.dm_messages
    assert not (chosen.members or chosen.presences or chosen.message_content)


async def test_a_plain_start_syncs_nothing(database: Path) -> None:
    async with DiscordDriver.start(make_bot(database)) as driver:
        assert not any(driver.server.commands.values())


async def test_dev_guild_gets_the_commands_at_start(database: Path) -> None:
    bot = make_bot(database)
    driver = DiscordDriver(bot)
    guild = driver.add_guild("Workshop")
    bot.settings = replace(bot.settings, dev_guild_id=guild.id)
    async with driver:
        synced = {command["name"] for command in driver.server.commands[guild.id]}
        assert synced == COMMANDS
        assert not driver.server.commands.get(None)


async def test_sync_global_publishes_every_command(database: Path) -> None:
    bot = RefereeBot(Settings(token="t", database_path=database), sync_global=True)
    async with DiscordDriver.start(bot) as driver:
        synced = {command["name"]: command for command in driver.server.commands[None]}
        assert set(synced) == COMMANDS
        server_only = {name for name, c in synced.items() if c["dm_permission"] is False}
        assert server_only == {"play", "games"}  # the rest also work in DMs with the bot
        assert discord.AppCommandOptionType.user.value in {
            option["type"] for option in synced["play"]["options"]
        }
