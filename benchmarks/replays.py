"""Replays: size and encoding time of the animated replay of a long game, per game.

Plays one random game of each game through the referee (a real SQLite file), resigned at
``--plies`` moves if it lasts that long, then builds its replay for the channel, a seat and
the whole truth: rebuilding the states from the log, drawing the frames and encoding the
GIF, timed apart. The games are seeded (``--seed``), so runs replay the same games. With
``--webp`` it also encodes the same frames as animated WebP.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import tempfile
import time
from pathlib import Path

from benchmarks.playouts import play_out
from bot.delivery.presenter import frame_renderer, names_of
from bot.games import ENGINES
from bot.referee import Referee
from bot.replays import TRUTH, Audience, moments, states_of
from bot.storage import SqliteRepository
from renderers import replay


async def measure(key: str, plies: int, webp: bool, database: Path, seed: int) -> None:
    repository = await SqliteRepository.open(database)
    try:
        referee = Referee(repository, seed_source=lambda: seed)
        game = await play_out(referee, key, max_plies=plies, players=(7001, 7002), seed=seed)
        engine = ENGINES[key]
        entries = await repository.log(game.id)
        start = time.perf_counter()
        states = states_of(engine, game, entries)
        rebuilt = time.perf_counter() - start
        audiences: list[tuple[str, Audience]] = [("channel", None), ("seat0", 0), ("truth", TRUTH)]
        for name, audience in audiences:
            start = time.perf_counter()
            frames = replay.draw_frames(
                frame_renderer(key, names_of(game)), moments(engine, states, audience)
            )
            drawn = time.perf_counter()
            gif = replay.animate(frames)
            encoded = time.perf_counter()
            line = (
                f"{key:10} {name:8} {len(entries):4} plies {len(frames):4} frames  "
                f"GIF {len(gif) / 1024:7.1f} KB  rebuild {rebuilt:5.2f} s  "
                f"draw {drawn - start:5.2f} s  encode {encoded - drawn:5.2f} s  "
                f"total {rebuilt + encoded - start:5.2f} s"
            )
            if webp:
                buffer = io.BytesIO()
                began = time.perf_counter()
                sized = replay.same_size(frames)
                sized[0].save(
                    buffer,
                    "WEBP",
                    save_all=True,
                    append_images=sized[1:],
                    lossless=True,
                    duration=replay.FRAME_MS,
                    method=0,
                )
                spent = time.perf_counter() - began
                line += f"  WebP {len(buffer.getvalue()) / 1024:7.1f} KB in {spent:5.2f} s"
            print(line, flush=True)
    finally:
        await repository.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--game", choices=sorted(ENGINES), action="append")
    parser.add_argument("--webp", action="store_true", help="also time animated WebP")
    parser.add_argument("--seed", type=int, default=11, help="the games' seed")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for key in options.game or list(ENGINES):
            database = Path(folder) / f"{key}.db"
            asyncio.run(measure(key, options.plies, options.webp, database, options.seed))


if __name__ == "__main__":
    main()
