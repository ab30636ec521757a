"""The loopback Discord's world: users, guilds, members, channels, DMs and what was sent.

Tests build the world here (``add_user``, ``add_guild``, ``close_dms``...) and read it back
(``messages_in``, ``sent``); the routes serve from the same state, so what REST returns and
what the gateway sends agree.
"""

from __future__ import annotations

import re
import secrets

from .injections import FiredFailure, HeldAnswer, InjectedFailure, RequestRecord
from .models import (
    DM,
    GUILD_TEXT,
    INTERACTION_DEADLINE,
    TOKEN_LIFETIME,
    VIEW_CHANNEL,
    ChannelInfo,
    InteractionState,
    JSONDict,
    MessageListener,
    Sent,
    SnowflakeGenerator,
    StoredAttachment,
    StoredMessage,
    snowflake_iso,
    user_payload,
)
from .rate_limits import RandomFaults, RateLimits
from .wire import ApiError


class World:
    """The server's state, and the calls tests use to build and read it."""

    def __init__(self, *, bot_name: str = "Test Bot", owner_name: str = "app-owner") -> None:
        self._ids = SnowflakeGenerator()
        self.application_id: int = self._ids()
        self.bot_user: JSONDict = {
            **user_payload(self.application_id, bot_name, None, bot=True),
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
        }
        owner_id = self._ids()
        self.owner_user: JSONDict = user_payload(owner_id, owner_name, owner_name)
        self.users: dict[int, JSONDict] = {self.application_id: self.bot_user}
        self.channels: dict[int, ChannelInfo] = {}
        self.guilds: dict[int, JSONDict] = {}
        self.guild_members: dict[int, dict[int, JSONDict]] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.deleted: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionState] = {}
        self.commands: dict[int | None, list[JSONDict]] = {}
        self.sent: list[Sent] = []
        self.unhandled: list[str] = []
        self.requests: list[RequestRecord] = []
        self.last_request_at = 0.0
        """``time.monotonic()`` when the last request arrived, to tell when the bot is idle."""
        self.retry_due_at = 0.0
        """``time.monotonic()`` by which the bot should retry every request answered 429."""
        self.fired_failures: list[FiredFailure] = []
        self.internal_errors: list[str] = []
        self.rate_limits: RateLimits | None = None
        """Per-route buckets with Discord's headers and 429s; None serves without limits."""
        self.random_faults: RandomFaults | None = None
        """Random passing faults (429s, 5xx) on play routes; None for no passing faults."""
        self.interaction_deadline = INTERACTION_DEADLINE
        self.token_lifetime = TOKEN_LIFETIME
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._seq = 0
        self._failures: list[InjectedFailure] = []
        self._held: list[HeldAnswer] = []
        self._dm_by_user: dict[int, int] = {}
        self._closed_dms: set[int] = set()
        self._by_token: dict[str, InteractionState] = {}
        self._attachments: dict[int, StoredAttachment] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self._command_snowflakes = SnowflakeGenerator(start=1_200_000_000_000_000_000)
        """Commands and their versions draw ids apart from the world's, so whether a bot
        synced its commands at start never shifts the ids of servers, users and messages."""
        self._listeners: list[MessageListener] = []
        self._port: int | None = None

    @property
    def url(self) -> str:
        """Root URL of the server (CDN-style paths live directly under it)."""
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self._port}"

    def next_id(self) -> int:
        """A fresh snowflake from the server's generator."""
        return self._ids()

    @property
    def bot_id(self) -> int:
        """The bot user's id (equal to the application id, as for modern Discord apps)."""
        return self.application_id

    def add_user(self, user: JSONDict) -> None:
        """Register a user object so REST lookups and mentions resolve."""
        self.users[int(user["id"])] = user

    def add_guild(self, guild_id: int, name: str, owner_id: int) -> None:
        """Register a guild (channels and members are added separately)."""
        self.guilds[guild_id] = {"id": str(guild_id), "name": name, "owner_id": str(owner_id)}
        self.guild_members.setdefault(guild_id, {})

    def add_text_channel(
        self, guild_id: int, name: str, *, visible_to: list[int] | None = None
    ) -> ChannelInfo:
        """Create a guild text channel; with ``visible_to``, a private one that only those
        users (and the bot) can view."""
        position = sum(1 for c in self.channels.values() if c.guild_id == guild_id)
        overwrites = []
        if visible_to is not None:
            allowed = [self.bot_id, *visible_to]
            overwrites = [
                {"id": str(guild_id), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)},
                *(
                    {"id": str(u), "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"}
                    for u in allowed
                ),
            ]
        channel = ChannelInfo(
            self.next_id(), GUILD_TEXT, guild_id, name, position, overwrites=overwrites
        )
        self.channels[channel.id] = channel
        return channel

    def add_member(self, guild_id: int, user_id: int, *, roles: list[int] | None = None) -> None:
        """Make a user a guild member."""
        self.guild_members[guild_id][user_id] = {
            "roles": [str(r) for r in roles or []],
            "joined_at": snowflake_iso(self.next_id()),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }

    def member_payload(self, guild_id: int, user_id: int, *, with_user: bool = True) -> JSONDict:
        """A guild member object; the nested user is omitted where Discord omits it."""
        data = dict(self.guild_members[guild_id][user_id])
        if with_user:
            data["user"] = self.users[user_id]
        return data

    def add_attachment(self, filename: str, data: bytes) -> StoredAttachment:
        """Host a file uploaded by a (fake) user, e.g. for an ATTACHMENT command option."""
        attachment = StoredAttachment(id=self.next_id(), filename=filename, data=data)
        self._attachments[attachment.id] = attachment
        return attachment

    def dm_channel_id(self, user_id: int) -> int:
        """The stable DM channel between the bot and a user (created on first use)."""
        channel_id = self._dm_by_user.get(user_id)
        if channel_id is None:
            channel_id = self.next_id()
            self._dm_by_user[user_id] = channel_id
            self.channels[channel_id] = ChannelInfo(channel_id, DM, recipient_id=user_id)
        return channel_id

    def close_dms(self, user_id: int) -> None:
        """Make DMs to this user fail with 403 / code 50007, like a user who blocks DMs."""
        self._closed_dms.add(user_id)

    def open_dms(self, user_id: int) -> None:
        """Undo :meth:`close_dms`."""
        self._closed_dms.discard(user_id)

    def dms_closed(self, user_id: int) -> bool:
        """Bots can never DM other bots; humans can opt out."""
        user = self.users.get(user_id, {})
        return user_id in self._closed_dms or bool(user.get("bot"))

    def add_listener(self, listener: MessageListener) -> None:
        """Subscribe to MESSAGE_CREATE/UPDATE/DELETE of visible messages (gateway echo)."""
        self._listeners.append(listener)

    def new_interaction(
        self,
        *,
        type: int,
        channel_id: int,
        guild_id: int | None,
        user_id: int,
        command_name: str | None = None,
        message_id: int | None = None,
    ) -> InteractionState:
        """Create the id/token pair the bot will answer through the callback endpoint."""
        state = InteractionState(
            id=self.next_id(),
            token=f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(48)}",
            type=type,
            application_id=self.application_id,
            channel_id=channel_id,
            guild_id=guild_id,
            user_id=user_id,
            command_name=command_name,
            message_id=message_id,
        )
        self.interactions[state.id] = state
        self._by_token[state.token] = state
        return state

    def store_user_message(
        self, channel_id: int, user_id: int, content: str, *, nonce: str | None = None
    ) -> StoredMessage:
        """Store a message typed by a (fake) human, so it shows in history and can be fetched."""
        channel = self._channel(channel_id)
        everyone, mentioned = self._resolve_mentions(content, None)
        message = StoredMessage(
            id=self.next_id(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author=self.users[user_id],
            content=content,
            nonce=nonce,
            mention_everyone=everyone,
            mentions=[self.users[u] for u in mentioned],
        )
        self.messages[message.id] = message
        return message

    def command_id(self, name: str, guild_id: int | None, type: int = 1) -> int:
        """The id Discord gave a command (stable per name, whether or not it was synced)."""
        key = (guild_id, name, type)
        if key not in self._command_ids:
            self._command_ids[key] = self._command_snowflakes()
        return self._command_ids[key]

    def message_event_payload(self, message: StoredMessage, *, message_content: bool) -> JSONDict:
        """A MESSAGE_CREATE/UPDATE payload; without the message content intent a guild
        message from someone else arrives blank unless it mentions the bot, as on Discord."""
        payload = message.payload(self.url)
        if message.guild_id is not None:
            payload["guild_id"] = str(message.guild_id)
            members = self.guild_members.get(message.guild_id, {})
            if message.author_id in members:
                payload["member"] = self.member_payload(
                    message.guild_id, message.author_id, with_user=False
                )
            mentioned_self = f"<@{self.bot_id}>" in message.content or (
                f"<@!{self.bot_id}>" in message.content
            )
            if not message_content and message.author_id != self.bot_id and not mentioned_self:
                payload.update(content="", embeds=[], attachments=[], components=[])
        return payload

    def messages_in(
        self, channel_id: int, *, include_ephemeral: bool = True
    ) -> list[StoredMessage]:
        """Current messages in a channel, oldest first."""
        found = [m for m in self.messages.values() if m.channel_id == channel_id]
        if not include_ephemeral:
            found = [m for m in found if not m.ephemeral]
        return sorted(found, key=lambda m: m.id)

    def last_in(self, channel_id: int, *, include_ephemeral: bool = True) -> StoredMessage | None:
        """Newest message in a channel, or None."""
        found = self.messages_in(channel_id, include_ephemeral=include_ephemeral)
        return found[-1] if found else None

    @property
    def last_seq(self) -> int:
        """Sequence number of the newest :class:`Sent` record (0 before anything was sent)."""
        return self._seq

    def clear_log(self) -> None:
        """Forget the :attr:`sent` log (message state is kept)."""
        self.sent.clear()

    def attachment_bytes(self, attachment_id: int) -> bytes:
        """The exact bytes of an uploaded file."""
        return self._attachments[attachment_id].data

    def _channel(self, channel_id: int) -> ChannelInfo:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _resolve_mentions(
        self, content: str, allowed: JSONDict | None, *, ephemeral: bool = False
    ) -> tuple[bool, list[int]]:
        """Who would actually be pinged, following Discord's allowed_mentions rules.

        Without ``allowed_mentions`` everything in the content pings; with it, only the
        listed ``parse`` types and explicit ``users`` do. Ephemeral messages never ping.
        """
        if ephemeral or not content:
            return False, []
        if allowed is None:
            parse = {"everyone", "users", "roles"}
            explicit: set[int] = set()
        else:
            parse = set(allowed.get("parse") or [])
            explicit = {int(u) for u in allowed.get("users") or []}
        everyone = ("@everyone" in content or "@here" in content) and "everyone" in parse
        mentioned: list[int] = []
        for match in re.finditer(r"<@!?(\d+)>", content):
            user_id = int(match.group(1))
            if (
                user_id in self.users
                and user_id not in mentioned
                and ("users" in parse or user_id in explicit)
            ):
                mentioned.append(user_id)
        return everyone, mentioned
