"""WAL checkpoints on a timer, on a thread and connection of their own, off every move's path.

In WAL mode every commit appends to the write-ahead log, and SQLite by default copies the
log back into the database file (a checkpoint) inside whichever commit pushes the log past
1,000 pages, and that move pays for the copying (docs/performance/moves.md). The
repository's connection turns that off, and this checkpointer does the copying instead,
every ``CHECKPOINT_SECONDS``, in PASSIVE mode (it never waits for or blocks a reader or
the writer). Writers go on appending while it copies, and once it has caught up SQLite
starts the log from the beginning again, so the file stays small.

It is a plain thread rather than a task: the event loop is not woken for it at all, and
SQLite releases the GIL while it copies.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

log = logging.getLogger("referee.storage")

CHECKPOINT_SECONDS = 1.0
"""How often the log is copied back: a second of moves is at most a few hundred pages."""


class Checkpointer:
    """Checkpoints one database file every ``every`` seconds until closed."""

    def __init__(self, path: str | Path, every: float = CHECKPOINT_SECONDS) -> None:
        self.path = str(path)
        self.every = every
        self.last: tuple[int, int, int] | None = None
        """The latest checkpoint's (busy, frames in the log, frames copied back)."""
        self.checkpointed = threading.Event()
        """Set after every checkpoint; whoever waits for the next one clears it first."""
        self._stop = threading.Event()
        # A daemon: a store someone forgot to close never keeps the process alive.
        self._thread = threading.Thread(target=self._run, name="wal-checkpoints", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with closing(sqlite3.connect(self.path, isolation_level=None)) as db:
            db.execute("PRAGMA busy_timeout=5000")
            while not self._stop.wait(self.every):
                try:
                    busy, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error:  # a full disk, say: moves still commit to the log
                    log.exception("WAL checkpoint failed")
                    continue
                self.last = (busy, frames, copied)
                self.checkpointed.set()

    def close(self) -> None:
        """Stop the timer; a checkpoint under way finishes first (it takes milliseconds)."""
        self._stop.set()
        self._thread.join()
