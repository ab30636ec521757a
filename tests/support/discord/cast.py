"""The guilds and users of a driven test, and the gateway events that tell the bot of them.

Guilds and users added before the client connects arrive with READY; later ones as the
joins Discord would send (GUILD_CREATE, GUILD_MEMBER_ADD, GUILD_MEMBER_UPDATE), each only
where the client's intents ask for it.
"""

from __future__ import annotations

import discord

from .accounts import DEFAULT_MEMBER_PERMISSIONS, FakeGuild, FakeUser, SameAsName
from .gateway import FakeGateway
from .gateway_protocol import Intent, shard_of
from .models import JSONDict, snowflake_iso
from .server import FakeDiscord

GUILD_SETTINGS: JSONDict = {
    "icon": None,
    "splash": None,
    "discovery_splash": None,
    "banner": None,
    "description": None,
    "afk_channel_id": None,
    "afk_timeout": 300,
    "verification_level": 0,
    "default_message_notifications": 0,
    "explicit_content_filter": 0,
    "mfa_level": 0,
    "nsfw_level": 0,
    "premium_tier": 0,
    "premium_subscription_count": 0,
    "premium_progress_bar_enabled": False,
    "preferred_locale": "en-US",
    "system_channel_flags": 0,
    "rules_channel_id": None,
    "public_updates_channel_id": None,
    "safety_alerts_channel_id": None,
    "vanity_url_code": None,
    "features": [],
    "emojis": [],
    "stickers": [],
    "application_id": None,
    "max_members": 500000,
    "max_video_channel_users": 25,
    "large": False,
    "lazy": True,
    "threads": [],
    "voice_states": [],
    "presences": [],
    "stage_instances": [],
    "guild_scheduled_events": [],
    "soundboard_sounds": [],
    "incidents_data": None,
}
"""What every fake guild's GUILD_CREATE says alike: a plain server with nothing switched on."""


