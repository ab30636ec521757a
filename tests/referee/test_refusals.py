"""What the referee refuses, and that a refusal is a sentence that changes nothing.

A challenge that cannot become a game, an answer from the wrong player, a move without a
game or with too many, out of turn, off the board or too long: each is refused before the
store is touched, and a bare move among several games goes only where it can be played.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.games.core import NotYourTurnError, other
from bot.games.grid import cell_name
from bot.referee import MAX_MOVE_LENGTH, Referee
from bot.storage import ChallengeRecord, ChallengeStatus, SqliteRepository
from tests.support.referee_games import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    E,
    challenge,
    refused,
    set_fleets,
    start_game,
    state_of,
    water,
)


async def test_challenge_refusals(repo: SqliteRepository, referee: Referee) -> None:
    """A challenge that cannot become a game is refused before anything is stored."""

    def attempt(**overrides: Any) -> Callable[[], Awaitable[ChallengeRecord]]:
        fields: dict[str, Any] = {
            "game": "seabattle",
            "variant": None,
            "guild_id": GUILD,
            "channel_id": CHANNEL,
            "challenger_id": ALICE,
            "opponent_id": BOB,
        }
        fields.update(overrides)
        return lambda: referee.challenge(**fields)

    await refused(repo, attempt(opponent_id=ALICE), "cannot challenge yourself")
    await refused(repo, attempt(opponent_is_bot=True), "Other bots cannot play")
    error = await refused(repo, attempt(variant="hexagonal"), "no variant `hexagonal`")
    assert all(f"`{name}`" in str(error) for name in E.presets), "the choices are not listed"
    await refused(repo, attempt(game="chess"), "There is no game called `chess`")
    created = await attempt(variant="corners")()
    assert created.rules == E.presets["corners"].to_json()


async def test_accept_and_decline_refusals(repo: SqliteRepository, referee: Referee) -> None:
    """Only the challenged player answers, and only once; a closed challenge stays closed."""
    offered = await challenge(referee)
    await refused(repo, lambda: referee.accept(offered.id, CAROL), "not addressed to you")
    await refused(repo, lambda: referee.accept(offered.id, ALICE), "only your opponent")
    await refused(repo, lambda: referee.decline(offered.id, CAROL), "not addressed to you")
    await refused(repo, lambda: referee.accept(999, BOB), "no longer exists")

    report = await referee.accept(offered.id, BOB)
    assert report.game.seats == (ALICE, BOB)
    await refused(repo, lambda: referee.accept(offered.id, BOB), "already accepted")
    await refused(repo, lambda: referee.decline(offered.id, BOB), "already accepted")
    await refused(repo, lambda: referee.decline(offered.id, ALICE), "already closed")
    assert [g.id for g in await repo.active_games_of(BOB)] == [report.game.id]

    declined = await challenge(referee, challenger=CAROL)
    assert (await referee.decline(declined.id, BOB)).status is ChallengeStatus.DECLINED
    await refused(repo, lambda: referee.accept(declined.id, BOB), "already declined")
    withdrawn = await challenge(referee, challenger=CAROL)
    assert (await referee.decline(withdrawn.id, CAROL)).status is ChallengeStatus.WITHDRAWN
    await refused(repo, lambda: referee.accept(withdrawn.id, BOB), "already withdrawn")
    assert await repo.active_games_of(CAROL) == []


async def test_moves_without_a_game_or_in_someone_elses(
    repo: SqliteRepository, referee: Referee
) -> None:
    """A move must belong to one of the sender's running games."""
    await refused(repo, lambda: referee.act(ALICE, "B5"), r"You have no game running\.")
    game = await start_game(referee)
    await refused(repo, lambda: referee.act(ALICE, "#999 B5"), "You are not playing in game #999.")
    await refused(repo, lambda: referee.act(CAROL, f"#{game.id} B5"), f"in game #{game.id}")
    await refused(repo, lambda: referee.act(CAROL, "B5"), "You have no game running")
    await refused(repo, lambda: referee.board(CAROL), "You have no game running")
    await refused(repo, lambda: referee.resign(CAROL, game.id), "not playing")


