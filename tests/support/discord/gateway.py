"""Discord's v10 gateway on the loopback server: the websocket a real discord.py client keeps.

It speaks the part of the protocol a bot meets: HELLO, IDENTIFY (token and intents
checked), READY and a GUILD_CREATE per guild, heartbeats and their acks, RESUME with a
replay of every event the client missed while it was away, RECONNECT, INVALID_SESSION and
Discord's close codes. It serves shards as Discord does: a session per shard named in
IDENTIFY, each server's events on shard ``(guild_id >> 22) % shard_count`` and DMs on
shard 0 (unsharded, everything goes to the one session). Payloads go out zlib-stream or
zstd-stream compressed, whichever the client asks for (discord.py picks zstd when it can
decompress it, zlib otherwise), or as plain JSON.

Tests act on it through :meth:`FakeGateway.dispatch` (deliver an event to the bot) and the
fault switches :meth:`FakeGateway.drop` and :meth:`FakeGateway.request_reconnect`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from .gateway_protocol import (
    ALREADY_AUTHENTICATED,
    AUTHENTICATION_FAILED,
    DECODE_ERROR,
    DISALLOWED_INTENTS,
    DISPATCH,
    GATEWAY_PATH,
    HEARTBEAT,
    HEARTBEAT_ACK,
    HELLO,
    IDENTIFY,
    INVALID_API_VERSION,
    INVALID_SESSION,
    INVALID_SHARD,
    NOT_AUTHENTICATED,
    PRESENCE_UPDATE,
    RECONNECT,
    REQUEST_MEMBERS,
    RESUME,
    UNKNOWN_ERROR,
    UNKNOWN_OPCODE,
    Connection,
    GatewaySession,
    Intent,
    JSONDict,
    compressor_for,
    guild_of,
    shard_of,
)

if TYPE_CHECKING:
    from .server import FakeDiscord, StoredMessage

__all__ = ["FakeGateway"]


class FakeGateway:
    """The gateway side of :class:`~tests.support.discord.server.FakeDiscord`."""

    def __init__(
        self,
        server: FakeDiscord,
        *,
        heartbeat_interval_ms: int = 41_250,
        privileged_intents: int = 0,
    ) -> None:
        self.server = server
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        """Privileged intents the application is allowed (others close with 4014)."""
        self.token: str | None = None
        """The bot token IDENTIFY must carry; None accepts any token."""
        self.sessions: dict[str, GatewaySession] = {}
        self.session: GatewaySession | None = None
        """The newest identified session."""
        self.shards: dict[int, GatewaySession] = {}
        """The current session of each shard id: where that shard's events go."""
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.close_codes: list[int] = []
        self.echo_own_messages = True
        """Whether the bot hears of its own messages, as it does on Discord."""
        self.last_dispatch_at = 0.0
        """``time.monotonic()`` of the newest event sent, to tell when the bot is idle."""
        self.last_prompt_at = 0.0
        """``time.monotonic()`` of the newest event a bot answers: an interaction or a
        message someone else wrote."""
        self.guild_payload: Callable[[int, int], JSONDict] | None = None
        """Builds a guild's GUILD_CREATE for an intents value (set by the driver)."""
        server.add_listener(self._echo)

    # ------------------------------------------------------------------ what tests use

    @property
    def url(self) -> str:
        """The gateway URL, as ``GET /gateway/bot`` and READY's resume URL give it."""
        return self.server.url.replace("http://", "ws://") + GATEWAY_PATH

    @property
    def connected(self) -> bool:
        """Whether every shard that identified has a live connection (with one process
        per shard: whether every process is there to hear its events)."""
        return bool(self.shards) and all(s.connection is not None for s in self.shards.values())

    def shard_connected(self, shard_id: int) -> bool:
        """Whether shard ``shard_id``'s session has a live connection."""
        session = self.shards.get(shard_id)
        return session is not None and session.connection is not None

    @property
    def last_seq(self) -> int:
        """Sequence number of the newest event of the current session (0 before READY)."""
        return self.session.seq if self.session is not None else 0

    def shard_seqs(self) -> dict[int, int]:
        """The newest sequence number sent on each shard: each connection counts its own."""
        return {shard_id: session.seq for shard_id, session in self.shards.items()}

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session of the shard a server's events (or, for None, DMs) go to."""
        if self.session is None:
            return None
        return self.shards.get(shard_of(guild_id, self.session.shard[1]))

    def dispatch(
        self,
        event: str,
        data: JSONDict,
        *,
        intent: int = 0,
        session: GatewaySession | None = None,
    ) -> None:
        """Deliver one DISPATCH event to its shard's session (or ``session``), if that
        session's intents take it.

        A session whose connection dropped keeps the event and replays it on RESUME.
        """
        if session is None:
            session = self.session_for(guild_of(event, data))
        if session is None or (intent and not session.wants(intent)):
            return
        session.seq += 1
        self.last_dispatch_at = time.monotonic()
        if event == "INTERACTION_CREATE" or (
            event == "MESSAGE_CREATE"
            and data.get("author", {}).get("id") != self.server.bot_user["id"]
        ):
            self.last_prompt_at = self.last_dispatch_at
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.events.append(frame)
        if session.connection is not None:
            session.connection.send(frame)

    def dispatch_message(self, event: str, message: StoredMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE as Discord sends it, honouring the intents."""
        session = self.session_for(message.guild_id)
        if session is None:
            return
        intent = Intent.GUILD_MESSAGES if message.guild_id is not None else Intent.DIRECT_MESSAGES
        if event == "MESSAGE_DELETE":
            data: JSONDict = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
        else:
            data = self.server.message_event_payload(
                message, message_content=session.wants(Intent.MESSAGE_CONTENT)
            )
        self.dispatch(event, data, intent=intent, session=session)

    def drop(self, code: int = UNKNOWN_ERROR, *, shard: int | None = None) -> None:
        """Close a connection as a network fault or Discord would; the session survives.

        ``shard`` picks the shard's connection; by default the newest session's."""
        session = self._session_of(shard)
        if session is not None and session.connection is not None:
            session.connection.close(code)
            session.connection = None

    def request_reconnect(self, *, shard: int | None = None) -> None:
        """Send RECONNECT (op 7): the client must resume on a new connection."""
        session = self._session_of(shard)
        if session is not None and session.connection is not None:
            session.connection.send({"op": RECONNECT, "d": None})
            session.connection = None

    def _session_of(self, shard: int | None) -> GatewaySession | None:
        return self.session if shard is None else self.shards.get(shard)

    # ------------------------------------------------------------------ protocol

    def bot_gateway(self) -> JSONDict:
        """``GET /gateway/bot``: where to connect, one shard, plenty of session starts."""
        return {
            "url": self.url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One websocket connection, from HELLO to close."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        try:
            compressor = compressor_for(request.query.get("compress"))
        except ValueError:
            compressor, refused = None, True
        else:
            refused = request.query.get("encoding", "json") != "json"
        connection = Connection(ws, compressor)
        try:
            if request.query.get("v") != "10":
                connection.close(INVALID_API_VERSION)
            elif refused:
                connection.close(DECODE_ERROR)
            else:
                connection.send(
                    {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
                )
                await self._serve(ws, connection)
        finally:
            connection.close(ws.close_code or UNKNOWN_ERROR)  # ends the writer once it is idle
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(connection.writer), 5)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            if ws.close_code is not None:
                self.close_codes.append(ws.close_code)
        return ws

    async def _serve(self, ws: web.WebSocketResponse, connection: Connection) -> None:
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                if message.type is WSMsgType.BINARY:
                    connection.close(DECODE_ERROR)
                continue
            try:
                payload = json.loads(message.data)
                op = payload["op"]
            except (ValueError, KeyError, TypeError):
                connection.close(DECODE_ERROR)
                continue
            data = payload.get("d")
            if op == HEARTBEAT:
                self.heartbeats += 1
                connection.send({"op": HEARTBEAT_ACK})
            elif op == IDENTIFY:
                self._identify(connection, data or {})
            elif op == RESUME:
                self._resume(connection, data or {})
            elif connection.session is None:
                connection.close(NOT_AUTHENTICATED)
            elif op == PRESENCE_UPDATE:
                connection.session.presences.append(data)
            elif op != REQUEST_MEMBERS:
                connection.close(UNKNOWN_OPCODE)

    def _token_ok(self, token: object) -> bool:
        expected = self.token
        given = str(token or "").removeprefix("Bot ")
        return expected is None or given == expected

    def _identify(self, connection: Connection, data: JSONDict) -> None:
        if connection.session is not None:
            connection.close(ALREADY_AUTHENTICATED)
            return
        if not self._token_ok(data.get("token")):
            connection.close(AUTHENTICATION_FAILED)
            return
        intents = int(data.get("intents") or 0)
        if intents & Intent.PRIVILEGED & ~self.privileged_intents:
            connection.close(DISALLOWED_INTENTS)
            return
        try:
            shard_id, shard_count = (int(n) for n in data.get("shard") or (0, 1))
        except (TypeError, ValueError):
            connection.close(DECODE_ERROR)
            return
        if not 0 <= shard_id < shard_count:
            connection.close(INVALID_SHARD)
            return
        previous = self.shards.get(shard_id)
        if previous is not None and previous.connection is not None:
            # One session per shard: a new identify ends the previous connection.
            previous.connection.close(UNKNOWN_ERROR)
        session = GatewaySession(
            id=secrets.token_hex(16), intents=intents, shard=(shard_id, shard_count)
        )
        self.identifies += 1
        self.sessions[session.id] = session
        self.session = session
        self.shards[shard_id] = session
        session.connection = connection
        connection.session = session
        server = self.server
        guilds = [g for g in server.guilds if shard_of(g, shard_count) == shard_id]
        self.dispatch(
            "READY",
            {
                "v": 10,
                "user": server.bot_user,
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.url,
                "session_type": "normal",
                "shard": [shard_id, shard_count],
                "application": {"id": str(server.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "auth": {},
                "user_settings": {},
            },
            session=session,
        )
        for guild_id in guilds:
            self.dispatch("GUILD_CREATE", self.guild_create(guild_id, intents), session=session)

    def guild_create(self, guild_id: int, intents: int) -> JSONDict:
        """The GUILD_CREATE payload for a guild, as the session's intents shape it."""
        if self.guild_payload is not None:
            return self.guild_payload(guild_id, intents)
        return self.server.guilds[guild_id]

    def _resume(self, connection: Connection, data: JSONDict) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if (
            session is None
            or not self._token_ok(data.get("token"))
            or self.shards.get(session.shard[0]) is not session
        ):
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        if session.connection is not None:
            session.connection.close(UNKNOWN_ERROR)
        self.resumes += 1
        session.connection = connection
        connection.session = session
        seen = int(data.get("seq") or 0)
        for frame in session.events:
            if frame["s"] > seen:
                connection.send(frame)
        self.dispatch("RESUMED", {}, session=session)

    def _echo(self, event: str, message: StoredMessage) -> None:
        """Discord tells the bot about messages, its own included, over the gateway."""
        if self.echo_own_messages:
            self.dispatch_message(event, message)
