"""The answer to a player's own move on Discord, written once for every path a move takes.

A move is answered where it was sent (``bot.inbox.Reply``): a command (``/move``, a
button, ``/resign``) is answered as that command's answer, with the mover's own notice
when it can carry it; a move sent by DM is answered in that DM channel, and its notice
goes by DM as always. The process that received the move answers it the same way as a
worker that played it from the queue (``QueuedAnswers``), one through the interaction
itself and the other through its kept token: ``MoveAnswers.answer`` is the one answer.

An answer carrying a notice keeps the delivery guarantees of a DM: its token is kept
before it goes (``keep_answer``, so a restart asks Discord rather than telling twice),
and in DMs it fills the "thinking" placeholder only if no DM went out after it
(``overtaken``), so a player's notices never land out of order.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import discord

from bot.client import RefereeBot
from bot.delivery.deliverer import AnswerOutOfOrder, Sender
from bot.delivery.discord_sender import (
    PLACEHOLDER,
    DiscordSender,
    answer_key,
    as_file,
    or_missing,
    responding,
)
from bot.delivery.presenter import Message, presented
from bot.inbox import Reply
from bot.referee import Report
from bot.storage import GameRecord
from bot.storage.outbox import Backlog, Batch
from bot.storage.postgres_queue import QueuedMove

COUNTED = "Your move counted; your board follows by direct message."
RECEIVED = "\N{INCOMING ENVELOPE}"
"""The reaction that tells a player their DM move was received and handed to a worker."""


async def defer_thinking(interaction: discord.Interaction) -> None:
    """Defer with "thinking...": Discord shows a placeholder message at once, which the
    answer fills in later *where it stands*, so its id is kept to tell what came after it.
    Call with ``responding`` held."""
    callback = await interaction.response.defer(
        ephemeral=interaction.guild_id is not None, thinking=True
    )
    if callback is not None and callback.message_id is not None:
        interaction.extras[PLACEHOLDER] = callback.message_id


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Answer only the person who acted: ephemeral in a server, plain in DMs."""
    async with responding(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


class CommandReply:
    """A command or button of this process's, answered through the interaction itself."""

    answers_notices = True
    may_wait = True

    def __init__(self, interaction: discord.Interaction, discord_sender: DiscordSender) -> None:
        self.interaction = interaction
        self.discord_sender = discord_sender

    def address(self) -> dict[str, Any]:
        """Where a worker answers: the interaction's follow-up, private in a server. The
        follow-up fills the "thinking" placeholder where it stands, so the placeholder's
        id and channel go along (``FollowUpReply.overtaken``)."""
        interaction = self.interaction
        return {
            "app": interaction.application_id,
            "token": interaction.token,
            "private": interaction.guild_id is not None,
            "channel": interaction.channel_id,
            "placeholder": interaction.extras.get(PLACEHOLDER),
        }

    async def waiting(self) -> None:
        """Deferred before the move is queued, so a worker's answer never comes first."""
        async with responding(self.interaction):
            if not self.interaction.response.is_done():
                await defer_thinking(self.interaction)

    async def queued(self) -> None:
        """The "thinking" placeholder says it already."""

    async def tell(self, text: str) -> None:
        await tell(self.interaction, text)

    async def show(self, game: GameRecord, message: Message) -> None:
        await self.discord_sender.answer(self.interaction, game, message)

    def sender(self) -> Sender:
        interaction = self.interaction

        async def send(report: Report, batch: Batch) -> None:
            if self.overtaken():
                raise AnswerOutOfOrder()
            (notice,) = report.notices
            message = await presented(notice)
            await keep_answer(
                self.discord_sender.bot, batch, interaction.application_id, interaction.token
            )
            await self.discord_sender.answer(interaction, report.game, message)

        return send

    def overtaken(self) -> bool:
        """Whether a DM command's answer would land above notices sent after it was deferred.

        A deferred answer fills the "thinking" placeholder, which stands where it appeared:
        had a DM gone out since (the player's older notice, held up by Discord's passing faults),
        the newer notice would sit above the older one. Answers in a server are private
        and stand apart from DMs; an answer not deferred is posted as it is sent.
        """
        interaction = self.interaction
        if interaction.guild_id is not None or not interaction.response.is_done():
            return False
        placeholder = interaction.extras.get(PLACEHOLDER)
        newest = self.discord_sender.bot.newest_dm.get(interaction.channel_id or 0)
        return placeholder is None or (newest is not None and newest > placeholder)


class DirectReply:
    """A DM channel: a move sent by DM is answered there, and its notice goes by DM."""

    answers_notices = False

    def __init__(
        self,
        channel: discord.abc.Messageable,
        channel_id: int,
        *,
        message: discord.Message | None = None,
        missed: bool = False,
    ) -> None:
        self.channel = channel
        self.channel_id = channel_id
        self.message = message
        self.may_wait = not missed
        """A move read at start is played at once: its refusal says it was written while
        the bot was away."""

    def address(self) -> dict[str, Any]:
        return {"dm": self.channel_id}

    async def waiting(self) -> None:
        """Nothing to show before the move is queued."""

    async def queued(self) -> None:
        if self.message is not None:
            with contextlib.suppress(discord.HTTPException):  # the board says it all
                await self.message.add_reaction(RECEIVED)

    async def tell(self, text: str) -> None:
        await self.channel.send(text[:2000])

    async def ask(self, question: str, view: discord.ui.View) -> None:
        """A question with its buttons (resigning is confirmed by a press)."""
        await self.channel.send(question, view=view)

    async def show(self, game: GameRecord, message: Message) -> None:
        await self.channel.send(message.content, file=as_file(message))

    def sender(self) -> None:
        return None


class FollowUpReply:
    """A command a worker answers through its kept token, as the interaction's follow-up
    (good for 15 minutes); the worker has no gateway connection, only Discord's REST API."""

    answers_notices = True
    may_wait = True

    def __init__(self, discord_sender: DiscordSender, address: dict[str, Any]) -> None:
        self.discord_sender = discord_sender
        self.bot = discord_sender.bot
        self.reply = address
        payload: Any = {"id": address["app"], "type": 3, "token": address["token"]}
        self.hook = discord.Webhook.from_state(data=payload, state=self.bot._connection)

    def address(self) -> dict[str, Any]:
        return self.reply

    async def waiting(self) -> None:
        """Queued already."""

    async def queued(self) -> None:
        """Queued already."""

    async def tell(self, text: str) -> None:
        await self.hook.send(text[:2000], ephemeral=self.reply["private"])

    async def show(self, game: GameRecord, message: Message) -> None:
        await self.hook.send(
            message.content,
            file=as_file(message),
            ephemeral=self.reply["private"],
            view=or_missing(self.discord_sender.quick_view(game, message)),
        )

    def sender(self) -> Sender:
        async def send(report: Report, batch: Batch) -> None:
            if await self.overtaken():
                raise AnswerOutOfOrder()
            (notice,) = report.notices
            message = await presented(notice)
            await keep_answer(self.bot, batch, int(self.reply["app"]), self.reply["token"])
            await self.show(report.game, message)

        return send

    async def overtaken(self) -> bool:
        """Whether a DM command's follow-up would land above notices sent after its
        "thinking" placeholder appeared (``CommandReply.overtaken`` in one process).

        Any process may have sent the player a DM since (this worker, another, the
        gateway's standby), so besides what this process sent, Discord is asked for the
        bot's messages after the placeholder. A move queued without a placeholder cannot
        be placed: its notice goes by DM, which is always in order.
        """
        reply = self.reply
        if reply["private"]:
            return False
        placeholder, channel_id = reply.get("placeholder"), reply.get("channel")
        if placeholder is None or channel_id is None:
            return True
        if self.bot.newest_dm.get(channel_id, 0) > placeholder:
            return True
        me = self.bot.user.id if self.bot.user is not None else self.bot.application_id
        channel = self.bot.get_partial_messageable(channel_id)
        async for message in channel.history(limit=50, after=discord.Object(placeholder)):
            if message.author.id == me:
                return True
        return False


async def keep_answer(
    bot: RefereeBot, batch: Batch, application_id: int | None, token: str
) -> None:
    """Before a batch goes as a command's answer, keep which answer it is.

    An answer carries no nonce, so were the process to stop after Discord took it but
    before the batch was released, sending the batch again by DM would tell it twice.
    With the interaction's token kept, the next try asks Discord for the command's
    original answer instead (``DiscordSender.already_answered``).
    """
    kept = {"nonce": batch.nonce, "app": application_id, "token": token, "at": time.time()}
    await bot.repository.set_fact(answer_key(batch.backlog), json.dumps(kept))


class MoveAnswers:
    """The one answer to a player's own move, in the process that received it or a worker."""

    def __init__(self, discord_sender: DiscordSender) -> None:
        self.discord_sender = discord_sender
        self.bot = discord_sender.bot

    async def answer(self, reply: Reply, user_id: int, report: Report) -> None:
        """Answer a played move. An answer that changed no game is shown; a stored change
        was published, so the other audiences' notices are on their way already, and the
        mover's own notice answers their command when it can. An answer that fails (Discord
        dropped a late interaction) goes by DM instead, and the player is never told their
        stored move failed."""
        if not report.stored:
            (notice,) = report.notices
            await reply.show(report.game, await presented(notice))
            return
        if not reply.answers_notices:
            return  # every notice goes by the deliverer's usual way
        seat = report.game.seat_of(user_id)
        assert seat is not None  # a stored change is its player's
        backlog = Backlog(report.game.id, seat)
        told = report.to(seat) is not None
        if await self.bot.deliverer.answer(backlog, reply.sender() if told else None):
            await self.bot.repository.forget_fact(answer_key(backlog))  # released: nothing to ask
            return
        with contextlib.suppress(discord.HTTPException):  # too late to answer: the DM follows
            await reply.tell(COUNTED if told else "Done.")


class QueuedAnswers:
    """``bot.worker.Answers`` on Discord: a queued move answered where its address says."""

    def __init__(self, discord_sender: DiscordSender) -> None:
        self.discord_sender = discord_sender
        self.moves = MoveAnswers(discord_sender)

    def reply_to(self, move: QueuedMove) -> FollowUpReply | DirectReply:
        if "token" in move.reply:
            return FollowUpReply(self.discord_sender, move.reply)
        channel_id = move.reply["dm"]
        return DirectReply(self.discord_sender.bot.get_partial_messageable(channel_id), channel_id)

    def answers_notices(self, move: QueuedMove) -> bool:
        return self.reply_to(move).answers_notices

    async def refuse(self, move: QueuedMove, text: str) -> None:
        await self.reply_to(move).tell(text)

    async def answer(self, move: QueuedMove, report: Report) -> None:
        await self.moves.answer(self.reply_to(move), move.user_id, report)

    async def overtaken(self, move: QueuedMove) -> bool:
        """Whether a command's follow-up would land above newer DMs (``FollowUpReply``)."""
        return await FollowUpReply(self.discord_sender, move.reply).overtaken()
