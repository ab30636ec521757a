"""The clock's sweep without Discord: which games it reminds or ends, and what it reads.

A sweep runs on the bot's event loop every minute, so besides doing the right thing for
every game it must leave alone the games that are only waiting: they are picked in SQL,
never read whole, never decoded. The clock is moved by hand; nothing sleeps.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any, cast

import pytest

from bot.games import ENGINES
from bot.games.core import EndReason
from bot.referee import Notice, Referee, Report
from bot.storage import (
    AWAITING_FORFEIT,
    AWAITING_REMINDER,
    ChallengeRecord,
    GameRecord,
    GameStatus,
    SqliteRepository,
    Wait,
)
from bot.storage.postgres import PostgresRepository
from bot.timekeeping import HOUR, Deadlines, Timekeeper
from tests.conftest import HandClock, fresh_schema
from tests.referee.test_referee import start_game

E = ENGINES["seabattle"]


class ClockActions:
    """Collects what the sweep hands over, rendering nothing; may fail for chosen games."""

    def __init__(self, failing: frozenset[int] = frozenset()) -> None:
        self.reminded: list[Notice] = []
        self.ended: list[Report] = []
        self.expired: list[ChallengeRecord] = []
        self.failing = failing

    async def remind(self, notice: Notice) -> None:
        if notice.game.id in self.failing:
            raise ConnectionError("Discord is unreachable")
        self.reminded.append(notice)

    async def end(self, report: Report) -> None:
        self.ended.append(report)

    async def expired(self, challenge: ChallengeRecord) -> None:  # type: ignore[override]
        self.expired.append(challenge)


@pytest.fixture
def clock() -> HandClock:
    return HandClock()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return cast(str, request.param)


@pytest.fixture
async def store(
    backend: str, clock: HandClock, postgres_server: str
) -> AsyncIterator[SqliteRepository | PostgresRepository]:
    """The clock's questions on both stores: in memory, and on a real PostgreSQL server."""
    async with AsyncExitStack() as stack:
        repository: SqliteRepository | PostgresRepository
        if backend == "sqlite":
            repository = await SqliteRepository.open(":memory:", clock)
        else:
            url = await stack.enter_async_context(fresh_schema(postgres_server))
            repository = await PostgresRepository.open(url, clock)
        yield repository
        await repository.close()


def referee_on(store: SqliteRepository) -> Referee:
    return Referee(store, seed_source=itertools.count(1).__next__)


def keeper(referee: Referee, batch: int = 50) -> Timekeeper:
    return Timekeeper(referee, referee.repository, Deadlines(), batch)  # type: ignore[arg-type]


async def ready(referee: Referee, game: GameRecord, seat: int) -> None:
    """``seat`` deals a fleet in secret, then says it is ready, which the channel is told."""
    await referee.act(game.seats[seat], f"#{game.id} random")
    await referee.act(game.seats[seat], f"#{game.id} ready")


async def edit(referee: Referee, game: GameRecord, seat: int) -> None:
    """``seat`` re-deals their fleet: a change told to no one else."""
    await referee.act(game.seats[seat], f"#{game.id} random")


async def games(referee: Referee, count: int) -> list[GameRecord]:
    """``count`` games in setup, each between two new players."""
    return [
        await start_game(referee, challenger=2 * n + 10, opponent=2 * n + 11) for n in range(count)
    ]


async def test_only_games_idle_past_the_wait_and_not_yet_reminded_of_it_are_due(
    store: SqliteRepository, clock: HandClock
) -> None:
    referee = referee_on(store)
    old, reminded, moved_since, finished = await games(referee, 4)
    clock.advance(10)
    fresh = (await games(referee, 1))[0]
    await store.set_reminded(reminded.id, reminded.updated_at, clock())
    await store.set_reminded(moved_since.id, moved_since.updated_at, clock())
    await ready(referee, moved_since, 0)
    moved_at = clock()
    await referee.resign(finished.seats[0], finished.id)
    clock.advance(14.5)

    due = await store.awaiting_reminder(clock() - 24 * HOUR)
    assert [w.game_id for w in due] == [old.id]
    due = await store.awaiting_reminder(clock() - 1 * HOUR)
    assert [w.game_id for w in due] == [old.id, moved_since.id, fresh.id]
    assert due[0] == Wait(old.updated_at, old.id, old.updated_at)
    assert due[1].changed_at == moved_at, "a public change starts a new wait of its own"