class Cast:
    """Building the world a test plays in: guilds, users, nicknames and closed DMs."""

    client: discord.Client
    server: FakeDiscord
    gateway: FakeGateway
    app_permissions: discord.Permissions
    guilds: list[FakeGuild]
    users: dict[int, FakeUser]
    _connected: bool

    @property
    def intents(self) -> discord.Intents:
        """The client's intents; they decide which events Discord would deliver."""
        return self.client.intents

    @property
    def guild(self) -> FakeGuild:
        """The first guild (most tests need exactly one)."""
        if not self.guilds:
            raise LookupError("no guild: call driver.add_guild() first")
        return self.guilds[0]

    @property
    def guild_id(self) -> int:
        """Id of the first guild."""
        return self.guild.id

    @property
    def channel_id(self) -> int:
        """Id of the first guild's text channel."""
        return self.guild.channel_id

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        channel_name: str = "general",
        owner: FakeUser | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild with one text channel; all users (and the bot) are members.

        ``shard`` (``(shard_id, shard_count)``) picks an id that Discord routes to that
        shard. After READY this sends GUILD_CREATE (``on_guild_join``); the handlers run
        during the next action or :meth:`settle`.
        """
        server = self.server
        guild_id = server.next_id()
        if shard is not None:
            while shard_of(guild_id, shard[1]) != shard[0]:
                guild_id = server.next_id()
        owner_id = owner.id if owner else int(server.owner_user["id"])
        server.add_guild(guild_id, name, owner_id)
        channel = server.add_text_channel(guild_id, channel_name)
        guild = FakeGuild(guild_id, name, channel.id, owner_id, bot_role_id=server.next_id())
        server.add_member(guild_id, server.bot_id, roles=[guild.bot_role_id])
        for user in self.users.values():
            server.add_member(guild_id, user.id)
        self.guilds.append(guild)
        if self._connected:
            self.feed("GUILD_CREATE", self._guild_create_payload(guild, available=False))
        return guild

    def add_channel(
        self,
        name: str,
        *,
        guild: FakeGuild | None = None,
        visible_to: list[FakeUser] | None = None,
    ) -> int:
        """Another text channel in a guild (the first by default); with ``visible_to``, a
        private channel only those users and the bot can view, as a server keeps one by
        denying View Channel to @everyone. After READY the bot hears of it by CHANNEL_CREATE.
        """
        where = guild or self.guild
        channel = self.server.add_text_channel(
            where.id, name, visible_to=None if visible_to is None else [u.id for u in visible_to]
        )
        if self._connected:
            self.feed("CHANNEL_CREATE", channel.payload(self.server.users))
        return channel.id

    def add_user(
        self,
        name: str,
        *,
        bot: bool = False,
        dms_open: bool = True,
        global_name: str | SameAsName | None = SameAsName.TOKEN,
        permissions: discord.Permissions | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        """Create an account; names are not validated so hostile strings can be tested.

        ``global_name`` (the display name) defaults to ``name``. The user joins every guild;
        with the members intent the bot is told via GUILD_MEMBER_ADD, as Discord would.
        """
        server = self.server
        user = FakeUser(
            id=server.next_id(),
            name=name,
            global_name=name if isinstance(global_name, SameAsName) else global_name,
            bot=bot,
            permissions=permissions or DEFAULT_MEMBER_PERMISSIONS,
            locale=locale,
        )
        self.users[user.id] = user
        server.add_user(user.payload)
        if not dms_open:
            server.close_dms(user.id)
        for guild in self.guilds:
            server.add_member(guild.id, user.id)
            if self._connected and self.intents.members:
                payload = server.member_payload(guild.id, user.id)
                payload["guild_id"] = str(guild.id)
                self.feed("GUILD_MEMBER_ADD", payload)
        return user

    def bot_account(self) -> FakeUser:
        """The bot's own account, as players find it in the user picker (to play against it)."""
        server = self.server
        account = self.users.get(server.bot_id)
        if account is None:
            name = str(server.bot_user["username"])
            account = FakeUser(id=server.bot_id, name=name, global_name=None, bot=True)
            self.users[account.id] = account
        return account

    def set_nickname(
        self, user: FakeUser, nick: str | None, guild: FakeGuild | None = None
    ) -> None:
        """Give ``user`` a server nickname (``None`` clears it), as a member would set it.

        Discord sends the nickname in every member object of that server: an interaction's
        ``member``, a user option's resolved member. The change event needs the members
        intent, so a bot without it hears of the nickname only through those.
        """
        where = guild or self.guild
        self.server.guild_members[where.id][user.id]["nick"] = nick
        if self._connected and self.intents.members:
            payload = self.server.member_payload(where.id, user.id)
            payload["guild_id"] = str(where.id)
            self.feed("GUILD_MEMBER_UPDATE", payload)

    def close_dms(self, user: FakeUser) -> None:
        """From now on DMs to this user fail with 403 / 50007."""
        self.server.close_dms(user.id)

    def open_dms(self, user: FakeUser) -> None:
        """Allow DMs to this user again."""
        self.server.open_dms(user.id)

    def dm_channel_id(self, user: FakeUser) -> int:
        """The DM channel between the bot and ``user``."""
        return self.server.dm_channel_id(user.id)

    def _guild_payload(self, guild_id: int, intents: int) -> JSONDict:
        """GUILD_CREATE of a guild that was there at READY, for the gateway."""
        guild = self._guild_by_id(guild_id)
        return self._guild_create_payload(
            guild, available=True, members=bool(intents & Intent.GUILD_MEMBERS)
        )

    def _guild_create_payload(
        self, guild: FakeGuild, *, available: bool, members: bool | None = None
    ) -> JSONDict:
        server = self.server
        member_ids = list(server.guild_members[guild.id])
        # Without the members intent Discord only sends the bot's own member.
        with_members = self.intents.members if members is None else members
        listed = member_ids if with_members else [server.bot_id]
        channels = [
            c.payload(server.users) for c in server.channels.values() if c.guild_id == guild.id
        ]
        for channel in channels:
            channel.pop("guild_id", None)
        payload: JSONDict = {
            **GUILD_SETTINGS,
            "id": str(guild.id),
            "name": guild.name,
            "owner_id": str(guild.owner_id),
            "system_channel_id": str(guild.channel_id),
            "roles": [
                self._role_payload(guild.id, "@everyone", DEFAULT_MEMBER_PERMISSIONS, 0),
                {
                    **self._role_payload(
                        guild.bot_role_id, str(server.bot_user["username"]), self.app_permissions, 1
                    ),
                    "managed": True,
                    "tags": {"bot_id": str(server.bot_id)},
                },
            ],
            "joined_at": snowflake_iso(guild.id),
            "member_count": len(member_ids),
            "channels": channels,
            "members": [server.member_payload(guild.id, uid) for uid in listed],
        }
        if available:
            payload["unavailable"] = False
        return payload

    @staticmethod
    def _role_payload(
        role_id: int, name: str, permissions: discord.Permissions, position: int
    ) -> JSONDict:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(permissions.value),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    # ------------------------------------------------------------------ gateway feed

    def feed(self, event: str, payload: JSONDict) -> None:
        """Send one gateway DISPATCH event to the bot over its websocket."""
        self.gateway.dispatch(event, payload)

    def _guild_by_id(self, guild_id: int) -> FakeGuild:
        for guild in self.guilds:
            if guild.id == guild_id:
                return guild
        raise LookupError(f"unknown guild {guild_id}")
