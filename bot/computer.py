"""The computer's seat at the table: it waits for its turn, thinks off the loop, then acts.

A game against the computer is an ordinary game whose second seat is the bot itself. The
computer subscribes to the referee's stored changes (``Referee.changes``); when one tells
its seat something, ``Computer.wake`` starts one task for the game: it asks the referee what
the seat knows (its view and what it was told), lets the player decide in a worker thread so
no other game waits on it, and plays the answer through the referee's ordinary ``act``, at
the ply it decided for, which the referee publishes like any other. A move decided for a
game that moved on meanwhile (a restart, a race) is refused by that ply, so the computer
moves exactly once per turn.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import ParamSpec, TypeVar

from bot.ai import Seen
from bot.catalog import player
from bot.games import ENGINES
from bot.games.core import GameError
from bot.logs import fields
from bot.referee import Referee, Report, StaleMoveError, StoredChange
from bot.storage import GameRecord

log = logging.getLogger("referee.computer")

P = ParamSpec("P")
T = TypeVar("T")


class Thinkers(Executor):
    """Threads the computer thinks in, a few at a time, that never hold up the bot's exit.

    A ``ThreadPoolExecutor``'s threads are joined when the interpreter exits, so a bot
    stopped while the computer thinks would wait out the thought, however long. A thought
    cut short loses nothing: nothing was played, and after the next start the computer
    looks at its games again. So each thought runs on a daemon thread.
    """

    def __init__(self, at_once: int = 2) -> None:
        self._slots = threading.BoundedSemaphore(at_once)

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()

        def think() -> None:
            with self._slots:
                if not future.set_running_or_notify_cancel():
                    return  # given up on while it waited for a slot
                try:
                    result = fn(*args, **kwargs)
                except BaseException as error:
                    future.set_exception(error)
                else:
                    future.set_result(result)

        threading.Thread(target=think, name="ai", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to wait for: a thought still going ends with the process."""


class Computer:
    def __init__(self, referee: Referee, executor: Executor | None = None) -> None:
        self.referee = referee
        self.executor = executor or Thinkers()
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        """Games changed while their task was looking: it looks once more before it stops."""

    def published(self, change: StoredChange) -> None:
        """A stored change told the computer's seat something: it looks at the game."""
        seat = change.game.computer_seat
        if seat is not None and seat in change.told:
            self.wake(change.game)

    def wake(self, game: GameRecord) -> None:
        """Let the computer look at ``game`` (it moves only if its seat may move)."""
        if game.computer_seat is None or game.end_reason is not None:
            return
        task = self._running.get(game.id)
        if task is not None and not task.done():
            self._again.add(game.id)  # it may be reading the game as it was before this change
            return
        self._running[game.id] = asyncio.create_task(self._play(game.id))

    def look_at(self, game_id: int) -> None:
        """Let the computer look at a game known by its id alone (it moves only if its
        seat may move): notices of it were left undelivered by a process that stopped."""
        task = self._running.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        self._running[game_id] = asyncio.create_task(self._play(game_id))

    async def resume(self) -> None:
        """After a start: every running game against the computer is looked at again."""
        for game in await self.referee.computer_games():
            self.wake(game)

    async def settle(self) -> None:
        """Wait until the computer has made every move it may make now (tests, shutdown)."""
        while True:
            running = [task for task in self._running.values() if not task.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def _play(self, game_id: int) -> None:
        """Move while the game waits for the computer: in Sea Battle a hit shoots again."""
        try:
            while True:
                self._again.discard(game_id)
                turn = await self.referee.computer_turn(game_id)
                if turn is None:
                    if game_id in self._again:
                        continue
                    return
                game = turn.game
                decide = player(game.game, game.computer_level or "").decide
                text = await asyncio.get_running_loop().run_in_executor(
                    self.executor, decide, turn.seen
                )
                computer_id = game.seats[turn.seen.seat]
                try:
                    report = await self.referee.act(computer_id, text, game_id, at_ply=game.ply)
                except StaleMoveError:
                    continue  # someone else moved meanwhile: look again
                except GameError:
                    if await self.referee.computer_turn(game_id) is None:
                        continue  # the game ended while it thought (a person's DMs closed)
                    # A move the seat could not know was impossible (a hidden piece in the
                    # way): play another of its legal moves instead, as a person would.
                    report = await self._another(computer_id, game, turn.seen, text)
                log.info(
                    "game %s: the computer moved at ply %d",
                    game_id,
                    report.game.ply,
                    extra=fields(game_id, ply=report.game.ply),
                )
        except StaleMoveError:
            pass  # the game moved on while it chose another move: the next wake looks again
        except Exception:
            log.exception("game %s: the computer could not move", game_id, extra=fields(game_id))
        finally:
            self._running.pop(game_id, None)
            self._again.discard(game_id)

    async def _another(
        self, computer_id: int, game: GameRecord, seen: Seen, refused: str
    ) -> Report:
        """Another legal move of the seat's, when the one it chose was refused."""
        options = [
            text
            for text in ENGINES[game.game].legal_moves(seen.view)
            if text != refused and "draw" not in text
        ]
        for text in seen.dice("refused").sample(options, len(options)):
            try:
                return await self.referee.act(computer_id, text, game.id, at_ply=game.ply)
            except StaleMoveError:
                raise
            except GameError:
                continue
        raise GameError(f"no move of the computer's was accepted in game {game.id}")
