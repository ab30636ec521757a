"""What each audience is still to be told, and which direct messages were already read.

A change to a game stores, in its own transaction, one notice per audience it speaks to
(each seat, and the channel). Notices wait here, per audience, until that audience has
them: delivering to one player never touches what the other player or the channel still
awaits, so a retry resends nothing an audience already has.

Sending is claim, send, release. A claim marks an audience's oldest notices as the next
message and keeps them marked across a crash, so a retry sends the very same message
again, under the same nonce (Discord drops a repeated nonce), and never a different mix.

``Outbox`` and ``Inbox`` are the narrow interfaces the deliverer and the DM reader use;
``bot.storage.sqlite_outbox`` and ``bot.storage.postgres_outbox`` keep them, each in its
own database and with its own locks. What both share (the batches, the audiences' codes and
counts, the prefetch of batches claimed by their own change) is here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from bot.storage.groups import Group
from bot.storage.records import AudienceTexts, GameRecord

CHANNEL_CODE = -1
"""How the channel is stored as an audience (a seat is 0 or 1)."""

MERGED_TEXT_BUDGET = 1500
"""A player's backlog is merged into one message while its texts stay within this many
characters, so the merged message fits Discord's 2,000 with the header and game number."""


@dataclass(frozen=True)
class Backlog:
    """One audience of one game: its notices go out one message at a time, in order."""

    game_id: int
    audience: int | None
    """A seat, or ``None`` for the channel."""


@dataclass(frozen=True)
class Batch:
    """Notices of one backlog claimed to go out as one message."""

    backlog: Backlog
    plies: tuple[int, ...]
    texts: tuple[tuple[str, ...], ...]
    """Each claimed notice's texts, oldest first."""
    final: bool
    """Whether the game's end is among them (the channel announces it, once)."""
    told: int = 0
    """The first notice's number among all its audience was given of this game (1, 2, …):
    a count the audience keeps for itself. 0 only for batches made by hand in tests."""
    game: GameRecord | None = field(default=None, compare=False, repr=False)
    """The game as the claim found it, when the claim read it in the same trip (the
    shared store does, to spare the database a read per audience); else None, and the
    batch's report reads the game."""

    @property
    def game_id(self) -> int:
        return self.backlog.game_id

    @property
    def audience(self) -> int | None:
        return self.backlog.audience

    @property
    def last_ply(self) -> int:
        return self.plies[-1]

    @property
    def nonce(self) -> str:
        """Names this message for Discord, so a resent copy is dropped (at most 25 chars).

        Made of the game's id, the audience and the first notice's number among the
        audience's own (``told``), which stays the same while a channel's claim grows and
        which the audience can count for itself. Never the ply: it counts every change,
        the players' secret setup edits among them, and Discord hands the nonce to
        whoever reads the message.
        """
        audience = "c" if self.audience is None else str(self.audience)
        return f"{self.game_id}.{audience}.n{self.told}"


class Outbox(Protocol):
    """Notices waiting for their audience."""

    async def backlogs(self, before: float | None = None) -> list[Backlog]:
        """Every backlog with notices waiting, oldest game first; with ``before``, only backlogs
        with a notice stored at or before that moment (left by a process that stopped)."""
        ...

    async def claim(self, backlog: Backlog, *, merge: bool = True) -> Batch | None:
        """The backlog's next message: notices claimed before (a retry) or its oldest ones.

        With ``merge`` a backlog goes as one message within ``MERGED_TEXT_BUDGET``. The
        channel's claim takes every waiting notice, and grows with what arrives before it
        is released, since its live message shows only the newest. None when nothing waits.
        """
        ...

    async def release(self, batch: Batch) -> bool:
        """The batch went out (or can never go): its notices are gone for good.

        True when the backlog still holds other notices, answered with the release itself,
        so a backlog that is done learns it without asking again. A notice stored after
        that answer is found by the backlog its storer wakes."""
        ...

    async def waiting(self) -> int:
        """How many notices wait, over every backlog."""
        ...


