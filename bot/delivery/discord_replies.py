"""Answers to a person's commands and buttons other than moves: a challenge posted and
settled, the rules, the records, a replay, the resign question.

Each is the one answer of an interaction, for the person who acted: private in a server
and plain in direct messages, except what the channel is meant to see (a challenge and
its outcome). What a move answers, with its notices' delivery guarantees, is written in
``discord_answers``; what a game tells its players and its channel, in ``discord_sender``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.delivery.discord_sender import responding


def _private(interaction: discord.Interaction) -> bool:
    """Whether an answer for the person alone must be ephemeral: in a server, yes."""
    return interaction.guild_id is not None


def _or_missing(thing: Any) -> Any:
    """discord.py's way to leave an argument out: ``MISSING``."""
    return discord.utils.MISSING if thing is None else thing


async def answer(
    interaction: discord.Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
) -> None:
    """Answer only the person who acted: private in a server, plain in DMs."""
    await interaction.response.send_message(
        content, view=_or_missing(view), file=_or_missing(file), ephemeral=_private(interaction)
    )


async def answer_privately(interaction: discord.Interaction, content: str) -> None:
    """An answer that is the asker's alone wherever they asked (``/games``)."""
    await interaction.response.send_message(content, ephemeral=True)


async def answer_in_parts(interaction: discord.Interaction, parts: Sequence[str]) -> None:
    """An answer longer than one message: its first part answers, the rest follow it;
    private in a server, plain in DMs."""
    first, *more = parts
    await interaction.response.send_message(first, ephemeral=_private(interaction))
    for text in more:
        await interaction.followup.send(text, ephemeral=_private(interaction))


async def defer_privately(interaction: discord.Interaction) -> None:
    """Show "thinking" while an answer is drawn; private in a server (``follow_up``)."""
    await interaction.response.defer(ephemeral=_private(interaction), thinking=True)


async def follow_up(
    interaction: discord.Interaction, content: str, files: Sequence[discord.File]
) -> None:
    """The answer to a command deferred while its files were drawn; private in a server."""
    await interaction.followup.send(content, files=list(files), ephemeral=_private(interaction))


async def post_challenge(
    interaction: discord.Interaction, content: str, view: discord.ui.View, pinged: Sequence[int]
) -> int | None:
    """A challenge posted in the channel as the command's answer, pinging only ``pinged``
    (its opponent, or nobody for an open one). Returns the posted message's id."""
    callback = await interaction.response.send_message(
        content,
        view=view,
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(i) for i in pinged]),
    )
    return getattr(callback.resource, "id", None)


async def defer_publicly(interaction: discord.Interaction) -> None:
    """Acknowledge a command or press whose public answer takes a moment (a game starting)."""
    await interaction.response.defer()


async def withdraw(interaction: discord.Interaction) -> None:
    """Take a deferred public answer back, so that a refusal reaches the person alone."""
    await interaction.delete_original_response()


async def fill_in(interaction: discord.Interaction, content: str, *, drop_buttons: bool) -> None:
    """Fill a deferred public answer in: the placeholder of a command, or the message whose
    button was pressed (which then loses its buttons, with ``drop_buttons``)."""
    if drop_buttons:
        await interaction.edit_original_response(content=content, view=None)
    else:
        await interaction.edit_original_response(content=content)


async def replace(
    interaction: discord.Interaction, content: str, view: discord.ui.View | None = None
) -> None:
    """The message whose button was pressed shows ``content``, with ``view``'s buttons or
    none (a challenge declined, a page of history turned)."""
    await interaction.response.edit_message(content=content, view=view)


@asynccontextmanager
async def spending(interaction: discord.Interaction, spent: discord.ui.View) -> AsyncIterator[None]:
    """The question whose button was pressed shows ``spent`` (its buttons disabled) once
    the press is answered, whatever the answer.

    A question in a server is ephemeral: only an answer to this press can edit it, so its
    buttons are disabled first and the press answered as a follow-up. One in direct
    messages is an ordinary message of the bot's, edited after the answer.
    """
    in_server = _private(interaction)
    if in_server:
        async with responding(interaction):
            await interaction.response.edit_message(view=spent)
    try:
        yield
    finally:
        if not in_server and interaction.message is not None:
            with contextlib.suppress(discord.HTTPException):  # at worst it stays pressable
                await interaction.message.edit(view=spent)
