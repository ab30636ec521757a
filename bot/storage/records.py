"""The records storage hands out and takes in (games, challenges, log entries, waits), and
how a row of either database becomes one: shared by both stores and by everyone above them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import orjson

from bot.games.core import EndReason

AudienceTexts = tuple[tuple[int | None, tuple[str, ...]], ...]
"""What each audience (a seat, or ``None`` for the channel) is to be told of one change."""

WAIT_BATCH = 50
"""Waiting games read per query: the clock handles them a batch at a time."""

OPEN_TO_ANYONE = 0
"""The opponent id of an open challenge: no Discord user has id 0."""


class GameStatus(Enum):
    ACTIVE = "active"
    FINISHED = "finished"


class ChallengeStatus(Enum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"


class LogKind(Enum):
    MOVE = "move"  # an action text in the game's notation
    END = "end"  # an end from outside the rules: the outcome as JSON


COMPUTER_SEAT = 1
"""A game against the computer seats the person who asked for it first and the computer second."""


class OpenChallengeError(Exception):
    """The challenger already has an open challenge to this opponent."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"challenge {challenge_id} is still open")
        self.challenge_id = challenge_id


class StaleGameError(Exception):
    """The game moved on since it was loaded: the submission is a duplicate or too late."""


@dataclass(frozen=True)
class ChallengeRecord:
    id: int
    game: str
    rules: dict[str, Any]
    guild_id: int | None
    channel_id: int
    challenger_id: int
    opponent_id: int
    message_id: int | None
    status: ChallengeStatus
    game_id: int | None
    created_at: float
    rated: bool = True
    names: tuple[str, str] = ("", "")
    """The challenger's and the opponent's display names (cleaned; empty if unknown)."""
    swapped: bool = False
    """Whether the opponent takes the first seat (a rematch turns the seats round)."""

    @property
    def open_to_anyone(self) -> bool:
        """A challenge without an opponent, which anyone but the challenger may accept."""
        return self.opponent_id == OPEN_TO_ANYONE


@dataclass(frozen=True)
class NewGame:
    """A game about to be stored, as its first row holds it."""

    game: str
    rules: dict[str, Any]
    guild_id: int | None
    channel_id: int
    rated: bool
    seed: int
    seats: tuple[int, int]
    state: dict[str, Any]
    names: tuple[str, str] = ("", "")
    """The seats' display names, as the referee has them."""
    computer_level: str | None = None


