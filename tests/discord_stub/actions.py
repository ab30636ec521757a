"""Users acting on the bot: DMs, channel posts, slash commands, autocomplete, clicks, modals.

Each action is refused the way the Discord client would refuse it (an unknown option, a
command not offered in DMs, a disabled button, someone else's ephemeral message), then
becomes the gateway event Discord would send, and waits until the bot has reacted.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from .accounts import FakeGuild, FakeUser, Where
from .cast import Cast
from .models import JSONDict
from .results import InteractionResult
from .server import DM, ChannelInfo, StoredMessage
from .settling import Settling

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class UserActions(Cast, Settling):
    """What the people in a test do, as Discord would deliver it to the bot."""

    require_synced_commands: bool

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
        self,
        user: FakeUser,
        name: str,
        focused: str,
        *,
        guild: bool | FakeGuild | int = True,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[JSONDict]:
        """``user`` is typing option ``focused`` of ``/name``; returns the bot's choices.

        The focused option's value is what the user typed so far (``""`` if not given).
        """
        result = await self.autocomplete_result(
            user, name, focused, guild=guild, channel_id=channel_id, options=options, **kwargs
        )
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

    def _find_command(
        self, name: str, where: Where, user: FakeUser
    ) -> tuple[app_commands.Command[Any, ..., Any], int | None]:
        tree = self._internals.command_tree()
        if tree is None:
            raise LookupError("the client has no app_commands.CommandTree")
        command: Any = None
        command_guild_id: int | None = None
        if where.guild is not None:
            command = tree.get_command(name, guild=discord.Object(where.guild.id))
            if command is not None:
                command_guild_id = where.guild.id
        if command is None:
            command = tree.get_command(name)
        if not isinstance(command, app_commands.Command):
            raise LookupError(f"no slash command /{name} in the tree (groups are not supported)")
        if self.require_synced_commands:
            synced = {c["name"] for c in self.server.commands.get(command_guild_id, [])}
            if name not in synced:
                raise LookupError(f"/{name} was never synced, so Discord would not offer it")
        contexts = command.allowed_contexts
        if where.guild is None:
            if command.guild_only or (contexts is not None and not contexts.dm_channel):
                raise PermissionError(f"Discord does not offer /{name} in DMs")
        else:
            if contexts is not None and not contexts.guild:
                raise PermissionError(f"Discord does not offer /{name} in guilds")
            needed = command.default_permissions
            if (
                needed is not None
                and user.id != where.guild.owner_id
                and not user.permissions.administrator
                and not needed.is_subset(user.permissions)
            ):
                raise PermissionError(f"{user.name!r} lacks {needed!r} needed to see /{name}")
        return command, command_guild_id

    def _command_data(
        self,
        command: app_commands.Command[Any, ..., Any],
        command_guild_id: int | None,
        where: Where,
        values: Mapping[str, Any],
        *,
        focused: str | None,
    ) -> JSONDict:
        params = {p.name: p for p in command.parameters}
        params.update({p.display_name: p for p in command.parameters})
        options: list[JSONDict] = []
        resolved: JSONDict = {}
        given: set[str] = set()
        focus_param = None
        if focused is not None:
            focus_param = params.get(focused)
            if focus_param is None:
                raise TypeError(f"/{command.name} has no option {focused!r}")
            if not focus_param.autocomplete:
                raise ValueError(f"option {focused!r} of /{command.name} has no autocomplete")
        for key, value in values.items():
            param = params.get(key)
            if param is None:
                names = sorted(p.display_name for p in command.parameters)
                raise TypeError(f"/{command.name} has no option {key!r}; options are {names}")
            if param is focus_param:
                continue
            option: JSONDict = {"name": param.display_name, "type": param.type.value}
            option["value"] = self._option_value(param, value, where, resolved)
            options.append(option)
            given.add(param.name)
        if focus_param is not None:
            typed = values.get(focus_param.name, values.get(focus_param.display_name, ""))
            options.append(
                {
                    "name": focus_param.display_name,
                    "type": focus_param.type.value,
                    "value": "" if typed is None else str(typed),
                    "focused": True,
                }
            )
        else:
            missing = [
                p.display_name for p in command.parameters if p.required and p.name not in given
            ]
            if missing:
                raise ValueError(f"/{command.name} requires {missing}")
        data: JSONDict = {
            "id": str(self.server.command_id(command.name, command_guild_id)),
            "name": command.name,
            "type": 1,
        }
        if command_guild_id is not None:
            data["guild_id"] = str(command_guild_id)
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(
        self, param: app_commands.Parameter, value: Any, where: Where, resolved: JSONDict
    ) -> Any:
        kind = param.type
        option_type = discord.AppCommandOptionType
        if isinstance(value, app_commands.Choice):
            value = value.value
        elif isinstance(value, enum.Enum):
            match = next((c for c in param.choices if c.name == value.name), None)
            value = match.value if match is not None else value.value
        if kind in (option_type.user, option_type.mentionable):
            user = value if isinstance(value, FakeUser) else self.users.get(int(value))
            if user is None:
                raise LookupError(f"unknown user {value!r} for option {param.display_name!r}")
            resolved.setdefault("users", {})[str(user.id)] = user.payload
            if where.guild is not None and user.id in self.server.guild_members[where.guild.id]:
                member = self.server.member_payload(where.guild.id, user.id, with_user=False)
                member["permissions"] = str(self._member_permissions(user, where).value)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if kind is option_type.channel:
            channel = self.server.channels[int(value)]
            data = channel.payload(self.server.users)
            data["permissions"] = str(self.app_permissions.value)
            data.setdefault("name", "")
            resolved.setdefault("channels", {})[str(channel.id)] = data
            return str(channel.id)
        if kind is option_type.attachment:
            filename, content = value
            attachment = self.server.add_attachment(filename, content)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload(
                self.server.url, where.channel_id
            )
            return str(attachment.id)
        if kind is option_type.role:
            raise NotImplementedError("ROLE options are not supported by the fake guild")
        if kind is option_type.string:
            value = str(value)
            low, high = param.min_value, param.max_value
            if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                raise ValueError(f"{param.display_name!r} must be {low}..{high} characters")
        elif kind is option_type.integer:
            if isinstance(value, bool) or int(value) != value:
                raise ValueError(f"{param.display_name!r} needs an integer, got {value!r}")
            value = int(value)
        elif kind is option_type.number:
            value = float(value)
        elif kind is option_type.boolean and not isinstance(value, bool):
            raise ValueError(f"{param.display_name!r} needs a bool, got {value!r}")
        if kind in (option_type.integer, option_type.number):
            low, high = param.min_value, param.max_value
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"{param.display_name!r} must be within {low}..{high}")
        if param.choices and value not in [c.value for c in param.choices]:
            raise ValueError(f"{value!r} is not a choice of {param.display_name!r}")
        return value

    def _member_permissions(self, user: FakeUser, where: Where) -> discord.Permissions:
        if where.guild is not None and user.id == where.guild.owner_id:
            return discord.Permissions.all()
        return user.permissions

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
