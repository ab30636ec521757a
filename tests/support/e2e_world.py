"""The world of the end-to-end tests: the bot as ``python -m bot`` runs it, and its players.

The bot runs in its own process against the loopback Discord (REST and gateway), on a
temporary database, configured only through its environment. The test plays the people
(slash commands, buttons, DMs) and reads the database file the bot writes to aim at known
hits and misses, as the cog tests do. :func:`running_shards` runs two such processes, on
shards 0 and 1 of one PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.client import intents
from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.storage import (
    GameRecord,
    GameStatus,
    LogEntry,
    PostgresRepository,
    SqliteRepository,
    open_repository,
)
from tests.support.cog_helpers import names, open_water, ship_cells, state_of
from tests.support.discord import FakeGuild, FakeUser, Sent, StoredMessage
from tests.support.discord.remote import BotProcess, RemoteDriver

TOKEN = "e2e.token-that-must-never-be-shown.Xy9"


@dataclass
class World:
    driver: RemoteDriver
    bot: BotProcess
    alice: FakeUser
    bob: FakeUser
    database: Path
    database_url: str | None = None
    """The PostgreSQL database the bot processes share; None: the SQLite file ``database``."""

    @asynccontextmanager
    async def store(self) -> AsyncIterator[SqliteRepository | PostgresRepository]:
        """The bot's database, opened from the test's side."""
        repository = await open_repository(self.database_url, self.database)
        try:
            yield repository
        finally:
            await repository.close()

    async def game(self, game_id: int = 1) -> GameRecord:
        """The game as the bot's database holds it now."""
        async with self.store() as repository:
            record = await repository.get_game(game_id)
        assert record is not None, f"game #{game_id} is not in the database"
        return record

    async def log(self, game_id: int = 1) -> list[LogEntry]:
        async with self.store() as repository:
            return await repository.log(game_id)

    async def has_game(self, game_id: int) -> bool:
        async with self.store() as repository:
            return await repository.get_game(game_id) is not None

    def seated(self, record: GameRecord, seat: int) -> FakeUser:
        return self.driver.users[record.seats[seat]]

    def shooter(self, record: GameRecord) -> tuple[int, FakeUser]:
        """The seat to shoot and its player (the game must be in play)."""
        seat = state_of(record).turn
        assert seat is not None, "the game is not in play"
        return seat, self.seated(record, seat)

    async def challenge(
        self, challenger: FakeUser, opponent: FakeUser, guild: FakeGuild | bool = True
    ) -> StoredMessage:
        """A Sea Battle challenge in ``guild`` (by default the first server)."""
        result = await self.driver.slash(
            challenger, "play", guild=guild, game="seabattle", opponent=opponent
        )
        message = result.original
        assert message is not None and not message.ephemeral, result.content
        return message

    async def accept(self, opponent: FakeUser, message: StoredMessage) -> None:
        accept_id = next(c for c in message.custom_ids if c.startswith("challenge:accept:"))
        await self.driver.click(opponent, message.id, accept_id)

    async def game_in_play(
        self, players: tuple[FakeUser, FakeUser] | None = None, guild: FakeGuild | bool = True
    ) -> GameRecord:
        """Alice challenges Bob (or ``players`` each other) in ``guild``, the opponent
        accepts, both deal a random fleet by DM and confirm it."""
        challenger, opponent = players or (self.alice, self.bob)
        challenge = await self.challenge(challenger, opponent, guild)
        await self.accept(opponent, challenge)
        accepted = re.search(r"game #(\d+) is on", self.driver.message(challenge.id).content)
        assert accepted is not None, self.driver.message(challenge.id).content
        game_id = int(accepted[1])
        for user in (challenger, opponent):
            await self.driver.dm(user, "random")
            await self.driver.dm(user, "ready")
        record = await self.game(game_id)
        assert state_of(record).phase is Phase.PLAY
        return record

    async def shoot(self, game_id: int, *, hit: bool, by_command: bool = False) -> str:
        """Whoever is to move fires at a known hit or miss, by DM or by ``/move``."""
        record = await self.game(game_id)
        state = state_of(record)
        assert state.turn is not None
        seat = state.turn
        if hit:
            fired = {cell_name(c) for c in state.shots[seat]}
            target = next(c for c in ship_cells(record, 1 - seat) if c not in fired)
        else:
            target = open_water(record, 1 - seat)[0]
        shooter = self.seated(record, seat)
        if by_command:
            await self.driver.slash(shooter, "move", guild=False, text=target)
        else:
            await self.driver.dm(shooter, target)
        return target

    async def play_out(self, game_id: int) -> GameRecord:
        """Hit until someone wins; the moves alternate between DM text and ``/move``."""
        record = await self.game(game_id)
        count = 0
        while record.status is GameStatus.ACTIVE:
            await self.shoot(game_id, hit=True, by_command=count % 2 == 1)
            count += 1
            record = await self.game(game_id)
        return record


