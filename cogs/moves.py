"""Moves by DM text and ``/move``; ``/board``, ``/resign``, ``/abort``; the game buttons."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.client import RefereeBot
from bot.delivery.discord_answers import CommandReply, DirectReply, MoveAnswers
from bot.delivery.discord_replies import answer, spending
from bot.delivery.discord_sender import DiscordSender
from bot.delivery.presenter import presented
from bot.games import ENGINES
from bot.games.grid import shorten
from bot.referee import Report, game_label, game_number
from cogs.buttons import BUTTONS, BoardButton, MoveButton, ResignButton
from cogs.places import place_of
from cogs.replies import answering_errors, deferred_if_slow, nobody_asked

log = logging.getLogger("referee.moves")

GAME_OPTION = "Game number, when you play several (like 12)"
CATCH_UP_ATTEMPTS = 5
"""Tries to read a player's missed messages while Discord answers 5xx or 429."""
MISSED_DMS = 20
"""Direct messages read per player at start: more than anyone sends while waiting."""
HELP_WORDS = {"help", "rules", "?", "/help"}
_PREFIXED_WORD = re.compile(r"^\s*(?:#\s*([0-9]+)\s+)?(resign|abort)\s*$", re.I)
"""``resign`` and ``abort`` as DM words, optionally after a game number: ``#12 resign``."""


