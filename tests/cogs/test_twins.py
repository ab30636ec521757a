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

from pathlib import Path
from typing import Any

import pytest

from bot.games import ENGINES
from bot.games.seachess.actions import Dive
from bot.storage import GameStatus
from bot.timekeeping import HOUR
from tests.support.twin_worlds import Scripted, Step, World, assert_told_alike, ids_in_order, played

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
            record, engine, state = await world.position()
            if record.status is not GameStatus.ACTIVE:
                return
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
            _, engine, state = await world.position()
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
            _, engine, state = await world.position()
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
