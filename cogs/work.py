"""A worker process's own part: it plays the moves the gateway processes queued.

Everything a worker says goes over Discord's REST API with the bot's token: boards by the
deliverer's courier, answers to a player's command as the follow-up of their interaction
(its token, kept with the queued move, is good for 15 minutes), and refusals of moves sent
by DM into that DM channel. A follow-up that carries the mover's notice keeps the delivery
guarantees of an answer given in-process (``bot.delivery.discord_sender``): its token is
kept before it goes, and in DMs it fills the "thinking" placeholder only if no DM went out after it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord.ext import commands

from bot.client import RefereeBot
from bot.delivery.deliverer import SEATS_AND_CHANNEL, AnswerOutOfOrder, Sender
from bot.delivery.discord_sender import Courier, as_file, or_missing
from bot.delivery.presenter import presented
from bot.referee import Report
from bot.storage.outbox import Lane, Parcel
from bot.storage.postgres_queue import QueuedMove
from bot.worker import AT_ONCE, STANDBY_SECONDS, MoveWorker
from cogs.buttons import BUTTONS
from cogs.replies import PLACEHOLDER

COUNTED = "Your move counted; your board follows by direct message."

STANDBY_AT_ONCE = 2
"""Moves a gateway's standby plays side by side: enough to keep players served, few
enough to leave the gateway's processor to receiving moves."""


def dm_reply(channel_id: int) -> dict[str, Any]:
    """Where a worker answers a move sent by DM: that DM channel."""
    return {"dm": channel_id}


def interaction_reply(interaction: discord.Interaction) -> dict[str, Any]:
    """Where a worker answers a move sent by command or button: the interaction's
    follow-up, private in a server. Call once deferred: the follow-up fills the "thinking"
    placeholder where it stands, so the placeholder's id and channel go along (a DM answer
    must not land above notices sent after it, ``QueuedAnswers.overtaken``)."""
    return {
        "app": interaction.application_id,
        "token": interaction.token,
        "private": interaction.guild_id is not None,
        "channel": interaction.channel_id,
        "placeholder": interaction.extras.get(PLACEHOLDER),
    }


class QueuedAnswers:
    """``bot.worker.Answers`` on Discord, from a worker without a gateway connection."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.courier = Courier(bot, BUTTONS)

    def _follow_up(self, move: QueuedMove) -> discord.Webhook | None:
        reply = move.reply
        if "token" not in reply:
            return None
        payload: Any = {"id": reply["app"], "type": 3, "token": reply["token"]}
        return discord.Webhook.from_state(data=payload, state=self.bot._connection)

    async def refuse(self, move: QueuedMove, text: str) -> None:
        await self.tell(move, text)

    async def tell(self, move: QueuedMove, text: str) -> None:
        """A sentence for the mover, where they sent the move."""
        hook = self._follow_up(move)
        if hook is not None:
            await hook.send(text[:2000], ephemeral=move.reply["private"])
        else:
            await self.bot.get_partial_messageable(move.reply["dm"]).send(text[:2000])

    async def answer(self, move: QueuedMove, report: Report) -> None:
        (notice,) = report.notices
        message = await presented(notice)
        hook = self._follow_up(move)
        if hook is not None:
            await hook.send(
                message.content,
                file=as_file(message),
                ephemeral=move.reply["private"],
                view=or_missing(self.courier.quick_view(report.game, message)),
            )
        else:
            channel = self.bot.get_partial_messageable(move.reply["dm"])
            await channel.send(message.content, file=as_file(message))

    def sender(self, move: QueuedMove) -> Sender | None:
        """Sends the mover's own notice as the follow-up of their command; None for a
        move sent by DM, whose board goes by DM as always."""
        hook = self._follow_up(move)
        if hook is None:
            return None

        async def send(report: Report, parcel: Parcel) -> None:
            if await self.overtaken(move):
                raise AnswerOutOfOrder()
            (notice,) = report.notices
            message = await presented(notice)
            await self.courier.keep_answer(parcel, int(move.reply["app"]), move.reply["token"])
            await hook.send(
                message.content,
                file=as_file(message),
                ephemeral=move.reply["private"],
                view=or_missing(self.courier.quick_view(report.game, message)),
            )

        return send

    async def overtaken(self, move: QueuedMove) -> bool:
        """Whether a DM command's follow-up would land above notices sent after its
        "thinking" placeholder appeared (``Courier.overtaken`` in one process).

        Any process may have sent the player a DM since (this worker, another, the
        gateway's standby), so besides what this process sent, Discord is asked for the
        bot's messages after the placeholder. A move queued without a placeholder cannot
        be placed: its notice goes by DM, which is always in order.
        """
        reply = move.reply
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


class Work(commands.Cog):
    """A worker's moves; on a gateway, its standby, which plays the moves that waited
    too long for a worker (``bot.worker.STANDBY_SECONDS``)."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.answers = QueuedAnswers(bot)
        queue = bot.move_queue
        assert queue is not None, "a worker plays queued moves: it needs PostgreSQL"
        on_standby = bot.settings.role != "worker"
        self.worker = DeliveringWorker(
            queue,
            bot.referee,
            bot.deliverer,
            self.answers,
            at_once=STANDBY_AT_ONCE if on_standby else AT_ONCE,
            standby=STANDBY_SECONDS if on_standby else None,
        )

    async def cog_load(self) -> None:
        await self.worker.start()

    async def cog_unload(self) -> None:
        await self.worker.close()


class DeliveringWorker(MoveWorker):
    """A worker whose mover, when they used a command, is answered as its follow-up."""

    answers: QueuedAnswers

    async def play(self, move: QueuedMove) -> Report | None:
        report = await self.apply(move)
        if report is None:
            return None
        game = report.game
        seat = game.seat_of(move.user_id)
        sender = self.answers.sender(move)
        if sender is None or seat is None:
            self.deliverer.wake(game.id)
            return report
        self.deliverer.wake(game.id, tuple(a for a in SEATS_AND_CHANNEL if a != seat))
        lane = Lane(game.id, seat)
        answered = report.to(seat) is not None and await self.deliverer.deliver_now(lane, sender)
        self.deliverer.wake(game.id, (seat,))
        if answered:
            await self.answers.courier.answered(lane)
        else:
            with contextlib.suppress(discord.HTTPException):  # the DM follows all the same
                await self.answers.tell(move, "Done." if report.to(seat) is None else COUNTED)
        return report


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Work(bot))