async def test_only_games_reminded_of_this_very_wait_long_enough_ago_are_forfeit(
    store: SqliteRepository, clock: HandClock
) -> None:
    referee = referee_on(store)
    early, late, moved_since, never = await games(referee, 4)
    await store.set_reminded(early.id, early.updated_at, clock())
    await store.set_reminded(moved_since.id, moved_since.updated_at, clock())
    clock.advance(2)
    await store.set_reminded(late.id, late.updated_at, clock())
    await ready(referee, moved_since, 0)

    assert await store.awaiting_forfeit(clock() - 3 * HOUR) == []
    due = await store.awaiting_forfeit(clock() - 1 * HOUR)
    assert due == [Wait(early.created_at, early.id, early.updated_at)]
    due = await store.awaiting_forfeit(clock())
    assert [w.game_id for w in due] == [early.id, late.id]
    assert never.id not in [w.game_id for w in due]


async def test_waits_are_read_in_pages_longest_first(
    store: SqliteRepository, clock: HandClock
) -> None:
    referee = referee_on(store)
    made = []
    for _ in range(5):
        made.extend(await games(referee, 1))
        clock.advance(-1)  # each game an hour older than the one made before it
    clock.advance(30)
    until = clock() - 24 * HOUR
    pages, after = [], None
    while page := await store.awaiting_reminder(until, after, limit=2):
        pages.append([w.game_id for w in page])
        after = page[-1]
    assert pages == [[made[4].id, made[3].id], [made[2].id, made[1].id], [made[0].id]]


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.parametrize(
    ("query", "index"),
    [(AWAITING_REMINDER, "games_awaiting_reminder"), (AWAITING_FORFEIT, "games_awaiting_forfeit")],
)
async def test_the_due_queries_read_their_partial_index_not_the_games(
    store: SqliteRepository, query: str, index: str
) -> None:
    """The sweep must not scan every game: each question has an index of its own."""
    plan = await store._rows(f"EXPLAIN QUERY PLAN {query}", 0.0, 0.0, 0, 50)
    steps = " ".join(str(row[3]) for row in plan)
    assert f"USING INDEX {index}" in steps and "SCAN" not in steps, steps


async def test_a_sweep_reminds_every_due_game_across_batches_then_ends_them_on_time(
    store: SqliteRepository, clock: HandClock
) -> None:
    referee = referee_on(store)
    made = await games(referee, 5)
    clock.advance(25)
    clock_actions = ClockActions()
    swept = await keeper(referee, batch=2).sweep(clock_actions)
    assert swept.reminded == 10 and swept.ended == 0
    assert sorted({n.game.id for n in clock_actions.reminded}) == [g.id for g in made]
    assert {n.audience for n in clock_actions.reminded} == {0, 1}  # both are setting up

    clock.advance(12)
    again = ClockActions()
    assert (await keeper(referee, batch=2).sweep(again)).reminded == 0
    assert again.reminded == [] and again.ended == []

    clock.advance(12)
    swept = await keeper(referee, batch=2).sweep(again)
    assert swept.ended == 5
    for game in made:
        stored = await store.get_game(game.id)
        assert stored is not None and stored.status is GameStatus.FINISHED
        assert stored.end_reason == EndReason.TIMEOUT.value


