"""The store's records beside the games themselves: challenges, the notices each audience
is owed, saved setups, and the migrations that bring an older database up to date.

Each promise holds on both stores, a SQLite file and a real PostgreSQL server (the
``repo`` fixture of this folder's ``conftest``), unless SQLite keeps it by its own means.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.referee import Referee
from bot.storage import (
    MIGRATIONS,
    SCHEMA_VERSION,
    ChallengeStatus,
    Ending,
    GameRecord,
    GameStatus,
    LogKind,
    NewGame,
    OpenChallengeError,
    SqliteRepository,
    StaleGameError,
)
from bot.storage.outbox import MERGED_TEXT_BUDGET, Lane
from tests.storage.helpers import challenge, old_database, sql, sqlite_only
from tests.test_referee import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    E,
    start_game,
)

# -- challenges and listings --------------------------------------------------------------------


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


async def test_a_move_returns_the_live_message_posted_since_the_game_was_read(
    repo: SqliteRepository,
) -> None:
    """The courier edits the live message the move returns: one posted meanwhile counts."""
    game = await start_game(Referee(repo))
    assert game.public_message_id is None
    await repo.set_public_message(game.id, 4242)
    moved = await repo.append(game, seat=0, kind=LogKind.MOVE, text="random", state=game.state)
    assert moved.public_message_id == 4242


async def test_notices_are_held_per_audience_with_their_change_and_released_per_audience(
    repo: SqliteRepository,
) -> None:
    """The outbox: what to tell whom is stored in the move's own transaction, and each
    audience's progress is its own: one delivered lane leaves the others waiting."""
    referee = Referee(repo)
    game = await start_game(referee)
    assert await repo.outbox.lanes() == [Lane(game.id, 0), Lane(game.id, 1), Lane(game.id, None)]
    for lane in await repo.outbox.lanes():
        parcel = await repo.outbox.claim(lane)
        assert parcel is not None and parcel.plies == (0,)
        await repo.outbox.release(parcel)
    told = ((0, ("Placed.",)), (None, ("Ready.", "Waiting.")))
    moved = await repo.append(
        game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, tidings=told
    )
    assert await repo.outbox.lanes() == [Lane(game.id, 0), Lane(game.id, None)]
    with pytest.raises(StaleGameError):  # a refused move holds nothing
        await repo.append(
            game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, tidings=told
        )
    assert await repo.outbox.waiting() == 2
    seat = await repo.outbox.claim(Lane(game.id, 0))
    assert seat is not None and (seat.plies, seat.texts) == ((moved.ply,), (("Placed.",),))
    await repo.outbox.release(seat)
    assert await repo.outbox.lanes() == [Lane(game.id, None)]  # the channel still waits
    channel = await repo.outbox.claim(Lane(game.id, None))
    assert channel is not None and channel.texts == (("Ready.", "Waiting."),)
    assert not channel.final


async def test_a_release_says_whether_the_lane_holds_more_notices(
    repo: SqliteRepository,
) -> None:
    """The deliverer stops a lane on the release's word, without another look: so the
    word is True exactly while notices other than the released ones wait in the lane."""
    referee = Referee(repo)
    game = await start_game(referee)
    told = ((0, ("Placed.",)),)
    moved = await repo.append(
        game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, tidings=told
    )
    first = await repo.outbox.claim(Lane(game.id, 0), merge=False)
    assert first is not None and first.plies == (0,)
    assert await repo.outbox.release(first) is True  # the move's notice still waits
    second = await repo.outbox.claim(Lane(game.id, 0), merge=False)
    assert second is not None and second.plies == (moved.ply,)
    assert await repo.outbox.release(second) is False
    channel = await repo.outbox.claim(Lane(game.id, None))
    assert channel is not None
    await repo.append(moved, seat=1, kind=LogKind.MOVE, text="random", state=game.state,
                      tidings=((None, ("Later.",)),))  # fmt: skip
    assert await repo.outbox.release(channel) is True  # stored after the claim
    assert await repo.outbox.release(channel) is True  # releasing twice deletes nothing more
    later = await repo.outbox.claim(Lane(game.id, None))
    assert later is not None and later.texts == (("Later.",),)
    assert await repo.outbox.release(later) is False


