"""Luzhanqi through the real discord.py client against the loopback Discord: ``/play`` with
a variant and options, the secret deployment by DM, and a clash where each audience learns
exactly what rule 9.3 allows."""

from __future__ import annotations

import random

from bot.delivery.presenter import names_of
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.luzhanqi.actions import Move
from bot.games.luzhanqi.pieces import Kind
from bot.games.luzhanqi.state import LuzhanqiState
from bot.storage import GameRecord
from renderers import luzhanqi
from tests.support.cog_helpers import (
    accept_offered_draw,
    accepted_play,
    channel_messages,
    in_channel_since,
    live_message,
    player,
    png_of,
    seen_by,
    stored_game,
)
from tests.support.discord import DiscordDriver, FakeUser

E = ENGINES["luzhanqi"]
PIECE_NAMES = [kind.title for kind in Kind if kind is not Kind.FLAG]


def state_of(record: GameRecord) -> LuzhanqiState:
    state: LuzhanqiState = E.from_json(record.state)
    return state


def image_for(record: GameRecord, seat: int | None) -> bytes:
    return luzhanqi.render(E.view(state_of(record), seat), names_of(record))


async def start(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, variant: str, options: str = ""
) -> GameRecord:
    extra = {"options": options} if options else {}
    await accepted_play(driver, alice, bob, game="luzhanqi", variant=variant, **extra)
    return await stored_game(driver, 1)


async def test_play_offers_the_variants_and_options_and_starts_variant_c(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    variants = await driver.autocomplete(
        alice, "play", focused="variant", game="luzhanqi", variant=""
    )
    assert [c["value"] for c in variants] == ["classic", "flip", "variant-c"]
    options = await driver.autocomplete(
        alice,
        "play",
        focused="options",
        options={"game": "luzhanqi", "variant": "flip", "options": "m"},
    )
    assert {"m1", "m2", "m3"} <= {c["value"] for c in options}
    game = await start(driver, alice, bob, "variant C", "m3")
    assert state_of(game).rules == E.configure("variant-c", "m3")
    challenge = channel_messages(driver)[0]
    assert "**Luzhanqi** (variant-c m3" in challenge.content


async def test_the_secret_deployment_by_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob, "classic")
    red = state_of(game).red_seat
    assert red is not None
    user = player(driver, game, red)
    other = player(driver, game, 1 - red)
    seq = driver.server.last_seq

    await driver.dm(user, "swap a1 c1")
    reply = driver.dms_to(user)[-1]
    assert "Swapped your" in reply.content
    record = await stored_game(driver, game.id)
    assert png_of(driver, reply.id) == image_for(record, red)
    layout = state_of(record).sides[red].layout

    flag = "b1" if layout[1] is Kind.FLAG else "d1"
    await driver.dm(user, f"swap {flag} a6")
    assert "one of your two HQs" in driver.dms_to(user)[-1].content
    assert state_of(await stored_game(driver, game.id)).sides[red].layout == layout

    await driver.dm(user, "save fortress")
    assert "Saved this setup as `fortress`" in driver.dms_to(user)[-1].content
    await driver.dm(user, "random")
    assert state_of(await stored_game(driver, game.id)).sides[red].layout != layout
    await driver.dm(user, "load fortress")
    assert state_of(await stored_game(driver, game.id)).sides[red].layout == layout

    assert seen_by(driver, other, seq) == [] and in_channel_since(driver, seq) == []
    await driver.dm(user, "ready")
    live = live_message(driver, await stored_game(driver, game.id))
    assert f"{user.mention} has deployed their army." in live.content
    await driver.dm(other, "ready")
    record = await stored_game(driver, game.id)
    assert state_of(record).phase is Phase.PLAY
    assert "You play Red and move first" in driver.dms_to(user)[-1].content
    assert png_of(driver, driver.dms_to(other)[-1].id) == image_for(record, 1 - red)