class Inbox(Protocol):
    """The newest direct message handled per player, to read what came while the bot was down."""

    async def last_read(self, user_id: int) -> int | None: ...

    async def mark_read(self, user_id: int, message_id: int) -> None:
        """Remember ``message_id`` as handled; an older id never moves the mark back."""
        ...


HANDED_AT_MOST = 4096
"""Games whose batches a process keeps handed over at once; past that the oldest game's
are dropped, and their backlogs' next claims ask the database, which gives the same."""


class Prefetch:
    """Batches a change's own transaction claimed, handed to their backlog's next claim in
    this process without a trip to the database.

    A change that finds an audience's backlog empty stores its notice already claimed: the
    backlog's next claim would take exactly that notice, so the transaction takes it at once
    and the store hands the batch over here. Sending it is then only the release.

    Handing over must never let a batch go out twice, so a batch is handed only when no
    claim of its game's backlogs in this process asked the database while the change was
    being stored (such a claim may have found the notice already claimed and taken it as a
    retry). A claim that finds a batch here takes it away; every claim of a backlog looks
    here first, so the batch is taken once. A process that dies holding batches here lost
    nothing: their notices stay claimed in the database, and the backlog's next claim after a
    restart gives them again, as any claim left unsent.
    """

    def __init__(self, at_most: int = HANDED_AT_MOST) -> None:
        self._batches: dict[int, dict[int | None, Batch]] = {}
        """Per game, per audience: the batch handed over."""
        self._at_most = at_most
        self._storing: Counter[int] = Counter()
        """Per game: changes being stored that may claim its notices."""
        self._claiming: Counter[int] = Counter()
        """Per game: claims of its backlogs asking the database right now."""
        self._spoilt: set[int] = set()
        """Games one of whose backlogs the database was asked to claim during such a change."""

    def take(self, backlog: Backlog) -> Batch | None:
        """The backlog's handed batch, once; None when none is handed."""
        handed = self._batches.get(backlog.game_id)
        if handed is None:
            return None
        batch = handed.pop(backlog.audience, None)
        if not handed:
            del self._batches[backlog.game_id]
        return batch

    @contextmanager
    def claiming(self, backlog: Backlog) -> Iterator[None]:
        """Around a claim that asks the database: a change of the game stored while it
        runs hands nothing over."""
        game_id = backlog.game_id
        self._claiming[game_id] += 1
        if game_id in self._storing:
            self._spoilt.add(game_id)
        try:
            yield
        finally:
            self._claiming[game_id] -= 1
            if not self._claiming[game_id]:
                del self._claiming[game_id]

    @contextmanager
    def storing(self, game_id: int) -> Iterator[Callable[[tuple[Batch, ...]], None]]:
        """Around a change that may claim its own notices; yields how to hand them over
        once it is committed.

        Batches handed by the game's earlier change and not yet taken are dropped: their
        backlogs' claims then ask the database, so the channel's takes in the new notice."""
        self._batches.pop(game_id, None)
        self._storing[game_id] += 1
        try:
            yield lambda batches: self._hand(game_id, batches)
        finally:
            self._storing[game_id] -= 1
            if not self._storing[game_id]:
                del self._storing[game_id]
                self._spoilt.discard(game_id)

    def _hand(self, game_id: int, batches: tuple[Batch, ...]) -> None:
        if not batches or game_id in self._spoilt or game_id in self._claiming:
            return
        self._batches[game_id] = {batch.audience: batch for batch in batches}
        while len(self._batches) > self._at_most:
            del self._batches[next(iter(self._batches))]


