"""Messages on the loopback Discord: created, edited, deleted, logged and echoed.

Every route that makes or changes a message (channel sends, interaction responses,
follow-ups, webhook edits) goes through these helpers, so flags, attachments, embeds,
mentions and the ``sent`` log behave the same whichever way a message arrived.
"""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

from aiohttp import web

from .models import (
    CLIENT_SETTABLE_FLAGS,
    COMPONENTS_V2,
    DM,
    EPHEMERAL,
    LOADING,
    MSG_CHAT_INPUT_COMMAND,
    MSG_DEFAULT,
    MSG_REPLY,
    SUPPRESS_EMBEDS,
    ChannelInfo,
    InteractionState,
    JSONDict,
    Sent,
    StoredAttachment,
    StoredMessage,
    now_iso,
    walk_components,
)
from .validation import Validation
from .wire import ApiError, form_error
from .world import World


class Messages(Validation, World):
    """Storing, changing and logging messages, the same for every route."""

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
                        raise form_error([name], "UNKNOWN_FIELD", "Unknown multipart field.")
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
                raise form_error(
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

    @staticmethod
    def _number_components(components: list[JSONDict]) -> list[JSONDict]:
        """Give every component a numeric ``id`` as Discord does when echoing them back."""
        used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
        counter = 1
        for component in walk_components(components):
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
            keep = CLIENT_SETTABLE_FLAGS | (EPHEMERAL if interaction else 0)
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
        message.edited_timestamp = now_iso()

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
            raise ApiError(404, 10008, "Unknown Message")
        return message
