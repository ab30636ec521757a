"""``python -m bot``: start the referee bot (``--sync-global`` also publishes the commands)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import signal
import sys
from dataclasses import replace

import aiohttp
import discord
import yarl

from bot import logs
from bot.client import RefereeBot, build_bot, run_worker
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
    parser.add_argument(
        "--worker",
        action="store_true",
        help="play moves queued by the gateway processes, without a gateway connection "
        "(the same as ROLE=worker; needs DATABASE_URL)",
    )
    options = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
        if options.worker:
            settings = replace(settings, role="worker")
            if settings.database_url is None:
                raise SettingsError("--worker needs DATABASE_URL: workers share the move queue.")
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
        if settings.role == "worker":
            asyncio.run(_work(bot, settings.token))
        else:
            asyncio.run(_serve(bot, settings.token))
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass  # stopped by SIGINT or SIGTERM, cleanly
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
    collector: a full collection walks every object it tracks on the event loop, and that
    walk was a large part of the longest stall (docs/performance/scale.md)."""
    gc.collect()
    gc.freeze()


async def _serve(bot: RefereeBot, token: str) -> None:
    """Serve until SIGINT or SIGTERM, then stop cleanly (as ``Client.run`` does for Ctrl-C
    alone): a service manager's SIGTERM closes the gateway and the database too, and what
    is left to deliver stays stored for the next start."""
    serving = asyncio.current_task()
    assert serving is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, serving.cancel)
    async with bot:
        await bot.start(token)


async def _work(bot: RefereeBot, token: str) -> None:
    """Run a worker until SIGTERM or SIGINT, then stop it cleanly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await run_worker(bot, token, stop)


if __name__ == "__main__":
    raise SystemExit(main())