class SharedOutbox:
    """What both stores' outboxes do alike: a claim takes a handed batch first, or asks
    the database (``_claimed``); a release goes with the releases made while the previous
    one was on its way (``Group``, ``_released``)."""

    def __init__(self, refused: type[Exception]) -> None:
        self.prefetch = Prefetch()
        """Batches claimed by the change that stored them, for their backlogs' next claims."""
        self.releases = Group(self._released, "outbox releases", refused)
        """Releases made while one is on its way go together after it; ``refused``: the
        database's errors after which each release can be sent again alone."""

    async def backlogs(self, before: float | None = None) -> list[Backlog]:
        """As ``Outbox.backlogs``."""
        raise NotImplementedError

    async def waiting(self) -> int:
        """As ``Outbox.waiting``."""
        raise NotImplementedError

    async def claim(self, backlog: Backlog, *, merge: bool = True) -> Batch | None:
        """As ``Outbox.claim``: a batch claimed by the change that stored it is handed
        over without asking the database (``Prefetch``)."""
        handed = self.prefetch.take(backlog)
        if handed is not None:
            return handed
        with self.prefetch.claiming(backlog):
            return await self._claimed(backlog, merge)

    async def _claimed(self, backlog: Backlog, merge: bool) -> Batch | None:
        """The backlog's next message as the database claims it."""
        raise NotImplementedError

    async def release(self, batch: Batch) -> bool:
        """As ``Outbox.release``. A move's backlogs release side by side, so releases made
        while one is on its way go together after it (``Group``)."""
        return await self.releases(batch)

    async def _released(self, batches: Sequence[Batch]) -> list[bool]:
        """Each batch's notices deleted, and whether its backlog holds others, in one trip."""
        raise NotImplementedError


def audience_code(audience: int | None) -> int:
    return CHANNEL_CODE if audience is None else audience


def audience_of(code: int) -> int | None:
    return None if code == CHANNEL_CODE else code


TOLD_COUNTS = (
    "UPDATE games SET told_seat0 = told_seat0 + ?, told_seat1 = told_seat1 + ?,"
    " told_channel = told_channel + ? WHERE id = ?"
    " RETURNING told_seat0, told_seat1, told_channel"
)
"""Counts one more notice for each audience a change tells (parameters: 1 or 0 for seat 0,
seat 1 and the channel, then the game); answers the new counts."""


def told_counts(audience_texts: AudienceTexts) -> tuple[int, int, int]:
    """``TOLD_COUNTS``' increments: 1 for each audience the audience texts speak to."""
    told = {audience for audience, _ in audience_texts}
    return (int(0 in told), int(1 in told), int(None in told))


def told_of(audience: int | None, counts: Sequence[int]) -> int:
    """An audience's count among the three ``TOLD_COUNTS`` answers."""
    return counts[2] if audience is None else counts[audience]


Claimed = tuple[tuple[int | None, int], ...]
"""The audiences whose notice a change stored already claimed, each with the notice's
number among its audience's (``Batch.told``)."""


INSERT_NOTICES = (
    "INSERT INTO notices (game_id, audience, ply, texts, final, claimed, created_at, told)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
"""One notice per audience a change tells (rows: ``notice_rows``)."""


def notice_rows(
    game_id: int,
    ply: int,
    audience_texts: AudienceTexts,
    *,
    final: bool,
    now: float,
    counts: Sequence[int],
    claimed: Sequence[int | None] = (),
) -> list[tuple[object, ...]]:
    """``INSERT_NOTICES``' rows for a change's audience texts, each numbered among its audience's
    (``TOLD_COUNTS``' answer ``counts``), those of the ``claimed`` audiences claimed."""
    return [
        (
            game_id,
            audience_code(audience),
            ply,
            json.dumps(list(texts)),
            int(final),
            int(audience in claimed),
            now,
            told_of(audience, counts),
        )
        for audience, texts in audience_texts
    ]


def handed_batches(
    game: GameRecord, audience_texts: AudienceTexts, claimed: Claimed, *, final: bool
) -> tuple[Batch, ...]:
    """The batches a change claimed with its own notices (``hold``), each carrying the
    game as that change stored it."""
    told = dict(claimed)
    return tuple(
        Batch(
            Backlog(game.id, audience),
            (game.ply,),
            (tuple(texts),),
            final,
            told[audience],
            game=game,
        )
        for audience, texts in audience_texts
        if audience in told
    )
