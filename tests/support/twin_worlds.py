"""Two worlds for twin games: each a bot on its own loopback Discord with a clock moved by
hand, a script of steps played in both (some only in the second), and what each reader
(either seat, the channel) was shown, compared with Discord's ids named by their order.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.games import ENGINES
from bot.referee import unit_of_work
from bot.storage import GameRecord
from tests.conftest import HandClock, make_bot
from tests.support.cog_helpers import repository
from tests.support.discord import DiscordDriver, FakeUser, Sent
from tests.support.discord.injections import RequestRecord

SNOWFLAKE = re.compile(r"(?<!\d)\d{17,20}(?!\d)")


@dataclass
class World:
    """One bot on one loopback Discord, with what each reader was shown, step by step."""

    driver: DiscordDriver
    clock: HandClock
    game_id: int
    users: dict[int, FakeUser]
    """Seat to user."""
    seen: dict[str, list[Any]]
    """Per reader (``seat0``, ``seat1``, ``channel``): records and step marks, in order."""
    sent_read: int = 0
    requests_read: int = 0
    final: GameRecord | None = None
    """The game as the script left it."""
    hider: int | None = None
    """The seat that made a hidden move, if one did."""

    async def game(self) -> GameRecord:
        record = await repository(self.driver).get_game(self.game_id)
        assert record is not None
        return record

    async def position(self) -> tuple[GameRecord, Any, Any]:
        """The game as stored, its engine and its decoded state: what a scripted step reads
        to choose its next move."""
        record = await self.game()
        engine = ENGINES[record.game]
        return record, engine, engine.from_json(record.state)

    def mark(self, step: int) -> None:
        """Everything the bot did since the last mark, shared out among its readers."""
        server = self.driver.server
        sent, requests = server.sent[self.sent_read :], server.requests[self.requests_read :]
        self.sent_read, self.requests_read = len(server.sent), len(server.requests)
        for reader, channel_id, user_id in self.readers():
            self.seen[reader].extend(
                record(s)
                for s in sent
                if (s.channel_id == channel_id and not (s.ephemeral and s.user_id != user_id))
                or (user_id is not None and s.user_id == user_id)
            )
            self.seen[reader].extend(call(r) for r in requests if str(channel_id) in r.path)
            self.seen[reader].append(("step", step))

    def readers(self) -> list[tuple[str, int, int | None]]:
        server = self.driver.server
        return [
            *(
                (f"seat{seat}", server.dm_channel_id(user.id), user.id)
                for seat, user in self.users.items()
            ),
            ("channel", self.driver.channel_id, None),
        ]


def record(sent: Sent) -> dict[str, Any]:
    """A message operation as its reader could tell it apart: everything it carried."""
    return {
        "kind": sent.kind,
        "content": sent.content,
        "embeds": sent.embeds,
        "components": sent.components,
        "files": [(name, hashlib.sha256(data).hexdigest()) for name, data in sent.files],
        "ephemeral": sent.ephemeral,
        "flags": sent.flags,
        "payload": sent.payload,
        "mentions": sent.mentioned_user_ids,
    }


def call(request: RequestRecord) -> tuple[str, str, int, Any]:
    return (request.method, request.path, request.status, request.body)


def ids_in_order(seen: list[Any]) -> str:
    """The reader's records as text, Discord's ids named by their order of appearance."""
    text = json.dumps(seen, sort_keys=True, default=str)
    names: dict[str, str] = {}
    return SNOWFLAKE.sub(lambda m: names.setdefault(m.group(0), f"<id{len(names)}>"), text)


Step = Callable[[World], Awaitable[None]]


@dataclass(frozen=True)
class Scripted:
    step: Step
    twin_only: bool = False
    """Played only in the second world: a secret edit the twins must not tell apart."""
    instead: Step | None = None
    """Played in the second world in place of ``step``: a different secret move."""


async def played(
    folder: Path, game: str, variant: str, script: list[Scripted], *, twin: bool
) -> World:
    """The script played in a world of its own: the game's seed and its seals' salts are
    fixed, so two worlds deal alike."""
    clock = HandClock()
    salts = itertools.count(1)
    secrets = types.SimpleNamespace(
        token_hex=lambda size=16: f"{next(salts):0{2 * size}x}",
        randbits=lambda bits: 7,
    )
    patch = pytest.MonkeyPatch()
    patch.setattr(unit_of_work, "secrets", secrets)
    try:
        async with DiscordDriver.start(make_bot(folder / f"{twin}.sqlite3", clock)) as driver:
            driver.add_guild("Harbour")
            await driver.settle()
            alice, bob = driver.add_user("alice"), driver.add_user("bob")
            driver.client.referee.work.seed_source = lambda: 7  # type: ignore[attr-defined]
            options: dict[str, Any] = {"game": game, "opponent": bob}
            if variant != ENGINES[game].default_variant:
                options["variant"] = variant
            asked = await driver.slash(alice, "play", **options)
            assert asked.original is not None, asked.content
            accept = next(c for c in asked.original.custom_ids if c.startswith("challenge:accept"))
            await driver.click(bob, asked.original.id, accept)
            (record,) = await repository(driver).active_games_of(alice.id)
            users = {seat: driver.users[user_id] for seat, user_id in enumerate(record.seats)}
            readers: dict[str, list[Any]] = {"seat0": [], "seat1": [], "channel": []}
            world = World(driver, clock, record.id, users, readers)
            world.mark(-1)
            for index, scripted in enumerate(script):
                if twin and scripted.instead is not None:
                    await scripted.instead(world)
                elif twin or not scripted.twin_only:
                    await scripted.step(world)
                if not scripted.twin_only:
                    world.mark(index)
            world.final = await world.game()
            return world
    finally:
        patch.undo()


def assert_told_alike(
    first: World, second: World, readers: list[str], until: int | None = None
) -> None:
    """Each reader was shown the same in both worlds (``until`` a step of the script)."""
    for reader in readers:
        mine, theirs = (
            ids_in_order(before(world.seen[reader], until)) for world in (first, second)
        )
        if mine != theirs:
            apart = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b)
            raise AssertionError(
                f"{reader} can tell the twins apart:\n"
                f"  plain: ...{mine[max(0, apart - 300) : apart + 200]}\n"
                f"  twin:  ...{theirs[max(0, apart - 300) : apart + 200]}"
            )


def before(seen: list[Any], until: int | None) -> list[Any]:
    """What a reader was shown up to the end of step ``until`` (all of it for None)."""
    if until is None:
        return seen
    return seen[: seen.index(("step", until)) + 1]
