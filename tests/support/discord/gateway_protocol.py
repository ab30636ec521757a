"""The gateway's protocol as the loopback Discord speaks it: opcodes, close codes, intent
bits, the stream compressors, one websocket's ordered writer, a resumable session, and
Discord's rule for which shard hears a server's events.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JSONDict = dict[str, Any]
GATEWAY_PATH = "/gateway"
TASK_PREFIX = "fake-discord"
"""Name prefix of the server's own tasks, which a test never waits for."""

# Opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE = 0, 1, 2, 3
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Close codes.
UNKNOWN_ERROR = 4000
UNKNOWN_OPCODE = 4001
DECODE_ERROR = 4002
NOT_AUTHENTICATED = 4003
AUTHENTICATION_FAILED = 4004
ALREADY_AUTHENTICATED = 4005
INVALID_SHARD = 4010
INVALID_API_VERSION = 4012
DISALLOWED_INTENTS = 4014


class Intent:
    """The intent bits the fake gateway filters on."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


Compressor = Callable[[bytes], bytes]


def _zlib_stream() -> Compressor:
    """One zlib stream per connection; each message ends on a sync flush (``00 00 ff ff``)."""
    stream = zlib.compressobj()
    return lambda data: stream.compress(data) + stream.flush(zlib.Z_SYNC_FLUSH)


def _zstd_stream() -> Compressor | None:
    """One zstd stream per connection, flushed per message; None without a zstd module.

    discord.py asks for zstd-stream instead of zlib-stream whenever it can decompress it
    (Python 3.14's ``compression.zstd``, or the ``zstandard`` package).
    """
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        try:
            import zstandard  # type: ignore[import-not-found]
        except ImportError:
            return None
        stream = zstandard.ZstdCompressor().compressobj()
        flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
        return lambda data: stream.compress(data) + stream.flush(flush)  # type: ignore[no-any-return]
    compressor = zstd.ZstdCompressor()
    block = zstd.ZstdCompressor.FLUSH_BLOCK
    return lambda data: compressor.compress(data, mode=block)  # type: ignore[no-any-return]


def compressor_for(kind: str | None) -> Compressor | None:
    """The stream compressor a ``compress`` query asks for; raises ValueError if unknown."""
    if kind is None:
        return None
    if kind == "zlib-stream":
        return _zlib_stream()
    if kind == "zstd-stream":
        found = _zstd_stream()
        if found is not None:
            return found
    raise ValueError(f"unsupported compression {kind!r}")


class Connection:
    """One websocket: frames are queued and written in order by a single writer task."""

    def __init__(self, ws: web.WebSocketResponse, compressor: Compressor | None) -> None:
        self.ws = ws
        self._compressor = compressor
        self._queue: asyncio.Queue[JSONDict | int] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(
            self._write(), name=f"{TASK_PREFIX}-gateway-writer"
        )
        self.session: GatewaySession | None = None

    def send(self, frame: JSONDict) -> None:
        self._queue.put_nowait(frame)

    def close(self, code: int) -> None:
        """Close after every frame queued so far went out."""
        self._queue.put_nowait(code)

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, int):
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.ws.close(code=item)
                return
            text = json.dumps(item)
            try:
                if self._compressor is None:
                    await self.ws.send_str(text)
                else:
                    await self.ws.send_bytes(self._compressor(text.encode()))
            except (ConnectionError, RuntimeError):
                return


@dataclass
class GatewaySession:
    """A gateway session: it outlives its connection, so a client can resume it."""

    id: str
    intents: int
    seq: int = 0
    events: list[JSONDict] = field(default_factory=list)
    connection: Connection | None = None
    presences: list[JSONDict] = field(default_factory=list)
    shard: tuple[int, int] = (0, 1)
    """``[shard_id, shard_count]`` as IDENTIFY named it (``[0, 1]``: unsharded)."""

    def wants(self, bits: int) -> bool:
        return bool(self.intents & bits)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's rule: a server's events go to ``(guild_id >> 22) % shard_count``, and
    everything without a server (DMs) to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def guild_of(event: str, data: JSONDict) -> int | None:
    """The server an event belongs to: its ``guild_id``, or a server event's own id."""
    guild_id = data.get("guild_id")
    if guild_id is None and event in {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}:
        guild_id = data.get("id")
    return int(guild_id) if guild_id is not None else None
