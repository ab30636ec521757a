"""Setups kept by name: ``save <name>`` in one game, ``load <name>`` in a later one.

A saved setup is stored as one move in the game's notation (Sea Battle's ``fleet …``), so
loading it is checked by the rules like any other move and the log stays replayable.
"""

from __future__ import annotations

import pytest

from bot.games import ENGINES
from bot.games.core import GameError, IllegalActionError, NotationError
from bot.games.seabattle.actions import PlaceFleet
from bot.games.seabattle.state import SeaBattleState
from bot.referee import MAX_SAVED_SETUPS, Referee
from bot.storage import SqliteRepository
from tests.referee.test_referee import ALICE, BOB, CAROL, refused, state_of
from tests.referee.test_referee import start_game as start_refereed_game
from tests.support.seabattle_positions import ALPHA, placement_texts

E = ENGINES["seabattle"]
ALPHA_FLEET = "fleet " + ", ".join(placement_texts(ALPHA))


def new_game() -> SeaBattleState:
    return E.new_game(E.presets["classic"], 1)


def ship_cells(state: SeaBattleState, seat: int) -> set[tuple[int, ...]]:
    return {ship.cells for ship in state.sides[seat].ships}


# -- the engine's whole-fleet move ---------------------------------------------------------------


def test_a_fleet_move_reads_back_and_lays_out_every_ship() -> None:
    state = new_game()
    action = E.parse_action(state, 0, ALPHA_FLEET.lower().replace(", ", ","))
    assert isinstance(action, PlaceFleet)
    assert str(action) == ALPHA_FLEET
    laid = E.apply(state, 0, action).state
    assert len(laid.sides[0].ships) == len(laid.rules.fleet)
    saved = E.setup_text(E.view(laid, 0))
    assert saved is not None and saved.startswith("fleet ")
    assert set(saved.removeprefix("fleet ").split(", ")) == set(placement_texts(ALPHA))
    assert E.setup_text(E.view(laid, 1)) is None, "the opponent has placed nothing"
    assert E.setup_text(E.view(laid, None)) is None, "the public has no setup"


def test_a_fleet_move_replaces_the_board_and_is_checked_ship_by_ship() -> None:
    state = E.act(new_game(), 0, "random").state
    two = E.act(state, 0, "fleet A1 A4, J10").state
    assert ship_cells(two, 0) == {((0, 0), (0, 1), (0, 2), (0, 3)), ((9, 9),)}
    with pytest.raises(IllegalActionError, match="touch"):
        E.act(state, 0, "fleet A1 A4, B5")  # B5 touches A4 at a corner in the classic rules
    with pytest.raises(NotationError, match="Name the fleet's ships"):
        E.act(state, 0, "fleet")
    with pytest.raises(GameError):
        E.act(state, 0, "fleet A1 A4, Z99")


def test_a_confirmed_fleet_cannot_be_replaced() -> None:
    state = E.act(E.act(new_game(), 0, "random").state, 0, "ready").state
    with pytest.raises(IllegalActionError, match="confirmed"):
        E.act(state, 0, ALPHA_FLEET)


# -- through the referee -------------------------------------------------------------------------


async def test_a_saved_fleet_is_loaded_in_a_later_game(
    repo: SqliteRepository, referee: Referee
) -> None:
    first = await start_refereed_game(referee)
    dealt = (await referee.act(ALICE, "random")).game
    saved = await referee.act(ALICE, "save Fortress")
    assert not saved.stored, "saving changes no game, so there is nothing to confirm"
    assert saved.game == dealt, "saving changed the game"
    assert [notice.audience for notice in saved.notices] == [0]
    assert "Saved this setup as `fortress`" in saved.notices[0].texts[0]
    await referee.act(ALICE, "ready")
    await referee.abort(ALICE, first.id)

    second = await start_refereed_game(referee, challenger=BOB, opponent=ALICE)
    loaded = await referee.act(ALICE, "load fortress")
    assert [notice.audience for notice in loaded.notices] == [1], "only Alice hears of it"
    assert ship_cells(state_of(loaded.game), 1) == ship_cells(state_of(dealt), 0)
    log = await repo.log(second.id)
    assert log[-1].text.startswith("fleet "), "the log keeps the move itself, replayable"


async def test_saving_and_loading_refusals_change_nothing(
    repo: SqliteRepository, referee: Referee
) -> None:
    await start_refereed_game(referee)
    await refused(repo, lambda: referee.act(ALICE, "save fortress"), "nothing to save")
    await refused(repo, lambda: referee.act(ALICE, "save no good!"), "Name a setup with")
    await refused(repo, lambda: referee.act(ALICE, "load"), "Name a setup with")
    error = await refused(repo, lambda: referee.act(ALICE, "load fortress"), "save one first")
    assert "`fortress`" in str(error)
    await referee.act(ALICE, "random")
    await referee.act(ALICE, "save wall")
    error = await refused(repo, lambda: referee.act(ALICE, "load arc"), "no saved setup")
    assert "`wall`" in str(error), "the player's saved names are listed"
    assert await repo.saved_setup_names(BOB, "seabattle") == []


async def test_a_saved_fleet_that_no_longer_fits_is_refused_by_the_rules(
    repo: SqliteRepository, referee: Referee
) -> None:
    """A classic fleet (with one-cell ships) loaded into Milton Bradley rules breaks its fleet."""
    await repo.save_setup(CAROL, "seabattle", "small", ALPHA_FLEET)
    game = await start_refereed_game(referee, challenger=CAROL, variant="milton-bradley")
    before = state_of(game)
    with pytest.raises(GameError):
        await referee.act(CAROL, "load small")
    assert state_of(await referee.game_of(CAROL, game.id, purpose="board")) == before


async def test_a_player_keeps_a_bounded_number_of_setups(
    repo: SqliteRepository, referee: Referee
) -> None:
    for number in range(MAX_SAVED_SETUPS):
        await repo.save_setup(ALICE, "seabattle", f"layout{number}", ALPHA_FLEET)
    await start_refereed_game(referee)
    await referee.act(ALICE, "random")
    await refused(repo, lambda: referee.act(ALICE, "save one-more"), "already keep")
    await referee.act(ALICE, "save layout3")  # saving over a kept name is fine
    assert await repo.saved_setup(ALICE, "seabattle", "layout3") != ALPHA_FLEET


async def test_sea_battle_refuses_an_option_its_variant_does_not_take(
    repo: SqliteRepository, referee: Referee
) -> None:
    with pytest.raises(GameError, match=r"`salvo` cannot be played in the classic"):
        await referee.challenge(
            game="seabattle",
            variant="classic",
            options="salvo",
            guild_id=1,
            channel_id=2,
            challenger_id=ALICE,
            opponent_id=BOB,
        )
    assert E.configure(" Corners ", "") == E.presets["corners"]
