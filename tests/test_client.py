"""Start-up: settings, intents, and when slash commands are synced."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.client import RefereeBot, ShardedRefereeBot, build_bot, intents
from bot.settings import DEFAULT_DATABASE, Settings, SettingsError
from bot.timekeeping import HOUR, Deadlines
from tests.conftest import make_bot
from tests.support.discord import DiscordDriver

COMMANDS = {
    *("play", "move", "board", "resign", "abort", "games", "rules"),
    *("leaderboard", "profile", "history", "game", "replay", "export"),
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
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
        }
    )
    assert custom.database_path == Path("/tmp/x.sqlite3")
    assert custom.dev_guild_id == 123 and custom.log_level == "DEBUG"
    assert custom.api_base == "http://127.0.0.1:9/api/v10"
    assert custom.gateway_url == "ws://127.0.0.1:9/gateway"
    assert settings.gateway_url is None


def test_waiting_times_default_to_a_day_and_are_set_in_hours() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "abc"}).deadlines == Deadlines(
        remind_after=24 * HOUR, forfeit_after=24 * HOUR, challenge_expiry=24 * HOUR
    )
    custom = Settings.from_env(
        {
            "DISCORD_TOKEN": "abc",
            "REMIND_AFTER_HOURS": "12",
            "FORFEIT_AFTER_HOURS": "0.5",
            "CHALLENGE_EXPIRY_HOURS": "72",
        }
    )
    assert custom.deadlines == Deadlines(12 * HOUR, 0.5 * HOUR, 72 * HOUR)


def test_a_proxy_carries_every_connection_to_discord(tmp_path: Path) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc", "DISCORD_PROXY": "http://p:3128"})
    assert settings.proxy == "http://p:3128"
    assert RefereeBot(replace(settings, database_path=tmp_path / "x")).http.proxy == settings.proxy
    with pytest.raises(SettingsError, match="DISCORD_PROXY"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "DISCORD_PROXY": "proxy:3128"})


def test_a_gateway_url_must_be_a_websocket() -> None:
    with pytest.raises(SettingsError, match=r"DISCORD_GATEWAY_URL must start with wss://"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "DISCORD_GATEWAY_URL": "https://x/"})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "my-server"),
        ("LOG_LEVEL", "LOUD"),
        ("REMIND_AFTER_HOURS", "soon"),
        ("FORFEIT_AFTER_HOURS", "-3"),
        ("CHALLENGE_EXPIRY_HOURS", "0"),
    ],
)
def test_malformed_settings_are_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": "abc", name: value})


def test_no_privileged_intent_is_needed() -> None:
    chosen = intents()
    assert chosen.guilds and chosen.dm_messages
    assert not (chosen.members or chosen.presences or chosen.message_content)


async def test_a_first_start_publishes_the_commands_and_a_restart_only_if_they_changed(
    database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "referee.client")
    async with DiscordDriver.start(make_bot(database)) as driver:
        assert {command["name"] for command in driver.server.commands[None]} == COMMANDS
    assert "synced 13 commands globally" in caplog.text and "/play" in caplog.text

    caplog.clear()
    async with DiscordDriver.start(make_bot(database)) as driver:
        assert driver.server.commands.get(None) is None  # a new Discord saw no sync
    assert "commands unchanged since the last sync globally: not synced" in caplog.text

    caplog.clear()
    changed = make_bot(database)

    @changed.tree.command(name="extra", description="A command added since the last start.")
    async def extra(interaction: discord.Interaction) -> None: ...

    async with DiscordDriver.start(changed) as driver:
        assert {command["name"] for command in driver.server.commands[None]} == {
            *COMMANDS,
            "extra",
        }
    assert "synced 14 commands globally" in caplog.text


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


def test_a_postgresql_url_selects_the_shared_store_and_anything_else_is_refused() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "abc"}).database_url is None
    url = "postgresql://referee@db.internal/referee"
    assert (
        Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": f" {url} "}).database_url == url
    )
    with pytest.raises(SettingsError, match=r"DATABASE_URL must be a postgresql:// URL"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": "mysql://x/y"})


def test_a_refused_database_url_is_named_by_its_scheme_alone_as_it_may_hold_a_password() -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": "mysql://root:hunter2@db/x"})
    assert str(refused.value) == (
        "DATABASE_URL must be a postgresql:// URL (or unset, for the SQLite file in "
        "DATABASE_PATH), not one starting 'mysql'."
    )
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"DISCORD_TOKEN": "abc", "DISCORD_PROXY": "proxy:3128"})
    assert str(refused.value) == "DISCORD_PROXY must be an http:// proxy URL, not 'proxy:3128'."


def test_shard_settings_name_the_shards_of_this_process() -> None:
    plain = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert (plain.shard_count, plain.shard_ids) == (None, None)
    every = Settings.from_env({"DISCORD_TOKEN": "abc", "SHARD_COUNT": "4"})
    assert (every.shard_count, every.shard_ids) == (4, None)
    some = Settings.from_env({"DISCORD_TOKEN": "abc", "SHARD_COUNT": "4", "SHARD_IDS": "3, 1,1"})
    assert (some.shard_count, some.shard_ids) == (4, (1, 3))
    for count, ids, message in [
        ("", "0", "SHARD_IDS needs SHARD_COUNT"),
        ("0", "", "SHARD_COUNT must be a whole number"),
        ("two", "", "SHARD_COUNT must be a whole number"),
        ("2", "2", "from 0 to 1"),
        ("2", "0;1", "from 0 to 1"),
    ]:
        with pytest.raises(SettingsError, match=message):
            Settings.from_env({"DISCORD_TOKEN": "abc", "SHARD_COUNT": count, "SHARD_IDS": ids})


def test_the_role_setting_splits_receiving_moves_from_playing_them() -> None:
    plain = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert plain.role == "all" and not plain.queues_moves
    url = "postgresql://referee@db/referee"
    gateway = Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": url, "ROLE": "Gateway"})
    assert gateway.role == "gateway" and gateway.queues_moves
    worker = Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": url, "ROLE": "worker"})
    assert worker.role == "worker" and not worker.queues_moves
    with pytest.raises(SettingsError, match="ROLE=worker needs DATABASE_URL"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "ROLE": "worker"})
    with pytest.raises(SettingsError, match="ROLE must be all, gateway or worker"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": url, "ROLE": "boss"})


def test_a_worker_never_joins_the_gateway_shards(tmp_path: Path) -> None:
    settings = Settings(token="t", database_path=tmp_path / "x", shard_count=4, shard_ids=(0,))
    assert type(build_bot(replace(settings, role="worker"))) is RefereeBot


def test_a_process_with_shards_runs_discord_pys_sharded_client(tmp_path: Path) -> None:
    settings = Settings(token="t", database_path=tmp_path / "x")
    assert type(build_bot(settings)) is RefereeBot
    sharded = build_bot(replace(settings, shard_count=4, shard_ids=(2, 3)))
    assert isinstance(sharded, ShardedRefereeBot) and isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])


def test_a_worker_started_without_a_shared_database_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("ROLE", raising=False)
    assert main(["--worker"]) == 2
    assert "--worker needs DATABASE_URL" in capsys.readouterr().err