async def test_games_only_waiting_for_their_loss_on_time_are_never_read_or_decoded(
    store: SqliteRepository, clock: HandClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = await games(referee_on(store), 3)
    clock.advance(25)
    await keeper(referee_on(store)).sweep(ClockActions())  # all reminded

    decoded: list[object] = []
    read: list[int] = []
    decode, get_game = E.from_json, store.get_game

    def counting_decode(data: dict[str, Any]) -> object:
        decoded.append(data)
        return decode(data)

    async def counting_get_game(game_id: int) -> GameRecord | None:
        read.append(game_id)
        return await get_game(game_id)

    monkeypatch.setattr(E, "from_json", counting_decode)
    monkeypatch.setattr(store, "get_game", counting_get_game)
    fresh = referee_on(store)  # a restarted bot: nothing decoded in memory
    for _ in range(3):
        clock.advance(5)
        clock_actions = ClockActions()
        await keeper(fresh).sweep(clock_actions)
        assert clock_actions.reminded == [] and clock_actions.ended == []
    assert decoded == [] and read == [], "a waiting game was read or decoded"

    clock.advance(10)  # now they are due
    assert (await keeper(fresh).sweep(ClockActions())).ended == len(made)
    assert sorted(read) == [g.id for g in made]


async def test_a_reminder_that_fails_leaves_the_others_and_is_tried_again_next_time(
    store: SqliteRepository, clock: HandClock
) -> None:
    referee = referee_on(store)
    first, broken, last = await games(referee, 3)
    clock.advance(25)
    clock_actions = ClockActions(failing=frozenset({broken.id}))
    await keeper(referee, batch=1).sweep(clock_actions)
    assert sorted({n.game.id for n in clock_actions.reminded}) == [first.id, last.id]

    clock.advance(0.1)
    clock_actions = ClockActions()
    await keeper(referee).sweep(clock_actions)
    assert {n.game.id for n in clock_actions.reminded} == {broken.id}


async def due_for_a_reminder(
    store: SqliteRepository, clock: HandClock
) -> tuple[Referee, GameRecord, Wait]:
    """A game a day and an hour without a move, and its wait as the sweep found it due."""
    referee = referee_on(store)
    (game,) = await games(referee, 1)
    clock.advance(25)
    (wait,) = await store.awaiting_reminder(clock() - 24 * HOUR)
    return referee, game, wait


async def test_a_game_that_moved_after_it_was_found_due_is_not_reminded(
    store: SqliteRepository, clock: HandClock
) -> None:
    referee, game, wait = await due_for_a_reminder(store, clock)
    await ready(referee, game, 0)
    assert await referee.reminders(wait.game_id, wait.changed_at, "Move!") == ()


async def test_secret_setup_edits_neither_put_off_a_reminder_nor_save_anyone_from_losing_on_time(
    store: SqliteRepository, clock: HandClock
) -> None:
    """The wait runs from the last change the channel was told of: an edit only its player
    hears of moves no one's clock, or the other player would learn of it from theirs."""
    referee = referee_on(store)
    edited, plain = await games(referee, 2)
    for hours in (1, 10, 12.5):
        clock.advance(hours)
        await edit(referee, edited, 0)
    clock.advance(1)  # a day after both games began, an hour after the last edit
    clock_actions = ClockActions()
    await keeper(referee).sweep(clock_actions)
    reminded = sorted((n.game.id, n.audience) for n in clock_actions.reminded)
    assert reminded == [(edited.id, 0), (edited.id, 1), (plain.id, 0), (plain.id, 1)]

    clock.advance(23)
    await edit(referee, edited, 0)  # after the reminder: the wait goes on
    await edit(referee, edited, 1)
    again = ClockActions()
    await keeper(referee).sweep(again)
    assert again.reminded == [] and again.ended == []
    clock.advance(1)
    await keeper(referee).sweep(again)
    assert again.reminded == []
    assert sorted(r.game.id for r in again.ended) == [edited.id, plain.id]


async def test_an_edit_between_reading_a_wait_and_reminding_it_changes_nothing(
    store: SqliteRepository, clock: HandClock
) -> None:
    referee, game, wait = await due_for_a_reminder(store, clock)
    await edit(referee, game, 1)
    notices = await referee.reminders(wait.game_id, wait.changed_at, "Move!")
    assert [n.audience for n in notices] == [0, 1]
    await keeper(referee).reminded(notices[0])
    await edit(referee, game, 0)
    assert await store.awaiting_reminder(clock()) == []
    (forfeit,) = await store.awaiting_forfeit(clock())
    assert forfeit.changed_at == game.updated_at
