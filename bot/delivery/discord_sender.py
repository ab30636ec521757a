"""Sends notices on Discord for the deliverer: DMs to players, one live message per game.

This is the one module of the delivery wing that talks to discord.py (see
``tests/test_layering.py``): the deliverer and the presenter stay free of it. The buttons
a message carries answer presses in the cogs, so the cogs hand their constructors in
(``Buttons``) rather than this module reaching up into them.

The channel's game message is edited in place after every public change, so a channel
holds one message per game rather than one per move; the end is announced anew so that
people are notified. Every new message carries a nonce naming its notices, which Discord
enforces, so a message resent after a crash between sending and recording it is dropped.
What Discord refuses for good is reported as ``Undeliverable`` for the deliverer to retire.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.client import RefereeBot
from bot.delivery.deliverer import Undeliverable
from bot.delivery.presenter import Message, fill_names, presented, title
from bot.fairness import Kept, kept_apart
from bot.games.core import EndReason
from bot.logs import fields
from bot.records import rating_changes
from bot.referee import Notice, Report, is_note, noted_seat
from bot.storage import ChallengeRecord, GameRecord
from bot.storage.outbox import Backlog, Batch

log = logging.getLogger("referee.discord_sender")

CANNOT_DM = 50007
UNKNOWN_MESSAGE = 10008
LIVE_EDIT_ROUTE = "PATCH /channels/{channel_id}/messages/{message_id}"
"""discord.py's key for the route of live message edits."""
REFUSED_FOR_GOOD = {
    10003: "unknown channel",
    10013: "unknown user",
    50001: "missing access",
    50007: "cannot send messages to this user",
    50013: "missing permissions",
}
"""Discord's answers that no retry can change: the notice is retired."""
ANSWER_TOKEN_LIFE = 14 * 60.0
"""Seconds a kept interaction token is asked with: Discord honours it for 15 minutes."""


def answer_key(backlog: Backlog) -> str:
    """Where the answer a backlog's batch went out as is kept (one per backlog at most)."""
    return f"answer:{backlog.game_id}.{backlog.audience}"


def as_file(message: Message) -> discord.File:
    board = message.board
    return discord.File(io.BytesIO(board.png), board.filename, description=board.alt)


Item = discord.ui.Item[Any]


@dataclass(frozen=True)
class Buttons:
    """The buttons messages carry, made by the cogs that answer their presses."""

    move: Callable[[int, str, str], Item]
    """A move to make in a game, with its label (setup's random fleet, ready)."""
    board: Callable[[int], Item]
    replay: Callable[[int], Item]
    rematch: Callable[[int], Item]


def responding(interaction: discord.Interaction) -> asyncio.Lock:
    """One answer to an interaction at a time, so a deferral never crosses the answer."""
    lock = interaction.extras.get("responding")
    if lock is None:
        lock = interaction.extras["responding"] = asyncio.Lock()
    return lock


PLACEHOLDER = "placeholder"
"""Where an interaction keeps the id of the "thinking" message its deferral showed."""


def or_missing(view: discord.ui.View | None) -> Any:
    """discord.py's way to say "no view": ``MISSING`` leaves a message's components out."""
    return discord.utils.MISSING if view is None else view


