"""A loopback stand-in for the part of Discord's v10 REST API the bot uses.

Tests must exercise discord.py's real HTTP client, webhook adapter and model parsing, so
the only thing replaced is Discord itself: :class:`FakeDiscord` is an aiohttp server on
127.0.0.1 that answers the same routes with the same JSON shapes, enforces the limits that
commonly bite bots in production (2000-character content, 25 autocomplete choices, closed
DMs, double interaction acknowledgements...) and records everything the bot sent so tests
can assert on it.

The server also owns the "world" (users, guilds, channels, messages) so the gateway side in
:mod:`tests.discord_stub.driver` can build payloads that agree with what REST returns.
"""

from __future__ import annotations

import datetime
import json
import math
import re
import secrets
import socket
import struct
import time
import traceback
import urllib.parse
import warnings
import zlib
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .gateway import GATEWAY_PATH, FakeGateway

__all__ = [
    "API_PREFIX",
    "EPHEMERAL",
    "LOADING",
    "ChannelInfo",
    "FakeDiscord",
    "FiredFailure",
    "InjectedFailure",
    "InteractionState",
    "RequestRecord",
    "Sent",
    "SnowflakeGenerator",
    "StoredAttachment",
    "StoredMessage",
]

JSONDict = dict[str, Any]
Handler = Callable[..., Awaitable[web.StreamResponse]]
MessageListener = Callable[[str, "StoredMessage"], None]

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000

# Message flag bits; a request may only set the "client settable" ones, the rest are managed
# by Discord (ephemeral only on interaction messages, loading only by a defer).
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15
_CLIENT_SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2

# Message types used in responses.
MSG_DEFAULT = 0
MSG_REPLY = 19
MSG_CHAT_INPUT_COMMAND = 20

# Channel types.
GUILD_TEXT = 0
DM = 1

MAX_UPLOAD_BYTES = 10 * 1024 * 1024


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    """One length-prefixed, CRC-terminated PNG chunk."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


# A 1x1 transparent PNG, served for avatar URLs so nothing ever leaves the machine.
_TINY_PNG = (
    b"\x89PNG\r\n\x1a\n"
    + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
    + _png_chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00"))
    + _png_chunk(b"IEND", b"")
)


def snowflake_iso(snowflake: int) -> str:
    """ISO timestamp encoded in a snowflake, so payload timestamps agree with ``created_at``."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).isoformat()


def _now_iso() -> str:
    """Current time in Discord's ISO format, used for edit timestamps."""
    return datetime.datetime.now(tz=datetime.UTC).isoformat()


def user_payload(
    user_id: int, username: str, global_name: str | None, *, bot: bool = False
) -> JSONDict:
    """A user object as Discord sends it in messages, interactions and members.

    Shared with the driver so the REST side and the gateway side always agree.
    """
    return {
        "id": str(user_id),
        "username": username,
        "global_name": global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "collectibles": None,
        "primary_guild": None,
    }


class SnowflakeGenerator:
    """Monotonic snowflakes that still decode to plausible, increasing creation times.

    Each id advances the embedded millisecond timestamp by one, so discord.py's
    ``created_at`` ordering matches creation order, and ids from different objects never
    collide within one server.
    """

    def __init__(self, start: int = 1_100_000_000_000_000_000) -> None:
        self._next = start

    def __call__(self) -> int:
        value = self._next
        self._next += 1 << 22
        return value


@dataclass
class StoredAttachment:
    """An uploaded file, kept with its bytes so tests can inspect exactly what was sent."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    ephemeral: bool = False

    @property
    def content_type(self) -> str:
        """Guess the MIME type the way Discord does: from the file signature, then the name."""
        if self.data.startswith(b"\x89PNG\r\n\x1a\n"):
            return "image/png"
        if self.data[:3] == b"\xff\xd8\xff":
            return "image/jpeg"
        if self.data[:6] in (b"GIF87a", b"GIF89a"):
            return "image/gif"
        if self.filename.lower().endswith(".txt"):
            return "text/plain; charset=utf-8"
        return "application/octet-stream"

    @property
    def png_size(self) -> tuple[int, int] | None:
        """Width and height from the PNG header; Discord reports these for images."""
        if self.content_type != "image/png" or len(self.data) < 24:
            return None
        width, height = struct.unpack(">II", self.data[16:24])
        return width, height

    def url(self, base_url: str, channel_id: int) -> str:
        """CDN-style URL that this fake server also serves, so ``Attachment.read()`` works."""
        name = urllib.parse.quote(self.filename)
        return f"{base_url}/attachments/{channel_id}/{self.id}/{name}"

    def payload(self, base_url: str, channel_id: int) -> JSONDict:
        """The attachment object as Discord returns it inside a message."""
        url = self.url(base_url, channel_id)
        data: JSONDict = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        size = self.png_size
        if size is not None:
            data["width"], data["height"] = size
        if self.description is not None:
            data["description"] = self.description
        if self.ephemeral:
            data["ephemeral"] = True
        return data


@dataclass
class StoredMessage:
    """Current state of one message, as Discord would hold it."""

    id: int
    channel_id: int
    guild_id: int | None
    author: JSONDict
    content: str = ""
    embeds: list[JSONDict] = field(default_factory=list)
    components: list[JSONDict] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = MSG_DEFAULT
    tts: bool = False
    nonce: str | None = None
    edited_timestamp: str | None = None
    mention_everyone: bool = False
    mentions: list[JSONDict] = field(default_factory=list)
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSONDict | None = None
    message_reference: JSONDict | None = None
    visible_to: int | None = None
    reactions: list[str] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Ephemeral messages exist only for the user who triggered the interaction."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking...") response has not been filled in yet."""
        return bool(self.flags & LOADING)

    @property
    def author_id(self) -> int:
        """The author's id as an int, for easy comparisons in tests."""
        return int(self.author["id"])

    def iter_components(self) -> Iterator[JSONDict]:
        """Every component in the message, depth first, whatever the nesting."""
        yield from _walk_components(self.components)

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of all interactive components, in display order."""
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def payload(self, base_url: str) -> JSONDict:
        """The message object as Discord's REST API returns it."""
        data: JSONDict = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author,
            "attachments": [a.payload(base_url, self.channel_id) for a in self.attachments],
            "embeds": self.embeds,
            "mentions": self.mentions,
            "mention_roles": [],
            "mention_everyone": self.mention_everyone,
            "pinned": False,
            "tts": self.tts,
            "timestamp": snowflake_iso(self.id),
            "edited_timestamp": self.edited_timestamp,
            "flags": self.flags,
            "components": self.components,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        return data


