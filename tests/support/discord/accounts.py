"""The accounts and guilds a test creates on the loopback Discord, and what they may do.

:class:`FakeUser` and :class:`FakeGuild` are the test's handles on what the server stores;
the permission sets are what an ordinary member and the bot hold unless a test says
otherwise, since ``interaction.permissions`` and ``app_permissions`` are built from them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import discord

from .models import JSONDict, user_payload

# What the bot itself may do: the usual permissions of an invite link for a game bot.
DEFAULT_APP_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    add_reactions=True,
    attach_files=True,
    embed_links=True,
    use_external_emojis=True,
    use_application_commands=True,
)

# What an ordinary member may do in the test guild (what the bot may, and change a nickname
# and use voice); drives ``interaction.permissions``.
DEFAULT_MEMBER_PERMISSIONS = DEFAULT_APP_PERMISSIONS | discord.Permissions(
    change_nickname=True, connect=True, speak=True
)


class SameAsName(enum.Enum):
    """Default marker for ``add_user(global_name=...)``: None is a meaningful value there."""

    TOKEN = enum.auto()


@dataclass
class FakeUser:
    """A human (or other bot) account that can use the bot."""

    id: int
    name: str
    global_name: str | None
    bot: bool = False
    permissions: discord.Permissions = field(default_factory=lambda: DEFAULT_MEMBER_PERMISSIONS)
    locale: str = "en-US"

    @property
    def payload(self) -> JSONDict:
        """The user object Discord sends for this account."""
        return user_payload(self.id, self.name, self.global_name, bot=self.bot)

    @property
    def mention(self) -> str:
        """``<@id>``, as a user would type it."""
        return f"<@{self.id}>"


@dataclass
class FakeGuild:
    """A guild with a single text channel, every added user being a member."""

    id: int
    name: str
    channel_id: int
    owner_id: int
    bot_role_id: int

    @property
    def everyone_role_id(self) -> int:
        """The @everyone role shares the guild's id."""
        return self.id


@dataclass
class Where:
    """Where a user acts: a guild's channel, or (``guild`` None) their DM with the bot."""

    guild: FakeGuild | None
    channel_id: int