async def test_a_clash_tells_each_audience_only_the_removal(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob, "classic")
    for seat in (0, 1):
        await driver.dm(player(driver, game, seat), "ready")
    rng = random.Random(3)
    for _ in range(400):
        record = await stored_game(driver, game.id)
        state = state_of(record)
        assert state.phase is Phase.PLAY and state.turn is not None
        seat = state.turn
        moves = [m for m in E.legal_actions(state, seat) if isinstance(m, Move)]
        attacks = [m for m in moves if state.board[m.target] is not None]
        if attacks:
            break
        forward = [m for m in moves if abs(m.target - 30) < abs(m.start - 30)]  # to the front
        await driver.dm(player(driver, record, seat), str(rng.choice(forward or moves)))
    else:
        raise AssertionError("no attack came up")
    attack = attacks[0]
    mover, defender = player(driver, record, seat), player(driver, record, 1 - seat)
    seq = driver.server.last_seq

    await driver.dm(mover, str(attack))

    after = await stored_game(driver, game.id)
    last = state_of(after).last
    assert last is not None and last.removal is not None
    removal = last.removal
    channel = live_message(driver, after)
    assert f"attacks {attack}: {removal.value}" in channel.content
    assert not any(name in channel.content for name in PIECE_NAMES)
    assert png_of(driver, channel.id) == image_for(after, None)
    mover_dm, defender_dm = driver.dms_to(mover)[-1], driver.dms_to(defender)[-1]
    attacker, target = state.board[attack.start], state.board[attack.target]
    assert attacker is not None and target is not None
    attacker_kind, defender_kind = attacker.kind, target.kind
    assert attacker_kind is not None and defender_kind is not None
    assert f"Your {attacker_kind.title} attacks {attack}: {removal.value}" in mover_dm.content
    assert f"attacks your {defender_kind.title} {attack}: {removal.value}" in defender_dm.content
    if attacker_kind is not defender_kind:
        assert f"Your {attacker_kind.title}" not in defender_dm.content
    assert png_of(driver, defender_dm.id) == image_for(after, 1 - seat)
    assert png_of(driver, mover_dm.id) == image_for(after, seat)
    assert seen_by(driver, defender, seq)


async def test_a_whole_flip_game_by_dm_ends_with_the_board_revealed(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    game = await start(driver, alice, bob, "flip")
    rng = random.Random(8)
    for _ in range(2000):
        record = await stored_game(driver, game.id)
        state = state_of(record)
        if state.phase is Phase.FINISHED:
            break
        assert state.turn is not None
        actions = [a for a in E.legal_actions(state, state.turn) if "draw" not in str(a)]
        attacks = [a for a in actions if isinstance(a, Move) and state.board[a.target]]
        action = rng.choice(attacks or actions)  # keen fighters end a game sooner
        await driver.dm(player(driver, record, state.turn), str(action))
    else:
        raise AssertionError("the game did not end")
    assert record.end_reason is not None
    live = live_message(driver, record)
    assert png_of(driver, live.id) == image_for(record, None)
    assert all(p is None or p.face_up for p in E.view(state, None).pieces)
    assert any("wins" in m.content or "drawn" in m.content for m in channel_messages(driver))


async def test_a_draw_is_offered_by_word_and_accepted_by_button(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """8.5 by DM: `draw` offers during one's turn, the board of the opponent's next turn
    carries an Accept draw button, and the click ends the game drawn for everyone."""
    game = await start(driver, alice, bob, "classic")
    await driver.dm(alice, "draw")
    assert "deployed" in driver.dms_to(alice)[-1].content  # no offer during deployment
    for user in (alice, bob):
        await driver.dm(user, "ready")
    record = await stored_game(driver, game.id)
    red = state_of(record).red_seat
    assert red is not None
    mover, opponent = player(driver, record, red), player(driver, record, 1 - red)
    await driver.dm(opponent, "offer draw")
    assert "opponent's turn" in driver.dms_to(opponent)[-1].content
    await driver.dm(mover, "draw")
    assert "You offer a draw." in driver.dms_to(mover)[-1].content
    state = state_of(await stored_game(driver, game.id))
    move = next(m for m in E.legal_actions(state, red) if isinstance(m, Move))
    await driver.dm(mover, str(move))
    await accept_offered_draw(driver, opponent, game.id)
    record = await stored_game(driver, game.id)
    assert (record.winner, record.end_reason) == (None, "rules")
    assert any("accepts the draw" in m.content for m in channel_messages(driver))