class MoveCommands(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.discord_sender = DiscordSender(bot, BUTTONS)
        self.answers = MoveAnswers(self.discord_sender)
        self.inbox = bot.move_inbox(self.answers)
        self._caught_up = asyncio.Event()
        self._read_at_start: set[int] = set()
        """Messages read from history at start, which the gateway may also bring."""
        self._catching_up: asyncio.Task[None]

    # -- DM text ------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Every DM from a person is a move (or a question) for one of their games."""
        if message.guild is not None or message.author.bot:
            return
        await self._caught_up.wait()  # what came while the bot was down goes first
        if message.id in self._read_at_start:
            return
        await self.handle_dm(message)

    async def cog_load(self) -> None:
        self._catching_up = asyncio.get_running_loop().create_task(
            self._read_missed_dms(), name="reading missed direct messages"
        )

    async def cog_unload(self) -> None:
        self._catching_up.cancel()

    async def _read_missed_dms(self) -> None:
        """At start: act on what players of running games sent while the bot was down.

        Each player's DM channel is read after the newest message the bot handled, oldest
        first; a move is played as if it had just arrived, and what cannot be taken is
        answered as such. Players who never wrote to the bot have nothing to catch up.
        """
        try:
            for user_id in await self.bot.referee.players_in_games():
                async with answering_errors(nobody_asked, f"reading missed DMs of {user_id}"):
                    await self._read_missed_dms_of(user_id)
        finally:
            self._caught_up.set()

    async def _read_missed_dms_of(self, user_id: int) -> None:
        last = await self.bot.referee.last_dm_read(user_id)
        if last is None:
            return
        for attempt in range(CATCH_UP_ATTEMPTS):
            try:
                channel = await self.bot.create_dm(discord.Object(user_id))
                missed = [
                    message
                    async for message in channel.history(
                        after=discord.Object(last), oldest_first=True, limit=MISSED_DMS
                    )
                    if message.author.id == user_id
                ]
                break
            except (discord.HTTPException, aiohttp.ClientError) as error:
                status = getattr(error, "status", 500)
                if (status < 500 and status != 429) or attempt == CATCH_UP_ATTEMPTS - 1:
                    log.warning(  # the player left, or Discord stayed unwell
                        "cannot read the direct messages of a player (Discord %s)",
                        getattr(error, "code", status),
                    )
                    return
                await asyncio.sleep(0.5 * 2**attempt)
        for message in missed:
            self._read_at_start.add(message.id)
            log.info("reading a direct message sent while the bot was down")
            await self.handle_dm(message, missed=True)

    async def handle_dm(self, message: discord.Message, *, missed: bool = False) -> None:
        """A move or a question by DM; the message is then marked read for good."""
        answer_at = DirectReply(message.channel, message.channel.id, message=message, missed=missed)
        text = message.content.strip()
        try:
            if not text:
                await answer_at.tell(
                    "Send your move as text; `help` shows how moves are written in your game."
                )
            elif text.lower() in HELP_WORDS:
                await answer_at.tell(await self.bot.referee.help(message.author.id))
            else:
                await self._play_dm(answer_at, message.author.id, text, missed=missed)
        finally:
            with contextlib.suppress(Exception):  # at worst the message is read again
                await self.bot.referee.dm_read(message.author.id, message.id)

    async def _play_dm(
        self, answer_at: DirectReply, user_id: int, text: str, *, missed: bool
    ) -> None:
        async def reply(said: str) -> None:
            if missed:
                said = f"While I was away you wrote `{shorten(text)}`; it was not taken: {said}"
            await answer_at.tell(said)

        async with answering_errors(reply, f"DM move by {user_id}"):
            word = _PREFIXED_WORD.match(text)
            if word is None:
                await self.inbox.hand_in(user_id, text, None, answer_at)
                return
            game_id = game_number(word.group(1)) if word.group(1) else None
            if word.group(2).lower() == "abort":
                report = await self.bot.referee.abort(user_id, game_id)
                await self.answers.answer(answer_at, user_id, report)
            else:
                await answer_at.ask(*await self.resign_question(user_id, game_id))

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
        await answer(interaction, question, view=view)

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
        """The **Resign** button pressed: the game is resigned (or the player told why not,
        the game being over), and the question's button is disabled either way."""
        spent = discord.ui.View(timeout=None)
        spent.add_item(ResignButton(game_id, disabled=True))
        async with spending(interaction, spent):
            report = await self.bot.referee.resign(interaction.user.id, game_id, answering=True)
            await self._answer(interaction, report)

    @app_commands.command(
        name="abort", description="Call off your game before the first move: no result."
    )
    @app_commands.describe(game=GAME_OPTION)
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        report = await self.bot.referee.abort(interaction.user.id, game, answering=True)
        await self._answer(interaction, report)

    @board.autocomplete("game")
    @resign.autocomplete("game")
    @abort.autocomplete("game")
    async def game_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[int]]:
        user_id = interaction.user.id
        games = await self.bot.referee.running_games_of(user_id)
        return [
            app_commands.Choice(name=game_label(g, user_id)[:100], value=g.id)
            for g in games
            if str(g.id).startswith(typed.strip().lstrip("#"))
        ][:25]

    # -- buttons ------------------------------------------------------------------------------

    async def press(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        """A move button in a player's DMs (``Random fleet``, ``Ready``)."""
        await self._play(interaction, move, game_id)

    async def show_board(self, interaction: discord.Interaction, game_id: int | None) -> None:
        notice = await self.bot.referee.board(interaction.user.id, game_id, place_of(interaction))
        await self.discord_sender.answer(interaction, notice.game, await presented(notice))

    # -- shared -------------------------------------------------------------------------------

    async def _play(self, interaction: discord.Interaction, text: str, game_id: int | None) -> None:
        """Hand the move in; its answer fills the "thinking" shown if it takes a while."""
        async with deferred_if_slow(interaction):
            reply = CommandReply(interaction, self.discord_sender)
            await self.inbox.hand_in(interaction.user.id, text, game_id, reply)

    async def _answer(self, interaction: discord.Interaction, report: Report) -> None:
        """Answer a change the player's command made (``MoveAnswers.answer``)."""
        reply = CommandReply(interaction, self.discord_sender)
        await self.answers.answer(reply, interaction.user.id, report)


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(MoveButton, BoardButton, ResignButton)
    await bot.add_cog(MoveCommands(bot))
