"""Settings from the environment and an optional ``.env`` file (see ``.env.example``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from bot.timekeeping import HOUR, Deadlines

DEFAULT_DATABASE = Path("data") / "referee.sqlite3"

ROLES = {
    "all": "receive moves on the gateway and play them (the default; the only role on SQLite)",
    "gateway": "receive moves on the gateway and queue them for the workers",
    "worker": "play queued moves, render and deliver; no gateway connection",
}


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path = DEFAULT_DATABASE
    database_url: str | None = None
    """A ``postgresql://`` URL: the shared store of several processes, instead of the file."""
    shard_count: int | None = None
    """How many gateway shards the whole bot runs on; None: one unsharded connection."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process serves (of ``shard_count``); None: all of them."""
    dev_guild_id: int | None = None
    """Sync slash commands to this one server at start (instant), for development."""
    log_level: str = "INFO"
    api_base: str | None = None
    """Discord's REST base URL, for a proxy in front of Discord or a local stand-in."""
    gateway_url: str | None = None
    """Discord's gateway websocket URL, for a proxy in front of Discord or a local stand-in."""
    proxy: str | None = None
    """An HTTP proxy every connection to Discord goes through (REST and gateway)."""
    deadlines: Deadlines = field(default_factory=Deadlines)
    """How long players and challenges may wait."""
    role: str = "all"
    """What this process does (``ROLES``): everything, or on a shared database either the
    gateway's half (receive and queue moves) or a worker's (play queued moves)."""

    @property
    def queues_moves(self) -> bool:
        """Whether moves this process receives go to the move queue for the workers."""
        return self.role == "gateway"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the settings; a ``.env`` file in the working directory fills in gaps."""
        if environ is None:
            load_dotenv()
            environ = os.environ
        token = environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and put the bot's token there."
            )
        guild = environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        role = environ.get("ROLE", "").strip().lower() or "all"
        if role not in ROLES:
            raise SettingsError(f"ROLE must be all, gateway or worker, not {role!r}.")
        database_url = _url(
            environ,
            "DATABASE_URL",
            ("postgresql://", "postgres://"),
            "be a postgresql:// URL (or unset, for the SQLite file in DATABASE_PATH)",
            secret=True,
        )
        if role != "all" and database_url is None:
            raise SettingsError(
                f"ROLE={role} needs DATABASE_URL: gateways and workers share the move "
                "queue in PostgreSQL."
            )
        return cls(
            token=token,
            role=role,
            database_path=Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
            database_url=database_url,
            **_shards(environ.get("SHARD_COUNT", ""), environ.get("SHARD_IDS", "")),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            api_base=environ.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=_url(
                environ,
                "DISCORD_GATEWAY_URL",
                ("ws://", "wss://"),
                "start with wss:// (or ws:// for a local proxy)",
            ),
            proxy=_url(
                environ, "DISCORD_PROXY", ("http://", "https://"), "be an http:// proxy URL"
            ),
            deadlines=Deadlines(
                remind_after=_hours(environ, "REMIND_AFTER_HOURS", Deadlines.remind_after),
                forfeit_after=_hours(environ, "FORFEIT_AFTER_HOURS", Deadlines.forfeit_after),
                challenge_expiry=_hours(
                    environ, "CHALLENGE_EXPIRY_HOURS", Deadlines.challenge_expiry
                ),
            ),
        )


def _url(
    environ: Mapping[str, str], name: str, schemes: tuple[str, ...], rule: str, secret: bool = False
) -> str | None:
    """A URL setting, or None where it is unset. One in none of ``schemes`` stops the bot
    with a sentence saying what ``name`` must be: a typo should stop it at the start, not
    hang it later. A ``secret`` URL (the database's may hold a password) is not repeated
    in that sentence, only its scheme."""
    url = environ.get(name, "").strip()
    if not url:
        return None
    if not url.startswith(schemes):
        shown = f"one starting {url.split(':', 1)[0]!r}" if secret else repr(url)
        raise SettingsError(f"{name} must {rule}, not {shown}.")
    return url


def _shards(count_text: str, ids_text: str) -> dict[str, Any]:
    """``SHARD_COUNT`` (the bot's shards in all) and ``SHARD_IDS`` (this process's, e.g. 0,1)."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT, the number of shards in all.")
        return {}
    if not count_text.isdigit() or int(count_text) < 1:
        raise SettingsError(f"SHARD_COUNT must be a whole number of shards, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return {"shard_count": count}
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isdigit() and int(part) < count for part in parts):
        raise SettingsError(
            f"SHARD_IDS must list shard numbers from 0 to {count - 1}, like 0,1; not {ids_text!r}."
        )
    return {"shard_count": count, "shard_ids": tuple(sorted({int(part) for part in parts}))}


def _hours(environ: Mapping[str, str], name: str, default: float) -> float:
    """A duration setting, given in hours, as seconds."""
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not 0 < hours < 24 * 365:
        raise SettingsError(f"{name} must be a number of hours, like 24 or 0.5, not {text!r}.")
    return hours * HOUR
