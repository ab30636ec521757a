"""Users acting on the bot: DMs, channel posts, slash commands, autocomplete, clicks, modals.

Each action is refused the way the Discord client would refuse it (an unknown option, a
command not offered in DMs, a disabled button, someone else's ephemeral message), then
becomes the gateway event Discord would send, and waits until the bot has reacted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .accounts import FakeGuild, FakeUser, Where
from .models import JSONDict
from .results import InteractionResult
from .server import DM, ChannelInfo, StoredMessage
from .settling import Settling
from .slash_commands import SlashCommands

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class UserActions(SlashCommands, Settling):
    """What the people in a test do, as Discord would deliver it to the bot."""

    async def dm(self, user: FakeUser, text: str) -> StoredMessage:
        """``user`` sends ``text`` to the bot in their DM channel."""
        await self.settle()
        channel_id = self.server.dm_channel_id(user.id)
        message = self.server.store_user_message(channel_id, user.id, text)
        self.gateway.dispatch_message("MESSAGE_CREATE", message)
        await self.settle()
        return message

    async def say(
        self, user: FakeUser, text: str, *, channel_id: int | None = None
    ) -> StoredMessage:
        """``user`` posts ``text`` in a guild channel (first guild's channel by default).

        Without the message content intent the bot receives an empty ``content`` unless it
        is mentioned, exactly as on Discord.
        """
        await self.settle()
        target = channel_id or self.channel_id
        channel = self.server.channels[target]
        if channel.guild_id is None or user.id not in self.server.guild_members[channel.guild_id]:
            raise PermissionError(f"{user.name!r} cannot post in channel {target}")
        message = self.server.store_user_message(target, user.id, text)
        self.gateway.dispatch_message("MESSAGE_CREATE", message)
        await self.settle()
        return message

    async def slash(
        self,
        user: FakeUser,
        name: str,
        *,
        guild: bool | FakeGuild | int = True,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """``user`` runs ``/name`` with the given options (by Python or display name).

        Values: USER options take a :class:`FakeUser` (or id), ATTACHMENT options a
        ``(filename, bytes)`` pair, choice options the value, an ``app_commands.Choice`` or
        an Enum member. Raises like the Discord client would refuse: unknown command or
        option, missing required option, value outside choices/range, command not
        available in DMs or to this member. Pass ``options=`` for option names that clash
        with this method's keywords.
        """
        values = {**(options or {}), **kwargs}
        return await self._command_interaction(2, user, name, guild, channel_id, values, None)

    async def autocomplete_result(
        self,
        user: FakeUser,
        name: str,
        focused: str,
        *,
        guild: bool | FakeGuild | int = True,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """Like :meth:`autocomplete` but returns the whole :class:`InteractionResult`."""
        values = {**(options or {}), **kwargs}
        return await self._command_interaction(4, user, name, guild, channel_id, values, focused)

    async def autocomplete(
        self, user: FakeUser, name: str, focused: str, **where_and_values: Any
    ) -> list[JSONDict]:
        """``user`` is typing option ``focused`` of ``/name``; returns the bot's choices.

        The focused option's value is what the user typed so far (``""`` if not given);
        the keywords are those of :meth:`autocomplete_result` (``guild``, ``channel_id``,
        ``options``, and the option values).
        """
        result = await self.autocomplete_result(user, name, focused, **where_and_values)
        if result.choices is None:
            raise AssertionError(f"the bot did not answer autocomplete for /{name} {focused}")
        return result.choices

    async def click(
        self,
        user: FakeUser,
        message_id: int,
        custom_id: str,
        *,
        values: Iterable[str] | None = None,
    ) -> InteractionResult:
        """``user`` clicks a button (or picks ``values`` in a string select) on a message.

        Refuses what the Discord client would not allow: a component that is not on the
        message, a disabled one, or a message the user cannot see.
        """
        message = self.server.messages.get(message_id)
        if message is None:
            raise LookupError(f"message {message_id} does not exist (deleted?)")
        channel = self.server.channels[message.channel_id]
        self._check_can_see(user, message, channel)
        component = next(
            (c for c in message.iter_components() if c.get("custom_id") == custom_id), None
        )
        if component is None:
            raise LookupError(
                f"no component {custom_id!r} on message {message_id}; has {message.custom_ids}"
            )
        if component.get("disabled"):
            raise PermissionError(f"component {custom_id!r} is disabled")
        data: JSONDict = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 3:
            picked = list(values or [])
            allowed = {o["value"] for o in component.get("options", [])}
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not set(picked) <= allowed or not low <= len(picked) <= high:
                raise ValueError(f"invalid selection {picked} for {custom_id!r}")
            data["values"] = picked
        elif values is not None:
            raise ValueError("values only apply to string selects")
        elif component["type"] != 2:
            raise NotImplementedError(f"component type {component['type']} is not supported")
        guild = self._guild_by_id(channel.guild_id) if channel.guild_id is not None else None
        where = Where(guild, channel.id)
        return await self._interact(3, user, where, data, message=message)

    async def submit_modal(
        self, user: FakeUser, opened: InteractionResult, values: Mapping[str, Any]
    ) -> InteractionResult:
        """``user`` fills in and submits the modal the bot opened in ``opened``.

        ``values`` maps text input custom_ids to strings (selects: lists of strings).
        """
        modal = opened.modal
        if modal is None:
            raise LookupError("that interaction did not open a modal")
        unused = set(values)
        components: list[JSONDict] = []
        for component in modal["components"]:
            if component["type"] == 1:
                inner = [
                    self._modal_value(c, values, unused) for c in component.get("components", [])
                ]
                components.append({"type": 1, "id": component.get("id"), "components": inner})
            elif component["type"] == 18:
                inner_value = self._modal_value(component["component"], values, unused)
                components.append({"type": 18, "id": component.get("id"), "component": inner_value})
        if unused:
            raise TypeError(f"modal has no inputs {sorted(unused)}")
        state = opened.state
        channel = self.server.channels[state.channel_id]
        guild = self._guild_by_id(channel.guild_id) if channel.guild_id is not None else None
        message = self.server.messages.get(state.message_id) if state.message_id else None
        data = {"custom_id": modal["custom_id"], "components": components}
        return await self._interact(5, user, Where(guild, channel.id), data, message=message)

    @staticmethod
    def _modal_value(component: JSONDict, values: Mapping[str, Any], unused: set[str]) -> JSONDict:
        custom_id = component.get("custom_id")
        entry: JSONDict = {
            "type": component["type"],
            "id": component.get("id"),
            "custom_id": custom_id,
        }
        value = values.get(custom_id or "")
        unused.discard(custom_id or "")
        if component["type"] == 4:
            text = "" if value is None else str(value)
            if component.get("required", True) and not text:
                raise ValueError(f"text input {custom_id!r} is required")
            low, high = component.get("min_length") or 0, component.get("max_length") or 4000
            if text and not low <= len(text) <= high:
                raise ValueError(f"text input {custom_id!r} must be {low}..{high} characters")
            entry["value"] = text
        elif isinstance(value, bool):
            entry["value"] = value
        else:
            entry["values"] = [str(v) for v in value or []]
        return entry

    # ------------------------------------------------------------------ interaction building

    async def _command_interaction(
        self,
        type: int,
        user: FakeUser,
        name: str,
        guild: bool | FakeGuild | int,
        channel_id: int | None,
        values: Mapping[str, Any],
        focused: str | None,
    ) -> InteractionResult:
        """A slash command (type 2) or its autocomplete (type 4, ``focused`` being typed)."""
        where = self._where(user, guild, channel_id)
        command, command_guild_id = self._find_command(name, where, user)
        data = self._command_data(command, command_guild_id, where, values, focused=focused)
        return await self._interact(type, user, where, data, command_name=command.name)

    def _where(
        self, user: FakeUser, guild: bool | FakeGuild | int | None, channel_id: int | None
    ) -> Where:
        if guild is False or guild is None:
            dm_id = self.server.dm_channel_id(user.id)
            if channel_id not in (None, dm_id):
                raise ValueError("a DM interaction happens in the user's DM channel")
            return Where(None, dm_id)
        if guild is True:
            fake_guild = self.guild
        elif isinstance(guild, FakeGuild):
            fake_guild = guild
        else:
            fake_guild = self._guild_by_id(int(guild))
        target = channel_id or fake_guild.channel_id
        if self.server.channels[target].guild_id != fake_guild.id:
            raise ValueError(f"channel {target} is not in guild {fake_guild.id}")
        if user.id not in self.server.guild_members[fake_guild.id]:
            raise PermissionError(f"{user.name!r} is not a member of {fake_guild.name!r}")
        if not self.server.channels[target].viewable_by(user.id):
            raise PermissionError(f"{user.name!r} cannot view channel {target}")
        return Where(fake_guild, target)

    def _check_can_see(self, user: FakeUser, message: StoredMessage, channel: ChannelInfo) -> None:
        if message.ephemeral and message.visible_to != user.id:
            raise PermissionError("that ephemeral message is only visible to another user")
        if channel.type == DM and channel.recipient_id != user.id:
            raise PermissionError("that message is in someone else's DMs")
        if (
            channel.guild_id is not None
            and user.id not in self.server.guild_members[channel.guild_id]
        ):
            raise PermissionError(f"{user.name!r} is not in that guild")
        if not channel.viewable_by(user.id):
            raise PermissionError(f"{user.name!r} cannot view that channel")

    async def _interact(
        self,
        type: int,
        user: FakeUser,
        where: Where,
        data: JSONDict,
        *,
        command_name: str | None = None,
        message: StoredMessage | None = None,
    ) -> InteractionResult:
        await self.settle()
        server = self.server
        state = server.new_interaction(
            type=type,
            channel_id=where.channel_id,
            guild_id=where.guild.id if where.guild else None,
            user_id=user.id,
            command_name=command_name,
            message_id=message.id if message else None,
        )
        channel = server.channels[where.channel_id]
        payload: JSONDict = {
            "id": str(state.id),
            "application_id": str(server.application_id),
            "type": type,
            "token": state.token,
            "version": 1,
            "locale": user.locale,
            "app_permissions": str(self.app_permissions.value),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(server.users),
        }
        if where.guild is not None:
            member = server.member_payload(where.guild.id, user.id)
            member["permissions"] = str(self._member_permissions(user, where).value)
            payload.update(
                guild_id=str(where.guild.id),
                guild={"id": str(where.guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member,
                context=0,
                authorizing_integration_owners={"0": str(where.guild.id)},
            )
        else:
            payload.update(user=user.payload, context=1, authorizing_integration_owners={"0": "0"})
        if message is not None:
            payload["message"] = message.payload(server.url)
        start = server.last_seq
        self.feed("INTERACTION_CREATE", payload)
        await self.settle()
        return InteractionResult(server, state, start, server.last_seq)
