"""One way to answer refusals and failures, for commands, buttons and DMs alike.

A ``GameError`` is a refusal: its sentence goes to the person who acted, privately. Any
other exception is a fault: it is logged with its context and the person is told, so no
one is ever left without an answer. Storage writes are transactions, so a fault leaves
every game as it was before the failing move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import discord
from discord import app_commands

from bot.delivery.discord_answers import defer_thinking, tell
from bot.delivery.discord_sender import responding
from bot.games.core import GameError

log = logging.getLogger("referee.cogs")

SORRY = "Something went wrong on my side. Your games are safe: `/board` shows where they stand."

OLD_COMMAND = (
    "Your Discord app still shows that command as it was before an update of mine: reload "
    "Discord (Ctrl+R, or restart the app) and try it again."
)
"""The answer to a command the bot no longer has, or whose options changed since the
player's app loaded it (Discord apps keep the commands they loaded for a while)."""

DEFER_AFTER = 1.5
"""Seconds a command may work before its answer is deferred: Discord drops an interaction
not answered within 3 seconds, and a deferred one may be answered for 15 minutes."""


@asynccontextmanager
async def deferred_if_slow(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Run a command's work; if no answer went out within ``DEFER_AFTER`` seconds, defer
    it (Discord shows "thinking...") so the answer may follow for up to 15 minutes."""

    async def defer_later() -> None:
        await asyncio.sleep(DEFER_AFTER)
        async with responding(interaction):
            if not interaction.response.is_done():
                await defer_thinking(interaction)

    timer = asyncio.get_running_loop().create_task(defer_later(), name="defer if slow")
    try:
        yield
    finally:
        timer.cancel()
        with contextlib.suppress(asyncio.CancelledError, discord.HTTPException):
            await timer


async def nobody_asked(text: str) -> None:
    """The reply for work no one requested (a redelivery, the clock's tick): only logged."""


@asynccontextmanager
async def answering_errors(
    reply: Callable[[str], Awaitable[object]], what: str, game_id: int | None = None
) -> AsyncIterator[None]:
    """Run a player's request; turn a refusal or a fault into a reply to them.

    ``game_id``, when the request is about a known game, goes into the log as a field.
    """
    try:
        yield
    except GameError as error:
        await _reply_safely(reply, str(error), what)
    except Exception:
        log.exception("%s failed", what, extra={"game_id": game_id})
        await _reply_safely(reply, SORRY, what)


async def _reply_safely(reply: Callable[[str], Awaitable[object]], text: str, what: str) -> None:
    try:
        await reply(text)
    except discord.HTTPException:
        log.warning("%s: could not deliver the answer to the player", what)


async def on_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """The command tree's error handler: refusals answered, faults logged and answered."""
    original = getattr(error, "original", error)
    command = interaction.command.name if interaction.command else "a command"
    if isinstance(original, app_commands.CommandNotFound):
        command = original.name
    if isinstance(original, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        # No fault: the player's app still has the command as it was before an update.
        log.warning("/%s: the player's app sent an older form of it", command)
        await _reply_safely(lambda text: tell(interaction, text), OLD_COMMAND, f"/{command}")
        return
    async with answering_errors(lambda text: tell(interaction, text), f"/{command}"):
        raise original
