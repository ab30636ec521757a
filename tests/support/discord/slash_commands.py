"""Slash commands as the Discord client builds them: the command found where the user is
(refused where Discord would not offer it), and each option's value checked and resolved
the way Discord sends it to the bot.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from .accounts import FakeUser, Where
from .cast import Cast
from .models import JSONDict
from .settling import ClientInternals


class SlashCommands(Cast):
    """The command a user runs and the interaction data Discord would send for it."""

    require_synced_commands: bool
    _internals: ClientInternals

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
        focus_param = None if focused is None else _focus(command, params, focused)
        options: list[JSONDict] = []
        resolved: JSONDict = {}
        given: set[str] = set()
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
            _check_all_required_given(command, given)
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


def _focus(
    command: app_commands.Command[Any, ..., Any],
    params: Mapping[str, app_commands.Parameter],
    focused: str,
) -> app_commands.Parameter:
    """The option the user is typing, refused unless it exists and autocompletes."""
    param = params.get(focused)
    if param is None:
        raise TypeError(f"/{command.name} has no option {focused!r}")
    if not param.autocomplete:
        raise ValueError(f"option {focused!r} of /{command.name} has no autocomplete")
    return param


def _check_all_required_given(
    command: app_commands.Command[Any, ..., Any], given: set[str]
) -> None:
    missing = [p.display_name for p in command.parameters if p.required and p.name not in given]
    if missing:
        raise ValueError(f"/{command.name} requires {missing}")
