"""``/games`` and ``/rules``: public information only."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import RefereeBot
from bot.games import ENGINES
from bot.presenter import fill_names
from cogs.challenges import GAME_CHOICES
from cogs.places import place_of


class Info(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="List the games running in this server.")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        running = await self.bot.referee.games_in(interaction.user.id, place_of(interaction))
        if not running:
            await interaction.response.send_message(
                "No game is running in this server. Start one with `/play`.", ephemeral=True
            )
            return
        lines = [
            f"**#{game.id} {ENGINES[game.game].title}** · <@{game.seats[0]}> vs "
            f"<@{game.seats[1]}> in <#{game.channel_id}> · {fill_names(status, game)}"
            for game, status in running[:20]
        ]
        if len(running) > 20:
            lines.append(f"…and {len(running) - 20} more.")
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="rules", description="The rules summary and move notation.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        engine = ENGINES[game.value]
        variants = ", ".join(f"`{name}`" for name in engine.presets)
        text = (
            f"{engine.describe(engine.presets[engine.default_variant])}\n"
            f"Variants (the `variant` option of `/play`): {variants}."
        )
        await interaction.response.send_message(text, ephemeral=interaction.guild_id is not None)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Info(bot))
