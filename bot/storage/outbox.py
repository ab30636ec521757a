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
own database and with its own locks. What both share (the parcels, the audiences' codes and
counts, the handover of parcels claimed by their own change) is here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from bot.storage.groups import Group
from bot.storage.records import GameRecord, Tidings

CHANNEL_CODE = -1
"""How the channel is stored as an audience (a seat is 0 or 1)."""

MERGED_TEXT_BUDGET = 1500
"""A player's backlog is merged into one message while its texts stay within this many
characters, so the merged message fits Discord's 2,000 with the header and game number."""


@dataclass(frozen=True)
class Lane:
    """One audience of one game: its notices go out one message at a time, in order."""

    game_id: int
    audience: int | None
    """A seat, or ``None`` for the channel."""


@dataclass(frozen=True)
class Parcel:
    """Notices of one lane claimed to go out as one message."""

    lane: Lane
    plies: tuple[int, ...]
    texts: tuple[tuple[str, ...], ...]
    """Each claimed notice's texts, oldest first."""
    final: bool
    """Whether the game's end is among them (the channel announces it, once)."""
    told: int = 0
    """The first notice's number among all its audience was given of this game (1, 2, …):
    a count the audience keeps for itself. 0 only for parcels made by hand in tests."""
    game: GameRecord | None = field(default=None, compare=False, repr=False)
    """The game as the claim found it, when the claim read it in the same trip (the
    shared store does, to spare the database a read per audience); else None, and the
    parcel's report reads the game."""

    @property
    def game_id(self) -> int:
        return self.lane.game_id

    @property
    def audience(self) -> int | None:
        return self.lane.audience

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

    async def lanes(self, before: float | None = None) -> list[Lane]:
        """Every lane with notices waiting, oldest game first; with ``before``, only lanes
        with a notice stored at or before that moment (left by a process that stopped)."""
        ...

    async def claim(self, lane: Lane, *, merge: bool = True) -> Parcel | None:
        """The lane's next message: notices claimed before (a retry) or its oldest ones.

        With ``merge`` a backlog goes as one message within ``MERGED_TEXT_BUDGET``. The
        channel's claim takes every waiting notice, and grows with what arrives before it
        is released, since its live message shows only the newest. None when nothing waits.
        """
        ...

    async def release(self, parcel: Parcel) -> bool:
        """The parcel went out (or can never go): its notices are gone for good.

        True when the lane still holds other notices, answered with the release itself,
        so a lane that is done learns it without asking again. A notice stored after
        that answer is found by the lane its storer wakes."""
        ...

    async def waiting(self) -> int:
        """How many notices wait, over every lane."""
        ...


class Inbox(Protocol):
    """The newest direct message handled per player, to read what came while the bot was down."""

    async def last_read(self, user_id: int) -> int | None: ...

    async def mark_read(self, user_id: int, message_id: int) -> None:
        """Remember ``message_id`` as handled; an older id never moves the mark back."""
        ...


HANDED_AT_MOST = 4096
"""Games whose parcels a process keeps handed over at once; past that the oldest game's
are dropped, and their lanes' next claims ask the database, which gives the same."""


class Handover:
    """Parcels a change's own transaction claimed, handed to their lane's next claim in
    this process without a trip to the database.

    A change that finds an audience's lane empty stores its notice already claimed: the
    lane's next claim would take exactly that notice, so the transaction takes it at once
    and the store hands the parcel over here. Sending it is then only the release.

    Handing over must never let a parcel go out twice, so a parcel is handed only when no
    claim of its game's lanes in this process asked the database while the change was
    being stored (such a claim may have found the notice already claimed and taken it as a
    retry). A claim that finds a parcel here takes it away; every claim of a lane looks
    here first, so the parcel is taken once. A process that dies holding parcels here lost
    nothing: their notices stay claimed in the database, and the lane's next claim after a
    restart gives them again, as any claim left unsent.
    """

    def __init__(self, at_most: int = HANDED_AT_MOST) -> None:
        self._parcels: dict[int, dict[int | None, Parcel]] = {}
        """Per game, per audience: the parcel handed over."""
        self._at_most = at_most
        self._storing: Counter[int] = Counter()
        """Per game: changes being stored that may claim its notices."""
        self._claiming: Counter[int] = Counter()
        """Per game: claims of its lanes asking the database right now."""
        self._spoilt: set[int] = set()
        """Games one of whose lanes the database was asked to claim during such a change."""

    def take(self, lane: Lane) -> Parcel | None:
        """The lane's handed parcel, once; None when none is handed."""
        handed = self._parcels.get(lane.game_id)
        if handed is None:
            return None
        parcel = handed.pop(lane.audience, None)
        if not handed:
            del self._parcels[lane.game_id]
        return parcel

    @contextmanager
    def claiming(self, lane: Lane) -> Iterator[None]:
        """Around a claim that asks the database: a change of the game stored while it
        runs hands nothing over."""
        game_id = lane.game_id
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
    def storing(self, game_id: int) -> Iterator[Callable[[tuple[Parcel, ...]], None]]:
        """Around a change that may claim its own notices; yields how to hand them over
        once it is committed.

        Parcels handed by the game's earlier change and not yet taken are dropped: their
        lanes' claims then ask the database, so the channel's takes in the new notice."""
        self._parcels.pop(game_id, None)
        self._storing[game_id] += 1
        try:
            yield lambda parcels: self._hand(game_id, parcels)
        finally:
            self._storing[game_id] -= 1
            if not self._storing[game_id]:
                del self._storing[game_id]
                self._spoilt.discard(game_id)

    def _hand(self, game_id: int, parcels: tuple[Parcel, ...]) -> None:
        if not parcels or game_id in self._spoilt or game_id in self._claiming:
            return
        self._parcels[game_id] = {parcel.audience: parcel for parcel in parcels}
        while len(self._parcels) > self._at_most:
            del self._parcels[next(iter(self._parcels))]


