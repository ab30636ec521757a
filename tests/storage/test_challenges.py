"""The store's challenges and listings: one game per accepted challenge, one open challenge per
pair of players even in a burst, the limit on games against the computer, and the sweeps
that forget closed challenges.

Each promise holds on both stores, a SQLite file and a real PostgreSQL server (the
``repo`` fixture of this folder's ``conftest``), unless SQLite keeps it by its own means.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.referee import Referee
from bot.storage import (
    ChallengeStatus,
    GameRecord,
    GameStatus,
    NewGame,
    OpenChallengeError,
    SqliteRepository,
)
from tests.referee.test_referee import ALICE, BOB, CAROL, CHANNEL, GUILD, OTHER_GUILD, E, start_game
from tests.storage.helpers import challenge, end_stored, sql, sqlite_only


async def test_accepting_a_challenge_twice_creates_one_game(repo: SqliteRepository) -> None:
    """Two clicks on Accept: the second finds the challenge closed and creates nothing."""
    challenge_id = await challenge(repo)
    state = E.to_json(E.new_game(E.presets["classic"], 9))
    game = await repo.accept_challenge(challenge_id, seed=9, seats=(ALICE, BOB), state=state)
    assert game is not None and game.ply == 0 and game.status is GameStatus.ACTIVE
    second = await repo.accept_challenge(challenge_id, seed=10, seats=(ALICE, BOB), state=state)
    assert second is None
    assert [g.id for g in await repo.active_games_of(BOB)] == [game.id]
    accepted = await repo.get_challenge(challenge_id)
    assert accepted is not None and accepted.status is ChallengeStatus.ACCEPTED
    assert accepted.game_id == game.id
    assert await repo.accept_challenge(999, seed=1, seats=(ALICE, BOB), state=state) is None


async def test_concurrent_accepts_create_one_game(repo: SqliteRepository) -> None:
    """The same two clicks at the same moment: still one game, one refusal."""
    referee = Referee(repo)
    challenge_id = await challenge(repo)
    results = await asyncio.gather(
        referee.accept(challenge_id, BOB), referee.accept(challenge_id, BOB), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in results) == ["RefereeError", "Report"], results
    assert len(await repo.active_games_of(ALICE)) == 1


async def test_closing_a_closed_challenge_reports_false(repo: SqliteRepository) -> None:
    """The caller learns that a second Decline (or a late Accept) found nothing to close."""
    challenge_id = await challenge(repo)
    assert await repo.close_challenge(challenge_id, ChallengeStatus.DECLINED) is True
    assert await repo.close_challenge(challenge_id, ChallengeStatus.WITHDRAWN) is False
    closed = await repo.get_challenge(challenge_id)
    assert closed is not None and closed.status is ChallengeStatus.DECLINED
    state = E.to_json(E.new_game(E.presets["classic"], 1))
    assert (
        await repo.accept_challenge(challenge_id, seed=1, seats=(ALICE, BOB), state=state) is None
    )
    assert await repo.close_challenge(999, ChallengeStatus.EXPIRED) is False
    await repo.set_challenge_message(challenge_id, 4242)
    assert (await repo.get_challenge(challenge_id)).message_id == 4242  # type: ignore[union-attr]


async def test_active_games_of_a_user_and_in_a_guild(repo: SqliteRepository) -> None:
    """Listings hold only running games, of that user (either seat) or of that server."""
    referee = Referee(repo)
    alice_bob = await start_game(referee)
    carol_alice = await start_game(referee, challenger=CAROL, opponent=ALICE)
    bob_carol = await start_game(referee, challenger=BOB, opponent=CAROL, guild=OTHER_GUILD)
    ended = await start_game(referee, challenger=BOB, opponent=ALICE)
    await referee.abort(BOB, ended.id)

    def ids(games: list[GameRecord]) -> list[int]:
        return [game.id for game in games]

    assert ids(await repo.active_games_of(ALICE)) == [alice_bob.id, carol_alice.id]
    assert ids(await repo.active_games_of(BOB)) == [alice_bob.id, bob_carol.id]
    assert ids(await repo.active_games_of(CAROL)) == [carol_alice.id, bob_carol.id]
    assert ids(await repo.active_games_of(4040)) == []
    assert ids(await repo.active_games_in(GUILD)) == [alice_bob.id, carol_alice.id]
    assert ids(await repo.active_games_in(OTHER_GUILD)) == [bob_carol.id]
    assert ids(await repo.active_games_in(4040)) == []

    await repo.set_public_message(alice_bob.id, 777)
    stored = await repo.get_game(alice_bob.id)
    assert stored is not None and stored.public_message_id == 777 and stored.ply == 0


async def test_one_open_challenge_per_challenger_and_opponent_even_in_a_burst(
    repo: SqliteRepository,
) -> None:
    """Thirty challenges at once to the same player: the store lets exactly one through."""
    burst = await asyncio.gather(*(challenge(repo) for _ in range(30)), return_exceptions=True)
    made = [outcome for outcome in burst if isinstance(outcome, int)]
    refused = [outcome for outcome in burst if isinstance(outcome, OpenChallengeError)]
    assert len(made) == 1 and len(refused) == 29
    assert all(error.challenge_id == made[0] for error in refused)
    assert await challenge(repo, BOB, ALICE) != made[0]  # the other way round is another pair
    assert await challenge(repo, ALICE, CAROL) != made[0]
    assert await repo.close_challenge(made[0], ChallengeStatus.DECLINED)
    assert await challenge(repo) > made[0]  # once answered, a new challenge may follow


async def test_a_refused_challenge_names_the_one_open_even_as_others_close(
    repo: SqliteRepository,
) -> None:
    """Challenges and answers racing each other: a refusal always names a challenge that
    was open when it was refused, never none (the lookup and the insert are one step)."""
    first = await challenge(repo)
    *burst, declined = await asyncio.gather(
        *(challenge(repo) for _ in range(20)),
        repo.close_challenge(first, ChallengeStatus.DECLINED),
        return_exceptions=True,
    )
    assert declined is True
    made = [outcome for outcome in burst if isinstance(outcome, int)]
    refused = [outcome for outcome in burst if isinstance(outcome, OpenChallengeError)]
    assert len(made) <= 1 and len(made) + len(refused) == 20, burst
    assert {error.challenge_id for error in refused} <= {first, *made}


COMPUTER = 9999


def computer_game(person: int = ALICE) -> NewGame:
    state = E.to_json(E.new_game(E.presets["classic"], 3))
    return NewGame(
        game="seabattle",
        rules=E.presets["classic"].to_json(),
        guild_id=GUILD,
        channel_id=CHANNEL,
        rated=False,
        seed=3,
        seats=(person, COMPUTER),
        state=state,
        names=("alice", "Computer (casual)"),
        computer_level="casual",
    )


async def test_games_against_the_computer_stop_at_the_limit_even_in_a_burst(
    repo: SqliteRepository,
) -> None:
    """Twenty requests at once for a game against the computer: exactly ``at_most`` start."""
    burst = await asyncio.gather(
        *(repo.start_computer_game(computer_game(), at_most=3) for _ in range(20))
    )
    made = [game for game in burst if game is not None]
    assert len(made) == 3 and len({game.id for game in made}) == 3
    assert all(g.computer_level == "casual" and not g.rated for g in made)
    assert all(g.seats == (ALICE, COMPUTER) and g.ply == 0 for g in made)
    assert await repo.start_computer_game(computer_game(BOB), at_most=3) is not None
    await challenge(repo, ALICE, CAROL)  # a challenge or a game between people counts not
    assert await repo.start_computer_game(computer_game(), at_most=3) is None
    ended = made[0]
    await end_stored(repo, ended, seat=0, winner=1, reason="resigned")
    again = await repo.start_computer_game(computer_game(), at_most=3)
    assert again is not None and again.id not in {g.id for g in made}


async def test_closed_challenges_are_forgotten_after_two_expiry_periods(path: Path) -> None:
    now = [1_800_000_000.0]
    repository = await SqliteRepository.open(path, clock=lambda: now[0])
    try:
        declined, kept_open = await challenge(repository), await challenge(repository, BOB, ALICE)
        accepted = await challenge(repository, ALICE, CAROL)
        await repository.close_challenge(declined, ChallengeStatus.DECLINED)
        await repository.close_challenge(accepted, ChallengeStatus.ACCEPTED)
        now[0] += 10
        recent = await challenge(repository, CAROL, ALICE)
        await repository.close_challenge(recent, ChallengeStatus.WITHDRAWN)
        assert await repository.forget_closed_challenges(now[0] - 5) == 2
        assert await repository.get_challenge(declined) is None
        assert await repository.get_challenge(accepted) is None
        assert await repository.get_challenge(kept_open) is not None  # open ones expire first
        assert await repository.get_challenge(recent) is not None
    finally:
        await repository.close()
    assert sql(path, "SELECT COUNT(*) FROM challenges") == [(2,)]


@sqlite_only
async def test_challenge_sweeps_read_an_index(repo: SqliteRepository, path: Path) -> None:
    """The clock's minute sweeps must not scan every challenge ever made."""
    await challenge(repo)
    for query in (
        "SELECT * FROM challenges WHERE status = 'open' AND created_at <= 1 ORDER BY id",
        "DELETE FROM challenges WHERE status IN ('accepted', 'declined', 'withdrawn', 'expired')"
        " AND created_at <= 1",
    ):
        plan = " ".join(str(row[-1]) for row in sql(path, f"EXPLAIN QUERY PLAN {query}"))
        assert "USING INDEX challenges_by_status_age" in plan, plan
