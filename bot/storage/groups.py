"""Group commit for both stores: calls of one kind made at the same time by different
tasks of one process go to the database together, in one trip.

On PostgreSQL every statement wakes a server process, and on a busy bot those wake-ups,
with each statement's commit, are most of the database's work for a move, far more than
the rows themselves; on SQLite every trip to aiosqlite's thread costs the event loop more
than SQLite's own work. A move tells three audiences side by side, and a worker plays
several moves at once: so while one trip of a kind is on its way, the calls made
meanwhile wait, and then go together in the next one. A lone call goes at once, so a quiet
bot waits for nothing; nothing ever waits for a timer.

Each call keeps its own answer, and its own failure: should the database refuse a grouped
trip (``refused``: the store's own errors, after which nothing was changed, or only what
sending each call again changes no further), each of its calls is sent again alone, so one
call's fault (a row a constraint refuses) never fails the calls that happened to travel
with it. Anything else (a connection lost on the way) fails them all: whether the trip
was committed is then unknown, and sending it again could do it twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

Call = TypeVar("Call")
Answer = TypeVar("Answer")

Send = Callable[[Sequence[Call]], Awaitable[Sequence[Answer]]]
"""Sends several calls in one trip; one answer per call, in their order."""


class Group(Generic[Call, Answer]):
    """Calls of one kind, grouped while the previous trip is on its way."""

    def __init__(
        self,
        send: Send[Call, Answer],
        name: str,
        refused: type[Exception] | tuple[type[Exception], ...],
    ) -> None:
        self._send = send
        self._name = name
        self._refused = refused
        self._waiting: list[tuple[Call, asyncio.Future[Answer]]] = []
        self._sending: asyncio.Task[None] | None = None
        self.statements = 0
        """Trips made so far (for tests and benchmarks)."""

    async def __call__(self, call: Call) -> Answer:
        """The call's answer, sent with whatever calls wait with it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Answer] = loop.create_future()
        self._waiting.append((call, future))
        if self._sending is None:
            self._sending = loop.create_task(self._sender(), name=self._name)
        return await future

    async def _sender(self) -> None:
        batch: list[tuple[Call, asyncio.Future[Answer]]] = []
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                await self._answer(batch)
                batch = []
        finally:  # cancelled (the loop is closing): no call is left waiting for ever
            self._sending = None
            for _, future in (*batch, *self._waiting):
                if not future.done():
                    future.set_exception(ConnectionError(f"{self._name}: the store closed"))
            self._waiting = []

    async def _answer(self, batch: list[tuple[Call, asyncio.Future[Answer]]]) -> None:
        try:
            answers = await self._sent([call for call, _ in batch])
        except self._refused as refused:
            if len(batch) == 1:
                _fail(batch[0][1], refused)
                return
            for one in batch:  # each alone: only the faulty call fails
                await self._answer([one])
            return
        except Exception as error:
            for _, future in batch:
                _fail(future, error)
            return
        for (_, future), answer in zip(batch, answers, strict=True):
            if not future.done():
                future.set_result(answer)

    async def _sent(self, calls: Sequence[Call]) -> Sequence[Answer]:
        self.statements += 1
        return await self._send(calls)


def _fail(future: asyncio.Future[Answer], error: Exception) -> None:
    if not future.done():
        future.set_exception(error)