class DiscordSender:
    """The deliverer's transport: one notice to one audience, on Discord."""

    def __init__(self, bot: RefereeBot, buttons: Buttons) -> None:
        self.bot = bot
        self.buttons = buttons

    def quick_view(self, game: GameRecord, message: Message) -> discord.ui.View | None:
        """Buttons for the moves a player may want to press (setup's random fleet, ready)."""
        if not message.quick_moves:
            return None
        view = discord.ui.View(timeout=None)
        for label, move in message.quick_moves:
            view.add_item(self.buttons.move(game.id, move, label))
        return view

    def after_game_view(self, game: GameRecord) -> discord.ui.View:
        """The end announcement's buttons: they carry the game's id only."""
        view = discord.ui.View(timeout=None)
        view.add_item(self.buttons.replay(game.id))
        view.add_item(self.buttons.rematch(game.id))
        return view

    def public_view(self, game: GameRecord, finished: bool) -> discord.ui.View | None:
        if finished:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(self.buttons.board(game.id))
        return view

    async def ready(self, report: Report) -> bool:
        """Wait while Discord's bucket for the live message's edits in its channel is empty.

        discord.py would wait too, but after the board was rendered, so the edit would land
        with the board of before the wait. The bucket is as discord.py last read it from
        Discord's rate-limit headers; nothing known means no wait. DMs wait in discord.py.
        """
        (notice,) = report.notices
        game = report.game
        if notice.audience is not None or game.public_message_id is None:
            return False
        waited = False
        while (pause := self.room_in(LIVE_EDIT_ROUTE, game.channel_id)) > 0:
            waited = True
            await asyncio.sleep(pause)
        return waited

    def room_in(self, route_key: str, major: int) -> float:
        """Seconds until discord.py's bucket for a route and channel has room again.

        This reads discord.py's own rate-limit state (``HTTPClient._buckets``), filled from
        the headers of Discord's answers; if a release of discord.py stores it otherwise,
        nothing is found and no wait happens, so delivery stays correct, one edit later.
        """
        http = self.bot.http
        bucket_hash = getattr(http, "_bucket_hashes", {}).get(route_key)
        bucket = getattr(http, "_buckets", {}).get(f"{bucket_hash or route_key}:{major}")
        remaining = getattr(bucket, "remaining", 1)
        expires = getattr(bucket, "expires", None)
        if not isinstance(expires, float) or not isinstance(remaining, int) or remaining > 0:
            return 0.0
        return max(0.0, expires - asyncio.get_running_loop().time())

    async def send(self, report: Report, batch: Batch) -> None:
        """Send a batch's notice, rendering its board now; refusals for good are raised as
        ``Undeliverable``, anything else is left to the deliverer to retry."""
        (notice,) = report.notices
        game = report.game
        log.info(
            "game %s: ply %d, telling %s",
            game.id,
            batch.last_ply,
            "the channel" if notice.audience is None else f"seat {notice.audience}",
            extra=fields(game.id, ply=batch.last_ply),
        )
        if notice.audience is not None and notice.audience == game.computer_seat:
            # The computer reads its seat's news from the log, not from DMs, and hears of
            # the change from the referee itself (``Computer.published``).
            return
        # Every audience's board is asked for before anything else is awaited, so the
        # boards of one change's audiences, told side by side, are drawn in one job.
        notes_only = notice.audience is None and all(is_note(texts) for texts in batch.texts)
        message = None if notes_only else await presented(notice)
        try:
            if notice.audience is None:
                await self.tell_channel(report, batch, message)
            elif message is not None and not await self.already_answered(game, batch):
                await self.send_dm(notice, message, nonce=batch.nonce)
        except (discord.Forbidden, discord.NotFound) as error:
            if error.code in REFUSED_FOR_GOOD:
                raise Undeliverable(f"{error.code} {REFUSED_FOR_GOOD[error.code]}") from error
            raise

    async def answer(
        self, interaction: discord.Interaction, game: GameRecord, message: Message
    ) -> None:
        """Reply to a player's own command: privately in a server, plainly in DMs."""
        private = interaction.guild_id is not None
        view = or_missing(self.quick_view(game, message))
        async with responding(interaction):
            if interaction.response.is_done():
                await interaction.followup.send(
                    message.content, file=as_file(message), ephemeral=private, view=view
                )
            else:
                await interaction.response.send_message(
                    message.content, file=as_file(message), ephemeral=private, view=view
                )

    async def already_answered(self, game: GameRecord, batch: Batch) -> bool:
        """Whether the batch already went as the answer to its player's command, in a
        process that stopped before it released the batch: Discord then shows that answer,
        headed with the game, as the command's original message. An answer kept for an
        older batch, or past the token's life, is forgotten; one for this batch is kept
        until a later batch of the backlog, so a stop before this one's release asks again.
        """
        key = answer_key(batch.backlog)
        kept_text = await self.bot.repository.fact(key)
        if kept_text is None:
            return False
        kept = json.loads(kept_text)
        if kept["nonce"] != batch.nonce or time.time() - kept["at"] > ANSWER_TOKEN_LIFE:
            await self.bot.repository.forget_fact(key)
            return False
        original = await self.original_answer(int(kept["app"]), str(kept["token"]))
        return (
            original is not None
            and not original.flags.loading
            and original.content.startswith(title(game))
        )

    async def original_answer(self, application_id: int, token: str) -> discord.Message | None:
        """The original answer to an interaction (``@original``), or None if none went."""
        payload: Any = {"id": application_id, "type": 3, "token": token}
        hook = discord.Webhook.from_state(data=payload, state=self.bot._connection)
        try:
            return await hook.fetch_message(cast(int, "@original"))  # the route takes the word
        except discord.NotFound:
            return None  # 10008: no answer was sent; 10015: the interaction was never answered
        except discord.HTTPException as error:
            if error.status == 401:
                return None  # the token expired: nothing can be known, the DM goes
            raise

    async def remind(self, notice: Notice) -> None:
        """DM a player their reminder, once: its nonce names the game, the seat and the wait,
        by the second of the game's last public change (never the ply, which counts the
        secret setup edits of both players). Closed DMs are said in the channel."""
        with contextlib.suppress(Undeliverable):  # the channel was told why
            game = notice.game
            nonce = f"r{game.id}.{notice.audience}.{int(game.updated_at)}"
            await self.send_dm(notice, await presented(notice), nonce=nonce)

    async def send_dm(self, notice: Notice, message: Message, *, nonce: str) -> None:
        """DM a player their notice; if their DMs are closed, tell the referee, which calls
        the game off or has the channel ask them to open their DMs (``dms_closed``), and
        raise ``Undeliverable``: the notice cannot go."""
        user_id = notice.user_id
        assert user_id is not None
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            sent = await channel.send(
                message.content,
                file=as_file(message),
                view=or_missing(self.quick_view(notice.game, message)),
                nonce=nonce,
            )
            self.bot.newest_dm[channel.id] = max(sent.id, self.bot.newest_dm.get(channel.id, 0))
        except discord.Forbidden as error:
            if error.code != CANNOT_DM:
                raise
            log.info(
                "game %s: cannot DM seat %s",
                notice.game.id,
                notice.audience,
                extra=fields(notice.game.id),
            )
            if notice.audience is not None:
                await self.bot.referee.dms_closed(notice.game.id, notice.audience)
            raise Undeliverable(f"{CANNOT_DM} {REFUSED_FOR_GOOD[CANNOT_DM]}") from error

    def channel(self, game: GameRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def close_challenge(self, challenge: ChallengeRecord, content: str) -> None:
        """A challenge's message shows ``content`` without buttons (deleted: nothing to do)."""
        if challenge.message_id is None:
            return
        channel = self.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await channel.get_partial_message(challenge.message_id).edit(content=content, view=None)

    async def show_in_channel(
        self, game: GameRecord, message: Message, *, finished: bool, nonce: str
    ) -> int:
        """Edit the game's live message, or post it if it does not exist (any more).

        Returns the live message's id, which is new when the old message was gone.
        """
        channel = self.channel(game)
        view = self.public_view(game, finished)
        if game.public_message_id is not None:
            try:
                await channel.get_partial_message(game.public_message_id).edit(
                    content=message.content, attachments=[as_file(message)], view=view
                )
                return game.public_message_id
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise
                log.info("game %s: live message gone, posting anew", game.id, extra=fields(game.id))
        posted = await channel.send(
            message.content,
            file=as_file(message),
            view=or_missing(view),
            nonce=f"L{nonce}",
        )
        await self.bot.repository.set_public_message(game.id, posted.id)
        return posted.id

    async def tell_channel(self, report: Report, batch: Batch, message: Message | None) -> None:
        """Show the newest state in the live message, then post what the channel keeps
        apart: the seals and their opening of every notice in the batch (changes that came
        while the previous edit was on its way make one edit, but each seal is posted), the
        notes asking players to open their DMs, and the end's announcement before the texts
        of the notice that ended the game (the newest: nothing follows an end). A batch of
        notes alone (no ``message``) leaves the live message as it is."""
        game = report.game
        live_message_id = game.public_message_id
        if message is not None:
            live_message_id = await self.show_in_channel(
                game, message, finished=report.finished, nonce=batch.nonce
            )
        earlier, newest = kept_apart(batch.texts)
        await self.keep_in_channel(game, earlier, nonce=batch.nonce)
        await self.ask_to_open_dms(game, batch)
        if batch.final:
            await self.announce_end(report, live_message_id)
        await self.keep_in_channel(game, newest, nonce=batch.nonce)

    async def ask_to_open_dms(self, game: GameRecord, batch: Batch) -> None:
        """Post the batch's notes to players whose DMs are closed, each mentioning its
        player (the one ping the bot allows), under the batch's nonce and the note's place
        among its texts, which a retry keeps, so a resent batch posts no note twice."""
        place = 0
        for texts in batch.texts:
            seat = noted_seat(texts[0]) if texts else None
            if seat is not None and is_note(texts):
                user = discord.Object(game.seats[seat])
                await self.channel(game).send(
                    fill_names(texts[0], game),
                    allowed_mentions=discord.AllowedMentions(users=[user]),
                    nonce=f"N{place}.{batch.nonce}"[:25],
                )
            place += len(texts)

    async def keep_in_channel(self, game: GameRecord, kept: Kept, *, nonce: str) -> None:
        """Post the seals (and their opening) as messages of their own: the live message
        is edited after every move, and a seal must stay where everyone can read it.

        Each carries the batch's nonce and its place among the batch's texts, which a
        retry of the batch keeps (its claim only grows at the end), so a resent batch
        posts no seal twice.
        """
        for index, text in kept:
            await self.channel(game).send(
                f"{title(game)} {fill_names(text, game)}", nonce=f"K{index}.{nonce}"[:25]
            )

    async def announce_end(self, report: Report, live_message_id: int | None) -> None:
        """A new message for the end, so people are notified; it links the final board.

        Its nonce names the game alone, so however often a restart repeats it, the channel
        holds one announcement.
        """
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
        # An aborted game's first text says who ended it and why; otherwise the last one
        # (the result) is the news.
        aborted = game.end_reason == EndReason.ABORTED.value
        outcome = (notice.texts[0] if aborted else notice.texts[-1]) if notice.texts else ""
        text = f"🏁 {title(game)} is over. {fill_names(outcome, game)}{link}"
        changes = rating_changes(report.results)
        await self.channel(game).send(
            f"{text}\n{changes}" if changes else text,
            nonce=f"end.{game.id}",
            view=self.after_game_view(game),
        )
