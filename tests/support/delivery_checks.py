"""What every audience of a game should have been told, and whether it was: once, in order.

The expected notices come from replaying the game's log through a fresh referee with the
game's own seed, so they are exactly what the bot stored with each change. What each
audience received is read from the loopback Discord: every message in a player's DM
channel that belongs to the game (DMs and answers to their commands alike), and in the
channel the live message and every message of its own (the seals when play begins, the
end's announcement and the seals' opening): the live message shows only the newest
state, but each of those is owed to the channel however the changes' edits merged.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from bot.delivery.presenter import fill_names
from bot.fairness import lasting
from bot.referee import Referee
from bot.storage import GameRecord, LogEntry, LogKind, SqliteRepository
from tests.support.cog_helpers import render_for
from tests.support.discord import RemoteDriver

ENDED = "🏁 the end's announcement"
"""Stands for the end's announcement among the channel's posts (its link and rating
changes are checked elsewhere)."""


@dataclass
class Expected:
    """Each audience's texts over the whole game, in order, and the channel's newest."""

    seats: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    channel_newest: list[str] = field(default_factory=list)
    channel_posts: list[str] = field(default_factory=list)
    """The channel's messages of their own, in order: each seal (or opening) as posted,
    and ``ENDED`` where the end is announced, before the final notice's seals."""


async def expected_notices(record: GameRecord, log: list[LogEntry]) -> Expected:
    """Replay the game through a fresh referee: the notices each change stored."""
    repository = await SqliteRepository.open(":memory:")
    try:
        referee = Referee(repository, seed_source=lambda: record.seed)
        challenge = await repository.create_challenge(
            game=record.game,
            rules=record.rules,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            challenger_id=record.seats[0],
            opponent_id=record.seats[1],
            rated=record.rated,
        )
        reports = [await referee.accept(challenge.id, record.seats[1])]
        replayed = reports[0].game.id
        for entry in log:
            assert entry.kind is LogKind.MOVE and entry.seat is not None
            reports.append(await referee.act(record.seats[entry.seat], f"#{replayed} {entry.text}"))
    finally:
        await repository.close()
    expected = Expected()
    for report in reports:
        for notice in report.notices:
            lines = [line for text in notice.texts for line in lines_of(text, record)]
            if notice.audience is None:  # seals are posted apart from the live message
                shown = [text for text in notice.texts if not lasting(text)]
                expected.channel_newest = [line for t in shown for line in lines_of(t, record)]
                if report.finished:
                    expected.channel_posts.append(ENDED)
                expected.channel_posts.extend(
                    masked(f"{header(record)} {fill_names(text, record)}")
                    for text in notice.texts
                    if lasting(text)
                )
            else:
                expected.seats[notice.audience].extend(lines)
    return expected


SALTED = re.compile(r"\b[0-9a-f]{32,64}\b")
"""A seal's salt or digest: fresh randomness in each run, so the replay cannot repeat it;
the seals themselves are checked in the fairness tests."""


def masked(line: str) -> str:
    return SALTED.sub("<salted>", line)


def lines_of(text: str, record: GameRecord) -> list[str]:
    return [masked(line) for line in fill_names(text, record).split("\n")]


def header(record: GameRecord) -> str:
    return f"**Sea Battle #{record.id}**"


def told_to_seat(driver: RemoteDriver, record: GameRecord, seat: int) -> list[str]:
    """Every line the player was told about this game, oldest message first."""
    channel_id = driver.server.dm_channel_id(record.seats[seat])
    lines: list[str] = []
    for message in driver.server.messages_in(channel_id):
        if message.author_id != driver.server.bot_id:
            continue
        first, _, body = message.content.partition("\n")
        if first == header(record):
            lines.extend(masked(line) for line in body.split("\n"))
    return lines


def posted_in_channel(driver: RemoteDriver, record: GameRecord) -> list[str]:
    """The game's messages of their own in its channel, oldest first: everything the bot
    posted there about the game but its live message (``ENDED`` for the end's)."""
    posts = []
    for message in driver.server.messages_in(record.channel_id, include_ephemeral=False):
        if message.author_id != driver.server.bot_id or message.id == record.public_message_id:
            continue
        if message.content.startswith(f"🏁 {header(record)} is over."):
            posts.append(ENDED)
        elif message.content.startswith(f"{header(record)} "):
            posts.append(masked(message.content))
    return posts


async def assert_told_exactly_once_in_order(
    driver: RemoteDriver, record: GameRecord, log: list[LogEntry]
) -> None:
    """Each seat got each notice once and in order; the live message shows the newest
    state; the channel got each message of its own once and in order: every seal and
    opening, and the end's announcement for a finished game, never for a running one."""
    expected = await expected_notices(record, log)
    for seat in (0, 1):
        told = told_to_seat(driver, record, seat)
        assert told == expected.seats[seat], f"game {record.id}, seat {seat}:\n" + "\n".join(
            difflib.unified_diff(expected.seats[seat], told, "expected", "told", lineterm="", n=2)
        )
    assert record.public_message_id is not None
    live = driver.server.messages[record.public_message_id]
    shown = [masked(line) for line in live.content.split("\n")[1:]]
    assert shown == expected.channel_newest, f"game {record.id} live"
    assert live.attachments and live.attachments[-1].data == render_for(record, None)
    posted = posted_in_channel(driver, record)
    assert posted == expected.channel_posts, f"game {record.id}, channel:\n" + "\n".join(
        difflib.unified_diff(expected.channel_posts, posted, "expected", "posted", lineterm="")
    )