@dataclass
class ChannelInfo:
    """A channel in the fake world: a guild text channel or a DM with one user."""

    id: int
    type: int
    guild_id: int | None = None
    name: str | None = None
    position: int = 0
    recipient_id: int | None = None

    def payload(self, users: dict[int, JSONDict]) -> JSONDict:
        """The channel object as Discord returns it (REST and interaction payloads)."""
        if self.type == DM:
            recipient = users.get(self.recipient_id or 0)
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [recipient] if recipient else [],
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass
class InteractionState:
    """Server-side bookkeeping for one interaction token: what was answered and where."""

    id: int
    token: str
    type: int
    application_id: int
    channel_id: int
    guild_id: int | None
    user_id: int
    command_name: str | None = None
    message_id: int | None = None
    callback_type: int | None = None
    original_message_id: int | None = None
    message_ids: list[int] = field(default_factory=list)
    choices: list[JSONDict] | None = None
    modal: JSONDict | None = None

    @property
    def acknowledged(self) -> bool:
        """Whether the bot answered the initial callback (Discord's 3-second obligation)."""
        return self.callback_type is not None


@dataclass
class Sent:
    """One thing the bot did that a user could see, in the order Discord received it.

    ``content``, ``embeds`` and ``components`` describe the message as it stands right after
    this operation (so an edit that only swaps buttons still shows the text); ``files`` are
    the files uploaded by this very request; ``payload`` is the raw JSON body.
    """

    seq: int
    kind: str
    channel_id: int | None
    message_id: int | None
    content: str | None = None
    embeds: list[JSONDict] = field(default_factory=list)
    components: list[JSONDict] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = False
    allowed_mentions: JSONDict | None = None
    interaction_id: int | None = None
    user_id: int | None = None
    callback_type: int | None = None
    flags: int = 0
    mention_everyone: bool = False
    mentioned_user_ids: list[int] = field(default_factory=list)
    choices: list[JSONDict] | None = None
    modal: JSONDict | None = None
    payload: JSONDict = field(default_factory=dict)

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of the interactive components carried by this record."""
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]


@dataclass
class InjectedFailure:
    """A pending fault set up by :meth:`FakeDiscord.fail_next`."""

    method: str
    pattern: re.Pattern[str]
    status: int
    body: JSONDict | None
    remaining: int
    retry_after: float | None
    is_global: bool = False

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault applies to a request; ``*`` matches any method."""
        return (
            self.remaining > 0
            and self.method in ("*", method.upper())
            and self.pattern.search(path) is not None
        )


@dataclass
class FiredFailure:
    """A fault that was actually served, so tests can prove the retry path ran."""

    method: str
    path: str
    status: int


@dataclass
class RequestRecord:
    """Every request the bot made, for debugging failing tests."""

    method: str
    path: str
    status: int
    injected: bool = False


@dataclass
class _Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool


class _ApiError(Exception):
    """Raised by handlers to answer with a Discord-style JSON error."""

    def __init__(self, status: int, code: int, message: str, errors: JSONDict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSONDict:
        data: JSONDict = {"message": self.message, "code": self.code}
        if self.errors is not None:
            data["errors"] = self.errors
        return data


def _form_error(path: list[str | int], code: str, message: str) -> _ApiError:
    """A 50035 "Invalid Form Body" error in the nested shape discord.py flattens."""
    errors: JSONDict = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        errors = {str(key): errors}
    return _ApiError(400, 50035, "Invalid Form Body", errors)


def _walk_components(components: list[JSONDict]) -> Iterator[JSONDict]:
    """Depth-first walk over v1 rows and v2 containers, sections and labels."""
    for component in components:
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from _walk_components(children)
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from _walk_components([child])


_PLACEHOLDERS = {
    "token": r"[^/]+",
    "emoji": r"[^/]+",
    "name": r"[^/]+",
    "message": r"@original|\d+",
}


def _route_pattern(template: str) -> re.Pattern[str]:
    """Turn ``/channels/{channel_id}`` into a regex; ids are snowflakes unless listed above."""

    def group(match: re.Match[str]) -> str:
        name = match.group(1)
        pattern = _PLACEHOLDERS.get(name, r"\d+")
        return f"(?P<{name}>{pattern})"

    return re.compile(re.sub(r"\{(\w+)\}", group, template))


def _json_response(status: int, data: Any, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with the exact ``application/json`` content type.

    discord.py only decodes bodies whose content-type is exactly ``application/json``;
    aiohttp's ``json_response`` would append a charset and make every body look like text.
    """
    all_headers = {"Content-Type": "application/json"}
    if headers:
        all_headers.update(headers)
    return web.Response(status=status, body=json.dumps(data).encode(), headers=all_headers)


def _empty_response() -> web.Response:
    """204 No Content, as Discord answers deletes and typing."""
    return web.Response(status=204)


class FakeDiscord:
    """Discord's REST API on a random 127.0.0.1 port, with a recording of everything sent.

    Start with ``await server.start()`` (or ``async with``), then point
    ``discord.http.Route.BASE`` at :attr:`api_base`. The driver does this for you.
    """

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
        self._seq = 0
        self._failures: list[InjectedFailure] = []
        self._dm_by_user: dict[int, int] = {}
        self._closed_dms: set[int] = set()
        self._by_token: dict[str, InteractionState] = {}
        self._attachments: dict[int, StoredAttachment] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self._command_snowflakes = SnowflakeGenerator(start=1_200_000_000_000_000_000)
        """Commands and their versions draw ids apart from the world's, so whether a bot
        synced its commands at start never shifts the ids of servers, users and messages."""
        self._listeners: list[MessageListener] = []
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._api_routes: list[_Route] = []
        self._cdn_routes: list[_Route] = []
        self._install_routes()
        self.gateway = FakeGateway(self)
        """The websocket side: READY, heartbeats, resume, and every event the bot receives."""

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Bind a free loopback port and start serving."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()

    async def stop(self) -> None:
        """Stop serving and release the port."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def running(self) -> bool:
        """Whether the server is currently accepting requests."""
        return self._runner is not None

    @property
    def url(self) -> str:
        """Root URL of the server (CDN-style paths live directly under it)."""
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.url}{API_PREFIX}"

    # ------------------------------------------------------------------ world model

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

    def add_text_channel(self, guild_id: int, name: str) -> ChannelInfo:
        """Create a guild text channel."""
        position = sum(1 for c in self.channels.values() if c.guild_id == guild_id)
        channel = ChannelInfo(self.next_id(), GUILD_TEXT, guild_id, name, position)
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

    # ------------------------------------------------------------------ queries

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

    # ------------------------------------------------------------------ faults

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        json_body: JSONDict | None = None,
        times: int = 1,
        retry_after: float | None = None,
        *,
        is_global: bool = False,
    ) -> InjectedFailure:
        """Make the next ``times`` matching requests fail instead of being served.

        ``path_regex`` is searched in the path below ``/api/v10`` (e.g.
        ``r"^/channels/\\d+/messages$"``); ``method`` may be ``"*"``. For 429 the body
        carries ``retry_after`` and the response has the ``Via``, ``Retry-After`` and
        ``X-RateLimit-*`` headers Discord sends, so discord.py sleeps and retries; without
        ``Via`` it would treat the 429 as a Cloudflare ban and raise.
        """
        failure = InjectedFailure(
            method=method.upper(),
            pattern=re.compile(path_regex),
            status=status,
            body=json_body,
            remaining=times,
            retry_after=retry_after,
            is_global=is_global,
        )
        self._failures.append(failure)
        return failure

    def _failure_response(self, failure: InjectedFailure) -> web.Response:
        headers: dict[str, str] = {}
        if failure.status == 429:
            retry_after = failure.retry_after if failure.retry_after is not None else 0.05
            self.retry_due_at = max(self.retry_due_at, time.monotonic() + retry_after)
            body: JSONDict = {
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": failure.is_global,
            }
            if failure.body:
                body.update(failure.body)
            retry_after = float(body["retry_after"])
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(max(1, math.ceil(retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": f"fake-{abs(hash(failure.pattern.pattern)):x}",
                "X-RateLimit-Scope": "global" if failure.is_global else "user",
            }
            if failure.is_global:
                headers["X-RateLimit-Global"] = "true"
            return _json_response(429, body, headers)
        default_message = {
            500: "500: Internal Server Error",
            502: "502: Bad Gateway",
            503: "503: Service Unavailable",
        }.get(failure.status, f"{failure.status}: injected failure")
        body = failure.body if failure.body is not None else {"message": default_message, "code": 0}
        if failure.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(failure.retry_after)))
        return _json_response(failure.status, body, headers)

    # ------------------------------------------------------------------ dispatch

    def _install_routes(self) -> None:
        api: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("POST", "/channels/{channel_id}/messages", self._create_channel_message),
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_channel_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}",
                self._delete_channel_message,
            ),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._add_reaction,
            ),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._remove_reaction,
            ),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup_create),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message}", self._webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message}", self._webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message}", self._webhook_delete),
        ]
        # Interaction callbacks and webhooks are authenticated by their token, not the bot's.
        self._api_routes = [
            _Route(
                method,
                _route_pattern(template),
                handler,
                auth=not template.startswith(("/interactions/", "/webhooks/")),
            )
            for method, template, handler in api
        ]
        cdn: list[tuple[str, str, Handler]] = [
            ("GET", "/attachments/{channel_id}/{attachment_id}/{name}", self._cdn_attachment),
            ("GET", "/embed/avatars/{name}", self._cdn_png),
            ("GET", "/avatars/{user_id}/{name}", self._cdn_png),
        ]
        self._cdn_routes = [_Route(m, _route_pattern(t), h, auth=False) for m, t, h in cdn]

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        """Route a request; every path funnels through here so faults and logs are uniform."""
        self.last_request_at = time.monotonic()
        full_path = request.path
        if full_path.startswith(API_PREFIX + "/"):
            path = full_path[len(API_PREFIX) :]
            routes = self._api_routes
        else:
            path = full_path
            routes = self._cdn_routes

        for failure in self._failures:
            if failure.matches(request.method, path):
                failure.remaining -= 1
                self.fired_failures.append(FiredFailure(request.method, path, failure.status))
                self.requests.append(RequestRecord(request.method, path, failure.status, True))
                return self._failure_response(failure)

        response: web.StreamResponse
        method_mismatch = False
        for route in routes:
            match = route.pattern.fullmatch(path)
            if match is None:
                continue
            if route.method != request.method:
                method_mismatch = True
                continue
            try:
                if route.auth and not request.headers.get("Authorization", "").startswith("Bot "):
                    raise _ApiError(401, 0, "401: Unauthorized")
                response = await route.handler(request, **match.groupdict())
            except _ApiError as error:
                response = _json_response(error.status, error.body())
            except Exception:
                # A bug in the fake must fail the test loudly, but a 5xx would make
                # discord.py retry for seconds first, so answer 400 and record it.
                self.internal_errors.append(
                    f"{request.method} {full_path}\n{traceback.format_exc()}"
                )
                response = _json_response(
                    400, {"code": 0, "message": "fake discord internal error"}
                )
            self.requests.append(RequestRecord(request.method, path, response.status))
            return response

        self.unhandled.append(f"{request.method} {full_path}")
        status = 405 if method_mismatch else 404
        message = "405: Method Not Allowed" if method_mismatch else "unknown route"
        self.requests.append(RequestRecord(request.method, path, status))
        return _json_response(status, {"code": 0, "message": message})

    # ------------------------------------------------------------------ helpers

    def _log(self, kind: str, **fields: Any) -> Sent:
        self._seq += 1
        record = Sent(seq=self._seq, kind=kind, **fields)
        self.sent.append(record)
        return record

    def _log_message(
        self,
        kind: str,
        message: StoredMessage,
        payload: JSONDict,
        files: list[tuple[str, bytes]],
        *,
        interaction: InteractionState | None = None,
        callback_type: int | None = None,
    ) -> Sent:
        everyone, mentioned = self._resolve_mentions(
            message.content, payload.get("allowed_mentions"), ephemeral=message.ephemeral
        )
        user_id = interaction.user_id if interaction else message.visible_to
        if user_id is None:
            channel = self.channels.get(message.channel_id)
            if channel is not None and channel.type == DM:
                user_id = channel.recipient_id
        return self._log(
            kind,
            channel_id=message.channel_id,
            message_id=message.id,
            content=message.content,
            embeds=message.embeds,
            components=message.components,
            files=files,
            ephemeral=message.ephemeral,
            allowed_mentions=payload.get("allowed_mentions"),
            interaction_id=interaction.id if interaction else None,
            user_id=user_id,
            callback_type=callback_type,
            flags=message.flags,
            mention_everyone=everyone,
            mentioned_user_ids=mentioned,
            payload=payload,
        )

    def _emit(self, event: str, message: StoredMessage) -> None:
        if message.ephemeral:
            return
        for listener in list(self._listeners):
            listener(event, message)

    def _channel(self, channel_id: int) -> ChannelInfo:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise _ApiError(404, 10003, "Unknown Channel")
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

    async def _read_body(
        self, request: web.Request
    ) -> tuple[JSONDict, dict[int, tuple[str, bytes]]]:
        """JSON body, or multipart ``payload_json`` plus ``files[n]`` parts."""
        files: dict[int, tuple[str, bytes]] = {}
        if request.content_type.startswith("multipart/"):
            payload: JSONDict = {}
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None) or ""
                with warnings.catch_warnings():
                    # aiohttp's reader calls its own deprecated unread_data() on some
                    # chunk boundaries; that is aiohttp's business, not the bot's.
                    warnings.simplefilter("ignore", DeprecationWarning)
                    data = await part.read(decode=False)  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(bytes(data).decode())
                else:
                    match = re.fullmatch(r"files\[(\d+)\]", name)
                    if match is None:
                        raise _form_error([name], "UNKNOWN_FIELD", "Unknown multipart field.")
                    filename = getattr(part, "filename", None) or f"file{match.group(1)}"
                    files[int(match.group(1))] = (filename, bytes(data))
            return payload, files
        raw = await request.read()
        return (json.loads(raw) if raw else {}), files

    def _new_attachments(
        self,
        entries: list[JSONDict] | None,
        files: dict[int, tuple[str, bytes]],
        existing: list[StoredAttachment],
        *,
        ephemeral: bool,
    ) -> list[StoredAttachment]:
        """Apply an ``attachments`` array: keep listed old ids, add uploads by file index.

        Without the array, the old attachments stay and every upload is appended; with
        ``attachments: []`` everything is removed, as in Discord's v10 semantics.
        """
        by_id = {a.id: a for a in existing}
        used: set[int] = set()
        result: list[StoredAttachment] = []
        if entries is None:
            result = list(existing)
            entries = [{"id": index} for index in sorted(files)]
        for position, entry in enumerate(entries):
            ident = int(entry.get("id", -1))
            if ident in by_id:
                result.append(by_id[ident])
                continue
            if ident not in files or ident in used:
                raise _form_error(
                    ["attachments", position, "id"], "ATTACHMENT_NOT_FOUND", "Unknown attachment."
                )
            used.add(ident)
            filename, data = files[ident]
            attachment = StoredAttachment(
                id=self.next_id(),
                filename=entry.get("filename") or filename,
                data=data,
                description=entry.get("description"),
                ephemeral=ephemeral,
            )
            self._attachments[attachment.id] = attachment
            result.append(attachment)
        return result

    def _validate(
        self, payload: JSONDict, files: dict[int, tuple[str, bytes]], *, creating: bool
    ) -> None:
        """Reject what Discord rejects, so bot bugs surface as HTTPException in tests."""
        content = payload.get("content")
        flags = int(payload.get("flags") or 0)
        if content is not None and len(content) > 2000:
            raise _form_error(
                ["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."
            )
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            raise _form_error(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        total = 0
        limits = {"title": 256, "description": 4096}
        for index, embed in enumerate(embeds):
            for key, limit in limits.items():
                value = embed.get(key) or ""
                total += len(value)
                if len(value) > limit:
                    raise _form_error(
                        ["embeds", index, key],
                        "BASE_TYPE_MAX_LENGTH",
                        f"Must be {limit} or fewer in length.",
                    )
            fields = embed.get("fields") or []
            if len(fields) > 25:
                raise _form_error(
                    ["embeds", index, "fields"],
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 25 or fewer in length.",
                )
            for f_index, embed_field in enumerate(fields):
                for key, limit in (("name", 256), ("value", 1024)):
                    value = embed_field.get(key) or ""
                    total += len(value)
                    if not value.strip() or len(value) > limit:
                        raise _form_error(
                            ["embeds", index, "fields", f_index, key],
                            "BASE_TYPE_BAD_LENGTH",
                            f"Must be between 1 and {limit} in length.",
                        )
            footer = (embed.get("footer") or {}).get("text") or ""
            author = (embed.get("author") or {}).get("name") or ""
            total += len(footer) + len(author)
            if len(footer) > 2048 or len(author) > 256:
                raise _form_error(["embeds", index], "BASE_TYPE_MAX_LENGTH", "Embed text too long.")
        if total > 6000:
            raise _form_error(
                ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
            )
        self._validate_components(payload.get("components") or [], flags)
        if flags & COMPONENTS_V2 and (payload.get("content") or embeds):
            raise _form_error(
                ["content"],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using "
                "MessageFlags.IS_COMPONENTS_V2",
            )
        if len(files) > 10:
            raise _form_error(["files"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        if sum(len(data) for _, data in files.values()) > MAX_UPLOAD_BYTES:
            raise _ApiError(413, 40005, "Request entity too large")
        if creating and not (
            (content or "").strip()
            or embeds
            or files
            or payload.get("components")
            or payload.get("sticker_ids")
            or payload.get("poll")
        ):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _validate_components(self, components: list[JSONDict], flags: int) -> None:
        if not flags & COMPONENTS_V2:
            if len(components) > 5:
                raise _form_error(
                    ["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."
                )
            for index, row in enumerate(components):
                if row.get("type") != 1:
                    raise _form_error(
                        ["components", index, "type"],
                        "UNION_TYPE_CHOICES",
                        'Value of field "type" must be one of (1,).',
                    )
                children = row.get("components") or []
                buttons = [c for c in children if c.get("type") == 2]
                if (
                    not children
                    or len(buttons) > 5
                    or (len(children) > 1 and len(buttons) != len(children))
                ):
                    raise _form_error(
                        ["components", index, "components"],
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
        seen: set[str] = set()
        for component in _walk_components(components):
            custom_id = component.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    raise _form_error(
                        ["components", "custom_id"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                if custom_id in seen:
                    raise _form_error(
                        ["components", "custom_id"],
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                seen.add(custom_id)
            if component.get("type") == 2:
                if len(component.get("label") or "") > 80:
                    raise _form_error(
                        ["components", "label"],
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 80 or fewer in length.",
                    )
                if custom_id is None and component.get("style") not in (5, 6):
                    raise _form_error(
                        ["components", "custom_id"],
                        "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                        "A custom id is required",
                    )

    @staticmethod
    def _number_components(components: list[JSONDict]) -> list[JSONDict]:
        """Give every component a numeric ``id`` as Discord does when echoing them back."""
        used = {c["id"] for c in _walk_components(components) if isinstance(c.get("id"), int)}
        counter = 1
        for component in _walk_components(components):
            if not isinstance(component.get("id"), int):
                while counter in used:
                    counter += 1
                component["id"] = counter
                used.add(counter)
        return components

    def _normalise_embeds(
        self, embeds: list[JSONDict], attachments: list[StoredAttachment], channel_id: int
    ) -> list[JSONDict]:
        """Fill in what Discord adds: ``type: rich`` and resolved ``attachment://`` images."""
        by_name = {a.filename: a for a in attachments}
        result: list[JSONDict] = []
        for embed in embeds:
            embed = dict(embed)
            embed.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                if isinstance(media, dict) and str(media.get("url", "")).startswith(
                    "attachment://"
                ):
                    attachment = by_name.get(media["url"][len("attachment://") :])
                    if attachment is not None:
                        url = attachment.url(self.url, channel_id)
                        resolved: JSONDict = {"url": url, "proxy_url": url}
                        size = attachment.png_size
                        if size is not None:
                            resolved["width"], resolved["height"] = size
                        embed[key] = resolved
            result.append(embed)
        return result

    def _create_message(
        self,
        channel: ChannelInfo,
        payload: JSONDict,
        files: dict[int, tuple[str, bytes]],
        *,
        interaction: InteractionState | None = None,
        extra_flags: int = 0,
        forced_flags: int | None = None,
    ) -> StoredMessage:
        flags = int(payload.get("flags") or 0)
        if forced_flags is not None:
            flags = forced_flags
        else:
            keep = _CLIENT_SETTABLE_FLAGS | (EPHEMERAL if interaction else 0)
            flags = (flags & keep) | extra_flags
        ephemeral = bool(flags & EPHEMERAL)
        attachments = self._new_attachments(
            payload.get("attachments"), files, [], ephemeral=ephemeral
        )
        content = payload.get("content") or ""
        allowed = payload.get("allowed_mentions")
        everyone, mentioned = self._resolve_mentions(content, allowed, ephemeral=ephemeral)
        message = StoredMessage(
            id=self.next_id(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=content,
            embeds=self._normalise_embeds(payload.get("embeds") or [], attachments, channel.id),
            components=self._number_components(payload.get("components") or []),
            attachments=attachments,
            flags=flags,
            tts=bool(payload.get("tts")),
            nonce=payload.get("nonce"),
            mention_everyone=everyone,
            mentions=[self.users[u] for u in mentioned],
        )
        reference = payload.get("message_reference")
        if reference and reference.get("message_id"):
            message.type = MSG_REPLY
            message.message_reference = {
                "type": 0,
                "message_id": str(reference["message_id"]),
                "channel_id": str(reference.get("channel_id") or channel.id),
            }
            if channel.guild_id is not None:
                message.message_reference["guild_id"] = str(channel.guild_id)
        if interaction is not None:
            message.type = MSG_CHAT_INPUT_COMMAND if interaction.type == 2 else MSG_DEFAULT
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            message.interaction_id = interaction.id
            message.visible_to = interaction.user_id if ephemeral else None
            message.interaction_metadata = self._interaction_metadata(interaction)
            interaction.message_ids.append(message.id)
        self.messages[message.id] = message
        return message

    def _interaction_metadata(self, interaction: InteractionState) -> JSONDict:
        owners = (
            {"0": str(interaction.guild_id)}
            if interaction.guild_id
            else {"1": str(interaction.user_id)}
        )
        data: JSONDict = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": self.users[interaction.user_id],
            "authorizing_integration_owners": owners,
        }
        if interaction.command_name:
            data["name"] = interaction.command_name
        if interaction.original_message_id is not None:
            data["original_response_message_id"] = str(interaction.original_message_id)
        if interaction.message_id is not None:
            data["interacted_message_id"] = str(interaction.message_id)
        return data

    def _apply_edit(
        self,
        message: StoredMessage,
        payload: JSONDict,
        files: dict[int, tuple[str, bytes]],
    ) -> None:
        if "content" in payload:
            message.content = payload["content"] or ""
        if "attachments" in payload or files:
            message.attachments = self._new_attachments(
                payload.get("attachments"), files, message.attachments, ephemeral=message.ephemeral
            )
        if "embeds" in payload:
            message.embeds = self._normalise_embeds(
                payload["embeds"] or [], message.attachments, message.channel_id
            )
        if "components" in payload:
            message.components = self._number_components(payload["components"] or [])
        if payload.get("flags") is not None:
            settable = SUPPRESS_EMBEDS | COMPONENTS_V2
            message.flags = (message.flags & ~settable) | (int(payload["flags"]) & settable)
        message.flags &= ~LOADING
        everyone, mentioned = self._resolve_mentions(
            message.content, payload.get("allowed_mentions"), ephemeral=message.ephemeral
        )
        message.mention_everyone = everyone
        message.mentions = [self.users[u] for u in mentioned]
        message.edited_timestamp = _now_iso()

    def _delete(self, message: StoredMessage, interaction: InteractionState | None = None) -> None:
        self.messages.pop(message.id, None)
        self.deleted[message.id] = message
        self._log(
            "delete",
            channel_id=message.channel_id,
            message_id=message.id,
            content=message.content,
            ephemeral=message.ephemeral,
            interaction_id=interaction.id if interaction else None,
            user_id=interaction.user_id if interaction else None,
        )
        self._emit("MESSAGE_DELETE", message)

    @staticmethod
    def _sorted_files(files: dict[int, tuple[str, bytes]]) -> list[tuple[str, bytes]]:
        return [files[index] for index in sorted(files)]

    def _channel_message(self, channel_id: str, message_id: str) -> StoredMessage:
        self._channel(int(channel_id))
        message = self.messages.get(int(message_id))
        if message is None or message.channel_id != int(channel_id) or message.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        return message

    # ------------------------------------------------------------------ user / app routes

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json_response(200, self.gateway.bot_gateway())

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json_response(200, self.bot_user)

    async def _get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.users.get(int(user_id))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return _json_response(200, user)

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json_response(
            200,
            {
                "id": str(self.application_id),
                "name": self.bot_user["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner_user,
                "team": None,
                "bot": self.bot_user,
                "rpc_origins": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "tags": [],
                "approximate_guild_count": len(self.guilds),
                "integration_types_config": {"0": {}},
            },
        )

    async def _open_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        recipient = int(body.get("recipient_id", 0))
        if recipient not in self.users or recipient == self.application_id:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        channel_id = self.dm_channel_id(recipient)
        return _json_response(200, self.channels[channel_id].payload(self.users))

    async def _put_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        if int(app_id) != self.application_id:
            raise _ApiError(403, 50001, "Missing Access")
        gid = int(guild_id) if guild_id is not None else None
        if gid is not None and gid not in self.guilds:
            raise _ApiError(403, 50001, "Missing Access")
        body = await request.json()
        stored: list[JSONDict] = []
        for index, command in enumerate(body):
            name = command.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise _form_error(
                    [index, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Invalid name"
                )
            echoed = {
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **command,
                "id": str(self.command_id(name, gid, int(command.get("type", 1)))),
                "application_id": str(self.application_id),
                "version": str(self._command_snowflakes()),
            }
            if gid is not None:
                echoed["guild_id"] = str(gid)
            stored.append(echoed)
        self.commands[gid] = stored
        return _json_response(200, stored)

    async def _get_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        gid = int(guild_id) if guild_id is not None else None
        return _json_response(200, self.commands.get(gid, []))

    async def _get_member(self, request: web.Request, guild_id: str, user_id: str) -> web.Response:
        members = self.guild_members.get(int(guild_id))
        if members is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        if int(user_id) not in members:
            raise _ApiError(404, 10007, "Unknown Member")
        return _json_response(200, self.member_payload(int(guild_id), int(user_id)))

    # ------------------------------------------------------------------ channel routes

    async def _get_channel(self, request: web.Request, channel_id: str) -> web.Response:
        return _json_response(200, self._channel(int(channel_id)).payload(self.users))

    async def _typing(self, request: web.Request, channel_id: str) -> web.Response:
        self._channel(int(channel_id))
        return _empty_response()

    async def _create_channel_message(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(int(channel_id))
        payload, files = await self._read_body(request)
        if (
            channel.type == DM
            and channel.recipient_id is not None
            and self.dms_closed(channel.recipient_id)
        ):
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        self._validate(payload, files, creating=True)
        message = self._create_message(channel, payload, files)
        self._log_message("message", message, payload, self._sorted_files(files))
        self._emit("MESSAGE_CREATE", message)
        return _json_response(200, message.payload(self.url))

    async def _history(self, request: web.Request, channel_id: str) -> web.Response:
        self._channel(int(channel_id))
        limit = min(int(request.query.get("limit", "50")), 100)
        messages = self.messages_in(int(channel_id), include_ephemeral=False)
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            messages = [m for m in messages if m.id > int(request.query["after"])]
            messages = messages[:limit]
        else:
            messages = messages[-limit:]
        return _json_response(200, [m.payload(self.url) for m in reversed(messages)])

    async def _get_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        return _json_response(200, self._channel_message(channel_id, message_id).payload(self.url))

    async def _edit_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        message = self._channel_message(channel_id, message_id)
        payload, files = await self._read_body(request)
        if message.author_id != self.application_id:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._validate(payload, files, creating=False)
        self._apply_edit(message, payload, files)
        self._log_message("edit", message, payload, self._sorted_files(files))
        self._emit("MESSAGE_UPDATE", message)
        return _json_response(200, message.payload(self.url))

    async def _delete_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        self._delete(self._channel_message(channel_id, message_id))
        return _empty_response()

    async def _add_reaction(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        message = self._channel_message(channel_id, message_id)
        decoded = urllib.parse.unquote(emoji)
        if decoded not in message.reactions:
            message.reactions.append(decoded)
        return _empty_response()

    async def _remove_reaction(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        message = self._channel_message(channel_id, message_id)
        decoded = urllib.parse.unquote(emoji)
        if decoded in message.reactions:
            message.reactions.remove(decoded)
        return _empty_response()

    # ------------------------------------------------------------------ interactions

    async def _interaction_callback(
        self, request: web.Request, interaction_id: str, token: str
    ) -> web.Response:
        interaction = self.interactions.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            raise _ApiError(404, 10062, "Unknown interaction")
        payload, files = await self._read_body(request)
        callback_type = int(payload.get("type", 0))
        data: JSONDict = payload.get("data") or {}
        if interaction.acknowledged:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[interaction.type]
        if interaction.type == 5 and interaction.message_id is None:
            allowed = {4, 5}
        if callback_type not in allowed:
            raise _form_error(
                ["type"],
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Interaction response type is invalid for this interaction type",
            )

        channel = self._channel(interaction.channel_id)
        message: StoredMessage | None = None
        resource: JSONDict = {"type": callback_type}
        callback: JSONDict = {"id": str(interaction.id), "type": interaction.type}
        if callback_type == 4:
            self._validate(data, files, creating=True)
            message = self._create_message(channel, data, files, interaction=interaction)
            interaction.callback_type = callback_type
            interaction.original_message_id = message.id
            self._log_message(
                "response",
                message,
                data,
                self._sorted_files(files),
                interaction=interaction,
                callback_type=callback_type,
            )
        elif callback_type == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._create_message(
                channel, {}, {}, interaction=interaction, forced_flags=flags
            )
            interaction.callback_type = callback_type
            interaction.original_message_id = message.id
            self._log_message(
                "deferred", message, data, [], interaction=interaction, callback_type=callback_type
            )
        elif callback_type == 6:
            interaction.callback_type = callback_type
            interaction.original_message_id = interaction.message_id
            self._log(
                "deferred",
                channel_id=channel.id,
                message_id=interaction.message_id,
                interaction_id=interaction.id,
                user_id=interaction.user_id,
                callback_type=callback_type,
                payload=payload,
            )
        elif callback_type == 7:
            target = self.messages.get(interaction.message_id or 0)
            if target is None:
                raise _ApiError(404, 10008, "Unknown Message")
            self._validate(data, files, creating=False)
            self._apply_edit(target, data, files)
            message = target
            interaction.callback_type = callback_type
            interaction.original_message_id = target.id
            self._log_message(
                "update",
                target,
                data,
                self._sorted_files(files),
                interaction=interaction,
                callback_type=callback_type,
            )
        elif callback_type == 8:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise _form_error(
                    ["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            for index, choice in enumerate(choices):
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise _form_error(
                        ["data", "choices", index, "name"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                    raise _form_error(
                        ["data", "choices", index, "value"],
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 100 or fewer in length.",
                    )
            interaction.callback_type = callback_type
            interaction.choices = choices
            self._log(
                "autocomplete",
                channel_id=channel.id,
                message_id=None,
                interaction_id=interaction.id,
                user_id=interaction.user_id,
                callback_type=callback_type,
                choices=choices,
                payload=payload,
            )
        elif callback_type == 9:
            components = data.get("components") or []
            if not data.get("custom_id") or not data.get("title") or not 1 <= len(components) <= 5:
                raise _form_error(["data"], "MODAL_INVALID", "Invalid modal.")
            interaction.callback_type = callback_type
            interaction.modal = data
            self._log(
                "modal",
                channel_id=channel.id,
                message_id=None,
                interaction_id=interaction.id,
                user_id=interaction.user_id,
                callback_type=callback_type,
                modal=data,
                components=components,
                payload=payload,
            )

        if message is not None:
            callback["response_message_id"] = str(message.id)
            callback["response_message_loading"] = message.loading
            callback["response_message_ephemeral"] = message.ephemeral
            resource["message"] = message.payload(self.url)
            if callback_type == 7:
                self._emit("MESSAGE_UPDATE", message)
            else:
                self._emit("MESSAGE_CREATE", message)
        return _json_response(200, {"interaction": callback, "resource": resource})

    def _webhook_interaction(self, app_id: str, token: str) -> InteractionState:
        interaction = self._by_token.get(token)
        if interaction is None or int(app_id) != self.application_id:
            raise _ApiError(404, 10015, "Unknown Webhook")
        if not interaction.acknowledged:
            # Discord only creates the interaction webhook once the callback was answered.
            raise _ApiError(404, 10015, "Unknown Webhook")
        return interaction

    def _webhook_message(self, interaction: InteractionState, message: str) -> StoredMessage:
        if message == "@original":
            found = self.messages.get(interaction.original_message_id or 0)
        else:
            message_id = int(message)
            allowed = (
                message_id in interaction.message_ids
                or message_id == interaction.original_message_id
            )
            found = self.messages.get(message_id) if allowed else None
        if found is None:
            raise _ApiError(404, 10008, "Unknown Message")
        return found

    async def _followup_create(self, request: web.Request, app_id: str, token: str) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        payload, files = await self._read_body(request)
        self._validate(payload, files, creating=True)
        original = self.messages.get(interaction.original_message_id or 0)
        if interaction.callback_type == 5 and original is not None and original.loading:
            # The first follow-up after a "thinking" defer fills in that message and keeps
            # the defer's ephemerality, whatever flags the follow-up asked for.
            ephemeral = original.ephemeral
            self._apply_edit(original, payload, files)
            original.flags = (original.flags & ~EPHEMERAL) | (EPHEMERAL if ephemeral else 0)
            message = original
            self._emit("MESSAGE_UPDATE", message)
        else:
            channel = self._channel(interaction.channel_id)
            message = self._create_message(channel, payload, files, interaction=interaction)
            self._emit("MESSAGE_CREATE", message)
        self._log_message(
            "followup", message, payload, self._sorted_files(files), interaction=interaction
        )
        if request.query.get("wait", "").lower() in ("1", "true"):
            return _json_response(200, message.payload(self.url))
        return _empty_response()

    async def _webhook_get(
        self, request: web.Request, app_id: str, token: str, message: str
    ) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        return _json_response(200, self._webhook_message(interaction, message).payload(self.url))

    async def _webhook_edit(
        self, request: web.Request, app_id: str, token: str, message: str
    ) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        target = self._webhook_message(interaction, message)
        payload, files = await self._read_body(request)
        self._validate(payload, files, creating=False)
        self._apply_edit(target, payload, files)
        kind = "original_edit" if message == "@original" else "followup_edit"
        self._log_message(kind, target, payload, self._sorted_files(files), interaction=interaction)
        self._emit("MESSAGE_UPDATE", target)
        return _json_response(200, target.payload(self.url))

    async def _webhook_delete(
        self, request: web.Request, app_id: str, token: str, message: str
    ) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        self._delete(self._webhook_message(interaction, message), interaction)
        return _empty_response()

    # ------------------------------------------------------------------ CDN

    async def _cdn_attachment(
        self, request: web.Request, channel_id: str, attachment_id: str, name: str
    ) -> web.Response:
        attachment = self._attachments.get(int(attachment_id))
        if attachment is None:
            raise _ApiError(404, 0, "404: Not Found")
        return web.Response(
            status=200, body=attachment.data, headers={"Content-Type": attachment.content_type}
        )

    async def _cdn_png(self, request: web.Request, **_: str) -> web.Response:
        return web.Response(status=200, body=_TINY_PNG, headers={"Content-Type": "image/png"})
