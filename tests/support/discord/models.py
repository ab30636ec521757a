"""The loopback Discord's records: messages, attachments, channels, interactions, logs.

Plain data with the JSON shapes Discord sends, shared by every part of the server, by the
gateway and by the driver, so that REST answers and gateway events always agree. The
constants are Discord's own numbers (flags, message and channel types, limits).
"""

from __future__ import annotations

import datetime
import struct
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]
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
CLIENT_SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2

# Message types used in responses.
MSG_DEFAULT = 0
MSG_REPLY = 19
MSG_CHAT_INPUT_COMMAND = 20

VIEW_CHANNEL = 1 << 10
"""The View Channel permission bit."""

# Channel types.
GUILD_TEXT = 0
DM = 1

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
NONCE_WINDOW = 300.0
"""Seconds Discord remembers an enforced nonce: a resent message within them is dropped."""
INTERACTION_DEADLINE = 3.0
"""An interaction not answered within this many seconds is gone (10062 Unknown interaction)."""
TOKEN_LIFETIME = 15 * 60.0
"""An interaction's token answers follow-ups for 15 minutes (then 50027)."""


def snowflake_iso(snowflake: int) -> str:
    """ISO timestamp encoded in a snowflake, so payload timestamps agree with ``created_at``."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).isoformat()


def now_iso() -> str:
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
        yield from walk_components(self.components)

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
    overwrites: list[JSONDict] = field(default_factory=list)
    """Permission overwrites as Discord sends them: a private channel denies View Channel
    to @everyone and allows it to the members (and the bot) who may see it."""

    def viewable_by(self, user_id: int) -> bool:
        """Whether a member sees this channel, by its View Channel overwrites alone (the
        test guild's roles all allow it): a member's own overwrite decides, else
        @everyone's (the role whose id is the guild's)."""
        if self.type == DM:
            return self.recipient_id == user_id
        by_target = {int(o["id"]): o for o in self.overwrites}
        for target in (user_id, self.guild_id):
            overwrite = by_target.get(target or 0)
            if overwrite is not None and int(overwrite["allow"]) & VIEW_CHANNEL:
                return True
            if overwrite is not None and int(overwrite["deny"]) & VIEW_CHANNEL:
                return False
        return True

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
            "permission_overwrites": self.overwrites,
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
    created_at: float = field(default_factory=time.monotonic)
    """``time.monotonic()`` when the user acted: Discord's deadlines count from here."""

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
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]


def walk_components(components: list[JSONDict]) -> Iterator[JSONDict]:
    """Depth-first walk over v1 rows and v2 containers, sections and labels."""
    for component in components:
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from walk_components(children)
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])
