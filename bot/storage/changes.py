"""The changes both stores make in a transaction: creating, accepting and closing a
challenge, starting a game against the computer, and a game's next log entry.

What the two stores share is here: each change's steps around its transaction, the
statements (written with ``?`` placeholders, which the PostgreSQL store numbers as it sends
them) and the rows they write. What only one database can do (its transaction, its locks,
PostgreSQL's move stored by one call) is each store's hook, named below each method.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.fairness import Seal
from bot.storage.outbox import Claimed, SharedOutbox, handed_batches
from bot.storage.queries import SharedQueries
from bot.storage.records import (
    AudienceTexts,
    ChallengeRecord,
    ChallengeStatus,
    Ending,
    GameRecord,
    GameStatus,
    LogKind,
    NewGame,
    dump,
    in_public,
    moved,
)

INSERT_CHALLENGE = (
    "INSERT INTO challenges (game, rules, guild_id, channel_id, challenger_id,"
    " opponent_id, rated, created_at, challenger_name, opponent_name, swapped)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

OPEN_CHALLENGE = (
    "SELECT id FROM challenges WHERE challenger_id = ? AND opponent_id = ? AND status = 'open'"
)
"""The challenge a challenger has open to an opponent (at most one, index-enforced)."""

ACCEPTED = "UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ?"

INSERT_GAME = (
    "INSERT INTO games (game, rules, seed, guild_id, channel_id, seat0_id, seat1_id,"
    " status, state, rated, computer_level, created_at, updated_at,"
    " seat0_name, seat1_name)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

INSERT_ANNOUNCEMENT = "INSERT INTO announcements (game_id, ply, tidings) VALUES (?, ?, ?)"

INSERT_SEAL = (
    "INSERT INTO seals (game_id, ply, who, salt, digest, secret) VALUES (?, ?, ?, ?, ?, ?)"
)

HELD_ONCE = (
    "INSERT INTO bot_facts (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE"
    " SET value = excluded.value WHERE bot_facts.value <> excluded.value RETURNING key"
)
"""A fact set to a value it does not hold yet: a row answers when it was (parameters: the
key, the value); ``hold_once`` holds its notice only then."""

CLOSED = tuple(status.value for status in ChallengeStatus if status is not ChallengeStatus.OPEN)
FORGET_CLOSED_CHALLENGES = (
    f"DELETE FROM challenges WHERE status IN ({', '.join('?' * len(CLOSED))}) AND created_at <= ?"
)
"""Closed challenges made at or before a moment (parameters: ``CLOSED``, the moment)."""


@dataclass(frozen=True)
class Change:
    """A game's next log entry with all its transaction stores (``Repository.append``)."""

    seat: int | None
    kind: LogKind
    text: str
    state: dict[str, Any]
    ending: Ending | None
    audience_texts: AudienceTexts
    seals: tuple[Seal, ...]
    queued: int | None
    """The queued move this entry plays, which leaves the queue with it."""
    now: float

    @property
    def status(self) -> GameStatus:
        return GameStatus.FINISHED if self.ending else GameStatus.ACTIVE

    @property
    def winner(self) -> int | None:
        return self.ending.winner if self.ending else None

    @property
    def end_reason(self) -> str | None:
        return self.ending.reason if self.ending else None

    @property
    def final(self) -> bool:
        return self.ending is not None

    @property
    def with_result(self) -> bool:
        """Whether the change ends the game with a result for the players' records."""
        return self.ending is not None and self.ending.has_result

    @property
    def public(self) -> bool:
        return in_public(self.audience_texts)


def game_row(new: NewGame, now: float) -> tuple[Any, ...]:
    """``INSERT_GAME``'s parameters for a game starting ``now``."""
    return (
        new.game,
        dump(new.rules),
        new.seed,
        new.guild_id,
        new.channel_id,
        *new.seats,
        GameStatus.ACTIVE.value,
        dump(new.state),
        int(new.rated),
        new.computer_level,
        now,
        now,
        *new.names,
    )


def announcement(audience_texts: AudienceTexts) -> str | None:
    """What each audience is told of a change, kept for good as the game's announcements,
    which ``/export`` publishes at the end (delivered notices are forgotten); None when
    the change tells no one."""
    return json.dumps([[a, list(t)] for a, t in audience_texts]) if audience_texts else None


def seal_rows(game_id: int, ply: int, seals: tuple[Seal, ...]) -> list[tuple[Any, ...]]:
    """``INSERT_SEAL``'s parameters for the seals made when play began."""
    return [(game_id, ply, s.who, s.salt, s.digest, s.secret) for s in seals]


@dataclass(frozen=True)
class Opening:
    """What a game's start stores with it, in the transaction that creates it."""

    now: float
    audience_texts: AudienceTexts
    """What the start tells each audience."""
    seals: tuple[Seal, ...]
    """The seals made when play began (a game whose setup is dealt begins in play)."""


Started = Callable[[ChallengeRecord], NewGame]
"""The game an accepted challenge starts, made from the challenge as the accepting
transaction reads it."""


