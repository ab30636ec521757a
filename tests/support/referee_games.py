"""Games played through the referee the way the cogs play them, for the referee's tests.

Every game comes into being by a challenge and its acceptance, and every refusal must leave
the store as it was; the helpers here say that once for every game. Most of the referee's
tests play Sea Battle, so its helpers (fleets, a random move, a sure miss) live here too.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from bot.games import ENGINES
from bot.games.core import GameError, Phase, other
from bot.games.grid import Cell, cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.referee import Notice, Referee, Report
from bot.storage import ChallengeRecord, GameRecord, Repository

E = ENGINES["seabattle"]
ALICE, BOB, CAROL = 1001, 1002, 1003
"""User ids. Alice challenges, so she sits in seat 0 and Bob in seat 1."""
GUILD, OTHER_GUILD = 500, 600
CHANNEL = 700

State = TypeVar("State")


async def challenge(
    referee: Referee,
    game: str = "seabattle",
    *,
    variant: str | None = None,
    options: str = "",
    challenger: int = ALICE,
    opponent: int = BOB,
    guild: int | None = GUILD,
) -> ChallengeRecord:
    """A challenge in the test channel, as `/play` makes it."""
    return await referee.challenge(
        game=game,
        variant=variant,
        options=options,
        guild_id=guild,
        channel_id=CHANNEL,
        challenger_id=challenger,
        opponent_id=opponent,
    )


async def start_game(
    referee: Referee,
    game: str = "seabattle",
    *,
    variant: str | None = None,
    options: str = "",
    challenger: int = ALICE,
    opponent: int = BOB,
    guild: int | None = GUILD,
) -> GameRecord:
    """Challenge and accept: the only way a game comes into being."""
    made = await challenge(
        referee,
        game,
        variant=variant,
        options=options,
        challenger=challenger,
        opponent=opponent,
        guild=guild,
    )
    return (await referee.accept(made.id, opponent)).game


def stored_state(game: GameRecord, kind: type[State]) -> State:
    """The stored state of ``game``, read by its engine, as the state class ``kind``."""
    state = ENGINES[game.game].from_json(game.state)
    assert isinstance(state, kind), f"game #{game.id} holds no {kind.__name__}"
    return state


def state_of(game: GameRecord) -> SeaBattleState:
    """The stored state of a Sea Battle game."""
    return stored_state(game, SeaBattleState)


def told(report: Report, audience: int | None) -> Notice:
    """The notice for ``audience``, which the test expects to exist."""
    notice = report.to(audience)
    assert notice is not None, f"audience {audience} was told nothing"
    return notice


async def world(repo: Repository) -> list[Any]:
    """Every challenge, game and log entry of a test's store, to prove nothing changed.

    Each test here makes at most a handful of challenges and games, so ids 1-6 are all.
    """
    rows: list[Any] = []
    for key in range(1, 7):
        rows += [await repo.get_challenge(key), await repo.get_game(key), await repo.log(key)]
    return rows


async def refused(
    repo: Repository, attempt: Callable[[], Awaitable[object]], match: str
) -> GameError:
    """Run a request that must be refused: a GameError sentence, and the store untouched."""
    before = await world(repo)
    with pytest.raises(GameError, match=match) as caught:
        await attempt()
    message = str(caught.value)
    assert message[:1].isupper() or message.startswith("`"), message
    assert message.endswith((".", "!")), message
    assert await world(repo) == before, f"a refused request changed the store: {message}"
    return caught.value


# -- Sea Battle ---------------------------------------------------------------------------------


async def set_fleets(referee: Referee, game: GameRecord) -> GameRecord:
    """Both players take a random fleet and confirm it; the game is then in play."""
    for user in game.seats:
        await referee.act(user, f"#{game.id} random")
        game = (await referee.act(user, f"#{game.id} ready")).game
    assert E.from_json(game.state).phase is Phase.PLAY
    return game


def random_move(rng: random.Random, game: GameRecord, state: SeaBattleState) -> tuple[int, str]:
    """A random legal move for a random seat that may act in the stored ``state``.

    In setup a complete fleet is confirmed half of the time, so setups end quickly while
    still trying placements, removals, clearing and random fleets along the way. In play
    a shot is drawn from the engine's legal actions, but weighted towards the enemy fleet
    (some shots aimed at it, some beside a hit) so that a game on the 15x15 board ends in
    about a hundred moves instead of four hundred: the suite stays fast, and every kind of
    shot (miss, hit, sinking, the last sinking) still comes up in every game.
    """
    seat = rng.choice(sorted(E.to_move(state)))
    actions = [str(action) for action in E.legal_actions(state, seat)]
    assert actions, f"seat {seat} may move but has no legal action"
    if "ready" in actions and rng.random() < 0.5:
        return game.seats[seat], "ready"
    if state.phase is Phase.PLAY:
        draw = rng.random()
        if draw < 0.3:
            aim = ship_cells(state, other(seat))
        elif draw < 0.7:
            aim = wounded_neighbours(state, seat)
        else:
            aim = set()
        named = {cell_name(cell) for cell in aim}
        focused = [action for action in actions if action in named]
        if focused:
            return game.seats[seat], rng.choice(focused)
    return game.seats[seat], rng.choice(actions)


def wounded_neighbours(state: SeaBattleState, seat: int) -> set[Cell]:
    """Cells beside ``seat``'s hits on ships still afloat: where a player shoots next."""
    target = other(seat)
    sunk = {cell for ship in state.sunk(target) for cell in ship.cells}
    hits = (state.shots[seat] & ship_cells(state, target)) - sunk
    return {
        (column + dc, row + dr)
        for column, row in hits
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
    }


def ship_cells(state: SeaBattleState, owner: int) -> set[Cell]:
    """``owner``'s own pieces: ship cells, and mines and minesweepers (§4.6-4.7)."""
    side = state.sides[owner]
    return {cell for ship in side.ships for cell in ship.cells} | {*side.mines, *side.sweepers}


def water(game: GameRecord, seat: int) -> str:
    """A cell of ``seat``'s field with no ship that the other seat has not shot: a miss."""
    state = state_of(game)
    ships = {cell for ship in state.sides[seat].ships for cell in ship.cells}
    size = state.rules.size
    return next(
        cell_name((column, row))
        for row in range(size)
        for column in range(size)
        if (column, row) not in ships and (column, row) not in state.shots[other(seat)]
    )