async def test_a_bare_move_in_two_games_is_refused_and_names_both(
    repo: SqliteRepository, referee: Referee
) -> None:
    """With two games running the referee cannot guess; `#<id>` then picks the right one."""
    first = await set_fleets(referee, await start_game(referee))
    second = await set_fleets(referee, await start_game(referee, challenger=CAROL, opponent=ALICE))
    for game in (first, second):  # Alice to shoot in both: her opponent misses once
        alice = game.seats.index(ALICE)
        if state_of(game).turn != alice:
            await referee.act(game.seats[other(alice)], f"#{game.id} {water(game, alice)}")
    fresh = [await repo.get_game(game.id) for game in (first, second)]
    assert fresh[0] is not None and fresh[1] is not None
    first, second = fresh[0], fresh[1]
    error = await refused(repo, lambda: referee.act(ALICE, "Z99"), "You are in several games")
    assert f"#{first.id} Sea Battle (classic) vs " in str(error)
    assert f"#{second.id} Sea Battle (classic) vs " in str(error)
    assert f"`#{first.id}` followed by your move" in str(error), "it shows how to name a game"
    await refused(repo, lambda: referee.board(ALICE), "several games")
    error = await refused(repo, lambda: referee.resign(ALICE), "several games")
    assert f"`/resign game:{first.id}`" in str(error), "commands name their `game` option"

    shooter = state_of(second).turn
    assert shooter is not None
    user = second.seats[shooter]
    report = await referee.act(user, f"#{second.id} B5")
    assert report.game.id == second.id and report.game.ply == second.ply + 1
    assert (await repo.get_game(first.id)) == first, "the other game was touched"
    assert state_of(report.game).log[-1] == (shooter, (1, 4))

    board = await referee.board(ALICE, first.id)
    assert board.game.id == first.id and board.audience == 0


async def test_a_bare_move_goes_where_its_player_sees_it_can_be_played(
    repo: SqliteRepository, referee: Referee, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Among several games a move goes to the only one that can take it, judged on the
    player's own views alone: the engine's reading of the hidden state is never asked."""
    games = [
        await set_fleets(referee, await start_game(referee)),
        await set_fleets(referee, await start_game(referee, opponent=CAROL)),
    ]
    for game in games:  # Alice (seat 0) to shoot in both
        if state_of(game).turn != 0:
            await referee.act(game.seats[1], f"#{game.id} {water(game, 0)}")
    first, second = [await repo.get_game(game.id) for game in games]
    assert first is not None and second is not None
    shot = water(first, 1)
    first = (await referee.act(ALICE, f"#{first.id} {shot}")).game
    await referee.act(BOB, f"#{first.id} {water(first, 0)}")

    def hidden(*args: object) -> None:
        raise AssertionError("routing read the hidden state")

    with monkeypatch.context() as patched:
        for method in ("parse_action", "legal_actions", "apply"):
            patched.setattr(E, method, hidden)
        assert await referee.aim(ALICE, shot) == second.id, "Alice shot it in the first"
        assert await referee.aim(ALICE, f"#{first.id} {shot}") == first.id
        either = next(
            cell_name((column, 9)) for column in range(10) if cell_name((column, 9)) != shot
        )
        error = await refused(repo, lambda: referee.aim(ALICE, either), "several games")
        assert f"#{first.id} Sea Battle (classic)" in str(error)
        assert f"#{second.id} Sea Battle (classic)" in str(error)
        await refused(repo, lambda: referee.aim(ALICE, "Z1"), "several games")  # nowhere
        assert await referee.aim(BOB, "Z1") == first.id  # one game: whatever he wrote
    await referee.act(ALICE, f"#{second.id} {water(second, 1)}")  # a miss: Carol's turn
    with monkeypatch.context() as patched:
        for method in ("parse_action", "legal_actions", "apply"):
            patched.setattr(E, method, hidden)
        assert await referee.aim(ALICE, "Z1") == first.id, "the one game where she may act"


async def test_out_of_turn_illegal_and_overlong_moves_change_nothing(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Refusals from the rules come back as the engine's sentences, with nothing stored."""
    game = await set_fleets(referee, await start_game(referee))
    shooter = state_of(game).turn
    assert shooter is not None
    waiting = game.seats[other(shooter)]
    error = await refused(repo, lambda: referee.act(waiting, "B5"), "opponent's turn")
    assert isinstance(error, NotYourTurnError)
    await refused(repo, lambda: referee.act(game.seats[shooter], "Z99"), "off the board")
    await refused(repo, lambda: referee.act(game.seats[shooter], "ready"), "now shoot")
    await refused(repo, lambda: referee.act(game.seats[shooter], "  "), "empty")

    too_long = "B5" + " " * (MAX_MOVE_LENGTH - 1)
    assert len(too_long) == MAX_MOVE_LENGTH + 1
    await refused(repo, lambda: referee.act(game.seats[shooter], too_long), "too long")
    just_fits = " " * (MAX_MOVE_LENGTH - 2) + "B5"
    report = await referee.act(game.seats[shooter], just_fits)
    assert state_of(report.game).log == ((shooter, (1, 4)),)

    again = state_of(report.game).turn
    if again == shooter:  # a hit with an extra shot: the same cell is now refused
        await refused(repo, lambda: referee.act(game.seats[shooter], "B5"), "already shot")
