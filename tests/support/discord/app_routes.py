"""The loopback Discord's routes for the application: gateway, users, DMs, commands, CDN.

Everything a bot asks of Discord besides messages and interactions: who it is, its
application, opening a DM, syncing its slash commands, a guild member, and the CDN that
serves attachments and avatars (a tiny PNG, so nothing ever leaves the machine).
"""

from __future__ import annotations

import re
import struct
import zlib
from typing import TYPE_CHECKING

from aiohttp import web

from .messages import Messages
from .models import JSONDict
from .wire import ApiError, form_error, json_response

if TYPE_CHECKING:
    from .gateway import FakeGateway


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


class AppRoutes(Messages):
    """Gateway, user, application, DM, command, member and CDN routes."""

    gateway: FakeGateway

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response(200, self.gateway.bot_gateway())

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(200, self.bot_user)

    async def _get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.users.get(int(user_id))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(200, user)

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
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
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        channel_id = self.dm_channel_id(recipient)
        return json_response(200, self.channels[channel_id].payload(self.users))

    async def _put_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        if int(app_id) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        gid = int(guild_id) if guild_id is not None else None
        if gid is not None and gid not in self.guilds:
            raise ApiError(403, 50001, "Missing Access")
        body = await request.json()
        stored: list[JSONDict] = []
        for index, command in enumerate(body):
            name = command.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise form_error(
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
        return json_response(200, stored)

    async def _get_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        gid = int(guild_id) if guild_id is not None else None
        return json_response(200, self.commands.get(gid, []))

    async def _get_member(self, request: web.Request, guild_id: str, user_id: str) -> web.Response:
        members = self.guild_members.get(int(guild_id))
        if members is None:
            raise ApiError(404, 10004, "Unknown Guild")
        if int(user_id) not in members:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(200, self.member_payload(int(guild_id), int(user_id)))

    async def _cdn_attachment(
        self, request: web.Request, channel_id: str, attachment_id: str, name: str
    ) -> web.Response:
        attachment = self._attachments.get(int(attachment_id))
        if attachment is None:
            raise ApiError(404, 0, "404: Not Found")
        return web.Response(
            status=200, body=attachment.data, headers={"Content-Type": attachment.content_type}
        )

    async def _cdn_png(self, request: web.Request, **_: str) -> web.Response:
        return web.Response(status=200, body=_TINY_PNG, headers={"Content-Type": "image/png"})
