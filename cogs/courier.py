"""Delivers a referee's report on Discord: DMs to players, one live message per game.

The channel's game message is edited in place after every public change, so a channel
holds one message per game rather than one per move; the end is announced anew so that
people are notified.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.client import RefereeBot
from bot.fairness import lasting
from bot.logs import fields
from bot.presenter import Message, fill_names, present_all, title
from bot.records import rating_changes
from bot.referee import Notice, Report
from bot.storage import GameRecord
from cogs.buttons import BoardButton, MoveButton, RematchButton, ReplayButton
from cogs.replies import answering_errors, nobody_asked

log = logging.getLogger("referee.courier")

CANNOT_DM = 50007


def as_file(message: Message) -> discord.File:
    board = message.board
    return discord.File(io.BytesIO(board.png), board.filename, description=board.alt)


def quick_view(game: GameRecord, message: Message) -> discord.ui.View | None:
    """Buttons for the moves a player may want to press (setup's random fleet, ready)."""
    if not message.quick_moves:
        return None
    view = discord.ui.View(timeout=None)
    for label, move in message.quick_moves:
        view.add_item(MoveButton(game.id, move, label))
    return view


def or_missing(view: discord.ui.View | None) -> Any:
    """discord.py's way to say "no view": ``MISSING`` leaves a message's components out."""
    return discord.utils.MISSING if view is None else view


def after_game_view(game: GameRecord) -> discord.ui.View:
    """The end announcement's buttons: they carry the game's id only."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(game.id))
    view.add_item(RematchButton(game.id))
    return view


def public_view(game: GameRecord, finished: bool) -> discord.ui.View | None:
    if finished:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton(game.id))
    return view


class Courier:
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    async def deliver(
        self,
        report: Report,
        *,
        answering: discord.Interaction | None = None,
        answering_seat: int | None = None,
    ) -> None:
        """Send every notice; the one for ``answering_seat`` answers ``answering``."""
        game = report.game
        # Never the move itself: during setup it would place a ship in the log.
        log.info(
            "game %s: ply %d, telling %d audiences",
            game.id,
            game.ply,
            len(report.notices),
            extra=fields(game.id, ply=game.ply),
        )
        messages = present_all(report.notices)
        live_message_id = game.public_message_id
        for notice, message in zip(report.notices, messages, strict=True):
            if notice.audience is not None and notice.audience == game.computer_seat:
                continue  # the computer reads its seat's news from the log, not from DMs
            if notice.audience is None:
                live_message_id = await self.show_in_channel(
                    game, message, finished=report.finished
                )
            elif answering is not None and notice.audience == answering_seat:
                await self.answer(answering, game, message)
            else:
                await self.send_dm(notice, message)
        if report.finished:
            await self.announce_end(report, live_message_id)
        channel_notice = report.to(None)
        if channel_notice is not None:
            await self.keep_in_channel(channel_notice)
        await self.bot.referee.delivered(report)
        self.bot.computer.wake(game, self.deliver)

    async def redeliver(self) -> None:
        """Deliver what a stopped process had stored but not sent, oldest first."""
        for report in await self.bot.referee.undelivered():
            game = report.game
            log.info(
                "game %s: delivering ply %d after a restart",
                game.id,
                game.ply,
                extra=fields(game.id, ply=game.ply),
            )
            async with answering_errors(nobody_asked, f"game {game.id}: redelivery", game.id):
                await self.deliver(report)

    async def answer(
        self, interaction: discord.Interaction, game: GameRecord, message: Message
    ) -> None:
        """Reply to a player's own command: privately in a server, plainly in DMs."""
        private = interaction.guild_id is not None
        view = or_missing(quick_view(game, message))
        if interaction.response.is_done():
            await interaction.followup.send(
                message.content, file=as_file(message), ephemeral=private, view=view
            )
        else:
            await interaction.response.send_message(
                message.content, file=as_file(message), ephemeral=private, view=view
            )

    async def send_dm(self, notice: Notice, message: Message) -> None:
        """DM a player their notice; if their DMs are closed, ask them in the channel."""
        user_id = notice.user_id
        assert user_id is not None
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(
                message.content,
                file=as_file(message),
                view=or_missing(quick_view(notice.game, message)),
            )
        except discord.Forbidden as error:
            if error.code != CANNOT_DM:
                raise
            log.info(
                "game %s: cannot DM seat %s",
                notice.game.id,
                notice.audience,
                extra=fields(notice.game.id),
            )
            await self.channel(notice.game).send(
                f"<@{user_id}>, I cannot send you your board for {title(notice.game)}: allow "
                "direct messages from this server's members, then use `/board`.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )

    def channel(self, game: GameRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def show_in_channel(self, game: GameRecord, message: Message, *, finished: bool) -> int:
        """Edit the game's live message, or post it if it does not exist (any more).

        Returns the live message's id, which is new when the old message was gone.
        """
        channel = self.channel(game)
        view = public_view(game, finished)
        if game.public_message_id is not None:
            try:
                await channel.get_partial_message(game.public_message_id).edit(
                    content=message.content, attachments=[as_file(message)], view=view
                )
                return game.public_message_id
            except discord.NotFound:
                log.info("game %s: live message gone, posting anew", game.id, extra=fields(game.id))
        posted = await channel.send(message.content, file=as_file(message), view=or_missing(view))
        await self.bot.repository.set_public_message(game.id, posted.id)
        return posted.id

    async def keep_in_channel(self, notice: Notice) -> None:
        """Post the seals (and their opening) as messages of their own: the live message
        is edited after every move, and a seal must stay where everyone can read it."""
        for text in notice.texts:
            if lasting(text):
                await self.channel(notice.game).send(
                    f"{title(notice.game)} {fill_names(text, notice.game)}"
                )

    async def announce_end(self, report: Report, live_message_id: int | None) -> None:
        """A new message for the end, so people are notified; it links the final board."""
        notice = report.to(None)
        if notice is None:
            return
        game = report.game
        link = ""
        if live_message_id is not None and game.guild_id is not None:
            link = (
                f" Final board: https://discord.com/channels/{game.guild_id}/"
                f"{game.channel_id}/{live_message_id}"
            )
        text = f"🏁 {title(game)} is over. {fill_names(notice.texts[-1], game)}{link}"
        changes = rating_changes(report.results)
        await self.channel(game).send(
            f"{text}\n{changes}" if changes else text, view=after_game_view(game)
        )