@asynccontextmanager
async def running_bot(tmp_path: Path, **settings: str) -> AsyncIterator[World]:
    """A loopback Discord with one server, Alice and Bob, and the bot process connected."""
    driver = RemoteDriver(intents(), token=TOKEN)
    await driver.open()
    try:
        driver.add_guild("Harbour")
        alice = driver.add_user("alice")
        bob = driver.add_user("bob")
        bot = BotProcess(driver, tmp_path / "referee.sqlite3", **settings)
        await bot.start()
        try:
            yield World(driver, bot, alice, bob, tmp_path / "referee.sqlite3")
        finally:
            await bot.stop()
        assert driver.server.unhandled == [], "the bot called routes the stand-in lacks"
        assert driver.server.internal_errors == []
    finally:
        await driver.close()


@dataclass(kw_only=True)
class ShardedWorld(World):
    """Two bot processes on one PostgreSQL database: ``bot`` serves shard 0 of 2 (every
    DM, and the servers on it), ``second`` shard 1; ``servers`` holds a server on each."""

    second: BotProcess
    servers: tuple[FakeGuild, FakeGuild]


@asynccontextmanager
async def running_shards(tmp_path: Path, database_url: str) -> AsyncIterator[ShardedWorld]:
    """A loopback Discord with a server on each of two shards, Alice and Bob, and two
    ``python -m bot`` processes (shards 0 and 1 of 2) sharing ``database_url``."""
    driver = RemoteDriver(intents(), token=TOKEN)
    await driver.open()
    try:
        servers = (
            driver.add_guild("Harbour", shard=(0, 2)),
            driver.add_guild("Lagoon", shard=(1, 2)),
        )
        alice = driver.add_user("alice")
        bob = driver.add_user("bob")
        unused = tmp_path / "unused.sqlite3"
        processes = [
            BotProcess(
                driver, unused, DATABASE_URL=database_url, SHARD_COUNT="2", SHARD_IDS=str(shard)
            )
            for shard in (0, 1)
        ]
        try:
            await asyncio.gather(*(process.start() for process in processes))
            yield ShardedWorld(
                driver,
                processes[0],
                alice,
                bob,
                unused,
                database_url,
                second=processes[1],
                servers=servers,
            )
        finally:
            await asyncio.gather(*(process.stop() for process in processes))
        assert not unused.exists(), "a process wrote to SQLite instead of PostgreSQL"
        assert driver.server.unhandled == [], "the bot called routes the stand-in lacks"
        assert driver.server.internal_errors == []
    finally:
        await driver.close()


MESSAGE_KINDS = {"message", "edit", "response", "update", "followup", "followup_edit"}


def pings(sent: Sent) -> tuple[set[str], set[int]]:
    """Which mention kinds and which users a message is allowed to ping."""
    allowed = sent.payload.get("allowed_mentions")
    assert allowed is not None, f"no allowed_mentions on {sent.kind}: {sent.content!r}"
    return set(allowed.get("parse") or []), {int(u) for u in allowed.get("users") or []}


def assert_never_pinged(world: World, since: int, *, expected: set[int]) -> None:
    for sent in world.driver.server.sent:
        if sent.seq <= since or sent.kind not in MESSAGE_KINDS:
            continue
        kinds, users = pings(sent)
        assert kinds == set(), f"{sent.kind} may ping {kinds}: {sent.content!r}"
        assert users <= expected, f"{sent.kind} may ping {users}: {sent.content!r}"
        assert not sent.payload["allowed_mentions"].get("roles")
        assert not sent.mention_everyone
        assert set(sent.mentioned_user_ids) <= expected


async def until(
    condition: Callable[[], Awaitable[bool]], timeout: float = 20.0, every: float = 0.05
) -> None:
    """Poll an async predicate (``every`` so many seconds) until it holds: what another
    process does has no task here to wait for."""
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(every)


def dms_naming(world: World, user: FakeUser, text: str, since: int) -> list[Sent]:
    """The bot's messages in ``user``'s DMs after ``since`` that name ``text``."""
    channel = world.driver.dm_channel_id(user)
    return [
        s
        for s in world.driver.server.sent
        if s.seq > since and s.channel_id == channel and s.kind == "message"
        and names(s.content, text)
    ]  # fmt: skip
