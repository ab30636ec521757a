"""Where a command was used, as the referee needs it to decide who may look at a game."""

from __future__ import annotations

import discord

from bot.referee import DIRECT_MESSAGE, Place


def place_of(interaction: discord.Interaction) -> Place:
    """The server a command was used in and the channels its user can view there.

    Needs no privileged intent: the interaction carries its user as a member with their
    roles, and the server's channels with their permission overwrites are in the cache.
    A channel the cache does not know (deleted, or never seen) counts as not viewable.
    """
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return DIRECT_MESSAGE

    def can_view(channel_id: int) -> bool:
        channel = guild.get_channel_or_thread(channel_id)
        return channel is not None and channel.permissions_for(member).view_channel

    return Place(guild.id, can_view)
