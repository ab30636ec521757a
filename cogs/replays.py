"""``/replay`` and ``/export``: a finished game told again, and its record for checking.

``/replay`` sends the animated board and the move list (the Replay button on the end
announcement does the same); ``/export`` sends the game's whole record as JSON, which
``python -m bot.verify`` checks against the rules.
"""

from __future__ import annotations

import asyncio
import io
import json

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import RefereeBot
from bot.delivery.discord_replies import answer, defer_privately, follow_up
from bot.delivery.presenter import Attachment, present_replay
from bot.replays import AUDIENCE_WORDS
from cogs.buttons import ReplayButton
from cogs.places import place_of

AUDIENCES = [app_commands.Choice(name=words, value=key) for key, words in AUDIENCE_WORDS.items()]


def as_file(attachment: Attachment) -> discord.File:
    return discord.File(
        io.BytesIO(attachment.data), attachment.filename, description=attachment.description
    )


class Replays(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description="A finished game, animated move by move.")
    @app_commands.rename(game_id="id", audience="as")
    @app_commands.describe(
        game_id="The game's number, as in #12",
        audience="Whose view: your own seat (players' default), the channel's, or both sides",
    )
    @app_commands.choices(audience=AUDIENCES)
    async def replay(
        self,
        interaction: discord.Interaction,
        game_id: app_commands.Range[int, 1, 2**62],
        audience: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.send_replay(interaction, game_id, audience.value if audience else None)

    async def send_replay(
        self, interaction: discord.Interaction, game_id: int, audience: str | None
    ) -> None:
        """Answer privately in a server (a seat's replay is that player's own), plainly in DMs.

        The refusals come first, answered at once; drawing a long game takes a moment,
        so the answer is deferred before it and the drawing runs off the event loop.
        """
        recording = await self.bot.referee.replay_of(
            game_id, interaction.user.id, audience, place_of(interaction)
        )
        await defer_privately(interaction)
        content, gif, moves = await asyncio.to_thread(present_replay, recording)
        files = [as_file(gif)] + ([as_file(moves)] if moves else [])
        await follow_up(interaction, content, files)

    @app_commands.command(
        name="export", description="A finished game's whole record, to check with bot.verify."
    )
    @app_commands.rename(game_id="id")
    @app_commands.describe(game_id="The game's number, as in #12")
    async def export(
        self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1, 2**62]
    ) -> None:
        record = await self.bot.referee.export(game_id, interaction.user.id, place_of(interaction))
        data = json.dumps(record, indent=1, ensure_ascii=False).encode()
        name = f"{record['game']}-{game_id}.json"
        await answer(
            interaction,
            f"The record of game #{game_id}: rules, seed, every move, every announcement and "
            f"the opened seals. Check it with `python -m bot.verify {name}`.",
            file=discord.File(io.BytesIO(data), name, description=f"Record of game {game_id}"),
        )


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(ReplayButton)
    await bot.add_cog(Replays(bot))
