"""Installs the command tree's error handler (see ``cogs.replies``)."""

from __future__ import annotations

from discord.ext import commands

from cogs.replies import on_command_error


async def setup(bot: commands.Bot) -> None:
    bot.tree.error(on_command_error)
