"""Sea Battle's optional modules played through the loopback Discord: chosen with
``/play ... options:``, then whole games by DM, each audience told only what it may know."""

from __future__ import annotations

import random

from bot.games.core import Phase
from bot.games.grid import cell_name
from bot.storage import GameRecord, GameStatus
from tests.support.cog_helpers import (
    SEA,
    accepted_play,
    channel_messages,
    player,
    png_of,
    random_ready,
    render_for,
    seat_to_move,
    state_of,
    stored_game,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser


async def start_mode(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, variant: str, options: str
) -> GameRecord:
    """``/play`` with a variant and option words, accepted, fleets dealt and confirmed."""
    extra = {"options": options} if options else {}
    await accepted_play(driver, alice, bob, game="seabattle", variant=variant, **extra)
    record = await stored_game(driver, 1)
    assert state_of(record).rules == SEA.configure(variant, options)
    await random_ready(driver, record.id, alice, bob)
    return await stored_game(driver, record.id)


def assert_live_board(driver: DiscordDriver, record: GameRecord) -> None:
    """The channel's live message (the one after the challenge) shows the public board."""
    live = channel_messages(driver)[1]
    assert png_of(driver, live.id) == render_for(record, None)


async def first_suggestion(driver: DiscordDriver, user: FakeUser, typed: str) -> str:
    """What ``/move``'s autocomplete offers first to ``user`` for ``typed``, in DMs."""
    offered = await driver.autocomplete(user, "move", "text", guild=False, options={"text": typed})
    return str(offered[0]["value"])


async def typed_by_dm(driver: DiscordDriver, record: GameRecord, move: str) -> GameRecord:
    """The player to move types ``move`` by DM, and it must be accepted: the game as stored
    after it is one entry longer."""
    user = player(driver, record, seat_to_move(record))
    ply = record.ply
    await driver.dm(user, f"#{record.id} {move}")
    record = await stored_game(driver, record.id)
    assert record.ply == ply + 1, driver.dms_to(user)[-1].content
    return record


async def play_out(driver: DiscordDriver, record: GameRecord, seed: int) -> GameRecord:
    """Random legal moves typed by DM until the game ends; every one must be accepted."""
    rng = random.Random(seed)
    while record.status is GameStatus.ACTIVE:
        state = state_of(record)
        seat = seat_to_move(record)
        move = rng.choice(list(SEA.legal_actions(state, seat)))
        record = await typed_by_dm(driver, record, str(move))
    return record


async def test_play_autocompletes_options_the_variant_takes(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    offered = await driver.autocomplete(
        alice,
        "play",
        focused="options",
        options={"game": "seabattle", "variant": "milton-bradley", "options": "salvo "},
    )
    values = [choice["value"] for choice in offered]
    assert "salvo equal-rounds" in values and "salvo blind-report" in values
    assert not any("corners" in value for value in values)


async def test_a_whole_salvo_game_with_blind_reports_by_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """§4.3: salvos typed as one move; each answer goes to both players and the channel as
    counts per ship; the game ends with a stored result and both fleets revealed."""
    record = await start_mode(driver, alice, bob, "milton-bradley", "salvo blind-report")
    shooter = player(driver, record, seat_to_move(record))
    offered = await driver.autocomplete(
        shooter, "move", "text", guild=False, options={"text": "A1 "}
    )
    assert offered and all(choice["value"].startswith("A1 ") for choice in offered)
    first = await play_out(driver, record, 7)
    final = state_of(first)
    assert final.phase is Phase.FINISHED and first.end_reason == "rules"
    assert len(await stored_log(driver, first.id)) == first.ply
    assert any("salvo at" in dm.content for dm in driver.dms_to(alice))
    live = channel_messages(driver)[1]
    assert png_of(driver, live.id) == render_for(first, None)
    assert "Salvo 1:" in SEA.view(final, None).text()


async def test_a_whole_16x16_game_with_mines_and_a_minesweeper_by_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """§4.6-4.7: each player first strikes the enemy minesweeper and a mine, so both kinds of
    disclosure are asked for by DM (and answered through ``/move``'s suggestions), then
    sinks ships; the channel hears that a disclosure happened, never the cell."""
    record = await start_mode(driver, alice, bob, "16x16", "")
    record = await stored_game(driver, record.id)
    asked = 0
    while record.status is GameStatus.ACTIVE:
        state = state_of(record)
        seat = seat_to_move(record)
        user = player(driver, record, seat)
        if state.pending is not None:
            move = await first_suggestion(driver, user, "reveal")
            assert move.startswith("reveal ")
            asked += 1
        else:
            enemy = state.sides[1 - seat]
            fired = state.shots[seat]
            targets = [*enemy.sweepers, *enemy.mines[:1]]
            targets += [c for ship in enemy.ships for c in ship.cells]
            aim = next(c for c in targets if c not in fired)
            known = (1 - seat, aim) in state.disclosures  # a mine disclosed to this player
            move = cell_name(aim) + (" confirm" if known else "")
        record = await typed_by_dm(driver, record, move)
    final = state_of(record)
    assert final.phase is Phase.FINISHED and record.winner is not None
    assert asked >= 3 and len(final.disclosures) == asked
    said = [message.content for message in channel_messages(driver)]
    for seat, cell in final.disclosures:
        name = cell_name(cell)
        assert not any(f"disclosed a ship cell: {name}" in text for text in said)
        opponent = player(driver, record, 1 - seat)
        assert any(
            "disclosed a" in dm.content and f": {name}." in dm.content
            for dm in driver.dms_to(opponent)
        )
    assert any("minesweeper!" in dm.content for dm in driver.dms_to(alice))
    assert_live_board(driver, record)


async def test_a_whole_game_with_submarines_by_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """§4.8: each player sinks the enemy submarine first, whose dying shot is told to both
    players and the channel; the game then ends with a stored result."""
    record = await start_mode(driver, alice, bob, "classic", "submarine")
    while record.status is GameStatus.ACTIVE:
        state = state_of(record)
        seat = seat_to_move(record)
        ships = state.sides[1 - seat].ships
        order = [ships[-1], *ships[:-1]]  # the submarine is the fleet's last ship
        targets = [c for ship in order for c in ship.cells]
        if state.pending is not None:
            move = f"reveal {cell_name(SEA.view(state, seat).choices[0])}"
        else:
            move = cell_name(next(c for c in targets if c not in state.shots[seat]))
        record = await typed_by_dm(driver, record, move)
    final = state_of(record)
    assert final.phase is Phase.FINISHED and record.end_reason == "rules"
    for user in (alice, bob):
        assert any("dying shot" in dm.content for dm in driver.dms_to(user))
    assert_live_board(driver, record)


async def test_a_whole_flying_dutchman_game_by_dm(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """§5: shots aimed at the moving ship; after each hit its captain is asked by DM and
    answers through ``/move``'s suggestions, moving the ship or not, and the shooter shoots
    again; the game ends with the last deck."""
    record = await start_mode(driver, alice, bob, "dutchman", "decks5")
    decisions = 0
    while record.status is GameStatus.ACTIVE:
        state = state_of(record)
        seat = seat_to_move(record)
        user = player(driver, record, seat)
        if state.pending is not None:
            typed = "move " if decisions % 2 else "stay"
            move = await first_suggestion(driver, user, typed)
            if move.startswith("move"):  # build the whole new group, cell by cell
                while True:
                    more = await driver.autocomplete(
                        user, "move", "text", guild=False, options={"text": move + " "}
                    )
                    if more[0]["value"] == move:
                        break
                    move = more[0]["value"]
            decisions += 1
        else:
            move = cell_name(state.sides[1 - seat].ships[0].cells[0])
        record = await typed_by_dm(driver, record, move)
    final = state_of(record)
    assert final.phase is Phase.FINISHED and record.winner is not None
    assert decisions == 4  # five decks: four hits leave a ship to move
    winner = player(driver, record, record.winner)
    assert "That was its last deck: you win!" in driver.dms_to(winner)[-1].content
    assert_live_board(driver, record)
