"""Loopback Discord for tests: a fake REST API plus a gateway/user driver for discord.py.

Typical use::

    async with DiscordDriver.start(make_bot()) as driver:
        guild = driver.add_guild()
        alice = driver.add_user("alice")
        result = await driver.slash(alice, "play", board="river")
        assert result.response.content == "..."
        assert not driver.server.unhandled
"""

from .driver import (
    DEFAULT_APP_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    BotError,
    CapturedError,
    DiscordDriver,
    FakeGuild,
    FakeUser,
    InteractionResult,
    SettleTimeout,
)
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

__all__ = [
    "DEFAULT_APP_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "BotError",
    "CapturedError",
    "ChannelInfo",
    "DiscordDriver",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "FiredFailure",
    "InjectedFailure",
    "InteractionResult",
    "InteractionState",
    "RequestRecord",
    "Sent",
    "SettleTimeout",
    "StoredAttachment",
    "StoredMessage",
]
