"""Loopback Discord for tests: Discord's REST API and gateway, and drivers playing its users.

:class:`DiscordDriver` drives a discord.py client in the test's own process;
:class:`RemoteDriver` with :class:`BotProcess` drives the bot as ``python -m bot`` runs it.

Typical use::

    async with DiscordDriver.start(make_bot()) as driver:
        guild = driver.add_guild()
        alice = driver.add_user("alice")
        result = await driver.slash(alice, "play", board="river")
        assert result.response.content == "..."
        assert not driver.server.unhandled
"""

from .accounts import DEFAULT_APP_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS, FakeGuild, FakeUser
from .driver import DiscordDriver
from .gateway import FakeGateway
from .rate_limits import DISCORD_LIMITS, Limit, RandomFaults, RateLimits
from .remote import BotProcess, RemoteDriver
from .results import InteractionResult
from .server import (
    ChannelInfo,
    FakeDiscord,
    FiredFailure,
    InjectedFailure,
    InteractionState,
    RequestRecord,
    Sent,
    StoredAttachment,
    StoredMessage,
)
from .settling import BotError, CapturedError, SettleTimeout

__all__ = [
    "DEFAULT_APP_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DISCORD_LIMITS",
    "BotError",
    "BotProcess",
    "CapturedError",
    "ChannelInfo",
    "DiscordDriver",
    "FakeDiscord",
    "FakeGateway",
    "FakeGuild",
    "FakeUser",
    "FiredFailure",
    "InjectedFailure",
    "InteractionResult",
    "InteractionState",
    "Limit",
    "RandomFaults",
    "RateLimits",
    "RemoteDriver",
    "RequestRecord",
    "Sent",
    "SettleTimeout",
    "StoredAttachment",
    "StoredMessage",
]
