"""``/games`` and ``/rules``: public information only."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import RefereeBot
from bot.delivery.discord_replies import answer_in_parts, answer_privately
from bot.delivery.presenter import fill_names
from bot.games import ENGINES
from bot.storage import GameRecord
from cogs.challenges import GAME_CHOICES
from cogs.places import place_of

MESSAGE_LIMIT = 2000
"""Characters Discord takes in one message."""


def in_messages(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` cut at line ends into messages Discord takes (a longer line is cut too)."""
    messages = [""]
    for line in text.splitlines():
        while len(line) > limit:
            messages.append(line[:limit])
            line = line[limit:]
        joined = f"{messages[-1]}\n{line}" if messages[-1] else line
        if len(joined) > limit:
            messages.append(line)
        else:
            messages[-1] = joined
    return [message for message in messages if message]


def variant_of(game: GameRecord) -> str:
    engine = ENGINES[game.game]
    return engine.variant_name(engine.rules_from_json(game.rules))


class Info(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="List the games running in this server.")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        running = await self.bot.referee.games_in(interaction.user.id, place_of(interaction))
        if not running:
            await answer_privately(
                interaction, "No game is running in this server. Start one with `/play`."
            )
            return
        lines = [
            f"**#{game.id} {ENGINES[game.game].title}** ({variant_of(game)}) · "
            f"<@{game.seats[0]}> vs <@{game.seats[1]}> in <#{game.channel_id}> · "
            f"{fill_names(status, game)}"
            for game, status in running[:20]
        ]
        if len(running) > 20:
            lines.append(f"…and {len(running) - 20} more.")
        await answer_privately(interaction, "\n".join(lines))

    @app_commands.command(name="rules", description="The rules summary and move notation.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """The summary and notation, then every variant and option word with its line."""
        engine = ENGINES[game.value]
        summary = engine.describe(engine.presets[engine.default_variant])
        await answer_in_parts(
            interaction, in_messages(summary) + in_messages(engine.choices_text())
        )


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Info(bot))
