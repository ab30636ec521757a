"""Moves by DM text and ``/move``; ``/board``, ``/resign``, ``/abort``; the game buttons."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import RefereeBot
from bot.games import ENGINES
from bot.presenter import present
from bot.referee import Report
from cogs.buttons import BoardButton, MoveButton, ResignButton
from cogs.courier import Courier
from cogs.replies import answering_errors, tell

GAME_OPTION = "Game number, when you play several (like 12)"
HELP_WORDS = {"help", "rules", "?", "/help"}
_PREFIXED_WORD = re.compile(r"^\s*(?:#\s*(\d{1,9})\s+)?(resign|abort)\s*$", re.I)
"""``resign`` and ``abort`` as DM words, optionally after a game number: ``#12 resign``."""


class Moves(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.courier = Courier(bot)
        self._redelivered = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: send what the last one stored but could not deliver."""
        if not self._redelivered:
            self._redelivered = True
            await self.courier.redeliver()
            await self.bot.computer.resume(self.courier.deliver)

    # -- DM text ------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Every DM from a person is a move (or a question) for one of their games."""
        if message.guild is not None or message.author.bot:
            return
        text = message.content.strip()
        if not text:
            await message.channel.send(
                "Send your move as text; `help` shows how moves are written in your game."
            )
            return
        if text.lower() in HELP_WORDS:
            await message.channel.send((await self.bot.referee.help(message.author.id))[:2000])
            return
        async with answering_errors(message.channel.send, f"DM move by {message.author.id}"):
            word = _PREFIXED_WORD.match(text)
            if word is None:
                await self.courier.deliver(await self.bot.referee.act(message.author.id, text))
                return
            game_id = int(word.group(1)) if word.group(1) else None
            if word.group(2).lower() == "abort":
                await self.courier.deliver(await self.bot.referee.abort(message.author.id, game_id))
                return
            question, view = await self.resign_question(message.author.id, game_id)
            await message.channel.send(question, view=view)

    # -- slash commands -----------------------------------------------------------------------

    @app_commands.command(name="move", description="Make a move in your game.")
    @app_commands.describe(text="Your move, like B5 (add #12 first to pick game 12)")
    async def move(self, interaction: discord.Interaction, text: str) -> None:
        await self._play(interaction, text, None)

    @move.autocomplete("text")
    async def move_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        moves = await self.bot.referee.suggestions(interaction.user.id, typed)
        return [app_commands.Choice(name=m, value=m) for m in moves]

    @app_commands.command(name="board", description="See your private board again.")
    @app_commands.describe(game=GAME_OPTION)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.show_board(interaction, game)

    @app_commands.command(name="resign", description="Give up your game: your opponent wins.")
    @app_commands.describe(game=GAME_OPTION)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        question, view = await self.resign_question(interaction.user.id, game)
        await interaction.response.send_message(
            question, view=view, ephemeral=interaction.guild_id is not None
        )

    async def resign_question(
        self, user_id: int, game_id: int | None
    ) -> tuple[str, discord.ui.View]:
        """Resigning cannot be undone, so it is asked first; the button confirms it."""
        record = await self.bot.referee.game_of(user_id, game_id, purpose="resign")
        view = discord.ui.View(timeout=None)
        view.add_item(ResignButton(record.id))
        title = ENGINES[record.game].title
        return (
            f"Resign **{title} #{record.id}**? Your opponent wins, and it cannot be undone. "
            "Press **Resign** to confirm, or just play on.",
            view,
        )

    async def resign_confirmed(self, interaction: discord.Interaction, game_id: int) -> None:
        report = await self.bot.referee.resign(interaction.user.id, game_id)
        await self._deliver_answering(interaction, report)

    @app_commands.command(
        name="abort", description="Call off your game before the first move: no result."
    )
    @app_commands.describe(game=GAME_OPTION)
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        report = await self.bot.referee.abort(interaction.user.id, game)
        await self._deliver_answering(interaction, report)

    @board.autocomplete("game")
    @resign.autocomplete("game")
    @abort.autocomplete("game")
    async def game_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[int]]:
        games = await self.bot.repository.active_games_of(interaction.user.id)
        return [
            app_commands.Choice(name=f"#{g.id} {ENGINES[g.game].title}", value=g.id)
            for g in games
            if str(g.id).startswith(typed.strip().lstrip("#"))
        ][:25]

    # -- buttons ------------------------------------------------------------------------------

    async def press(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        """A move button in a player's DMs (``Random fleet``, ``Ready``)."""
        await self._play(interaction, move, game_id)

    async def show_board(self, interaction: discord.Interaction, game_id: int | None) -> None:
        notice = await self.bot.referee.board(interaction.user.id, game_id)
        await self.courier.answer(interaction, notice.game, present(notice))

    # -- shared -------------------------------------------------------------------------------

    async def _play(self, interaction: discord.Interaction, text: str, game_id: int | None) -> None:
        report = await self.bot.referee.act(interaction.user.id, text, game_id)
        await self._deliver_answering(interaction, report)

    async def _deliver_answering(self, interaction: discord.Interaction, report: Report) -> None:
        """Deliver a report; the acting player's notice is the answer to their interaction."""
        seat = report.game.seat_of(interaction.user.id)
        await self.courier.deliver(report, answering=interaction, answering_seat=seat)
        if not interaction.response.is_done():
            await tell(interaction, "Done.")


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(MoveButton, BoardButton, ResignButton)
    await bot.add_cog(Moves(bot))
