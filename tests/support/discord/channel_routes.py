"""The loopback Discord's channel routes: a channel, typing, messages, history, reactions.

Closed DMs (50007), enforced nonces, editing someone else's message (50005) and history
paging answer as Discord does.
"""

from __future__ import annotations

import time
import urllib.parse

from aiohttp import web

from .messages import Messages
from .models import DM, NONCE_WINDOW
from .wire import ApiError, empty_response, json_response


class ChannelRoutes(Messages):
    """Channel and channel-message routes."""

    async def _get_channel(self, request: web.Request, channel_id: str) -> web.Response:
        return json_response(200, self._channel(int(channel_id)).payload(self.users))

    async def _typing(self, request: web.Request, channel_id: str) -> web.Response:
        self._channel(int(channel_id))
        return empty_response()

    async def _create_channel_message(self, request: web.Request, channel_id: str) -> web.Response:
        channel = self._channel(int(channel_id))
        payload, files = await self._read_body(request)
        if (
            channel.type == DM
            and channel.recipient_id is not None
            and self.dms_closed(channel.recipient_id)
        ):
            raise ApiError(403, 50007, "Cannot send messages to this user")
        self._validate(payload, files, creating=True)
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            known = self._nonces.get((channel.id, str(nonce)))
            if known is not None and time.monotonic() - known[1] < NONCE_WINDOW:
                existing = self.messages.get(known[0]) or self.deleted.get(known[0])
                if existing is not None:
                    return json_response(200, existing.payload(self.url))
        message = self._create_message(channel, payload, files)
        if nonce is not None and payload.get("enforce_nonce"):
            self._nonces[(channel.id, str(nonce))] = (message.id, time.monotonic())
        self._log_message("message", message, payload, self._sorted_files(files))
        self._emit("MESSAGE_CREATE", message)
        return json_response(200, message.payload(self.url))

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
        return json_response(200, [m.payload(self.url) for m in reversed(messages)])

    async def _get_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        return json_response(200, self._channel_message(channel_id, message_id).payload(self.url))

    async def _edit_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        message = self._channel_message(channel_id, message_id)
        payload, files = await self._read_body(request)
        if message.author_id != self.application_id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._validate(payload, files, creating=False)
        self._apply_edit(message, payload, files)
        self._log_message("edit", message, payload, self._sorted_files(files))
        self._emit("MESSAGE_UPDATE", message)
        return json_response(200, message.payload(self.url))

    async def _delete_channel_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        self._delete(self._channel_message(channel_id, message_id))
        return empty_response()

    async def _add_reaction(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        reactions, decoded = self._reactions(channel_id, message_id, emoji)
        if decoded not in reactions:
            reactions.append(decoded)
        return empty_response()

    async def _remove_reaction(
        self, request: web.Request, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        reactions, decoded = self._reactions(channel_id, message_id, emoji)
        if decoded in reactions:
            reactions.remove(decoded)
        return empty_response()

    def _reactions(self, channel_id: str, message_id: str, emoji: str) -> tuple[list[str], str]:
        """The message's reactions, and the emoji as the URL path quoted it, unquoted."""
        return self._channel_message(channel_id, message_id).reactions, urllib.parse.unquote(emoji)
