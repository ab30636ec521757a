"""Twin games told alike: what the other seat and the channel get from the bot, and when.

Two games are played on two loopback Discords, each with its own bot and a clock moved by
hand, move for move and hour for hour the same, except that in the second one a player
also edits their setup in secret (re-deals, swaps, places, removes, clears, saves and loads
back) and ends on the very setup of the first. Whatever the bot sends to the other seat
and to the channel, every REST call on their channels with its payload (text, embeds,
buttons, nonces, flags, attachment names and bytes), and when reminders and losses on time
come, must then be the same in both: anything else would tell them about the edits.

Games without a setup are held to the same, with a Seachess player diving a submarine to
one square or another (§9), up to the end, which publishes the hidden moves.

Discord's ids differ between the two worlds (each counts its own messages), so they are
named by their order of appearance before the two are compared; nothing else is.
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
from bot.games.seachess.actions import Dive
from bot.referee import unit_of_work
from bot.storage import GameRecord, GameStatus
from bot.timekeeping import HOUR
from tests.cog_helpers import repository
from tests.conftest import make_bot
from tests.discord_stub import DiscordDriver, FakeUser, Sent
from tests.discord_stub.models import RequestRecord

SNOWFLAKE = re.compile(r"(?<!\d)\d{17,20}(?!\d)")
SETUP_GAMES = [
    ("seabattle", "classic"),
    ("seabattle", "16x16"),
    ("luzhanqi", "classic"),
    ("luzhanqi", "variant-c"),
    ("warships", "classic"),
]
PLAYED_GAMES = [("luzhanqi", "flip"), ("seachess", "standard"), ("marine", "classic")]
SAVED = "twin"
"""The name the editing player saves their setup under, to lay it out again at the end."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class World:
    """One bot on one loopback Discord, with what each reader was shown, step by step."""

    driver: DiscordDriver
    clock: Clock
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


def says(seat: int, text: str) -> Step:
    async def step(world: World) -> None:
        await world.driver.dm(world.users[seat], f"#{world.game_id} {text}")

    return step


def waits(hours: float) -> Step:
    """The clock moves on, and the bot's minute loop sweeps once."""

    async def step(world: World) -> None:
        world.clock.now += hours * HOUR
        cog: Any = world.driver.client.get_cog("Timekeeping")  # type: ignore[attr-defined]
        await cog.sweep()
        await world.driver.settle()

    return step


def plays(moves: int) -> Step:
    """Whoever is to move plays their first legal move (in text order), ``moves`` times."""

    async def step(world: World) -> None:
        for _ in range(moves):
            record = await world.game()
            if record.status is not GameStatus.ACTIVE:
                return
            engine = ENGINES[record.game]
            state = engine.from_json(record.state)
            seat = min(engine.view(state, None).movers)
            texts = sorted(
                str(action)
                for action in engine.legal_actions(state, seat)
                if "draw" not in str(action)
            )
            await says(seat, texts[0])(world)

    return step


def edits_every_way(seat: int) -> Step:
    """One of each kind of setup edit the rules allow ``seat`` now, twice round, so that
    edits that need a placed side (removing, clearing) come too; never ``ready``."""

    async def step(world: World) -> None:
        done: set[str] = set()
        for _ in range(2):
            record = await world.game()
            engine = ENGINES[record.game]
            state = engine.from_json(record.state)
            kinds: dict[str, str] = {}
            for action in engine.legal_actions(state, seat):
                kinds.setdefault(type(action).__name__, str(action))
            for kind, text in kinds.items():
                if kind not in done and "Ready" not in kind:
                    done.add(kind)
                    await says(seat, text)(world)
        assert len(done) >= 2, done

    return step


def hides(last: bool) -> Step:
    """The player to move dives a submarine (Seachess §9): the same submarine to the first
    square in text order, or with ``last`` to the last, taking nothing and checking nobody.
    Public moves are played first until there are two to choose from, alike in both
    worlds."""

    async def step(world: World) -> None:
        for _ in range(12):
            record = await world.game()
            engine = ENGINES[record.game]
            state = engine.from_json(record.state)
            seat = min(engine.view(state, None).movers)
            quiet = sorted(
                str(action)
                for action in engine.legal_actions(state, seat)
                if isinstance(action, Dive) and takes_nothing(state, seat, action)
            )
            quiet = [
                text for text in quiet if quiet and text.split("-")[0] == quiet[0].split("-")[0]
            ]
            if len(quiet) >= 2:
                world.hider = seat
                await says(seat, quiet[-1] if last else quiet[0])(world)
                return
            await plays(1)(world)
        raise AssertionError("no two hidden moves to choose from")

    return step


def takes_nothing(state: Any, seat: int, action: Any) -> bool:
    """Whether a dive leaves every piece, mine and submarine afloat and checks nobody:
    then the rules tell the others the same wherever the submarine went."""
    new = ENGINES["seachess"].apply(state, seat, action).state
    afloat = len(new.pieces) + len(new.subs) + len(new.mines)
    return new.checks == state.checks and afloat == (
        len(state.pieces) + len(state.subs) + len(state.mines)
    )