class StoredState(Mapping[str, Any]):
    """A game's state as stored: its JSON text, decoded on first use.

    Most reads of a game never look at its state (the referee keeps each game's decoded
    state per ply), and decoding a long game's on every read was a move's cost of its own
    (docs/performance/moves.md).
    """

    __slots__ = ("_data", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._data: dict[str, Any] | None = None

    def _decoded(self) -> dict[str, Any]:
        if self._data is None:
            self._data = orjson.loads(self._text)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._decoded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._decoded() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a mapping, like the dict it stands for

    def __repr__(self) -> str:
        return f"StoredState({self._decoded()!r})"


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    rules: dict[str, Any]
    seed: int
    guild_id: int | None
    channel_id: int
    seats: tuple[int, int]
    """Discord user ids of seat 0 and seat 1."""
    status: GameStatus
    ply: int
    """How many log entries the snapshot includes; the next entry gets ply + 1."""
    state: Mapping[str, Any]
    public_message_id: int | None
    winner: int | None
    end_reason: str | None
    created_at: float
    updated_at: float
    """When the game last changed in public (``in_public``): what the players' waiting
    time runs from. A secret setup edit leaves it."""
    rated: bool = True
    """Whether the game's result changes ratings (chosen at ``/play``)."""
    computer_level: str | None = None
    """The computer's level when it plays seat 1 (``COMPUTER_SEAT``); None between people."""

    @property
    def computer_seat(self) -> int | None:
        """The seat the computer plays, if it plays one."""
        return None if self.computer_level is None else COMPUTER_SEAT

    names: tuple[str, str] = ("", "")
    """Display names of seat 0 and seat 1 when the game began, for board images; an empty
    name (a game older than names) is drawn as "Player 1" or "Player 2"."""

    def seat_of(self, user_id: int) -> int | None:
        return self.seats.index(user_id) if user_id in self.seats else None


@dataclass(frozen=True)
class LogEntry:
    ply: int
    seat: int | None
    kind: LogKind
    text: str


@dataclass(frozen=True, order=True)
class Wait:
    """A game waiting since a moment: its last public change, or its reminder.

    Ordered by that moment first, so the longest waits are handled first and a sweep
    can page through them (``after``) without reading any game whole.
    """

    since: float
    game_id: int
    changed_at: float
    """The game's last public change (``GameRecord.updated_at``), which names the wait:
    the game waits the same while it keeps it, whatever changes in secret meanwhile."""


@dataclass(frozen=True)
class Ending:
    """How a finished game ended, written in the same transaction as its last entry."""

    winner: int | None
    reason: str
    rated: bool = False
    """Whether this end changes ratings (``bot.ratings.counts_for_rating``)."""

    @property
    def has_result(self) -> bool:
        """An aborted game has none: nothing goes into the players' records."""
        return self.reason != EndReason.ABORTED.value


Clock = Callable[[], float]
"""Seconds since the epoch; tests pass a clock they move by hand."""


def in_public(audience_texts: AudienceTexts) -> bool:
    """Whether a change is told to the channel, and so known to everyone.

    Only such a change restarts the waiting time of the players the game waits for
    (``bot.timekeeping``). A secret setup edit tells its own player alone: were it to
    restart the clock, the other player's reminder, and the time anyone loses on time,
    would tell when and how long a player edited their setup.
    """
    return any(audience is None for audience, _ in audience_texts)


def moved(
    game: GameRecord,
    live_message_id: int | None,
    state: Mapping[str, Any],
    ending: Ending | None,
    now: float,
    public: bool = True,
) -> GameRecord:
    """``game`` as its next stored change left it (``Repository.append`` on either store):
    one entry further on, with the new state, and finished if the change ended it; its
    last public change is ``now`` if this one is ``public`` (``in_public``)."""
    return replace(
        game,
        public_message_id=live_message_id,
        ply=game.ply + 1,
        state=state,
        status=GameStatus.FINISHED if ending else GameStatus.ACTIVE,
        winner=ending.winner if ending else None,
        end_reason=ending.reason if ending else None,
        updated_at=now if public else game.updated_at,
    )


def dump(data: Mapping[str, Any]) -> str:
    """A JSON column's text: compact and key-sorted, so equal data is stored alike.

    Written by ``orjson``, as a move stores its game's whole state and the standard library
    writes it ten times slower (docs/performance/moves.md). Its text is the standard
    library's ``separators=(",", ":"), sort_keys=True`` for ASCII data; other
    characters it writes as UTF-8 rather than ``\\u`` escapes.
    """
    plain = data if isinstance(data, dict) else dict(data)  # a state read from the store
    return orjson.dumps(plain, option=orjson.OPT_SORT_KEYS).decode()


def challenge_of(row: Any) -> ChallengeRecord:
    """A challenge from a row of ``challenges`` (any driver's row read by column name)."""
    return ChallengeRecord(
        id=row["id"],
        game=row["game"],
        rules=orjson.loads(row["rules"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        message_id=row["message_id"],
        status=ChallengeStatus(row["status"]),
        game_id=row["game_id"],
        created_at=row["created_at"],
        rated=bool(row["rated"]),
        names=(row["challenger_name"], row["opponent_name"]),
        swapped=bool(row["swapped"]),
    )


def game_of(row: Any) -> GameRecord:
    """A game from a row of ``games`` (any driver's row read by column name)."""
    return GameRecord(
        id=row["id"],
        game=row["game"],
        rules=orjson.loads(row["rules"]),
        seed=row["seed"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        seats=(row["seat0_id"], row["seat1_id"]),
        status=GameStatus(row["status"]),
        ply=row["ply"],
        state=StoredState(row["state"]),
        public_message_id=row["public_message_id"],
        winner=row["winner"],
        end_reason=row["end_reason"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        rated=bool(row["rated"]),
        computer_level=row["computer_level"],
        names=(row["seat0_name"], row["seat1_name"]),
    )
