"""What the benchmarks share: starting games as players do, random moves, a notice's
delivery confirmed, a private PostgreSQL server and a percentile.

Every benchmark plays the way players do, through the referee, so that a figure is the
bot's own; written once here, two benchmarks cannot drift apart in how they play.
"""

from __future__ import annotations

import random
import shutil
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.games.core import Engine, Phase
from bot.referee import Referee
from bot.storage import GameRecord, Repository
from bot.storage.outbox import Backlog


async def start_game(
    referee: Referee,
    game: str,
    players: tuple[int, int],
    *,
    variant: str | None = None,
    options: str | None = None,
) -> GameRecord:
    """A new game of ``game`` between ``players``: challenged by the first, accepted by the
    second (so the first sits in seat 0), as stored once accepted."""
    challenge = await referee.challenge(
        game=game,
        variant=variant,
        options=options,
        guild_id=1,
        channel_id=2,
        challenger_id=players[0],
        opponent_id=players[1],
    )
    return (await referee.accept(challenge.id, players[1])).game


def setup_moves(engine: Engine, state: Any) -> list[tuple[int, str]]:
    """Each seat's ``random`` and ``ready`` in turn, where the game opens with a setup
    (Luzhanqi's flip game has none): how players set up in a hurry."""
    words = ("random", "ready") if engine.view(state, None).phase is Phase.SETUP else ()
    return [(seat, word) for seat in (0, 1) for word in words]


def random_move(engine: Engine, state: Any, rng: random.Random) -> tuple[int, str] | None:
    """A uniformly random legal move of the first seat to move, or None once nobody is."""
    movers = sorted(engine.to_move(state))
    if not movers:
        return None
    seat = movers[0]
    return seat, str(rng.choice(list(engine.legal_actions(state, seat))))


async def released(repository: Repository, game_id: int, audience: int | None) -> None:
    """What an audience's backlog does once its message is out: claim its notice, release it."""
    batch = await repository.outbox.claim(Backlog(game_id, audience))
    if batch is not None:
        await repository.outbox.release(batch)


@contextmanager
def private_postgres() -> Iterator[tuple[str, Path]]:
    """A PostgreSQL 16 server of the run's own in a temporary folder, removed afterwards
    (pgserver's own binaries, no network: a Unix socket); its URL and its data folder, where
    its processor time can be read. Run as root, pgserver starts the server as an
    unprivileged user, which must be able to reach the folder."""
    import pgserver  # a test dependency: the bot itself never starts a server

    folder = Path(tempfile.mkdtemp(prefix="referee-pg-"))
    folder.chmod(0o755)
    data = folder / "pgdata"
    server = pgserver.get_server(data, cleanup_mode="stop")
    try:
        yield server.get_uri(), data
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


async def new_schema(server_url: str, name: str) -> str:
    """A URL of the server at ``server_url`` whose tables live in schema ``name``, made
    afresh (dropped first if a run before left it)."""
    import asyncpg

    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
    finally:
        await admin.close()
    separator = "&" if "?" in server_url else "?"
    return f"{server_url}{separator}search_path={name}"


def spread(values: list[float]) -> tuple[float, float, float]:
    """The median, the 95th percentile and the largest of ``values``."""
    return statistics.median(values), percentile(values, 0.95), max(values)


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (the nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
