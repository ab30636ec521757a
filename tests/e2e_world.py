"""The world of the end-to-end tests: the bot as ``python -m bot`` runs it, and its players.

The bot runs in its own process against the loopback Discord (REST and gateway), on a
temporary database, configured only through its environment. The test plays the people
(slash commands, buttons, DMs) and reads the database file the bot writes to aim at known
hits and misses, as the cog tests do.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.client import intents
from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.storage import GameRecord, GameStatus, LogEntry, SqliteRepository
from tests.cog_helpers import open_water, ship_cells, state_of
from tests.discord_stub import FakeUser, Sent, StoredMessage
from tests.discord_stub.remote import BotProcess, RemoteDriver

TOKEN = "e2e.token-that-must-never-be-shown.Xy9"


@dataclass
class World:
    driver: RemoteDriver
    bot: BotProcess
    alice: FakeUser
    bob: FakeUser
    database: Path

    async def game(self, game_id: int = 1) -> GameRecord:
        """The game as the bot's database holds it now."""
        repository = await SqliteRepository.open(self.database)
        try:
            record = await repository.get_game(game_id)
        finally:
            await repository.close()
        assert record is not None, f"game #{game_id} is not in the database"
        return record

    async def log(self, game_id: int = 1) -> list[LogEntry]:
        repository = await SqliteRepository.open(self.database)
        try:
            return await repository.log(game_id)
        finally:
            await repository.close()

    async def has_game(self, game_id: int) -> bool:
        repository = await SqliteRepository.open(self.database)
        try:
            return await repository.get_game(game_id) is not None
        finally:
            await repository.close()

    def seated(self, record: GameRecord, seat: int) -> FakeUser:
        return self.driver.users[record.seats[seat]]

    def shooter(self, record: GameRecord) -> tuple[int, FakeUser]:
        """The seat to shoot and its player (the game must be in play)."""
        seat = state_of(record).turn
        assert seat is not None, "the game is not in play"
        return seat, self.seated(record, seat)

    async def challenge(self, challenger: FakeUser, opponent: FakeUser) -> StoredMessage:
        result = await self.driver.slash(challenger, "play", game="seabattle", opponent=opponent)
        message = result.original
        assert message is not None and not message.ephemeral, result.content
        return message

    async def accept(self, opponent: FakeUser, message: StoredMessage) -> None:
        accept_id = next(c for c in message.custom_ids if c.startswith("challenge:accept:"))
        await self.driver.click(opponent, message.id, accept_id)

    async def game_in_play(self) -> GameRecord:
        """Alice challenges Bob, he accepts, both deal a random fleet and confirm it."""
        await self.accept(self.bob, await self.challenge(self.alice, self.bob))
        for user in (self.alice, self.bob):
            await self.driver.dm(user, "random")
            await self.driver.dm(user, "ready")
        record = await self.game()
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
