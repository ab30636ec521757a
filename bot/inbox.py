"""The move inbox: where a cog hands every move it receives, by DM text, ``/move`` or a button.

The cog does not choose how a move is played. It hands the move in with its ``Reply``
(where the player's answer goes) and the inbox plays it:

- ``InProcessInbox`` plays it at once, in this process: ``Referee.act``, then the one
  answer to the player (``Answers.answer``), which a worker gives too;
- ``QueuedInbox``, on a shared PostgreSQL database with workers, refuses at once what needs
  no playing (``Referee.aim``), then queues the move (``bot.storage.postgres_queue``) with
  its reply's address, for a worker (``bot.worker``) to play the same way and answer.

Either way the referee publishes the stored change and the deliverer sends its notices;
the mover's own notice answers their command when the reply can carry it.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.delivery.deliverer import Sender
from bot.delivery.presenter import Message
from bot.referee import Referee, Report
from bot.storage import GameRecord
from bot.storage.postgres_queue import MoveQueue


class Reply(Protocol):
    """Where the answer to a player's own move goes: their command, or their DM channel."""

    @property
    def answers_notices(self) -> bool:
        """Whether the mover's notice goes as this answer (a command's), not by DM."""
        ...

    @property
    def may_wait(self) -> bool:
        """Whether the move may wait in a queue for a worker (not one read at start)."""
        ...

    def address(self) -> dict[str, Any]:
        """What a queued move keeps so that a worker can answer it (``QueuedMove.reply``)."""
        ...

    async def waiting(self) -> None:
        """The move is about to wait for a worker: say so (a command shows "thinking")."""
        ...

    async def queued(self) -> None:
        """The move waits for a worker (a DM move is marked received)."""
        ...

    async def tell(self, text: str) -> None:
        """A sentence for the player (a refusal, or that their move counted)."""
        ...

    async def show(self, game: GameRecord, message: Message) -> None:
        """An answer that changed no game, with its board (a setup saved by name)."""
        ...

    def sender(self) -> Sender | None:
        """Sends the mover's notice as this answer (``Deliverer.answer``); None when the
        notice goes by DM."""
        ...


class Answers(Protocol):
    async def answer(self, reply: Reply, user_id: int, report: Report) -> None:
        """Answer the player of a played move where ``reply`` says (``Reply``)."""
        ...


class MoveInbox(Protocol):
    async def hand_in(self, user_id: int, text: str, game_id: int | None, reply: Reply) -> None:
        """Play the move, now or by a worker, and answer its player through ``reply``.
        A refusal known at once is raised (``GameError``), for the caller to tell."""
        ...


class InProcessInbox:
    """Plays every move at once, in the process that received it."""

    def __init__(self, referee: Referee, answers: Answers) -> None:
        self.referee = referee
        self.answers = answers

    async def hand_in(self, user_id: int, text: str, game_id: int | None, reply: Reply) -> None:
        answering = reply.answers_notices
        report = await self.referee.act(user_id, text, game_id, answering=answering)
        await self.answers.answer(reply, user_id, report)


class QueuedInbox:
    """Queues moves for the workers; a move that may not wait is played at once."""

    def __init__(self, queue: MoveQueue, referee: Referee, at_once: InProcessInbox) -> None:
        self.queue = queue
        self.referee = referee
        self.at_once = at_once

    async def hand_in(self, user_id: int, text: str, game_id: int | None, reply: Reply) -> None:
        if not reply.may_wait:
            await self.at_once.hand_in(user_id, text, game_id, reply)
            return
        game_id = await self.referee.aim(user_id, text, game_id)
        await reply.waiting()
        await self.queue.put(game_id, user_id, text, reply.address())
        await reply.queued()
