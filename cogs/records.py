"""``/leaderboard``, ``/profile``, ``/history`` and ``/game``: ratings and finished games.

All of it is public information; answers are private in a server only to keep channels
quiet. History pages turn with buttons whose custom_id holds only a user id, a game key
and a page number, so they keep working after a restart.
"""

from __future__ import annotations

import functools
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import records
from bot.client import RefereeBot
from bot.delivery.discord_replies import answer, replace
from bot.delivery.presenter import board_drawn, fill_names
from bot.games import ENGINES
from bot.storage.results import ResultQueries as RecordStore
from cogs.challenges import GAME_CHOICES
from cogs.places import place_of
from cogs.replies import answering_errors, tell

SCOPES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="all servers", value="global"),
]
ALL_GAMES = "all"
"""The game word of a history button listing every game."""


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"history:(?P<user>\d+):(?P<game>[a-z0-9]{1,20}):(?P<page>\d{1,6})",
):
    """Turns a ``/history`` answer to another page."""

    def __init__(self, user_id: int, game: str, page: int, label: str, enabled: bool) -> None:
        self.user_id, self.game, self.page = user_id, game, page
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"history:{user_id}:{game}:{page}",
                disabled=not enabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        return cls(
            int(match["user"]), match["game"], int(match["page"]), getattr(item, "label", ""), True
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        reply = functools.partial(tell, interaction)
        async with answering_errors(reply, f"history of {self.user_id}: page {self.page}"):
            game = None if self.game == ALL_GAMES else self.game
            cog: RecordCommands = interaction.client.get_cog("RecordCommands")  # type: ignore[attr-defined]
            content, view = await cog.history_page(self.user_id, game, self.page)
            await replace(interaction, content, view)


class RecordCommands(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @property
    def _records(self) -> RecordStore:
        return self.bot.referee.records

    @app_commands.command(name="leaderboard", description="The best rated players of a game.")
    @app_commands.describe(game="Which game", scope="This server's players, or everyone's")
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        everyone = interaction.guild_id is None or (scope is not None and scope.value == "global")
        board = await self._records.leaderboard(
            game.value, None if everyone else interaction.guild_id, interaction.user.id
        )
        await self._answer(interaction, records.leaderboard_text(board))

    @app_commands.command(name="profile", description="A player's ratings and last games.")
    @app_commands.describe(user="Whose profile (default: yours)")
    async def profile(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        user_id = (user or interaction.user).id
        standings = await self._records.standings_of(user_id)
        recent, _ = await self._records.history(user_id, None, offset=0, limit=records.RECENT_GAMES)
        variants = await self.bot.referee.variants_of([r.game_id for r in recent])
        await self._answer(interaction, records.profile_text(user_id, standings, recent, variants))

    @app_commands.command(name="history", description="A player's finished games, page by page.")
    @app_commands.describe(user="Whose games (default: yours)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        user_id = (user or interaction.user).id
        content, view = await self.history_page(user_id, game.value if game else None, 0)
        await self._answer(interaction, content, view=view)

    async def history_page(
        self, user_id: int, game: str | None, page: int
    ) -> tuple[str, discord.ui.View | None]:
        """One page's text and its buttons (none when everything fits on one page)."""
        results, total = await self._records.history(
            user_id, game, offset=page * records.HISTORY_PAGE, limit=records.HISTORY_PAGE
        )
        pages = records.pages(total)
        page = min(page, pages - 1)
        variants = await self.bot.referee.variants_of([r.game_id for r in results])
        content = records.history_text(user_id, game, results, page, total, variants)
        if pages == 1:
            return content, None
        word = game or ALL_GAMES
        view = discord.ui.View(timeout=None)
        view.add_item(HistoryButton(user_id, word, max(page - 1, 0), "◀ Newer", page > 0))
        view.add_item(
            HistoryButton(user_id, word, min(page + 1, pages - 1), "Older ▶", page < pages - 1)
        )
        return content, view

    @app_commands.command(name="game", description="A finished game's summary and final board.")
    @app_commands.rename(game_id="id")
    @app_commands.describe(game_id="The game's number, as in #12")
    async def game(
        self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1, 2**62]
    ) -> None:
        record, view, status = await self.bot.referee.finished(
            game_id, interaction.user.id, place_of(interaction)
        )
        engine = ENGINES[record.game]
        variant = engine.variant_name(engine.rules_from_json(record.rules))
        results = await self._records.results_of(record.id)
        content = records.game_summary(record, fill_names(status, record), variant, results)
        board = await board_drawn(record, view)
        file = discord.File(io.BytesIO(board.png), board.filename, description=board.alt)
        await answer(interaction, content, file=file)

    async def _answer(
        self, interaction: discord.Interaction, content: str, view: discord.ui.View | None = None
    ) -> None:
        await answer(interaction, content[:2000], view=view)


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(HistoryButton)
    await bot.add_cog(RecordCommands(bot))