async def test_releases_made_at_once_each_say_whether_their_own_lane_holds_more(
    repo: SqliteRepository,
) -> None:
    """Three lanes released in the same instant (the shared store sends them as one
    statement): each answer is its own lane's."""
    referee = Referee(repo)
    game = await start_game(referee)
    await repo.append(game, seat=0, kind=LogKind.MOVE, text="random", state=game.state,
                      tidings=((0, ("Placed.",)),))  # fmt: skip
    parcels = [await repo.outbox.claim(Lane(game.id, a), merge=False) for a in (0, 1, None)]
    assert [p.plies if p else None for p in parcels] == [(0,), (0,), (0,)]
    answers = await asyncio.gather(*(repo.outbox.release(p) for p in parcels if p))
    assert answers == [True, False, False]  # only the first seat's move notice waits
    assert await repo.outbox.lanes() == [Lane(game.id, 0)]


async def test_lanes_waiting_since_a_moment_are_those_a_stopped_process_left(
    repo: SqliteRepository,
) -> None:
    """On a shared database the clock wakes only lanes waiting a while: those the process
    that stored them (it delivers them at once) left behind when it stopped."""
    game = await start_game(Referee(repo))
    stored = repo.clock()
    everyone = [Lane(game.id, 0), Lane(game.id, 1), Lane(game.id, None)]
    assert await repo.outbox.lanes(before=stored - 60) == []
    assert await repo.outbox.lanes(before=stored + 60) == everyone
    assert await repo.outbox.lanes() == everyone


async def test_a_claim_survives_a_restart_so_a_retry_sends_the_same_message(path: Path) -> None:
    """Claimed notices stay claimed: after a crash the retry is the very same message,
    under the same nonce, even if more notices arrived meanwhile."""
    repository = await SqliteRepository.open(path)
    referee = Referee(repository)
    game = await start_game(referee)
    lane = Lane(game.id, 0)
    first = await repository.outbox.claim(lane)
    assert first is not None
    record = await repository.get_game(game.id)
    assert record is not None
    await repository.append(
        record,
        seat=0,
        kind=LogKind.MOVE,
        text="random",
        state=record.state,
        tidings=((0, ("Later.",)),),
    )
    await repository.close()  # the process dies between sending and releasing

    repository = await SqliteRepository.open(path)
    try:
        again = await repository.outbox.claim(lane)
        assert again == first and again.nonce == first.nonce
        await repository.outbox.release(again)
        later = await repository.outbox.claim(lane)
        assert later is not None and later.texts == (("Later.",),)
        assert later.nonce != first.nonce
    finally:
        await repository.close()


