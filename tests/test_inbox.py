"""The move inbox without Discord: where a handed-in move is played, and how it is answered.

In one process a move is played at once and answered through the one answer; with a
queue, what needs no playing is refused at once, the reply is told the move waits, and
the move is queued with the reply's address for a worker; a move that may not wait (one
read from the DM history at start) is played at once all the same.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.delivery.deliverer import Sender
from bot.delivery.presenter import Message
from bot.inbox import InProcessInbox, QueuedInbox, Reply
from bot.referee import Referee, RefereeError, Report
from bot.storage import GameRecord
from bot.storage.postgres_queue import MoveQueue
from tests.referee.test_referee import ALICE, start_game


class Said:
    """A reply that records what happened to it, in order."""

    answers_notices = False

    def __init__(self, *, may_wait: bool = True) -> None:
        self.may_wait = may_wait
        self.events: list[str] = []

    def address(self) -> dict[str, Any]:
        return {"dm": 4242}

    async def waiting(self) -> None:
        self.events.append("waiting")

    async def queued(self) -> None:
        self.events.append("queued")

    async def tell(self, text: str) -> None:
        self.events.append(f"told {text}")

    async def show(self, game: GameRecord, message: Message) -> None:
        self.events.append("shown")

    def sender(self) -> Sender | None:
        return None


class Answers:
    def __init__(self) -> None:
        self.answered: list[tuple[Reply, int, Report]] = []

    async def answer(self, reply: Reply, user_id: int, report: Report) -> None:
        self.answered.append((reply, user_id, report))


class Queue:
    def __init__(self, events: list[str]) -> None:
        self.events = events
        self.put_moves: list[tuple[int, int, str, dict[str, Any]]] = []

    async def put(self, game_id: int, user_id: int, text: str, reply: dict[str, Any]) -> int:
        self.events.append("put")
        self.put_moves.append((game_id, user_id, text, reply))
        return len(self.put_moves)


async def test_a_move_handed_in_is_played_at_once_and_answered_once(referee: Referee) -> None:
    game = await start_game(referee)
    answers = Answers()
    reply = Said()
    await InProcessInbox(referee, answers).hand_in(ALICE, "random", None, reply)
    ((answered_reply, user_id, report),) = answers.answered
    assert answered_reply is reply and user_id == ALICE
    assert report.stored and report.game.id == game.id and report.game.ply == 1


async def test_a_queued_move_waits_with_its_address_and_a_refusal_comes_at_once(
    referee: Referee,
) -> None:
    game = await start_game(referee)
    answers = Answers()
    reply = Said()
    queue = Queue(reply.events)
    inbox = QueuedInbox(cast(MoveQueue, queue), referee, InProcessInbox(referee, answers))
    await inbox.hand_in(ALICE, "random", None, reply)
    assert queue.put_moves == [(game.id, ALICE, "random", {"dm": 4242})]
    assert reply.events == ["waiting", "put", "queued"]  # deferred before it can be answered
    assert answers.answered == []  # a worker plays and answers it
    with pytest.raises(RefereeError, match="no game running"):
        await inbox.hand_in(1009, "random", None, Said())
    assert len(queue.put_moves) == 1


async def test_a_move_that_may_not_wait_is_played_at_once_by_the_queueing_inbox(
    referee: Referee,
) -> None:
    await start_game(referee)
    answers = Answers()
    reply = Said(may_wait=False)
    queue = Queue(reply.events)
    inbox = QueuedInbox(cast(MoveQueue, queue), referee, InProcessInbox(referee, answers))
    await inbox.hand_in(ALICE, "random", None, reply)
    assert queue.put_moves == [] and reply.events == []
    assert [report.game.ply for _, _, report in answers.answered] == [1]
