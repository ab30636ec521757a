"""Delivery under Discord's published rate limits, against the loopback Discord.

Two measurements of the real bot (the production client in this process, talking to the
loopback Discord of the tests, which enforces Discord's per-route buckets):

1. Four busy games in one channel: every game moves several times a second for a burst,
   so the channel's edits (5 per 5 seconds for the whole channel) cannot keep up one by
   one. Prints how many moves each live message falls behind during the burst, and how
   many edits each needs once the burst ends to show the newest state.
2. A restart with a backlog: the bot starts on a database holding 1,000 undelivered
   reports and a player moves at once. Prints how long the answer took from the start,
   and how long the backlog took to go out behind it.

``python -m benchmarks.delivery`` (needs the test extras: ``pip install -e .[test]``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
import time
from pathlib import Path

from bot.client import RefereeBot
from bot.games import ENGINES
from bot.games.grid import cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.referee import Referee
from bot.settings import Settings
from bot.storage import GameRecord, SqliteRepository
from tests.support.discord import DiscordDriver, FakeDiscord, FakeUser, RateLimits

SHOT = re.compile(r"<@(\d+)> fires at ([A-Z]\d+):")
"""The channel's text of a shot: who fired where, which names the shot's ply."""


def make_bot(database: Path) -> RefereeBot:
    return RefereeBot(Settings(token="bench-token", database_path=database))


def shown_ply(server: FakeDiscord, record: GameRecord, plies: dict[tuple[int, str], int]) -> int:
    """The ply of the shot the game's live message shows now; ``plies`` maps each shot
    (shooter, cell) of the game to its ply."""
    if record.public_message_id is None:
        return -1
    match = SHOT.search(server.messages[record.public_message_id].content)
    return plies.get((int(match[1]), match[2]), -1) if match else -1


def next_shot(record: GameRecord, rng: random.Random) -> tuple[int, str]:
    """The seat to move and a cell it has not shot: mostly water, so games last."""
    state = ENGINES["seabattle"].from_json(record.state)
    assert isinstance(state, SeaBattleState)
    seat = state.turn
    assert seat is not None
    size = state.rules.size
    free = [
        (column, row)
        for row in range(size)
        for column in range(size)
        if (column, row) not in state.shots[seat]
    ]
    return seat, cell_name(rng.choice(free))


def dm(driver: DiscordDriver, user_id: int, text: str) -> None:
    server = driver.server
    message = server.store_user_message(server.dm_channel_id(user_id), user_id, text)
    driver.gateway.dispatch_message("MESSAGE_CREATE", message)


async def start_games(driver: DiscordDriver, players: list[FakeUser]) -> list[int]:
    """Games between pairs of ``players``, set up and in play, through the real commands."""
    ids = []
    for challenger, opponent in zip(players[::2], players[1::2], strict=True):
        result = await driver.slash(challenger, "play", game="seabattle", opponent=opponent)
        assert result.original is not None
        await driver.click(opponent, result.original.id, result.original.custom_ids[0])
        for user in (challenger, opponent):
            await driver.dm(user, "random")
            await driver.dm(user, "ready")
        games = await driver.client.repository.active_games_of(challenger.id)  # type: ignore[attr-defined]
        ids.append(games[-1].id)
    return ids


async def busy_channel(burst: float, pace: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = FakeDiscord()
        async with DiscordDriver.start(
            make_bot(Path(folder) / "bench.sqlite3"), server=server, settle_timeout=60
        ) as driver:
            driver.add_guild("Harbour")
            players = [driver.add_user(f"player{n}") for n in range(8)]
            await driver.settle()
            games = await start_games(driver, players)
            server.rate_limits = RateLimits()
            repository: SqliteRepository = driver.client.repository  # type: ignore[attr-defined]
            rng = random.Random(4)
            behind: dict[int, int] = dict.fromkeys(games, 0)
            asked: dict[int, int] = dict.fromkeys(games, -1)
            plies: dict[int, dict[tuple[int, str], int]] = {g: {} for g in games}
            moves = 0
            started = time.monotonic()
            while time.monotonic() - started < burst:
                for game_id in games:
                    record = await repository.get_game(game_id)
                    assert record is not None
                    if record.end_reason is not None or asked[game_id] == record.ply:
                        continue  # over, or the last move is still on its way in
                    asked[game_id] = record.ply
                    seat, target = next_shot(record, rng)
                    dm(driver, record.seats[seat], target)
                    plies[game_id][(record.seats[seat], target)] = record.ply + 1
                    moves += 1
                    shown = shown_ply(server, record, plies[game_id])
                    behind[game_id] = max(behind[game_id], record.ply - shown)
                await asyncio.sleep(pace)
            ended = time.monotonic()
            edits_at_end = {g: live_edits(server, g) for g in games}
            records = {g: await repository.get_game(g) for g in games}
            while any(
                shown_ply(server, r, plies[g]) < r.ply  # type: ignore[union-attr, arg-type]
                for g, r in records.items()
            ):
                await asyncio.sleep(0.05)
                records = {g: await repository.get_game(g) for g in games}
            caught_up = time.monotonic() - ended
            after = {g: live_edits(server, g) - edits_at_end[g] for g in games}
            print(
                f"four games in one channel: {moves} moves in {burst:.0f} s "
                f"({moves / burst:.1f} a second), channel edits limited to 5 per 5 s"
            )
            print(f"{'game':<6}{'plies':>7}{'most behind (moves)':>22}{'edits after burst':>20}")
            for game_id in games:
                record = records[game_id]
                assert record is not None
                print(f"#{game_id:<5}{record.ply:>7}{behind[game_id]:>22}{after[game_id]:>20}")
            print(f"every live message showed the newest state {caught_up:.1f} s after the burst")
            print(f"429s the bot ran into: {server.rate_limits.refused}")
            driver.ignore_tasks("delivery backlog")


def live_edits(server: FakeDiscord, game_id: int) -> int:
    """How many times the game's public board was posted or edited in so far."""
    prefix = f"seabattle-{game_id}-"
    return sum(
        1
        for sent in server.sent
        if sent.kind in ("edit", "message")
        and any(name.startswith(prefix) and name.endswith("-public.png") for name, _ in sent.files)
    )