def setup_script(editor: int) -> list[Scripted]:
    """``editor`` edits in secret in the second world only; the other seat sets up alike in
    both and stays to move, so its reminder is due while ``editor`` edits."""
    waiter = 1 - editor
    return [
        Scripted(waits(1)),
        Scripted(says(waiter, "random")),
        Scripted(says(editor, "random")),
        Scripted(says(editor, f"save {SAVED}"), twin_only=True),
        Scripted(waits(2)),
        Scripted(edits_every_way(editor), twin_only=True),
        Scripted(waits(18)),
        Scripted(says(editor, "random"), twin_only=True),
        Scripted(waits(1)),
        Scripted(says(editor, f"load {SAVED}"), twin_only=True),
        Scripted(waits(2.5)),  # a day after the game began: both are reminded
        Scripted(waits(1)),
        Scripted(says(editor, "ready")),
        Scripted(says(waiter, "ready")),
        Scripted(plays(4)),
        Scripted(waits(24.5)),  # the player to move is reminded
        Scripted(waits(12)),
        Scripted(waits(12)),  # and loses on time
    ]


def play_script() -> list[Scripted]:
    return [
        Scripted(waits(1)),
        Scripted(plays(4)),
        Scripted(waits(24.5)),
        Scripted(waits(24)),
    ]


def hidden_move_script() -> list[Scripted]:
    """Seachess: a player moves in secret, one way in the first world and another way in
    the second; then the other player is reminded, and loses on time."""
    return [
        Scripted(waits(1)),
        Scripted(plays(2)),
        Scripted(hides(last=False), instead=hides(last=True)),
        Scripted(waits(24.5)),
        Scripted(waits(24)),  # the end publishes the hidden moves (§9.4): compared apart
    ]


async def played(
    folder: Path, game: str, variant: str, script: list[Scripted], *, twin: bool
) -> World:
    """The script played in a world of its own: the game's seed and its seals' salts are
    fixed, so two worlds deal alike."""
    clock = Clock()
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


@pytest.mark.parametrize("editor", [0, 1])
@pytest.mark.parametrize(("game", "variant"), SETUP_GAMES)
async def test_secret_setup_edits_reach_neither_the_other_seat_nor_the_channel(
    tmp_path: Path, game: str, variant: str, editor: int
) -> None:
    script = setup_script(editor)
    plain = await played(tmp_path, game, variant, script, twin=False)
    twin = await played(tmp_path, game, variant, script, twin=True)

    mine, theirs = f"seat{editor}", f"seat{1 - editor}"
    assert len(twin.seen[mine]) > len(plain.seen[mine]), "the twin must really edit"
    assert_told_alike(plain, twin, [theirs, "channel"])
    for world in (plain, twin):
        ended = world.final
        assert ended is not None and ended.status is GameStatus.FINISHED
        assert ended.end_reason == "timeout"
        state = ENGINES[game].from_json(ended.state)
        assert ENGINES[game].has_started(state), "play began before the loss on time"
        reminders = [r for r in world.seen[theirs] if "Move within" in str(r)]
        assert reminders, "the waiting seat was reminded during setup"


@pytest.mark.parametrize(("game", "variant"), PLAYED_GAMES)
async def test_games_without_a_setup_are_told_and_timed_alike(
    tmp_path: Path, game: str, variant: str
) -> None:
    """No secret setup to edit: two worlds playing the same moves tell every reader the
    same, with the same reminders and the same loss on time."""
    script = play_script()
    plain = await played(tmp_path, game, variant, script, twin=False)
    twin = await played(tmp_path, game, variant, script, twin=True)
    for world in (plain, twin):
        ended = world.final
        assert ended is not None and ended.status is GameStatus.FINISHED
        assert ended.end_reason == "timeout"
    assert_told_alike(plain, twin, ["seat0", "seat1", "channel"])


async def test_hidden_moves_are_told_and_timed_alike(tmp_path: Path) -> None:
    """Seachess hides some moves (§9): two different ones give the other seat and the
    channel the same calls, and the same reminder, until the end publishes them both."""
    script = hidden_move_script()
    plain = await played(tmp_path, "seachess", "standard", script, twin=False)
    twin = await played(tmp_path, "seachess", "standard", script, twin=True)
    hider = plain.hider
    assert hider is not None and twin.hider == hider
    hiders = [ids_in_order(world.seen[f"seat{hider}"]) for world in (plain, twin)]
    assert hiders[0] != hiders[1], "the twins must really move apart"
    assert_told_alike(plain, twin, [f"seat{1 - hider}", "channel"], until=len(script) - 2)
    for world in (plain, twin):
        ended = world.final
        assert ended is not None and ended.status is GameStatus.FINISHED
        assert ended.end_reason == "timeout"
