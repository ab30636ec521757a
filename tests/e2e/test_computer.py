"""The computer's turn survives the bot's death, against the bot as ``python -m bot`` runs it.

The bot is killed (SIGKILL) while the computer is thinking about its move; started again,
it resumes the game and the computer moves exactly once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.games import ENGINES
from bot.games.core import Phase
from bot.storage import COMPUTER_SEAT, GameRecord
from tests.support.e2e_world import World, running_bot, until

SLOW_COMPUTER = Path(__file__).parents[1] / "support" / "slow_computer"
REPOSITORY = Path(__file__).parents[2]
PERSON = 0


def movers(record: GameRecord) -> frozenset[int]:
    engine = ENGINES[record.game]
    return engine.view(engine.from_json(record.state), None).movers


async def test_killed_while_the_computer_thinks_it_moves_exactly_once_after_restart(
    tmp_path: Path,
) -> None:
    async with running_bot(
        tmp_path,
        PYTHONPATH=f"{SLOW_COMPUTER}:{REPOSITORY}",
        COMPUTER_THINKS_SECONDS="60",
    ) as world:
        await _kill_mid_thought_then_restart(world)


async def the_computer_thinking(world: World) -> GameRecord:
    """Start a Luzhanqi game against the computer, ready the person's deployment, make
    the person's first move if Red, and return the game once the computer is thinking."""
    driver, alice = world.driver, world.alice
    await driver.slash(alice, "play", game="luzhanqi", opponent=driver.bot_account())
    await driver.dm(alice, "ready")

    async def playing() -> bool:
        record = await world.game()
        state = ENGINES["luzhanqi"].from_json(record.state)
        return ENGINES["luzhanqi"].view(state, None).phase is Phase.PLAY

    await until(playing)
    record = await world.game()
    if PERSON in movers(record):  # Blue waits for Red: the person moves first as Red
        engine = ENGINES["luzhanqi"]
        view = engine.view(engine.from_json(record.state), PERSON)
        move = next(m for m in engine.legal_moves(view) if "draw" not in m)
        await driver.dm(alice, move)

    async def thinking() -> bool:
        return any("the computer is thinking" in line for line in world.bot.lines)

    await until(thinking)
    return await world.game()


async def restarted_until_the_computer_moves(world: World, before: GameRecord) -> None:
    """Start the stopped bot with the computer thinking at once, wait for its move, and
    leave time enough for a second one, were one coming."""
    world.bot.settings["COMPUTER_THINKS_SECONDS"] = "0"
    await world.bot.start()

    async def answered() -> bool:
        return (await world.game()).ply > before.ply

    await until(answered)
    await asyncio.sleep(1.0)


async def _kill_mid_thought_then_restart(world: World) -> None:
    before = await the_computer_thinking(world)
    assert movers(before) == {COMPUTER_SEAT}
    await world.bot.kill()
    assert (await world.game()).ply == before.ply, "the computer moved before it was stopped"

    await restarted_until_the_computer_moves(world, before)
    after = await world.game()
    log = await world.log()
    assert [entry.ply for entry in log] == list(range(1, after.ply + 1))
    assert [entry.seat for entry in log[before.ply :]] == [COMPUTER_SEAT]
    assert movers(after) == {PERSON}
