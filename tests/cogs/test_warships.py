"""Warships through the real discord.py client against the loopback Discord: /play with
options, the secret setup by DM (random, swap, save, load, ready), and an attack whose
mutual reveal reaches both players but never the channel."""

from __future__ import annotations

from pathlib import Path

from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.games.warships import board
from bot.games.warships.actions import Move
from bot.games.warships.state import WarshipsState
from bot.games.warships.units import Kind
from bot.storage import GameRecord
from renderers import warships as drawing
from tests.cogs.test_restart import fresh_world
from tests.support.cog_helpers import (
    accepted_play,
    in_channel_since,
    repository,
    seen_by,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser

E = ENGINES["warships"]


def state_of(record: GameRecord) -> WarshipsState:
    state: WarshipsState = E.from_json(record.state)
    return state


async def start(driver: DiscordDriver, alice: FakeUser, bob: FakeUser, options: str) -> GameRecord:
    message = await accepted_play(driver, alice, bob, game="warships", options=options)
    assert "Warships" in (message.content or "")
    (game,) = await repository(driver).active_games_of(alice.id)
    return game


def texts(driver: DiscordDriver, user: FakeUser, seq: int) -> str:
    return "\n".join(s.content or "" for s in seen_by(driver, user, seq))


async def test_play_with_options_then_setup_by_dm_with_saved_setups(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob, "harder mobility")
    assert E.rules_from_json(game.rules) == E.configure(None, "harder mobility")
    assert "Warships" in (driver.dms_to(alice)[-1].content or "")
    state = state_of(game)
    ship = next(p.cell for p in state.own(0) if p.kind.is_ship)
    free = next(c for c in sorted(board.SETUP_FIELDS[state.shore(0)]) if c not in state.at)
    seq = driver.server.last_seq
    await driver.dm(alice, "random")
    await driver.dm(alice, f"swap {cell_name(ship)} {cell_name(free)}")
    await driver.dm(alice, "save harbour")
    layout = {p.cell: p.kind for p in state_of(await stored_game(driver, game.id)).own(0)}
    await driver.dm(alice, "random")
    await driver.dm(alice, "load harbour")
    assert {p.cell: p.kind for p in state_of(await stored_game(driver, game.id)).own(0)} == layout
    assert "Saved this setup as `harbour`" in texts(driver, alice, seq)
    assert seen_by(driver, bob, seq) == []
    assert in_channel_since(driver, seq) == []  # setup edits are secret
    await driver.dm(alice, "ready")
    await driver.dm(bob, "ready")
    record = await stored_game(driver, game.id)
    assert state_of(record).phase is Phase.PLAY


async def test_an_attack_reveals_both_types_to_both_players_and_only_fields_to_the_channel(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob, "manoeuvres")
    state = state_of(game)
    users = {0: alice, 1: bob}
    south, north = state.south, 1 - state.south
    destroyer = next(p.cell for p in state.own(south) if p.kind is Kind.DESTROYER)
    escort = next(p.cell for p in state.own(north) if p.kind is Kind.ESCORT)
    await driver.dm(users[south], f"swap {cell_name(destroyer)} C6")
    await driver.dm(users[north], f"swap {cell_name(escort)} C13")
    for seat in (0, 1):
        await driver.dm(users[seat], "ready")
    record = await stored_game(driver, game.id)
    state = state_of(record)
    if state.turn == north:  # North shuffles inside its port first
        move = next(
            a
            for a in E.legal_actions(state, north)
            if isinstance(a, Move) and a.end in board.PORTS[state.shore(north)]
        )
        await driver.dm(users[north], str(move))
    seq = driver.server.last_seq
    await driver.dm(users[south], "C6-C9xC13")
    record = await stored_game(driver, game.id)
    after = state_of(record)
    assert after.at[board.field("C9")].kind is Kind.DESTROYER and board.field("C13") not in after.at
    attacker, defender = texts(driver, users[south], seq), texts(driver, users[north], seq)
    for said in (attacker, defender):
        assert "destroyer" in said and "escort" in said
    public = "\n".join(s.content or "" for s in in_channel_since(driver, seq))
    assert "C13 emptied" in public
    assert "destroyer" not in public and "escort" not in public
    view = E.view(after, north)
    token = view.token_at(board.field("C9"))
    assert token is not None and token.kind is Kind.DESTROYER  # identified, §10.2
    dm = driver.dms_to(users[north])[-1]
    assert driver.pngs(dm.id) == [drawing.render(view)]
    channel_view = E.view(after, None)
    hidden = channel_view.token_at(board.field("C9"))
    assert hidden is not None and hidden.kind is None


async def test_play_autocompletes_the_optional_rules_and_move_the_legal_actions(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    choices = await driver.autocomplete(
        alice, "play", "options", options={"game": "warships", "opponent": bob, "options": "ha"}
    )
    assert [c["value"] for c in choices] == ["harder"]
    game = await start(driver, alice, bob, "quick")
    state = state_of(game)
    mover = {0: alice, 1: bob}[state.turn or 0]
    offered = await driver.autocomplete(mover, "move", "text", guild=False, options={"text": ""})
    legal = {str(a) for a in E.legal_actions(state, state.turn or 0)}
    assert offered and {c["value"] for c in offered} <= legal


async def test_a_warships_game_survives_a_restart_mid_play(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, database: Path
) -> None:
    game = await start(driver, alice, bob, "quick harder")
    state = state_of(game)
    first = next(a for a in E.legal_actions(state, state.turn or 0) if isinstance(a, Move))
    await driver.dm({0: alice, 1: bob}[state.turn or 0], str(first))
    before = await stored_game(driver, game.id)
    await driver.close()

    async with fresh_world(database, driver) as (new, alice, bob):
        record = await stored_game(new, game.id)
        assert record.state == before.state and record.ply == before.ply
        state = state_of(record)
        mover = {0: alice, 1: bob}[state.turn or 0]
        reply = next(a for a in E.legal_actions(state, state.turn or 0) if isinstance(a, Move))
        await new.dm(mover, str(reply))
        after = await stored_game(new, game.id)
        assert after.ply == before.ply + 1 and state_of(after).turn != state.turn
        dm = new.dms_to(mover)[-1]
        assert new.pngs(dm.id) == [drawing.render(E.view(state_of(after), state.turn))]
