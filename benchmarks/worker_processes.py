"""The worker processes of ``benchmarks.workers``: started for a run, each playing queued
moves as ``ROLE=worker`` does, and saying on its standard output when each was delivered.

They report on a pipe to the benchmark, not through the database, whose processor time
per move is measured. ``python -m benchmarks.worker_processes URL`` is one such process.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from dataclasses import replace
from subprocess import PIPE

from benchmarks.closed_loop import Load, Rendering, Run, deliver, play_all
from benchmarks.processor_share import ProcessorShare
from bot.delivery.deliverer import Deliverer
from bot.referee import Referee, Report
from bot.storage import PostgresRepository
from bot.storage.postgres_queue import QueuedMove
from bot.worker import MoveWorker

READY = "ready"
"""A worker process's first line: it listens for queued moves."""
DONE = "done"
"""A worker process's line for each move it delivered: ``done <queued move id>``."""
SPENT = "spent"
"""A worker process's last line: ``spent <processor seconds its moves took>``."""
STOP_WITHIN = 120
"""Seconds a worker process is given to stop before it is killed."""


class Silent:
    """Answers to refused moves: counted (there should be none)."""

    def __init__(self) -> None:
        self.refused = 0

    async def refuse(self, move: QueuedMove, text: str) -> None:
        self.refused += 1
        print(f"refused: game {move.game_id} {move.text!r}: {text}", file=sys.stderr)

    def answers_notices(self, move: QueuedMove) -> bool:
        return False  # every notice goes by the deliverer, as ``deliver`` sends it

    async def answer(self, move: QueuedMove, report: Report) -> None:
        pass


class BenchmarkWorker(MoveWorker):
    """A worker that delivers each move before the next and announces it delivered on its
    standard output."""

    def __init__(self, store: PostgresRepository) -> None:
        referee = Referee(store)
        super().__init__(store.queue, referee, Silent())
        self.deliverer = Deliverer(store.outbox, referee, Rendering())

    async def play(self, move: QueuedMove) -> Report | None:
        report = await self.apply(move)
        if report is not None:
            await deliver(self.deliverer, report)
        print(DONE, move.id, flush=True)
        return report


async def serve(url: str) -> None:
    """A worker process: play queued moves until SIGTERM."""
    store = await PostgresRepository.open(url)
    worker = BenchmarkWorker(store)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await worker.start()
    print(READY, flush=True)
    started = time.process_time()
    await stop.wait()
    print(SPENT, time.process_time() - started, flush=True)
    await worker.close()
    await store.close()


class WorkerProcesses:
    """The worker processes of one run, and what they say: each move delivered, and in the
    end the processor time they spent."""

    def __init__(self) -> None:
        self.processes: list[asyncio.subprocess.Process] = []
        self.readers: list[asyncio.Task[None]] = []
        self.spent: list[float] = []
        self.waiting: dict[int, asyncio.Future[None]] = {}
        self.early: set[int] = set()
        """Moves delivered before their sender heard their id back from the queue."""

    async def start(self, url: str, count: int, share: ProcessorShare | None) -> None:
        """Start ``count`` processes on the database at ``url``; return once all listen."""
        ready = [asyncio.get_running_loop().create_future() for _ in range(count)]
        for started in ready:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "benchmarks.worker_processes", url, stdout=PIPE
            )
            self.processes.append(process)
            if share is not None:  # held before it is ready, so before its first move
                share.hold(process.pid)
            self.readers.append(asyncio.create_task(self._reading(process, started)))
        await asyncio.gather(*ready)

    async def delivered(self, move_id: int) -> None:
        """Return once a worker said the queued move ``move_id`` was delivered."""
        if move_id in self.early:
            self.early.discard(move_id)
            return
        done = self.waiting[move_id] = asyncio.get_running_loop().create_future()
        await done

    async def stop(self) -> None:
        """Stop every process (SIGTERM), read its last words, and kill any that lingers."""
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(STOP_WITHIN):
                await asyncio.gather(*self.readers, *(p.wait() for p in self.processes))
        finally:  # a worker that did not stop in time is not left running
            for process in self.processes:
                if process.returncode is None:
                    process.kill()
                    await process.wait()

    def _done(self, move_id: int) -> None:
        future = self.waiting.pop(move_id, None)
        if future is None:
            self.early.add(move_id)
        elif not future.done():
            future.set_result(None)

    async def _reading(
        self, process: asyncio.subprocess.Process, started: asyncio.Future[None]
    ) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            word, *rest = raw.decode().split()
            if word == READY:
                started.set_result(None)
            elif word == DONE:
                self._done(int(rest[0]))
            elif word == SPENT:
                self.spent.append(float(rest[0]))
        if not started.done():
            started.set_exception(RuntimeError("a worker process did not start"))


async def with_workers(url: str, workers: int, load: Load) -> Run:
    """The receiving process queues every move; ``workers`` processes play them."""
    store = await PostgresRepository.open(url)
    processes = WorkerProcesses()
    share = None
    try:
        if load.worker_share is not None:
            share = ProcessorShare.open(load.worker_share)
        await processes.start(url, workers, share)

        async def play(game_id: int, user_id: int, text: str) -> None:
            await processes.delivered(await store.queue.put(game_id, user_id, text, {"dm": 0}))

        run = await play_all(store, play, load)
    finally:
        try:
            await processes.stop()
        finally:
            if share is not None:
                share.close()
            await store.close()
    return replace(run, workers_cpu=sum(processes.spent))


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1]))