class SharedOutbox:
    """What both stores' outboxes do alike: a claim takes a handed parcel first, or asks
    the database (``_claimed``); a release goes with the releases made while the previous
    one was on its way (``Group``, ``_released``)."""

    def __init__(self, refused: type[Exception]) -> None:
        self.handover = Handover()
        """Parcels claimed by the change that stored them, for their lanes' next claims."""
        self.releases = Group(self._released, "outbox releases", refused)
        """Releases made while one is on its way go together after it; ``refused``: the
        database's errors after which each release can be sent again alone."""

    async def lanes(self, before: float | None = None) -> list[Lane]:
        """As ``Outbox.lanes``."""
        raise NotImplementedError

    async def waiting(self) -> int:
        """As ``Outbox.waiting``."""
        raise NotImplementedError

    async def claim(self, lane: Lane, *, merge: bool = True) -> Parcel | None:
        """As ``Outbox.claim``: a parcel claimed by the change that stored it is handed
        over without asking the database (``Handover``)."""
        handed = self.handover.take(lane)
        if handed is not None:
            return handed
        with self.handover.claiming(lane):
            return await self._claimed(lane, merge)

    async def _claimed(self, lane: Lane, merge: bool) -> Parcel | None:
        """The lane's next message as the database claims it."""
        raise NotImplementedError

    async def release(self, parcel: Parcel) -> bool:
        """As ``Outbox.release``. A move's lanes release side by side, so releases made
        while one is on its way go together after it (``Group``)."""
        return await self.releases(parcel)

    async def _released(self, parcels: Sequence[Parcel]) -> list[bool]:
        """Each parcel's notices deleted, and whether its lane holds others, in one trip."""
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


def told_counts(tidings: Tidings) -> tuple[int, int, int]:
    """``TOLD_COUNTS``' increments: 1 for each audience the tidings speak to."""
    told = {audience for audience, _ in tidings}
    return (int(0 in told), int(1 in told), int(None in told))


def told_of(audience: int | None, counts: Sequence[int]) -> int:
    """An audience's count among the three ``TOLD_COUNTS`` answers."""
    return counts[2] if audience is None else counts[audience]


Claimed = tuple[tuple[int | None, int], ...]
"""The audiences whose notice a change stored already claimed, each with the notice's
number among its audience's (``Parcel.told``)."""


INSERT_NOTICES = (
    "INSERT INTO notices (game_id, audience, ply, texts, final, claimed, created_at, told)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
"""One notice per audience a change tells (rows: ``notice_rows``)."""


def notice_rows(
    game_id: int,
    ply: int,
    tidings: Tidings,
    *,
    final: bool,
    now: float,
    counts: Sequence[int],
    claimed: Sequence[int | None] = (),
) -> list[tuple[object, ...]]:
    """``INSERT_NOTICES``' rows for a change's tidings, each numbered among its audience's
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
        for audience, texts in tidings
    ]


def handed_parcels(
    game: GameRecord, tidings: Tidings, claimed: Claimed, *, final: bool
) -> tuple[Parcel, ...]:
    """The parcels a change claimed with its own notices (``hold``), each carrying the
    game as that change stored it."""
    told = dict(claimed)
    return tuple(
        Parcel(
            Lane(game.id, audience), (game.ply,), (tuple(texts),), final, told[audience], game=game
        )
        for audience, texts in tidings
        if audience in told
    )
