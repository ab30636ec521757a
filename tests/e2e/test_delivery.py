"""Delivery under Discord's passing faults, against the bot as ``python -m bot`` runs it.

Every audience of every game is told each notice exactly once and in order, whatever
Discord answers (429s, 5xx bursts, late interactions) and however often the process is
killed; the live message never goes back to an older board; a game's end is announced
once; what players wrote while the bot was down is acted on when it starts.
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.games.grid import cell_name
from bot.storage import GameRecord, GameStatus, SqliteRepository
from tests.support import e2e_world
from tests.support.cog_helpers import open_water, ship_cells, state_of
from tests.support.delivery_checks import assert_told_exactly_once_in_order
from tests.support.discord import FakeUser, RandomFaults
from tests.support.e2e_world import World, running_bot

SHOT = re.compile(r"<@(\d+)> fires at ([A-Z]\d+):")
"""The channel's text of a shot: who fired where, which names the shot's ply."""


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with running_bot(tmp_path) as running:
        yield running


until = functools.partial(e2e_world.until, timeout=30.0, every=0.02)
"""Polls as often as the delivery tests need to see each step."""


async def waiting_notices(world: World) -> int:
    repository = await SqliteRepository.open(world.database)
    try:
        return await repository.outbox.waiting()
    finally:
        await repository.close()


async def all_delivered(world: World) -> None:
    async def empty() -> bool:
        return await waiting_notices(world) == 0

    await until(empty, timeout=60)
    await world.driver.settle()


async def start_game(world: World, challenger: FakeUser, opponent: FakeUser) -> int:
    await world.accept(opponent, await world.challenge(challenger, opponent))
    game_id = max(int(i) for i in await _game_ids(world))
    for user in (challenger, opponent):
        await world.driver.dm(user, "random")
        await world.driver.dm(user, "ready")
    return game_id


async def _game_ids(world: World) -> list[int]:
    ids = []
    number = 1
    while await world.has_game(number):
        ids.append(number)
        number += 1
    return ids


def next_shot(record: GameRecord, rng: random.Random) -> tuple[FakeUser | int, str]:
    """The seat to move and a cell: a known hit more often than not, else a known miss."""
    state = state_of(record)
    seat = state.turn
    assert seat is not None
    fired = {cell_name(c) for c in state.shots[seat]}
    hits = [c for c in ship_cells(record, 1 - seat) if c not in fired]
    misses = open_water(record, 1 - seat)
    pool = hits if hits and (rng.random() < 0.6 or not misses) else misses
    return seat, rng.choice(pool)


def send_dm(world: World, user: FakeUser, text: str) -> None:
    """A DM reaches Discord (and the bot, if it is connected) without waiting for answers."""
    server = world.driver.server
    message = server.store_user_message(server.dm_channel_id(user.id), user.id, text)
    if world.driver.gateway.connected:
        world.driver.gateway.dispatch_message("MESSAGE_CREATE", message)


async def ply_passes(world: World, game_id: int, ply: int) -> None:
    async def moved() -> bool:
        return (await world.game(game_id)).ply > ply

    await until(moved)


async def shot_played(world: World, game_id: int, rng: random.Random) -> None:
    """The player to move fires the shot ``next_shot`` picks, by DM, and it is stored."""
    current = await world.game(game_id)
    seat, target = next_shot(current, rng)
    send_dm(world, world.seated(current, int(seat)), target)
    await ply_passes(world, game_id, current.ply)


async def test_chaos_every_audience_told_each_notice_once_in_order(world: World) -> None:
    """Four games, about two hundred moves by DM and ``/move``, 429s and 5xx answers on
    every route the bot uses while playing, and two SIGKILLs at random moments."""
    driver = world.driver
    rng = random.Random(16)
    others = ("cy", "di", "ed", "flo", "gus", "hal")
    players = [world.alice, world.bob, *(driver.add_user(n) for n in others)]
    games = [await start_game(world, players[2 * i], players[2 * i + 1]) for i in range(4)]
    driver.server.random_faults = RandomFaults(seed=16, rate_limited=0.04, server_error=0.04)
    kills = {60, 130}
    moves = 0
    while True:
        running = [g for g in games if (await world.game(g)).status is GameStatus.ACTIVE]
        if not running or moves >= 240:
            break
        game_id = rng.choice(running)
        record = await world.game(game_id)
        seat, target = next_shot(record, rng)
        shooter = world.seated(record, int(seat))
        moves += 1
        if moves % 9 == 0 and moves not in kills:
            await driver.slash(shooter, "move", guild=False, text=target)
        else:
            send_dm(world, shooter, target)
        if moves in kills:
            await asyncio.sleep(rng.uniform(0.0, 0.08))  # mid-move or mid-delivery
            await world.bot.kill()
            await world.bot.start()
        await ply_passes(world, game_id, record.ply)
    driver.server.random_faults = None
    await all_delivered(world)

    fired = {f.status for f in driver.server.fired_failures}
    assert {429, 503} <= fired and fired & {500, 502}
    assert moves >= 150
    finished = 0
    for game_id in games:
        record = await world.game(game_id)
        await assert_told_exactly_once_in_order(driver, record, await world.log(game_id))
        finished += record.status is GameStatus.FINISHED
    assert finished >= 2


async def test_a_429_on_the_live_edit_never_lets_an_older_board_land_last(
    world: World,
) -> None:
    driver = world.driver
    record = await world.game_in_play()
    live_id = record.public_message_id
    assert live_id is not None
    driver.server.fail_next("PATCH", rf"^/channels/\d+/messages/{live_id}$", 429, retry_after=1.0)
    seq = driver.server.last_seq
    rng = random.Random(3)
    for _ in range(6):
        await shot_played(world, record.id, rng)
    await all_delivered(world)

    final = await world.game(record.id)
    ply_of = {
        (final.seats[entry.seat], entry.text): entry.ply
        for entry in await world.log(record.id)
        if entry.seat is not None
    }
    edits = [s for s in driver.server.sent if s.seq > seq and s.message_id == live_id]
    shots = [SHOT.search(s.content or "") for s in edits]
    plies = [ply_of[(int(shot[1]), shot[2])] for shot in shots if shot]
    assert len(plies) == len(edits)
    assert plies == sorted(plies) and plies[-1] == final.ply
    assert len(plies) < 6  # the moves that came during the wait went as one edit
    assert [f.status for f in driver.server.fired_failures] == [429]
    await assert_told_exactly_once_in_order(driver, final, await world.log(record.id))


async def test_seals_of_a_merged_live_edit_are_posted_once_through_a_kill(world: World) -> None:
    """The live message's edit for the first confirmed fleet is held up while the second
    is confirmed (play begins, the seals are stored) and the first shot is played: both go
    out as one edit, which must still post the seals. The bot is killed after Discord took
    them and before it heard so; the restarted bot posts them no second time."""
    driver = world.driver
    await world.accept(world.bob, await world.challenge(world.alice, world.bob))
    for user in (world.alice, world.bob):
        await driver.dm(user, "random")
    dealt = await world.game()
    live = rf"^/channels/\d+/messages/{dealt.public_message_id}$"
    edit = driver.server.hold_answer("PATCH", live)
    send_dm(world, world.alice, "ready")
    await until(_is_set(edit.reached))
    send_dm(world, world.bob, "ready")
    await ply_passes(world, dealt.id, dealt.ply + 1)
    begun = await world.game()
    seat, target = next_shot(begun, random.Random(7))
    send_dm(world, world.seated(begun, int(seat)), target)
    await ply_passes(world, dealt.id, begun.ply)
    seals = driver.server.hold_answer("POST", rf"^/channels/{dealt.channel_id}/messages$")
    edit.released.set()
    await until(_is_set(seals.reached))
    await world.bot.kill()
    seals.released.set()

    await world.bot.start()
    await all_delivered(world)
    final = await world.game()
    await assert_told_exactly_once_in_order(driver, final, await world.log())


async def test_a_move_during_start_up_redelivery_is_told_once(world: World) -> None:
    """A backlog waits when the bot is killed; the restarted bot sends it while a new move
    arrives: every notice of both goes out once."""
    driver = world.driver
    record = await world.game_in_play()
    # Discord stalls every send for a minute: moves are stored, their notices wait.
    driver.server.fail_next("*", r"^/channels/\d+/messages", 429, retry_after=60, times=3)
    rng = random.Random(5)
    for _ in range(5):
        await shot_played(world, record.id, rng)
    assert await waiting_notices(world) > 0
    await world.bot.kill()
    driver.server._failures.clear()  # the minute is over

    await world.bot.start()
    await shot_played(world, record.id, rng)
    await all_delivered(world)

    final = await world.game(record.id)
    await assert_told_exactly_once_in_order(driver, final, await world.log(record.id))


async def test_a_dm_sent_while_the_bot_was_down_is_acted_on_at_start(world: World) -> None:
    driver = world.driver
    record = await world.game_in_play()
    await world.bot.kill()
    seat, target = next_shot(record, random.Random(1))
    shooter = world.seated(record, int(seat))
    send_dm(world, shooter, target)  # nobody is connected to hear it
    send_dm(world, shooter, "Z99")  # and one that cannot be taken

    await world.bot.start()
    await ply_passes(world, record.id, record.ply)
    await all_delivered(world)

    after = await world.game(record.id)
    assert (await world.log(record.id))[-1].text == target
    refusals = [m.content for m in driver.dms_to(shooter) if m.content.startswith("While I was")]
    assert len(refusals) == 1 and "`Z99`; it was not taken" in refusals[0]
    await assert_told_exactly_once_in_order(driver, after, await world.log(record.id))


async def test_a_command_deferred_behind_its_players_older_notice_keeps_their_order(
    world: World,
) -> None:
    """The opponent's move is still on its way to a player (Discord answered its DM with
    500 twice, so discord.py waits 1 s and then 3 s before sending it again) when that
    player answers with ``/move``. Their command waits for the older notice, so it is
    deferred, and a deferred answer sits in the DM channel where the "thinking" message
    appeared: it must not carry the newer notice above the older one."""
    driver = world.driver
    record = await world.game_in_play()
    seat, shooter = world.shooter(record)
    other = world.seated(record, 1 - seat)
    other_dm = driver.server.dm_channel_id(other.id)
    driver.server.fail_next("POST", rf"^/channels/{other_dm}/messages$", 500, times=2)
    send_dm(world, shooter, open_water(record, 1 - seat)[0])  # a miss: the turn passes
    await ply_passes(world, record.id, record.ply)

    current = await world.game(record.id)
    assert state_of(current).turn == 1 - seat
    answer = await driver.slash(other, "move", guild=False, text=open_water(current, seat)[0])
    await all_delivered(world)

    assert [f.status for f in driver.server.fired_failures] == [500, 500]
    assert answer.callback_type == 5  # deferred: it waited for the older notice
    placeholder = answer.original
    assert placeholder is not None and not placeholder.loading
    assert placeholder.content == "Your move counted; your board follows by direct message."
    final = await world.game(record.id)
    await assert_told_exactly_once_in_order(driver, final, await world.log(record.id))


async def test_killed_after_discord_took_a_commands_answer_it_is_not_told_again(
    world: World,
) -> None:
    """Discord has stored the answer to a player's ``/move`` (which carries no nonce), but
    the bot is killed before it hears so and records it: after the restart the notice is
    not sent again by DM, since Discord shows it as the command's original answer."""
    driver = world.driver
    record = await world.game_in_play()
    seat, shooter = world.shooter(record)
    held = driver.server.hold_answer("POST", r"^/interactions/\d+/[^/]+/callback$")
    command = asyncio.create_task(
        driver.slash(shooter, "move", guild=False, text=open_water(record, 1 - seat)[0])
    )
    await until(_is_set(held.reached))
    await world.bot.kill()
    held.released.set()

    await world.bot.start()
    await command
    await all_delivered(world)
    final = await world.game(record.id)
    assert final.ply == record.ply + 1
    await assert_told_exactly_once_in_order(driver, final, await world.log(record.id))


async def test_an_answer_discord_refused_is_told_by_dm_once(world: World) -> None:
    """The answer to a ``/move`` was kept before it went, but Discord refused it (the
    interaction had expired): asked for the command's original answer, Discord has none,
    so the notice goes by DM, once."""
    driver = world.driver
    record = await world.game_in_play()
    seat, shooter = world.shooter(record)
    driver.server.fail_next(
        "POST",
        r"^/interactions/\d+/[^/]+/callback$",
        404,
        json_body={"message": "Unknown interaction", "code": 10062},
        times=2,  # the answer, and the sentence that the move counted
    )
    before = len(driver.server.requests)
    await driver.slash(shooter, "move", guild=False, text=open_water(record, 1 - seat)[0])
    await all_delivered(world)

    requests = driver.server.requests[before:]
    asked = [r for r in requests if r.path.endswith("/messages/@original")]
    assert [r.status for r in asked] == [404]
    final = await world.game(record.id)
    assert final.ply == record.ply + 1
    await assert_told_exactly_once_in_order(driver, final, await world.log(record.id))


def _is_set(event: asyncio.Event) -> Callable[[], Awaitable[bool]]:
    async def is_set() -> bool:
        return event.is_set()

    return is_set
