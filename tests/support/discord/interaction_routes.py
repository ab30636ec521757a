"""The loopback Discord's interaction routes: the initial callback and the token webhook.

Discord's obligations are enforced here: one acknowledgement within the deadline (10062,
40060), response types valid for the interaction, 25 autocomplete choices, a webhook that
exists only after the callback and a token that expires (50027).
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .messages import Messages
from .models import EPHEMERAL, LOADING, ChannelInfo, InteractionState, JSONDict, StoredMessage
from .wire import ApiError, empty_response, form_error, json_response

Files = dict[int, tuple[str, bytes]]

ALLOWED_RESPONSES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
"""The callback types Discord accepts per interaction type (command, component,
autocomplete, modal submit); a modal submitted from a slash command cannot update."""


class InteractionRoutes(Messages):
    """Interaction callbacks, follow-ups and webhook message routes."""

    async def _interaction_callback(
        self, request: web.Request, interaction_id: str, token: str
    ) -> web.Response:
        interaction = self.interactions.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        if time.monotonic() - interaction.created_at > self.interaction_deadline:
            raise ApiError(404, 10062, "Unknown interaction")  # answered too late
        payload, files = await self._read_body(request)
        callback_type = int(payload.get("type", 0))
        if interaction.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        _check_response_type(interaction, callback_type)
        channel = self._channel(interaction.channel_id)
        answer = {
            4: self._respond_with_message,
            5: self._defer_with_message,
            6: self._defer_update,
            7: self._update_message,
            8: self._offer_choices,
            9: self._open_modal,
        }[callback_type]
        message = answer(interaction, channel, payload, files)
        resource: JSONDict = {"type": callback_type}
        callback: JSONDict = {"id": str(interaction.id), "type": interaction.type}
        if message is not None:
            callback["response_message_id"] = str(message.id)
            callback["response_message_loading"] = message.loading
            callback["response_message_ephemeral"] = message.ephemeral
            resource["message"] = message.payload(self.url)
            self._emit("MESSAGE_UPDATE" if callback_type == 7 else "MESSAGE_CREATE", message)
        return json_response(200, {"interaction": callback, "resource": resource})

    def _respond_with_message(
        self, interaction: InteractionState, channel: ChannelInfo, payload: JSONDict, files: Files
    ) -> StoredMessage:
        data: JSONDict = payload.get("data") or {}
        self._validate(data, files, creating=True)
        message = self._create_message(channel, data, files, interaction=interaction)
        self._acknowledge(interaction, 4, message.id)
        self._log_message(
            "response",
            message,
            data,
            self._sorted_files(files),
            interaction=interaction,
            callback_type=4,
        )
        return message

    def _defer_with_message(
        self, interaction: InteractionState, channel: ChannelInfo, payload: JSONDict, files: Files
    ) -> StoredMessage:
        data: JSONDict = payload.get("data") or {}
        flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
        message = self._create_message(channel, {}, {}, interaction=interaction, forced_flags=flags)
        self._acknowledge(interaction, 5, message.id)
        self._log_message("deferred", message, data, [], interaction=interaction, callback_type=5)
        return message

    def _defer_update(
        self, interaction: InteractionState, channel: ChannelInfo, payload: JSONDict, files: Files
    ) -> None:
        self._acknowledge(interaction, 6, interaction.message_id)
        self._log_callback(
            "deferred", interaction, channel, payload, message_id=interaction.message_id
        )

    def _update_message(
        self, interaction: InteractionState, channel: ChannelInfo, payload: JSONDict, files: Files
    ) -> StoredMessage:
        data: JSONDict = payload.get("data") or {}
        target = self.messages.get(interaction.message_id or 0)
        if target is None:
            raise ApiError(404, 10008, "Unknown Message")
        self._validate(data, files, creating=False)
        self._apply_edit(target, data, files)
        self._acknowledge(interaction, 7, target.id)
        self._log_message(
            "update",
            target,
            data,
            self._sorted_files(files),
            interaction=interaction,
            callback_type=7,
        )
        return target

    def _offer_choices(
        self, interaction: InteractionState, channel: ChannelInfo, payload: JSONDict, files: Files
    ) -> None:
        choices = (payload.get("data") or {}).get("choices") or []
        _check_choices(choices)
        self._acknowledge(interaction, 8, None)
        interaction.choices = choices
        self._log_callback("autocomplete", interaction, channel, payload, choices=choices)

    def _open_modal(
        self, interaction: InteractionState, channel: ChannelInfo, payload: JSONDict, files: Files
    ) -> None:
        data: JSONDict = payload.get("data") or {}
        components = data.get("components") or []
        if not data.get("custom_id") or not data.get("title") or not 1 <= len(components) <= 5:
            raise form_error(["data"], "MODAL_INVALID", "Invalid modal.")
        self._acknowledge(interaction, 9, None)
        interaction.modal = data
        self._log_callback(
            "modal", interaction, channel, payload, modal=data, components=components
        )

    @staticmethod
    def _acknowledge(
        interaction: InteractionState, callback_type: int, original: int | None
    ) -> None:
        """The interaction is answered (its webhook exists from now on)."""
        interaction.callback_type = callback_type
        if callback_type in (4, 5, 6, 7):
            interaction.original_message_id = original

    def _log_callback(
        self,
        kind: str,
        interaction: InteractionState,
        channel: ChannelInfo,
        payload: JSONDict,
        *,
        message_id: int | None = None,
        **fields: Any,
    ) -> None:
        """Record an answer that posts no message of its own."""
        self._log(
            kind,
            channel_id=channel.id,
            message_id=message_id,
            interaction_id=interaction.id,
            user_id=interaction.user_id,
            callback_type=interaction.callback_type,
            payload=payload,
            **fields,
        )

    def _webhook_interaction(self, app_id: str, token: str) -> InteractionState:
        interaction = self._by_token.get(token)
        if interaction is None or int(app_id) != self.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        if not interaction.acknowledged:
            # Discord only creates the interaction webhook once the callback was answered.
            raise ApiError(404, 10015, "Unknown Webhook")
        if time.monotonic() - interaction.created_at > self.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
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
            raise ApiError(404, 10008, "Unknown Message")
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
            return json_response(200, message.payload(self.url))
        return empty_response()

    async def _webhook_get(
        self, request: web.Request, app_id: str, token: str, message: str
    ) -> web.Response:
        asked = self._by_token.get(token)
        if (
            message == "@original"
            and asked is not None
            and not asked.acknowledged
            and int(app_id) == self.application_id
        ):
            raise ApiError(404, 10008, "Unknown Message")  # no answer went: no original yet
        interaction = self._webhook_interaction(app_id, token)
        return json_response(200, self._webhook_message(interaction, message).payload(self.url))

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
        return json_response(200, target.payload(self.url))

    async def _webhook_delete(
        self, request: web.Request, app_id: str, token: str, message: str
    ) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        self._delete(self._webhook_message(interaction, message), interaction)
        return empty_response()


def _check_response_type(interaction: InteractionState, callback_type: int) -> None:
    allowed = ALLOWED_RESPONSES[interaction.type]
    if interaction.type == 5 and interaction.message_id is None:
        allowed = {4, 5}
    if callback_type not in allowed:
        raise form_error(
            ["type"],
            "INTERACTION_RESPONSE_TYPE_INVALID",
            "Interaction response type is invalid for this interaction type",
        )


def _check_choices(choices: list[JSONDict]) -> None:
    """Discord's limits on autocomplete: 25 choices, names of 1 to 100 characters and
    string values of at most 100."""
    if len(choices) > 25:
        raise form_error(
            ["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    for index, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name", ""))) <= 100:
            raise form_error(
                ["data", "choices", index, "name"],
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            raise form_error(
                ["data", "choices", index, "value"],
                "BASE_TYPE_MAX_LENGTH",
                "Must be 100 or fewer in length.",
            )