async def test_a_backlog_is_merged_within_the_text_budget_and_the_channel_takes_all(
    repo: SqliteRepository,
) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    for lane in await repo.outbox.lanes():
        parcel = await repo.outbox.claim(lane)
        assert parcel is not None
        await repo.outbox.release(parcel)
    record = game
    long_text = "x" * (MERGED_TEXT_BUDGET // 3)
    for _ in range(5):
        record = await repo.append(
            record,
            seat=0,
            kind=LogKind.MOVE,
            text="random",
            state=record.state,
            tidings=((0, (long_text,)), (None, (f"ply {record.ply + 1}",))),
        )
    claimed = await repo.outbox.claim(Lane(game.id, 0))
    assert claimed is not None and claimed.plies == (game.ply + 1,), "claimed with its move"
    await repo.outbox.release(claimed)
    seat = await repo.outbox.claim(Lane(game.id, 0))
    assert seat is not None and 1 < len(seat.plies) < 4
    assert sum(len(t) for told in seat.texts for t in told) <= MERGED_TEXT_BUDGET + 10
    single = await repo.outbox.claim(Lane(game.id, 1))
    assert single is None
    channel = await repo.outbox.claim(Lane(game.id, None))
    assert channel is not None and len(channel.plies) == 5
    assert channel.texts[-1] == (f"ply {record.ply}",)


async def test_the_referee_builds_a_parcel_with_the_board_as_it_stands(
    repo: SqliteRepository,
) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    report = await referee.act(ALICE, "random")
    parcel = await repo.outbox.claim(Lane(game.id, 0))
    assert parcel is not None
    built = await referee.parcel_report(parcel)
    assert built is not None
    (notice,) = built.notices
    setup_texts = parcel.texts[0]
    assert notice.texts == setup_texts + report.notices[0].texts
    assert notice.view == report.notices[0].view
    assert not built.results


async def test_a_version_1_database_is_brought_up_to_date_and_keeps_its_rows(path: Path) -> None:
    """A database written by the first release gains every later table at the next start."""
    with old_database(path, 1) as old:
        old.execute(
            "INSERT INTO challenges (game, rules, channel_id, challenger_id, opponent_id,"
            " created_at) VALUES ('seabattle', '{}', 1, 2, 3, 0)"
        )
    repository = await SqliteRepository.open(path)
    try:
        assert (await repository.get_challenge(1)) is not None
        await repository.save_setup(2, "seabattle", "fortress", "A1 A4")
        assert await repository.saved_setup(2, "seabattle", "fortress") == "A1 A4"
    finally:
        await repository.close()
    assert sql(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert 1 + len(MIGRATIONS) == SCHEMA_VERSION


async def test_a_version_7_outbox_moves_to_per_audience_notices_and_keeps_the_end_final(
    path: Path,
) -> None:
    """What an older bot left undelivered is delivered by the new one, per audience, and a
    finished game's last entry is marked final so its end is announced (once)."""
    with old_database(path, 7) as old:
        for game_id, status, ply in ((1, "active", 3), (2, "finished", 7)):
            old.execute(
                "INSERT INTO games (id, game, rules, seed, channel_id, seat0_id, seat1_id,"
                " status, ply, state, created_at, updated_at)"
                " VALUES (?, 'seabattle', '{}', 1, 9, 2, 3, ?, ?, '{}', 0, 0)",
                (game_id, status, ply),
            )
        held = [
            (1, 3, [[0, ["Your move."]], [None, ["Alice to move."]]]),
            (2, 6, [[1, ["Hit."]]]),
            (2, 7, [[0, ["You won!"]], [1, ["You lost."]], [None, ["Alice won."]]]),
        ]
        for game_id, ply, tidings in held:
            old.execute(
                "INSERT INTO outbox (game_id, ply, notices, created_at) VALUES (?, ?, ?, 0)",
                (game_id, ply, json.dumps(tidings)),
            )
    repository = await SqliteRepository.open(path)
    try:
        outbox = repository.outbox
        assert await outbox.lanes() == [
            Lane(1, 0),
            Lane(1, None),
            Lane(2, 0),
            Lane(2, 1),
            Lane(2, None),
        ]
        assert await outbox.waiting() == 6
        channel = await outbox.claim(Lane(1, None))
        assert channel is not None and channel.texts == (("Alice to move.",),)
        assert not channel.final
        loser = await outbox.claim(Lane(2, 1))
        assert loser is not None and loser.texts == (("Hit.",), ("You lost.",))
        ended = await outbox.claim(Lane(2, None))
        assert ended is not None and ended.final and ended.plies == (7,)
    finally:
        await repository.close()
    assert sql(path, "SELECT name FROM sqlite_master WHERE name = 'outbox'") == []


async def test_saved_setups_are_kept_per_player_and_game_and_replaced_by_name(
    path: Path,
) -> None:
    repository = await SqliteRepository.open(path)
    try:
        await repository.save_setup(2, "seabattle", "wall", "first")
        await repository.save_setup(2, "seabattle", "wall", "second")
        await repository.save_setup(2, "seabattle", "arc", "third")
        await repository.save_setup(3, "seabattle", "mine", "fourth")
        await repository.save_setup(2, "luzhanqi", "other", "fifth")
        assert await repository.saved_setup(2, "seabattle", "wall") == "second"
        assert await repository.saved_setup_names(2, "seabattle") == ["arc", "wall"]
        assert await repository.saved_setup(3, "seabattle", "wall") is None
        assert await repository.saved_setup_names(2, "luzhanqi") == ["other"]
    finally:
        await repository.close()


# -- challenges -----------------------------------------------------------------------------------


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
    await repo.append(
        ended,
        seat=0,
        kind=LogKind.END,
        text='{"winner": 1, "reason": "resigned", "detail": "resigned"}',
        state=ended.state,
        ending=Ending(1, "resigned"),
    )
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


async def test_migration_7_closes_duplicate_open_challenges_but_the_first(path: Path) -> None:
    """A database from before the one-open-challenge rule may hold a burst of duplicates."""
    with old_database(path, 6) as old:
        for challenger, opponent in ((2, 3), (2, 3), (2, 3), (3, 2)):
            old.execute(
                "INSERT INTO challenges (game, rules, channel_id, challenger_id, opponent_id,"
                " created_at) VALUES ('seabattle', '{}', 1, ?, ?, 0)",
                (challenger, opponent),
            )
    repository = await SqliteRepository.open(path)
    await repository.close()
    assert sql(path, "SELECT id, status FROM challenges ORDER BY id") == [
        (1, "open"),
        (2, "expired"),
        (3, "expired"),
        (4, "open"),
    ]
