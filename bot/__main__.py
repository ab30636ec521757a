"""``python -m bot``: start the referee bot (``--sync-global`` also publishes the commands)."""

from __future__ import annotations

import argparse
import gc
import sys

import aiohttp
import discord
import yarl

from bot import logs
from bot.client import build_bot
from bot.settings import Settings, SettingsError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Start the hidden-referee Discord bot."
    )
    parser.add_argument(
        "--sync-global",
        action="store_true",
        help="publish the slash commands to every server (needed once, and after a command "
        "changes; Discord may take up to an hour to show them)",
    )
    options = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    logs.setup(settings.log_level, secret=settings.token)
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        # discord.py connects here first and after an invalidated session; Discord's READY
        # names the URL to resume on, which a proxy rewrites to itself.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    bot = build_bot(settings, sync_global=options.sync_global)
    settle_memory()
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("error: Discord refused the token: check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: Discord asks for a privileged intent this bot never uses.", file=sys.stderr)
        return 2
    except aiohttp.ClientConnectionError as error:
        print(f"error: cannot reach Discord ({error}).", file=sys.stderr)
        return 1
    return 0


def settle_memory() -> None:
    """Set what was built at start (modules, classes, caches) aside from the garbage
    collector: a full collection walks every object it tracks on the event loop, and
    measured with 10,000 live games (``benchmarks/scale.py``) that walk over everything
    loaded at start took a third of the longest stall."""
    gc.collect()
    gc.freeze()


if __name__ == "__main__":
    raise SystemExit(main())
