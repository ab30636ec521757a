"""Short private answers to a player, and the catch-all for unexpected failures."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger("referee.cogs")

SORRY = "Something went wrong on my side and nothing was changed. Please try again."


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Answer only the person who acted: ephemeral in a server, plain in DMs."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