async def restart_with_backlog(reports: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        server = FakeDiscord()
        async with DiscordDriver.start(make_bot(database), server=server) as first:
            first.add_guild("Harbour")
            players = [first.add_user(f"player{n}") for n in range(20)]
            await first.settle()
            games = await start_games(first, players)
        backlog = await _store_backlog(database, games, reports)
        server.rate_limits = RateLimits()
        driver = DiscordDriver(make_bot(database), server=server, settle_timeout=120)
        driver.guilds.extend(first.guilds)
        driver.users.update(first.users)
        started = time.monotonic()
        opening = asyncio.get_running_loop().create_task(driver.open())
        try:
            while not driver.gateway.connected:  # the bot is up: a player moves at once
                await asyncio.sleep(0.005)
            connected = time.monotonic() - started
            repository: SqliteRepository = driver.client.repository  # type: ignore[attr-defined]
            record = await repository.get_game(games[0])
            assert record is not None
            seat, target = next_shot(record, random.Random(9))
            mover = record.seats[seat]
            seen = len(server.messages_in(server.dm_channel_id(mover)))
            dm(driver, mover, target)
            moved = time.monotonic()
            while (await repository.get_game(games[0])).ply == record.ply:  # type: ignore[union-attr]
                await asyncio.sleep(0.005)
            stored = time.monotonic() - moved
            while not any(
                line.startswith(f"{target}: ")
                for m in server.messages_in(server.dm_channel_id(mover))[seen:]
                for line in m.content.split("\n")
            ):
                await asyncio.sleep(0.005)
            answered = time.monotonic() - moved
            await opening
            while await repository.outbox.waiting():
                await asyncio.sleep(0.05)
            drained = time.monotonic() - started
        finally:
            await opening
            await driver.close()
        print(
            f"restart with {backlog} undelivered reports ({len(games)} games): connected "
            f"{connected:.2f} s after the start; a move sent then was played in {stored:.2f} s "
            f"and its mover told in {answered:.2f} s (after their own older notices); "
            f"the whole backlog was out {drained:.1f} s after the start"
        )


async def _store_backlog(database: Path, games: list[int], reports: int) -> int:
    """``reports`` moves stored and never delivered, as a stopped bot leaves them."""
    repository = await SqliteRepository.open(database)
    referee = Referee(repository)
    rng = random.Random(7)
    stored = 0
    try:
        while stored < reports:
            for game_id in games:
                record = await repository.get_game(game_id)
                assert record is not None
                if record.end_reason is not None:
                    continue
                seat, target = next_shot(record, rng)
                await referee.act(record.seats[seat], f"#{game_id} {target}")
                stored += 1
    finally:
        await repository.close()
    return stored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=float, default=30.0, help="seconds of busy play")
    parser.add_argument("--pace", type=float, default=0.25, help="seconds between rounds")
    parser.add_argument("--backlog", type=int, default=1000, help="undelivered reports")
    options = parser.parse_args()
    asyncio.run(busy_channel(options.burst, options.pace))
    asyncio.run(restart_with_backlog(options.backlog))


if __name__ == "__main__":
    main()
