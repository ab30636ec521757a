"""``Repository``: the one narrow interface the referee and the cogs depend on, served by
SQLite (``bot.storage.sqlite``) or PostgreSQL (``bot.storage.postgres``) alike.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.fairness import Seal
from bot.storage import results
from bot.storage.outbox import Inbox, Outbox
from bot.storage.records import (
    WAIT_BATCH,
    AudienceTexts,
    ChallengeRecord,
    ChallengeStatus,
    Clock,
    Ending,
    GameRecord,
    LogEntry,
    LogKind,
    NewGame,
    Wait,
)


class Repository(Protocol):
    """What the referee needs from storage."""

    records: results.ResultQueries
    clock: Clock
    """Stamps every change, so waiting times are measured by the same clock."""

    @property
    def outbox(self) -> Outbox:
        """Each audience's notices, waiting for the deliverer."""
        ...

    @property
    def inbox(self) -> Inbox:
        """The newest direct message handled per player."""
        ...

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
        """Store an open challenge; raises OpenChallengeError while the same challenger's
        challenge to the same opponent is open, however many arrive at once."""
        ...

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None: ...

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None: ...

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, game_id: int | None = None
    ) -> bool: ...

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
    ) -> GameRecord | None: ...

    async def start_computer_game(
        self,
        new: NewGame,
        *,
        at_most: int,
        audience_texts: AudienceTexts = (),
        seals: tuple[Seal, ...] = (),
    ) -> GameRecord | None:
        """Create a game against the computer at once, with no challenge; None when its
        person already plays ``at_most`` games against the computer, however many
        requests arrive at once."""
        ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Held around every change to one game, so changes never interleave, whichever
        process makes them (the ply guard of ``append`` stays the last word)."""
        ...

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
        """Log one entry and store the new snapshot, atomically; StaleGameError when the
        game is no longer at ``game.ply``. ``queued`` names the queued move this entry
        plays: it leaves the queue in the same transaction, and a move already gone from
        the queue (played by another worker) raises StaleGameError too."""
        ...

    async def hold_once(
        self, game: GameRecord, audience_texts: AudienceTexts, *, once: str, mark: str
    ) -> bool:
        """Hold ``audience_texts`` at the game's ply, nothing else of the game changed, unless the
        fact ``once`` already reads ``mark`` (set with them, in one transaction); True if
        held. The channel's note to a player whose DMs are closed goes so, once."""
        ...

    async def log(self, game_id: int) -> list[LogEntry]: ...

    async def seals(self, game_id: int) -> tuple[int, tuple[Seal, ...]] | None:
        """The ply at which play began and the seals made then (None: no seals kept)."""
        ...

    async def announcements(self, game_id: int) -> list[tuple[int, AudienceTexts]]:
        """What each audience was told of each change, by ply, kept for good."""
        ...

    shared: bool
    """Whether other processes use the same database (then work is claimed, see below)."""

    def duty(self, name: str) -> AbstractAsyncContextManager[bool]:
        """Work one process must do at a time (the clock's sweep): yields whether this
        process has it now. A process that dies while on duty gives it up with it."""
        ...

    async def set_public_message(self, game_id: int, message_id: int) -> None: ...

    async def active_games_of(self, user_id: int) -> list[GameRecord]: ...

    async def active_games_in(self, guild_id: int) -> list[GameRecord]: ...

    async def active_players(self) -> list[int]: ...

    async def active_computer_games(self) -> list[GameRecord]: ...

    async def save_setup(self, user_id: int, game: str, name: str, text: str) -> None: ...

    async def saved_setup(self, user_id: int, game: str, name: str) -> str | None: ...

    async def saved_setup_names(self, user_id: int, game: str) -> list[str]: ...

    async def awaiting_reminder(
        self, idle_since: float, after: Wait | None = None, limit: int = WAIT_BATCH
    ) -> list[Wait]: ...

    async def awaiting_forfeit(
        self, reminded_since: float, after: Wait | None = None, limit: int = WAIT_BATCH
    ) -> list[Wait]: ...

    async def set_reminded(self, game_id: int, changed_at: float, at: float) -> None:
        """The players the game waits for since its public change at ``changed_at`` were
        reminded ``at``; nothing if it changed in public since."""
        ...

    async def unanswered_challenges(self, before: float) -> list[ChallengeRecord]: ...

    async def forget_closed_challenges(self, before: float) -> int: ...

    async def fact(self, key: str) -> str | None:
        """A small fact the bot keeps about itself (None: never set)."""
        ...

    async def set_fact(self, key: str, value: str) -> None: ...

    async def forget_fact(self, key: str) -> None: ...