class SharedChanges(SharedQueries):
    """The part of ``Repository`` that changes data in a transaction, shared by both stores;
    each store supplies the hooks (``_create_challenge``, ``_changed``, ``_accept``,
    ``_start_counted``, ``_store``)."""

    outbox: SharedOutbox

    async def create_challenge(
        self,
        *,
        game: str,
        rules: dict[str, Any],
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        rated: bool = True,
        names: tuple[str, str] = ("", ""),
        swapped: bool = False,
    ) -> ChallengeRecord:
        """Store an open challenge; OpenChallengeError while the same challenger's challenge
        to the same opponent is open, however many arrive at once."""
        row = (game, dump(rules), guild_id, channel_id, challenger_id, opponent_id)
        return await self._create_challenge((*row, int(rated), self.clock(), *names, int(swapped)))

    async def _create_challenge(self, row: tuple[Any, ...]) -> ChallengeRecord:
        """``INSERT_CHALLENGE`` with ``row``, or OpenChallengeError naming the challenge
        of the same pair still open."""
        raise NotImplementedError

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, game_id: int | None = None
    ) -> bool:
        """Close an open challenge; False when it was already closed (a second click)."""
        closed = await self._changed(
            "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = 'open'",
            status.value,
            game_id,
            challenge_id,
        )
        return closed == 1

    async def forget_closed_challenges(self, before: float) -> int:
        """Delete answered, withdrawn and expired challenges made at or before ``before``.

        A closed challenge is kept a while so a late click on its message is told what
        became of it; after that the row serves nothing, and the table stays small.
        """
        return await self._changed(FORGET_CLOSED_CHALLENGES, *CLOSED, before, many=True)

    async def _changed(self, sql: str, *params: Any, many: bool = False) -> int:
        """How many rows one statement changed, in a transaction of its own; ``many``
        when it may change many rows (the first sweep after a long run, say)."""
        raise NotImplementedError

    async def accept_challenge(
        self,
        challenge_id: int,
        *,
        seed: int,
        seats: tuple[int, int],
        state: dict[str, Any],
        audience_texts: AudienceTexts = (),
        computer_level: str | None = None,
        seals: tuple[Seal, ...] = (),
        names: tuple[str, str] = ("", ""),
    ) -> GameRecord | None:
        """Create the game and close the challenge in one transaction; None if already closed.

        ``names`` are the seats' display names, as the referee has them."""

        def started(challenge: ChallengeRecord) -> NewGame:
            return NewGame(
                challenge.game,
                challenge.rules,
                challenge.guild_id,
                challenge.channel_id,
                challenge.rated,
                seed,
                seats,
                state,
                names,
                computer_level,
            )

        return await self._accept(
            challenge_id, started, Opening(self.clock(), audience_texts, seals)
        )

    async def _accept(
        self, challenge_id: int, started: Started, opening: Opening
    ) -> GameRecord | None:
        """In one transaction: the challenge, if still open, starts its game and is
        marked accepted (``ACCEPTED``)."""
        raise NotImplementedError

    async def start_computer_game(
        self,
        new: NewGame,
        *,
        at_most: int,
        audience_texts: AudienceTexts = (),
        seals: tuple[Seal, ...] = (),
    ) -> GameRecord | None:
        """Create a game against the computer, unless its person already plays ``at_most``
        of them (None then), however many requests arrive at once."""
        return await self._start_counted(new, at_most, Opening(self.clock(), audience_texts, seals))

    async def _start_counted(
        self, new: NewGame, at_most: int, opening: Opening
    ) -> GameRecord | None:
        """The person's running games against the computer counted and the new one
        created as one step for every process that shares the store."""
        raise NotImplementedError

    async def append(
        self,
        game: GameRecord,
        *,
        seat: int | None,
        kind: LogKind,
        text: str,
        state: dict[str, Any],
        ending: Ending | None = None,
        audience_texts: AudienceTexts = (),
        seals: tuple[Seal, ...] = (),
        queued: int | None = None,
    ) -> GameRecord:
        """Log one entry, store the new snapshot and hold its audience texts, atomically.

        Each audience's notice is claimed in the same transaction when its backlog holds
        nothing else, and handed to the backlog's next claim in this process (``Prefetch``):
        sending it then takes only its release. An ``ending`` with a result writes the
        players' results and new ratings in the same transaction, so no crash can keep
        the one without the other.

        Raises StaleGameError when the stored game is no longer at ``game.ply``: the same
        move sent twice (to one process or to two), or two moves racing, and only the
        first one counts; also when the ``queued`` move was already played.
        """
        change = Change(
            seat, kind, text, state, ending, audience_texts, seals, queued, self.clock()
        )
        with self.outbox.prefetch.storing(game.id) as hand_over:
            live_message_id, claimed = await self._store(game, change)
            stored = moved(game, live_message_id, state, ending, change.now, change.public)
            hand_over(handed_batches(stored, audience_texts, claimed, final=change.final))
        return stored

    async def hold_once(
        self, game: GameRecord, audience_texts: AudienceTexts, *, once: str, mark: str
    ) -> bool:
        """Hold ``audience_texts`` at the game's ply as it stands, logging nothing and changing
        nothing else of the game (the channel's note to a player whose DMs are closed),
        unless the fact ``once`` already reads ``mark``. The fact is set in the same
        transaction, so however often a restart asks again, the notice is held once.
        True if it was held."""
        return await self._hold_once(game, audience_texts, (once, mark), self.clock())

    async def _hold_once(
        self, game: GameRecord, audience_texts: AudienceTexts, fact: tuple[str, str], now: float
    ) -> bool:
        """``HELD_ONCE`` with ``fact``, and the notices held if it answered, in one
        transaction."""
        raise NotImplementedError

    async def _store(self, game: GameRecord, change: Change) -> tuple[int | None, Claimed]:
        """Store ``change`` in one transaction guarded by ``game.ply``: the game's live
        message as stored (posted perhaps since ``game`` was read, so the one to edit)
        and the audiences whose notices it claimed."""
        raise NotImplementedError
